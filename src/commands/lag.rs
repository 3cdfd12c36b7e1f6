//! `lag`: warm-up and restoration lag per task, against `acceptable.recovery.lag`.

use streams_group::lag;
use streams_group::lag::live::{changelog_ends, report};
use streams_group::render::{lag as view, out};
use streams_group::source::load_group;

use super::args::GroupArgs;
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  streams-group lag --bootstrap-server localhost:9092 --group my-app
  streams-group lag --snapshot group.json --acceptable-recovery-lag 5000 --exit-code

Rows come from the cumulative changelog offsets members report for tasks they restore (standby,
warm-up, restoring active) or keep on disk; brokers return them from Kafka 4.4 on. LAG is the
changelog records not yet restored. Live, it is the changelogs' log end offsets now
(CHANGELOG-END) minus OFFSET, so a paused member's lag grows while its changelog does; from a
snapshot it is counted from the member's last report (a standby's END-OFFSET is its changelog's
last offset, so a caught-up standby reports offset = end offset + 1; see docs/lag.md). A task is
caught up when LAG <= acceptable.recovery.lag.")]
pub struct Args {
    #[command(flatten)]
    pub group: GroupArgs,

    /// The lag at which a task counts as caught up (streams.acceptable.recovery.lag). Default:
    /// the group's, when its broker reports it, else 10000
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = super::args::non_negative)]
    pub acceptable_recovery_lag: Option<i64>,

    /// Exit 1 when any task is lagging beyond the acceptable lag, 6 when no member reports task
    /// offsets at all (nothing could be checked: the line on stderr says why)
    #[arg(long)]
    pub exit_code: bool,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let Some(source) = args.group.source(global, None)? else {
        return Err(CommandError::usage(
            "lag needs the group: --group GROUP (live) or --snapshot FILE",
        ));
    };
    let sourced = load_group(&source)?;
    let ends = changelog_ends(&source, &sourced.group)?;
    let acceptable = args
        .acceptable_recovery_lag
        .unwrap_or_else(|| lag::acceptable_recovery_lag(&sourced.group));
    let report = report(&sourced.group, &sourced.origin, acceptable, ends);
    out::report(global.format(), &report, view::table)?;
    for w in &report.warnings {
        out::note(&format!("warning: {w}"));
    }
    if let Some(why) = &report.nothing_to_check {
        let line = format!(
            "no task offsets to check in group {}: {why}",
            report.group_id
        );
        if args.exit_code {
            out::note(&format!(
                "error: {line}; --exit-code fails with exit status {}, as nothing was checked",
                Code::NothingChecked.value()
            ));
            return Ok(Code::NothingChecked);
        }
        out::note(&format!("note: {line}"));
    }
    Ok(Code::answer(!args.exit_code || report.gate_passes()))
}
