//! `delete`: delete Empty streams groups (and, if asked, their internal topics), as
//! `kafka-streams-groups.sh --delete` does, with a dry run first.

use streams_group::admin;
use streams_group::render::{admin as view, out};

use super::admin_args::{dry_run_note, Mode};
use super::args::check_groups;
use super::GlobalArgs;
use super::Outcome;
use crate::exit::Code;

const LONG_ABOUT: &str = "\
Delete streams groups with their committed offsets, as kafka-streams-groups.sh --delete does.
Nothing is written without --execute (Apache's tool deletes at once).

Every group must be Empty: a group with live members, or one the broker does not know as a
streams group, is refused before anything is written.

--delete-internal-topics also deletes the groups' repartition and changelog topics, taken from
the topology before the group goes (Apache's rule: the repartition-source and changelog topics
that are not source topics, named <group>-... and ending in -changelog, -repartition or a
foreign-key join suffix; other names are listed and kept). Topics are deleted only for groups
that were deleted.

Exit status: 0 done (or planned), 2 bad input, 4 refused by the cluster or a partial failure
(the tables say per group and per topic what was and was not done).";

const AFTER_HELP: &str = "\
Examples:
  streams-group delete --bootstrap-server localhost:9092 --group my-app --delete-internal-topics
  streams-group delete --bootstrap-server localhost:9092 --group a --group b --execute";

#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub struct Args {
    /// Group to delete (repeatable)
    #[arg(long = "group", short = 'g', value_name = "GROUP", required = true)]
    pub groups: Vec<String>,
    /// Also delete the groups' internal (repartition and changelog) topics
    #[arg(long)]
    pub delete_internal_topics: bool,
    #[command(flatten)]
    pub mode: Mode,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    check_groups(&args.groups)?;
    let client = super::connect::client_config(global)?;
    let report = admin::live::delete(
        &client,
        args.groups.clone(),
        args.delete_internal_topics,
        args.mode.execute,
    )?;
    out::report(global.format(), &report, view::delete_table)?;
    if !report.execute {
        dry_run_note("delete");
    }
    Ok(if report.failed() {
        Code::Broker
    } else {
        Code::Success
    })
}
