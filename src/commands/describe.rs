//! `describe`: state, members, offsets and lag, topology of streams groups.

use crate::cli::{GlobalArgs, OutputFormat};
use crate::error::{render_error, Failure};
use crate::exit;
use crate::kafka;
use crate::render::{describe as view, json};

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  streams-group describe --bootstrap-server localhost:9092 --group my-app
  streams-group describe --bootstrap-server localhost:9092 --group a --group b --members --verbose
  streams-group describe --bootstrap-server localhost:9092 --all-groups --state
  streams-group describe --bootstrap-server localhost:9092 --group my-app --output json > snap.json

Views (one at a time; --offsets is the default): --state, --members, --offsets, --topology.
Tables print one header for all groups. --output json prints the full snapshot (all views,
schema_version 1) whatever view is chosen; the offline commands read it back.
Lag is shown for every input partition of the topology, also for Empty groups:
lag = log-end offset - committed offset, or log-end - earliest when nothing is committed.")]
pub struct Args {
    /// Group to describe (repeatable)
    #[arg(
        long = "group",
        short = 'g',
        value_name = "GROUP",
        required_unless_present = "all_groups",
        conflicts_with = "all_groups"
    )]
    pub groups: Vec<String>,

    /// Describe every streams group of the cluster
    #[arg(long)]
    pub all_groups: bool,

    /// Show group state, coordinator and epochs
    #[arg(long, group = "view")]
    pub state: bool,

    /// Show members with their tasks (and, with --verbose, targets and task lag)
    #[arg(long, group = "view")]
    pub members: bool,

    /// Show committed offsets, log-end offsets and lag per input partition (default)
    #[arg(long, group = "view")]
    pub offsets: bool,

    /// Show the subtopologies with their source, repartition and changelog topics
    #[arg(long, group = "view")]
    pub topology: bool,
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    for g in &args.groups {
        if g.trim().is_empty() {
            return Err(Failure::usage("--group needs a non-empty group id").into());
        }
    }
    kafka::limits::check_group_ids(&args.groups).map_err(|e| e.to_failure())?;
    let cfg = kafka::client_config(global)?;
    let groups = args.groups.clone();
    let all = args.all_groups;
    let result = kafka::run_session(cfg, move |cluster| {
        Box::pin(async move {
            let ids = if all {
                cluster
                    .list_groups(&[])
                    .await?
                    .into_iter()
                    .map(|g| g.group_id)
                    .collect()
            } else {
                groups
            };
            if ids.is_empty() {
                return Ok(None);
            }
            cluster.describe(&ids).await.map(Some)
        })
    })?;
    let Some(mut result) = result else {
        match global.output {
            OutputFormat::Json => crate::emit!(
                "{}",
                json::to_string(&crate::model::group::Snapshot {
                    kafka_version: None,
                    schema_version: crate::model::group::SNAPSHOT_SCHEMA_VERSION,
                    groups: vec![],
                })
            ),
            OutputFormat::Table => eprintln!("no streams groups found"),
        }
        return Ok(exit::SUCCESS);
    };
    if result.snapshot.groups.is_empty() && !result.errors.is_empty() {
        let (_, first) = result.errors.remove(0);
        for (_, e) in &result.errors {
            eprintln!("{}", render_error(&anyhow::Error::new(e.to_failure())));
        }
        return Err(first.to_failure().into());
    }
    let snap = &result.snapshot;
    for w in result.warnings.iter().chain(view::warnings(snap).iter()) {
        eprintln!("warning: {w}");
    }
    if args.members
        && global.verbose
        && result.describe_version < 1
        && snap.groups.iter().any(|g| !g.members.is_empty())
    {
        eprintln!(
            "note: task offsets are empty on brokers before Kafka 4.4 (StreamsGroupDescribe v0); \
             TASK-LAG shows `-`"
        );
    }
    match global.output {
        OutputFormat::Json => crate::emit!("{}", json::to_string(snap)),
        OutputFormat::Table => {
            let out = if args.state {
                view::state_table(snap, global.verbose)
            } else if args.members {
                view::members_table(snap, global.verbose)
            } else if args.topology {
                view::topology_table(snap)
            } else {
                for g in &snap.groups {
                    if g.offsets.is_empty() {
                        eprintln!(
                            "note: group `{}` has no input partitions with offsets (topology not \
                             initialised and nothing committed)",
                            g.group_id
                        );
                    }
                }
                view::offsets_table(snap, global.verbose)
            };
            crate::emit!("{out}");
        }
    }
    if result.errors.is_empty() {
        Ok(exit::SUCCESS)
    } else {
        for (_, e) in &result.errors {
            eprintln!("{}", render_error(&anyhow::Error::new(e.to_failure())));
        }
        Ok(exit::KAFKA_ERROR)
    }
}
