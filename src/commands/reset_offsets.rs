//! `reset-offsets`: move the committed offsets of Empty streams groups, as
//! `kafka-streams-groups.sh --reset-offsets` does (Kafka 4.2+), with a plan first.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use streams_group::admin;
use streams_group::admin::live::{ResetRequest, ResetTo};
use streams_group::admin::parse;
use streams_group::admin::plan::ResetScenario;
use streams_group::admin::report::ResetReport;
use streams_group::render::{admin as view, out};
use streams_group::time;

use super::admin_args::{dry_run_note, Mode, Scope};
use super::args::GroupSelectionArgs;
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

const LONG_ABOUT: &str = "\
Reset the committed offsets of streams groups, as kafka-streams-groups.sh --reset-offsets does
(Kafka 4.2+): the plan is shown first, and nothing is written without --execute.

The group must be Empty: stop every instance of the application first. A group with live
members is refused before anything is written, naming its members.

Scope: --all-input-topics (the committed partitions of the topology's source topics;
repartition topics are left out, as Apache's tool leaves them out, and the plan says so) or
--input-topic TOPIC[:P,P] (repeatable; every partition must have a committed offset).
--from-file takes its partitions from the file instead.

Scenario, exactly one: --to-earliest, --to-latest, --to-offset N, --shift-by N, --to-current,
--to-datetime YYYY-MM-DDTHH:mm:SS.sss[Z|+hh:mm|+hh] (UTC without a zone), --by-duration
PnDTnHnMnS (now minus the duration), --from-file CSV. --to-offset, --shift-by and --from-file are
clamped to the log (log start..log end); a time with no record at or after it gives the log end.

The CSV (as --export writes it, no header): TOPIC,PARTITION,OFFSET with one --group, or
GROUP,TOPIC,PARTITION,OFFSET.

Exit status: 0 done (or planned), 2 bad input (nothing written), 4 refused by the cluster or a
partial failure (the table says per partition what was and was not done).";

const AFTER_HELP: &str = "\
Examples:
  streams-group reset-offsets --bootstrap-server localhost:9092 --group my-app \\
      --all-input-topics --to-earliest
  streams-group reset-offsets --bootstrap-server localhost:9092 --group my-app \\
      --input-topic orders:0,1 --shift-by -100 --execute
  streams-group reset-offsets --bootstrap-server localhost:9092 --group my-app \\
      --all-input-topics --to-datetime 2024-05-01T08:00:00.000 --export > plan.csv
  streams-group reset-offsets --bootstrap-server localhost:9092 --group my-app \\
      --from-file plan.csv --execute";

/// Exactly one scenario.
#[derive(Debug, Clone, clap::Args)]
#[group(id = "scenario", required = true, multiple = false)]
pub struct ScenarioArgs {
    /// The log start offset
    #[arg(long)]
    pub to_earliest: bool,
    /// The log end offset
    #[arg(long)]
    pub to_latest: bool,
    /// This offset, clamped to the log
    #[arg(allow_negative_numbers = true, long, value_name = "OFFSET")]
    pub to_offset: Option<i64>,
    /// The committed offset plus N (negative: back), clamped to the log
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub shift_by: Option<i64>,
    /// The first offset at or after this time: YYYY-MM-DDTHH:mm:SS.sss, optional Z, +hh:mm or
    /// +hh (UTC without a zone)
    #[arg(long, value_name = "DATETIME", value_parser = datetime_with_text)]
    pub to_datetime: Option<(i64, String)>,
    /// The first offset at or after now minus this ISO-8601 duration (PnDTnHnMnS, e.g. PT1H)
    #[arg(long, value_name = "DURATION", value_parser = iso_duration_with_text)]
    pub by_duration: Option<(i128, String)>,
    /// The committed offset (the log end where nothing is committed)
    #[arg(long)]
    pub to_current: bool,
    /// The offsets of a CSV plan (as --export writes it); the scope is the file's
    #[arg(long, value_name = "CSV", conflicts_with_all = ["all_input_topics", "input_topics"])]
    pub from_file: Option<PathBuf>,
}

/// `--to-datetime`: the instant, and the text as given (the plan names it).
fn datetime_with_text(s: &str) -> Result<(i64, String), String> {
    time::parse_datetime(s).map(|ms| (ms, s.to_string()))
}

/// `--by-duration`: the nanoseconds, and the text as given (the plan names it).
fn iso_duration_with_text(s: &str) -> Result<(i128, String), String> {
    time::parse_iso_duration(s).map(|ns| (ns, s.to_string()))
}

#[derive(Debug, clap::Args)]
#[command(
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP,
    mut_arg("groups", |a| a.help("Group to reset (repeatable)"))
)]
pub struct Args {
    #[command(flatten)]
    pub selection: GroupSelectionArgs,
    #[command(flatten)]
    pub scope: Scope,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Print the plan as CSV (the --from-file format) instead of a table
    #[arg(long)]
    pub export: bool,
    #[command(flatten)]
    pub mode: Mode,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

/// The scenario, read before anything is sent, and its label.
fn reset_to(args: &Args) -> Result<(ResetTo, String), CommandError> {
    let s = &args.scenario;
    let plain = |sc: ResetScenario, label: String| Ok((ResetTo::Scenario(sc), label));
    if let Some(path) = &s.from_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CommandError::usage(format!("cannot read --from-file {}: {e}", path.display()))
        })?;
        let plan = parse::csv_plan(&text, &args.selection.groups)
            .map_err(|e| CommandError::usage(format!("--from-file {}: {e}", path.display())))?;
        return Ok((ResetTo::File(plan), format!("from-file {}", path.display())));
    }
    if s.to_earliest {
        return plain(ResetScenario::ToEarliest, "to-earliest".into());
    }
    if s.to_latest {
        return plain(ResetScenario::ToLatest, "to-latest".into());
    }
    if s.to_current {
        return plain(ResetScenario::ToCurrent, "to-current".into());
    }
    if let Some(n) = s.to_offset {
        return plain(ResetScenario::ToOffset(n), format!("to-offset {n}"));
    }
    if let Some(n) = s.shift_by {
        return plain(ResetScenario::ShiftBy(n), format!("shift-by {n}"));
    }
    if let Some((ms, text)) = &s.to_datetime {
        return plain(
            ResetScenario::ToTimestamp(*ms),
            format!("to-datetime {text}"),
        );
    }
    if let Some((ns, text)) = &s.by_duration {
        // Wall-clock time enters here, at the edge, once.
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as i128);
        let ms = (now - ns).div_euclid(1_000_000);
        let ms = i64::try_from(ms).map_err(|_| {
            CommandError::usage(format!("--by-duration {text} reaches beyond the calendar"))
        })?;
        return plain(
            ResetScenario::ToTimestamp(ms),
            format!("by-duration {text}"),
        );
    }
    Err(CommandError::usage(
        "reset-offsets needs a scenario (see --help)",
    ))
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let groups = args.selection.selection()?;
    let (to, label) = reset_to(args)?;
    let scopes = match to {
        ResetTo::File(_) => Vec::new(),
        ResetTo::Scenario(_) => args.scope.required("reset-offsets")?,
    };
    let client = super::connect::client_config(global)?;
    let report = admin::live::reset(
        &client,
        ResetRequest {
            groups,
            scopes,
            to,
            label,
            execute: args.mode.execute,
        },
    )?;
    if args.export {
        out::write_stdout(&view::reset_csv(&report, args.selection.groups.len() == 1))?;
    } else {
        out::report(global.format(), &report, view::reset_table)?;
    }
    notes(&report);
    if !report.execute {
        dry_run_note("write these offsets");
    }
    Ok(if report.failed() {
        Code::Broker
    } else {
        Code::Success
    })
}

fn notes(report: &ResetReport) {
    if report.groups.is_empty() {
        out::note("no streams groups found");
    }
    for g in &report.groups {
        if g.state.is_none() {
            out::note(&format!(
                "note: the broker knows no streams group `{}`: offsets committed now are kept \
                 when the application first starts",
                g.group_id
            ));
        }
        for n in &g.notes {
            out::note(&format!("note: group `{}`: {n}", g.group_id));
        }
        for p in &g.partitions {
            if let Some(n) = &p.note {
                out::note(&format!(
                    "note: group `{}` {}-{}: {n}",
                    g.group_id, p.topic, p.partition
                ));
            }
        }
    }
}
