//! `delete-offsets`: delete committed offsets of an Empty streams group, as
//! `kafka-streams-groups.sh --delete-offsets` does, with a dry run first.

use streams_group::admin;
use streams_group::render::{admin as view, out};

use super::admin_args::{dry_run_note, Mode, Scope};
use super::args::check_groups;
use super::GlobalArgs;
use super::Outcome;
use crate::exit::Code;

const LONG_ABOUT: &str = "\
Delete committed offsets of a streams group, as kafka-streams-groups.sh --delete-offsets does:
the application then starts those partitions from auto.offset.reset. Nothing is written without
--execute (Apache's tool deletes at once).

The group must be Empty: a group with live members is refused before anything is written.
Scope: --all-input-topics (the committed partitions of the topology's source topics) or
--input-topic TOPIC[:P,P] (repeatable).

Exit status: 0 done (or planned), 2 bad input (nothing written), 4 refused by the cluster or a
partial failure (the table says per partition what was and was not done).";

const AFTER_HELP: &str = "\
Examples:
  streams-group delete-offsets --bootstrap-server localhost:9092 --group my-app \\
      --input-topic orders
  streams-group delete-offsets --bootstrap-server localhost:9092 --group my-app \\
      --all-input-topics --execute";

#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub struct Args {
    /// The group (one)
    #[arg(long = "group", short = 'g', value_name = "GROUP")]
    pub group: String,
    #[command(flatten)]
    pub scope: Scope,
    #[command(flatten)]
    pub mode: Mode,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    check_groups(std::slice::from_ref(&args.group))?;
    let scopes = args.scope.required("delete-offsets")?;
    let client = super::connect::client_config(global)?;
    let report =
        admin::live::delete_offsets(&client, args.group.clone(), scopes, args.mode.execute)?;
    if report.state.is_none() {
        out::note(&format!(
            "note: the broker knows no streams group `{}`",
            report.group_id
        ));
    }
    if report.partitions.is_empty() {
        out::note(&format!(
            "note: group `{}` has no committed offsets in this scope",
            report.group_id
        ));
    }
    out::report(global.format(), &report, view::delete_offsets_table)?;
    if let Some(e) = &report.error {
        out::note(&format!("error: group `{}`: {e}", report.group_id));
    }
    if !report.execute {
        dry_run_note("delete these offsets");
    }
    Ok(if report.failed() {
        Code::Broker
    } else {
        Code::Success
    })
}
