//! `topology`: parse a topology file and show its subtopologies, the tasks they make and the
//! internal topics the coordinator would create, for assumed source topic partition counts.

use streams_group::render::{out, topology as view};
use streams_group::source::resolve_topology;
use streams_group::topology::report::report;
use streams_group::topology::topic_counts::{assumed_metadata, read_counts};

use super::args::{source_arg, SourceArg, TopicCountArgs};
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

// Set on the subcommand in cli.rs too: a variant's doc comment replaces the struct's long help.
pub const LONG_ABOUT: &str = "\
Parse a topology and show its subtopologies, the tasks they make and the internal topics the
coordinator would create.

FILE is a JSON topology (the streams-group topology format), the text that Kafka Streams prints
with `Topology#describe()`, or a snapshot written by `describe --output json`; group:ID takes a
live group's topology. Describe text prints internal topic names without the application id, so
it needs --application-id.

Every source topic is assumed to have --partitions partitions (default 8; a snapshot or a live
group shows its own, and the report says which counts were read from the cluster or the
snapshot) unless --topic-partitions gives its count. --topic-partitions can also name
internal topics, to model ones that already exist, and `topic=0` models a missing topic. The
coordinator's rules (KIP-1071) then decide the partition count of every repartition and
changelog topic, check copartitioning, and count the tasks.

Exit status: 0 when the topology would be ready once its internal topics are created, 1 when
the coordinator would not accept it (invalid topology, missing source topics, partition
counts that do not fit), 2 for a bad file or option.";

const AFTER_HELP: &str = "\
Examples:
  streams-group topology wordcount.json
  streams-group topology describe.txt --application-id streams-wordcount --partitions 6
  streams-group topology join.txt --application-id app --topic-partitions orders=8,customers=8
  streams-group topology describe.txt --application-id app --output json";

// `topology FILE` stays the report; `topology show INPUT` is the picture. A file named `show`
// is `./show`.
#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_help = AFTER_HELP,
          args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    pub subcommand: Option<TopologySubcommand>,

    /// Topology: a JSON or Kafka Streams Topology#describe() text file, a snapshot, or
    /// group:ID for a live group's topology
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath, value_parser = source_arg,
          required = true)]
    pub file: Option<SourceArg>,

    /// Application id (needed for describe text: internal topic names start with it)
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// The group to take from a snapshot with several
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    #[command(flatten)]
    pub topics: TopicCountArgs,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

#[derive(Debug, clap::Subcommand)]
pub enum TopologySubcommand {
    /// Draw the topology as text, Graphviz DOT or a Mermaid flowchart
    // The variant's doc comment would replace the long help of the arguments' struct.
    #[command(long_about = super::topology_show::LONG_ABOUT)]
    Show(super::topology_show::Args),
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let file = match (&args.subcommand, &args.file) {
        (Some(TopologySubcommand::Show(show)), _) => {
            return super::topology_show::run(global, show)
        }
        (None, Some(file)) => file,
        (None, None) => return Err(CommandError::usage("topology needs a FILE")),
    };
    let source = file.source(global)?;
    let app = args.application_id.as_deref();
    let topology = resolve_topology(&source, app, args.group.as_deref())?;
    let counts = args.topics.counts();
    let metadata = assumed_metadata(&topology, &counts);
    let report = report(&topology, app, metadata).with_read_counts(read_counts(&topology, &counts));
    out::report(global.format(), &report, view::table)?;
    Ok(Code::answer(report.configuration.ready))
}
