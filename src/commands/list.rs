//! `list`: the streams groups of a cluster, with their state.

use crate::cli::{GlobalArgs, OutputFormat};
use crate::exit;
use crate::kafka;
use crate::render::list::{ListReport, ListRow};
use crate::render::{json, list as render_list};

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
    #[arg(long, value_delimiter = ',', value_name = "STATE")]
    pub state: Vec<String>,
}

/// Normalise a state name the way the broker does (case-insensitive).
fn canonical_state(s: &str) -> Option<&'static str> {
    VALID_STATES.iter().copied().find(|v| {
        v.eq_ignore_ascii_case(s.trim()) || v.replace("Not", "Not_").eq_ignore_ascii_case(s.trim())
    })
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    let mut states = Vec::new();
    for s in &args.state {
        match canonical_state(s) {
            Some(c) => states.push(c.to_string()),
            None => {
                return Err(crate::error::Failure::usage(format!(
                    "unknown state `{s}` (expected one of {})",
                    VALID_STATES.join(", ")
                ))
                .into())
            }
        }
    }
    let cfg = kafka::client_config(global)?;
    let verbose = global.verbose;
    let report = kafka::run_session(cfg, move |cluster| {
        Box::pin(async move {
            let groups = cluster.list_groups(&states).await?;
            let mut rows: Vec<ListRow> = groups
                .iter()
                .map(|g| ListRow {
                    group_id: g.group_id.clone(),
                    state: g.state.clone(),
                    group_epoch: None,
                    target_assignment_epoch: None,
                    members: None,
                })
                .collect();
            if verbose && !rows.is_empty() {
                let ids: Vec<String> = rows.iter().map(|r| r.group_id.clone()).collect();
                let described = cluster.describe(&ids).await?;
                for r in &mut rows {
                    if let Some(d) = described
                        .snapshot
                        .groups
                        .iter()
                        .find(|d| d.group_id == r.group_id)
                    {
                        r.group_epoch = Some(d.group_epoch);
                        r.target_assignment_epoch = Some(d.target_assignment_epoch);
                        r.members = Some(d.members.len());
                        r.state = d.state.clone();
                    }
                }
            }
            Ok(ListReport { groups: rows })
        })
    })?;
    match global.output {
        OutputFormat::Json => crate::emit!("{}", json::to_string(&report)),
        OutputFormat::Table => {
            if report.groups.is_empty() {
                eprintln!("no streams groups found");
            } else {
                crate::emit!("{}", render_list::table(&report, verbose));
            }
        }
    }
    Ok(exit::SUCCESS)
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
