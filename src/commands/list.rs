//! `list`: the streams groups of a cluster, with their state.

use model::GroupStateName;
use streams_group::describe::live;
use streams_group::render::{list as view, out};

use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

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

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

/// clap value parser for `--state`: the state's canonical name (case-insensitive, as the
/// broker reads it).
fn state(s: &str) -> Result<String, String> {
    s.parse::<GroupStateName>()
        .map(|st| st.name().to_string())
        .map_err(|e| e.to_string())
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let client = super::connect::client_config(global)?;
    let (report, missing) = live::list(&client, args.state.clone(), global.verbose)?;
    if report.groups.is_empty() && global.format() == out::Format::Table {
        out::note("no streams groups found");
    } else {
        out::report(global.format(), &report, |r| view::table(r, global.verbose))?;
    }
    // A broker that did not answer: the list is not whole, and says whose groups are missing.
    for e in &missing {
        if let Some(line) = CommandError::from(e).line() {
            out::note(&line);
        }
    }
    Ok(if missing.is_empty() {
        Code::Success
    } else {
        Code::Broker
    })
}
