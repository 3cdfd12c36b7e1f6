//! `lag`: warm-up and restoration lag per task, against `acceptable.recovery.lag`.

use std::path::PathBuf;

use colored::Colorize;
use serde::Serialize;

use crate::cli::{GlobalArgs, OutputFormat};
use crate::error::Failure;
use crate::exit;
use crate::lag::{self, LagStatus, TaskLag};
use crate::model::group::GroupDescription;
use crate::render;
use crate::snapshot;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  streams-group lag --bootstrap-server localhost:9092 --group my-app
  streams-group lag --snapshot group.json --acceptable-recovery-lag 5000 --exit-code

Rows come from the cumulative changelog offsets members report for tasks they restore (standby,
warm-up, restoring active) or keep on disk; brokers return them from Kafka 4.4 on. A task is
caught up when end offset - offset <= acceptable.recovery.lag.")]
pub struct Args {
    /// The group: live (with --bootstrap-server), or the group to pick in --snapshot
    #[arg(long, value_name = "GROUP", required_unless_present = "snapshot")]
    pub group: Option<String>,

    /// Read the group from a `describe --output json` snapshot instead of the cluster
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,

    /// The lag at which a task counts as caught up (streams.acceptable.recovery.lag)
    #[arg(long, value_name = "N", default_value_t = lag::DEFAULT_ACCEPTABLE_RECOVERY_LAG)]
    pub acceptable_recovery_lag: i64,

    /// Exit 1 when any task is lagging beyond the acceptable lag, or no member reports task
    /// offsets at all (nothing could be checked)
    #[arg(long)]
    pub exit_code: bool,
}

#[derive(Serialize)]
struct Report {
    group_id: String,
    acceptable_recovery_lag: i64,
    caught_up: usize,
    lagging: usize,
    unknown: usize,
    tasks: Vec<TaskLag>,
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    if args.acceptable_recovery_lag < 0 {
        return Err(Failure::usage("--acceptable-recovery-lag must not be negative").into());
    }
    let g = group(global, args)?;
    let tasks = lag::group_task_lags(&g, args.acceptable_recovery_lag);
    let count = |s: LagStatus| tasks.iter().filter(|t| t.status == s).count();
    let report = Report {
        group_id: g.group_id.clone(),
        acceptable_recovery_lag: args.acceptable_recovery_lag,
        caught_up: count(LagStatus::CaughtUp),
        lagging: count(LagStatus::Lagging),
        unknown: count(LagStatus::Unknown),
        tasks,
    };
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => crate::emit!("{}", table(&report)),
    }
    let nothing_reported = report.tasks.is_empty() && !g.members.is_empty();
    if nothing_reported {
        eprintln!(
            "note: no member of {} reports task offsets: brokers before Kafka 4.4 return none, and \
             on 4.4 members report them every streams.task.offset.interval.ms (60 s by default){}",
            g.group_id,
            if args.exit_code {
                "; --exit-code fails, as nothing was checked"
            } else {
                ""
            }
        );
    }
    // A gate passes only on evidence: a lagging task, or nothing reported at all, fails it.
    Ok(
        if args.exit_code && (report.lagging > 0 || nothing_reported) {
            exit::NEGATIVE
        } else {
            exit::SUCCESS
        },
    )
}

fn group(global: &GlobalArgs, args: &Args) -> anyhow::Result<GroupDescription> {
    match &args.snapshot {
        Some(path) => {
            let s = snapshot::load_snapshot(path).map_err(|e| Failure::usage(e.to_string()))?;
            Ok(snapshot::find_group(&s, args.group.as_deref())
                .map_err(|e| Failure::usage(e.to_string()))?
                .clone())
        }
        None => {
            let id = args.group.as_deref().unwrap_or_default();
            crate::commands::live::describe_group(global, id)
        }
    }
}

fn table(r: &Report) -> String {
    let mut t = render::table::new(&[
        "GROUP",
        "MEMBER",
        "PROCESS",
        "TASK",
        "ROLE",
        "OFFSET",
        "END-OFFSET",
        "LAG",
        "STATUS",
    ]);
    let num = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    for l in &r.tasks {
        let status = match l.status {
            LagStatus::CaughtUp => "caught-up".green().to_string(),
            LagStatus::Lagging => "lagging".yellow().to_string(),
            LagStatus::Unknown => "unknown".dimmed().to_string(),
        };
        t.add_row(vec![
            l.group_id.clone(),
            l.member_id.clone(),
            l.process_id.clone(),
            l.task.to_string(),
            l.role.map_or("on-disk".to_string(), |r| r.to_string()),
            num(l.offset),
            num(l.end_offset),
            num(l.lag),
            status,
        ]);
    }
    let mut out = String::new();
    if !r.tasks.is_empty() {
        out.push_str(&render::table::render(&t));
    }
    out.push_str(&format!(
        "{}: {} caught up, {} lagging, {} unknown (acceptable.recovery.lag = {})\n",
        r.group_id, r.caught_up, r.lagging, r.unknown, r.acceptable_recovery_lag
    ));
    out
}
