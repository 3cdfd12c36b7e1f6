//! `history`: what the group coordinator decided, read back from `__consumer_offsets`.

use std::io::IsTerminal;

use streams_group::history::live::{read_history, verify_history};
use streams_group::history::report::Window;
use streams_group::render::{history as view, out};

use super::args::check_groups;
use super::{GlobalArgs, Outcome};
use crate::command_error::CommandError;
use crate::exit::Code;

const AFTER_HELP: &str = "\
Examples:
  streams-group history --bootstrap-server localhost:9092 --group my-app
  streams-group history --bootstrap-server localhost:9092 --group my-app --since 2h
  streams-group history --bootstrap-server localhost:9092 --group my-app \\
      --since 2026-12-03T09:00:00Z --until 2026-12-03T10:00:00Z --output json
  streams-group history --bootstrap-server localhost:9092 --group my-app \\
      --at 2026-12-03T09:00:00Z > before.json

The coordinator writes every decision about a streams group to the group's partition of
__consumer_offsets: group epochs, members joining and leaving (client id, host, process),
target assignments, each member's way to its target, the topology. history reads that partition
(from its first offset to the high watermark when it starts; needs READ and DESCRIBE on the
topic) and tells the story one coordinator write at a time. Closed segments of the compacted
topic keep only the last record per key, so older history may be gone: the report says from
when it has it (\"history from\").";

#[derive(Debug, clap::Args)]
#[command(
    after_help = AFTER_HELP,
    mut_arg("kafka_version", |a| a.help(
        "Release whose coordinator --verify runs: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), \
         4.2 (4.2.2), 4.2.1 (also 4.2.0) or 4.1 (4.1.2, also 4.1.1). Default: the broker's, from \
         StreamsGroupDescribe's version and the fields its records carry")),
)]
pub struct Args {
    /// The streams group
    #[arg(long, short = 'g', value_name = "GROUP")]
    pub group: String,

    /// Tell only what happened at or after this time: an instant (2026-12-03T09:00:00Z, as
    /// reset-offsets --to-datetime takes) or a time ago (90s, 30m, 2h, 7d)
    #[arg(long, value_name = "TIME", value_parser = time_arg)]
    pub since: Option<i64>,

    /// Tell only what happened at or before this time (as --since)
    #[arg(long, value_name = "TIME", value_parser = time_arg)]
    pub until: Option<i64>,

    /// Write the group as it was at this time (as --since), in the snapshot format of
    /// `describe --output json`: diff assignment, simulate --from-snapshot and check-epoch read it
    #[arg(long, value_name = "TIME", value_parser = time_arg, conflicts_with_all = ["since", "until"])]
    pub at: Option<i64>,

    /// Recompute every target assignment the broker wrote with this build's coordinator of the
    /// broker's release and compare: exit 1 on a difference the records prove
    #[arg(long, conflicts_with_all = ["since", "until", "at"])]
    pub verify: bool,

