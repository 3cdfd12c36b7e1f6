//! `diff topology OLD NEW` and `diff assignment ...`: compare two topologies or two assignments
//! (the policy is `streams_group::diff`).

use clap::Subcommand;
use model::KafkaVersion;
use streams_group::diff;
use streams_group::render::{diff as view, out};
use streams_group::simulate::setup::{Members, Plan};
use streams_group::source::choice;
use streams_group::source::{load_group, resolve_topology, SourcedGroup};

use super::args::{members, source_arg, KafkaVersionArg, SourceArg, TopicCountArgs};
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

const AFTER_HELP: &str = "\
Examples:
  streams-group diff topology old.txt new.txt --application-id my-app
  streams-group diff topology group.json new.txt --application-id my-app --exit-code
  streams-group diff assignment before.json after.json
  streams-group diff assignment group.json --simulate --members 6
  streams-group diff assignment --group my-app --bootstrap-server localhost:9092

A topology argument is a topology file (JSON or Topology#describe() text), a snapshot written by
`describe --output json`, or group:ID for a live group; so is an assignment argument, without
the topology files.
Exit status: 0, or 1 with --exit-code when there are differences; 2 on bad input.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

#[derive(Debug, Subcommand)]
pub enum What {
    /// Compare two topologies: subtopologies, topics, copartition groups, and rollout hazards
    Topology(TopologyArgs),
    /// Compare assignments: current vs target, two snapshots, or a snapshot vs a simulation
    Assignment(AssignmentArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct TopologyArgs {
    /// The old topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(value_name = "OLD", value_hint = clap::ValueHint::FilePath, value_parser = source_arg)]
    pub old: SourceArg,

    /// The new topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(value_name = "NEW", value_hint = clap::ValueHint::FilePath, value_parser = source_arg)]
    pub new: SourceArg,

    /// Application id (needed for Topology#describe() text)
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// The group to take from a snapshot with several groups
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Exit with status 1 when the topologies differ
    #[arg(long)]
    pub exit_code: bool,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = AFTER_HELP,
    mut_arg("kafka_version", |a| a
        .requires("simulate")
        .help("With --simulate: the Kafka release whose coordinator simulates: 4.4 (4.4.0), 4.3 \
               (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also \
               4.1.1) or kip. Default: the version the snapshot records, else 4.4")),
)]
pub struct AssignmentArgs {
    /// Snapshot files or group:ID: one (current vs target, or vs --simulate) or two (old vs
    /// new)
    #[arg(value_name = "SNAPSHOT", num_args = 0..=2, value_hint = clap::ValueHint::FilePath,
          value_parser = source_arg)]
    pub snapshots: Vec<SourceArg>,

    /// The group: live with no snapshot file, or the group to take from the snapshots
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Compare the snapshot's current assignment with a simulated one (same topology)
    #[arg(long)]
    pub simulate: bool,

    /// Members in the simulation (default: the snapshot's member count)
    #[arg(allow_negative_numbers = true, long, value_name = "N", requires = "simulate", value_parser = members)]
    pub members: Option<u32>,

    #[command(flatten)]
    pub version: KafkaVersionArg,

    /// With --simulate: the task assignor (sticky or balanced-sticky). Default: the group's,
    /// else sticky
    #[arg(long, value_name = "NAME", requires = "simulate")]
    pub assignor: Option<String>,

    #[command(flatten)]
    pub topics: TopicCountArgs,

    /// Exit with status 1 when the assignments differ
    #[arg(long)]
    pub exit_code: bool,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    match &args.what {
        What::Topology(a) => run_topology(global, a),
        What::Assignment(a) => run_assignment(global, a),
    }
}

fn run_topology(global: &GlobalArgs, args: &TopologyArgs) -> Outcome {
    let app = args.application_id.as_deref();
    let group = args.group.as_deref();
    let old = resolve_topology(&args.old.source(global)?, app, group)?;
    let new = resolve_topology(&args.new.source(global)?, app, group)?;
    let report = diff::topologies(old, new);
    out::report(global.format(), &report, view::topology_report)?;
    Ok(Code::answer(!args.exit_code || report.identical))
}

fn run_assignment(global: &GlobalArgs, args: &AssignmentArgs) -> Outcome {
    let report = match (args.snapshots.as_slice(), args.simulate) {
        ([], true) => return Err(CommandError::usage("--simulate needs a snapshot file")),
        ([], false) => {
            let Some(id) = args.group.as_deref() else {
                return Err(CommandError::usage(
                    "diff assignment needs --group GROUP (live), or one or two snapshot files",
                ));
            };
            diff::current_vs_target(&load_group(&super::connect::live_group(global, id)?)?)
        }
        ([one], false) => diff::current_vs_target(&group(global, one, args)?),
        ([one], true) => {
            let g = group(global, one, args)?;
            let choice = choice::choose(args.version.kafka_version, Some(&g.origin));
            if let Some(n) = &choice.note {
                out::note(n);
            }
            diff::vs_simulation(&g, &plan(args, choice.version))?
        }
        ([a, b], false) => diff::two_groups(&group(global, a, args)?, &group(global, b, args)?)?,
        (_, true) => {
            return Err(CommandError::usage(
                "--simulate takes exactly one snapshot file",
            ))
        }
        _ => {
            return Err(CommandError::usage(
                "diff assignment takes at most two snapshot files",
            ))
        }
    };
    out::report(global.format(), &report, view::assignment_report)?;
    Ok(Code::answer(!args.exit_code || report.identical))
}

fn group(
    global: &GlobalArgs,
    arg: &SourceArg,
    args: &AssignmentArgs,
) -> Result<SourcedGroup, CommandError> {
    Ok(load_group(
        &arg.group_source(global, args.group.as_deref())?,
    )?)
}

/// The simulation `--simulate` compares with: the group's topology and shape, fresh members.
fn plan(args: &AssignmentArgs, kafka_version: KafkaVersion) -> Plan {
    Plan {
        kafka_version,
        assignor: args.assignor.clone(),
        members: Members {
            members: args.members,
            ..Members::default()
        },
        topics: args.topics.counts(),
        group: Default::default(),
        run: Default::default(),
    }
}
