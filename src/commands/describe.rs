//! `describe`: state, members, offsets and lag, topology of streams groups.

use model::group::{Snapshot, SNAPSHOT_SCHEMA_VERSION};
use streams_group::render::watch::MarkBy;
use streams_group::render::{describe as view, out};
use streams_group::source::live::{self, Depth, DescribeResult};

use super::args::GroupSelectionArgs;
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

#[derive(Debug, clap::Args)]
#[command(
    mut_arg("groups", |a| a.help("Group to describe (repeatable)")),
    mut_arg("all_groups", |a| a.help("Describe every streams group of the cluster")),
    after_help = "\
Examples:
  streams-group describe --bootstrap-server localhost:9092 --group my-app
  streams-group describe --bootstrap-server localhost:9092 --group a --group b --members \\
      --verbose
  streams-group describe --bootstrap-server localhost:9092 --all-groups --state
  streams-group describe --bootstrap-server localhost:9092 --group my-app --output json \\
      > snap.json

Views (one at a time; --offsets is the default): --state, --members, --offsets, --topology.
Tables print one header for all groups. --output json prints the full snapshot (all views,
schema_version 1) whatever view is chosen; the offline commands read it back.
Lag is shown for every input partition of the topology, also for Empty groups:
lag = log-end offset - committed offset, or log-end - earliest when nothing is committed.

Watching (--watch [INTERVAL], default 2 s; Ctrl-C stops, exit 0):
  streams-group describe --bootstrap-server localhost:9092 --group my-app --members --watch
  streams-group describe --bootstrap-server localhost:9092 --group my-app --watch 1 \\
      --record rb.jsonl
  streams-group timeline rb.jsonl
On a terminal the view is redrawn in place, with what changed since the previous sample marked
(+ a member that joined, * a row that changed) and the recent states and epochs; off a terminal
one line per change, and with --output json one JSON object per sample. A broker that goes away
is shown and retried.")]
pub struct Args {
    #[command(flatten)]
    pub selection: GroupSelectionArgs,

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

    #[command(flatten)]
    pub watch: super::watch::WatchArgs,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let selection = args.selection.selection()?;
    let client = super::connect::client_config(global)?;
    if let Some(every) = args.watch.watch {
        let table = |s: &Snapshot| view_table(s, args, global.verbose);
        let view = super::watch::View {
            name: view_name(args),
            table: &table,
            mark_by: match (args.members, args.state || args.topology) {
                (true, _) => MarkBy::Member,
                (false, true) => MarkBy::Group,
                (false, false) => MarkBy::Lag,
            },
        };
        return super::watch::run(global, &args.watch, every, client, selection, view);
    }
    let depth = depth(global, args);
    let read = |waits| live::describe_telling(&client, selection, depth, waits);
    let Some(mut result) = super::waiting::telling(read)? else {
        return no_groups(global);
    };
    if result.snapshot.groups.is_empty() && !result.errors.is_empty() {
        let (_, first) = result.errors.remove(0);
        report_errors(&result);
        return Err(first.into());
    }
    notes(global, args, &result);
    let snap = &result.snapshot;
    out::report(global.format(), snap, |s| {
        view_table(s, args, global.verbose)
    })?;
    if result.errors.is_empty() {
        Ok(Code::Success)
    } else {
        report_errors(&result);
        Ok(Code::Broker)
    }
}

/// What the output needs read: the `--state` and `--members` tables print only what
/// StreamsGroupDescribe answers (as Apache's tool reads them); JSON is the full snapshot.
fn depth(global: &GlobalArgs, args: &Args) -> Depth {
    match global.format() {
        out::Format::Table if args.state || args.members => Depth::Described,
        _ => Depth::Full,
    }
}

/// A cluster without streams groups: an empty snapshot, or a note.
fn no_groups(global: &GlobalArgs) -> Outcome {
    let empty = Snapshot {
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        schema_version: SNAPSHOT_SCHEMA_VERSION,
        groups: vec![],
    };
    match global.format() {
        out::Format::Json => out::report(out::Format::Json, &empty, |_| String::new())?,
        out::Format::Table => out::note("no streams groups found"),
    }
    Ok(Code::Success)
}

/// One error line per group that failed, as for a failing command.
fn report_errors(result: &DescribeResult) {
    for (_, e) in &result.errors {
        let err = CommandError::from(e);
        if let Some(line) = err.line() {
            out::note(&line);
        }
    }
}

/// Warnings and notes about the snapshot, on stderr.
fn notes(global: &GlobalArgs, args: &Args, result: &DescribeResult) {
    let snap = &result.snapshot;
    for w in result.warnings.iter().chain(view::warnings(snap).iter()) {
        out::note(&format!("warning: {w}"));
    }
    if args.members
        && global.verbose
        && result.describe_version < 1
        && snap.groups.iter().any(|g| !g.members.is_empty())
    {
        out::note(
            "note: task offsets are empty on brokers before Kafka 4.4 (StreamsGroupDescribe v0); \
             TASK-LAG shows `-`",
        );
    }
    let offsets_view = !(args.state || args.members || args.topology);
    if offsets_view && global.format() == out::Format::Table {
        for g in snap.groups.iter().filter(|g| g.offsets.is_empty()) {
            out::note(&format!(
                "note: group `{}` has no input partitions with offsets (topology not \
                 initialised and nothing committed)",
                g.group_id
            ));
        }
    }
}

fn view_name(args: &Args) -> &'static str {
    match (args.state, args.members, args.topology) {
        (true, _, _) => "--state",
        (_, true, _) => "--members",
        (_, _, true) => "--topology",
        _ => "--offsets",
    }
}

/// The view asked for.
fn view_table(s: &Snapshot, args: &Args, verbose: bool) -> String {
    if args.state {
        view::state_table(s, verbose)
    } else if args.members {
        view::members_table(s, verbose)
    } else if args.topology {
        view::topology_table(s)
    } else {
        view::offsets_table(s, verbose)
    }
}