    #[command(flatten)]
    pub kafka_version: super::args::KafkaVersionArg,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

/// clap value parser for `--since`/`--until`/`--at`: milliseconds since the epoch, from an
/// instant or a time ago before the wall clock now (`time::parse_instant_or_ago`).
fn time_arg(s: &str) -> Result<i64, String> {
    streams_group::time::parse_instant_or_ago(s, super::now_ms())
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    check_groups(std::slice::from_ref(&args.group))?;
    if let (Some(s), Some(u)) = (args.since, args.until) {
        if s > u {
            return Err(CommandError::usage(
                "--since is after --until: nothing to tell",
            ));
        }
    }
    let client = super::connect::client_config(global)?;
    if args.verify {
        return verify(global, args, &client);
    }
    if args.kafka_version.kafka_version.is_some() {
        return Err(CommandError::usage(
            "--kafka-version only says whose coordinator --verify runs: add --verify",
        ));
    }
    let window = Window {
        since_ms: args.since,
        until_ms: args.until.or(args.at),
    };
    let (report, group) =
        with_progress(|progress| read_history(&client, &args.group, window, progress))?;
    for n in &report.notes {
        out::note(&format!("note: {n}"));
    }
    no_records(&report)?;
    if let Some(at) = args.at {
        return snapshot_at(&report, &group, at);
    }
    out::report(global.format(), &report, view::table)?;
    Ok(Code::Success)
}

/// A group without a record in its partition: exit 4, saying so.
fn no_records(report: &streams_group::history::report::HistoryReport) -> Result<(), CommandError> {
    match report.history_from {
        Some(_) => Ok(()),
        None => Err(CommandError::new(
            crate::command_error::Kind::Broker,
            format!(
                "group `{}` has no records in __consumer_offsets-{}: it never existed, or it \
                 was deleted and compaction removed its records",
                report.group_id, report.partition
            ),
        )),
    }
}

/// `--verify`: the verification, and exit 1 naming the first difference the records prove.
fn verify(global: &GlobalArgs, args: &Args, client: &kafka::config::ClientConfig) -> Outcome {
    let requested = args.kafka_version.kafka_version;
    if let Some(n) = requested.and_then(|r| r.note()) {
        out::note(&format!("note: {n}"));
    }
    let version = requested.map(|r| r.version);
    let report = with_progress(|progress| verify_history(client, &args.group, version, progress))?;
    for n in &report.notes {
        out::note(&format!("note: {n}"));
    }
    no_records(&report)?;
    out::report(global.format(), &report, view::table)?;
    let v = report.verification.as_ref();
    let Some((v, d)) = v.and_then(|v| v.faults().next().map(|d| (v, d))) else {
        return Ok(Code::Success);
    };
    let first = d.members.first().map_or(String::new(), |m| {
        format!(", first for member {}", m.member_id)
    });
    out::note(&format!(
        "error: target epoch {} (offset {}) differs from what Kafka {}'s coordinator computes \
         from the same members{first}; if the broker runs another release, say which with \
         --kafka-version, else please report it",
        d.epoch, d.offset, v.kafka_version
    ));
    Ok(Code::Negative)
}

/// `--at`: the group as the records up to `at` built it, as a snapshot on stdout.
fn snapshot_at(
    report: &streams_group::history::report::HistoryReport,
    group: &streams_group::history::replay::ReplayedGroup,
    at: i64,
) -> Outcome {
    if !group.exists {
        let from = report.history_from.as_deref().unwrap_or("never");
        return Err(CommandError::new(
            crate::command_error::Kind::Broker,
            format!(
                "group `{}` did not exist at {} by its records (history from {from})",
                report.group_id,
                streams_group::time::rfc3339(at)
            ),
        ));
    }
    let snapshot = model::group::Snapshot {
        schema_version: model::group::SNAPSHOT_SCHEMA_VERSION,
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        groups: vec![group.describe(&report.group_id)],
    };
    out::report(out::Format::Json, &snapshot, |_| String::new())?;
    Ok(Code::Success)
}

/// `read`, told its progress (offset reached, high watermark), with a bar over the partition's
/// offsets on a terminal, cleared when it returns.
fn with_progress<T>(read: impl FnOnce(&mut dyn FnMut(i64, i64)) -> T) -> T {
    let bar = progress_bar();
    let mut progress = |at: i64, end: i64| {
        if let Some(b) = &bar {
            b.set_length(end.max(1) as u64);
            b.set_position(at.max(0) as u64);
        }
    };
    let result = read(&mut progress);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    result
}

/// A bar over the partition's offsets, on a terminal.
fn progress_bar() -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(1);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} reading __consumer_offsets: offset {pos}/{len} [{elapsed}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        b
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_instants_or_times_ago() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        let two_hours_ago = time_arg("2h").unwrap();
        assert!((now - 7_300_000..=now - 7_100_000).contains(&two_hours_ago));
        assert_eq!(
            time_arg("2026-12-03T09:00:00Z"),
            time_arg("2026-12-03T09:00:00.000Z")
        );
        assert!(time_arg("2026-12-03T09:00:00Z").is_ok());
        assert!(time_arg("2026-12-03T09:00:00").is_ok());
        assert!(time_arg("yesterday").unwrap_err().contains("30m, 2h"));
    }
}
