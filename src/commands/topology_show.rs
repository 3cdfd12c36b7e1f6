//! `topology show`: draw a topology as text, Graphviz DOT or a Mermaid flowchart.

use streams_group::render::out;
use streams_group::render::out::Format;
use streams_group::render::picture::{dot, mermaid, text};
use streams_group::simulate::setup::MAX_PARTITIONS;
use streams_group::source::resolve_topology_with_processors;
use streams_group::topology::show::{picture, GivenCounts};

use super::args::{source_arg, topic_count, SourceArg};
use super::{GlobalArgs, Outcome};
use crate::command_error::{CommandError, HINT_PICTURE_FORMAT};
use crate::exit::Code;

pub const LONG_ABOUT: &str = "\
Draw a topology: its subtopologies as clusters, the topics they read and write (repartition
topics link the subtopology that writes them to the one that reads them), state stores and
their changelogs, and the processors with their edges when the input has them.

INPUT is any topology the other commands read: a JSON topology, the text Kafka Streams prints
with `Topology#describe()` (the only input with processors; it needs --application-id), a
snapshot written by `describe --output json`, or group:ID for a live group. Partition counts
and tasks are shown where they are known: from a snapshot or a live group, or given with
--partitions and --topic-partitions (nothing is assumed here: a picture is read as fact).

--format text (default) is for a terminal, dot for Graphviz, mermaid for Markdown (GitHub and
GitLab render ```mermaid blocks).";

const AFTER_HELP: &str = "\
Examples:
  streams-group topology show describe.txt --application-id app
  streams-group topology show describe.txt --application-id app --format dot | dot -Tsvg \\
      > topology.svg
  streams-group topology show group.json --format mermaid
  streams-group topology show group:my-app --bootstrap-server localhost:9092 --format dot";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Topology: a JSON or Kafka Streams Topology#describe() text file, a snapshot, or
    /// group:ID for a live group's topology
    #[arg(value_name = "INPUT", value_hint = clap::ValueHint::FilePath, value_parser = source_arg)]
    pub input: SourceArg,

    /// The picture: text for a terminal, dot for Graphviz, mermaid for Markdown
    #[arg(long, value_enum, default_value_t = PictureFormat::Text)]
    pub format: PictureFormat,

    /// Application id (needed for describe text: internal topic names start with it)
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// The group to take from a snapshot with several
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Partitions of every source topic whose count is not known otherwise (no default: unknown
    /// counts are left out of the picture)
    #[arg(allow_negative_numbers = true, long, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=MAX_PARTITIONS as i64))]
    pub partitions: Option<i32>,

    /// Partitions of given topics: TOPIC=N, comma-separated or repeated
    #[arg(long, value_name = "TOPIC=N", value_delimiter = ',', value_parser = topic_count)]
    pub topic_partitions: Vec<(String, i32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    Text,
    Dot,
    Mermaid,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    if global.format() == Format::Json {
        return Err(
            CommandError::usage("topology show draws pictures, not JSON")
                .with_hint(HINT_PICTURE_FORMAT),
        );
    }
    let source = args.input.source(global)?;
    let app = args.application_id.as_deref();
    let topology = resolve_topology_with_processors(&source, app, args.group.as_deref())?;
    let given = GivenCounts {
        all: args.partitions,
        topics: args.topic_partitions.clone(),
    };
    let p = picture(&topology, &given);
    let drawn = match args.format {
        PictureFormat::Text => text::text(&p),
        PictureFormat::Dot => dot::dot(&p),
        PictureFormat::Mermaid => mermaid::mermaid(&p),
    };
    out::write_stdout(&drawn)?;
    for note in &topology.notes {
        out::note(&format!("note: {note}"));
    }
    Ok(Code::Success)
}
