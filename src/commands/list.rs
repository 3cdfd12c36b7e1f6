//! `list`: the streams groups of a cluster, with their state.

use streams_group::render::{list as view, out};
use streams_group::usecase::live;

use super::Outcome;
use crate::cli::GlobalArgs;
use crate::exit::Code;

const VALID_STATES: &[&str] = &[
    "Empty",
    "NotReady",
    "Assigning",
    "Reconciling",
    "Stable",
    "Dead",
];

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  streams-group list --bootstrap-server localhost:9092
  streams-group list --bootstrap-server localhost:9092 --state Stable,Reconciling
  streams-group list --bootstrap-server localhost:9092 --verbose --output json

ListGroups is sent to every broker (each coordinates part of the groups). With --verbose the
groups are also described to show their epochs and member count.")]
pub struct Args {
    /// Only groups in these states (comma-separated): Empty, NotReady, Assigning, Reconciling,
    /// Stable, Dead
    #[arg(long, value_delimiter = ',', value_name = "STATE", value_parser = state)]
    pub state: Vec<String>,
}

/// Normalise a state name the way the broker does (case-insensitive).
fn canonical_state(s: &str) -> Option<&'static str> {
    VALID_STATES.iter().copied().find(|v| {
        v.eq_ignore_ascii_case(s.trim()) || v.replace("Not", "Not_").eq_ignore_ascii_case(s.trim())
    })
}

/// clap value parser for `--state`: the state's canonical name.
fn state(s: &str) -> Result<String, String> {
    canonical_state(s).map(str::to_string).ok_or_else(|| {
        format!(
            "unknown state `{s}` (expected one of {})",
            VALID_STATES.join(", ")
        )
    })
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let client = super::live::client_config(global)?;
    let report = live::list(&client, args.state.clone(), global.verbose)?;
    if report.groups.is_empty() && global.format() == out::Format::Table {
        out::note("no streams groups found");
    } else {
        out::report(global.format(), &report, |r| view::table(r, global.verbose))?;
    }
    Ok(Code::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_case_insensitive() {
        assert_eq!(canonical_state("stable"), Some("Stable"));
        assert_eq!(canonical_state("NOT_READY"), Some("NotReady"));
        assert_eq!(canonical_state("notready"), Some("NotReady"));
        assert_eq!(canonical_state("bogus"), None);
    }
}
