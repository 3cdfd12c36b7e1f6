//! `topology`: parse a topology file and show its subtopologies, the tasks they make and the
//! internal topics the coordinator would create, for assumed source topic partition counts.

use streams_group::render::{out, topology as view};
use streams_group::usecase::simulation::TopicCounts;
use streams_group::usecase::source::resolve_topology;
use streams_group::usecase::topology::{assumed_metadata, report};

use super::Outcome;
use crate::cli::GlobalArgs;
use crate::exit::Code;

/// Partition count assumed for every source topic without `--topic-partitions`.
pub const DEFAULT_PARTITIONS: i32 = 4;

const LONG_ABOUT: &str = "\
Parse a topology and show its subtopologies, the tasks they make and the internal topics the
coordinator would create.

FILE is either a JSON topology (the streams-group topology format) or the text that Kafka
Streams prints with `Topology#describe()`. Describe text prints internal topic names without
the application id, so it needs --application-id.

Every source topic is assumed to have --partitions partitions (default 4) unless
--topic-partitions gives its count. --topic-partitions can also name internal topics, to model
ones that already exist, and `topic=0` models a missing topic. The coordinator's rules
(KIP-1071) then decide the partition count of every repartition and changelog topic, check
copartitioning, and count the tasks.

Exit status: 0 when the topology would be ready once its internal topics are created, 1 when
the coordinator would not accept it (invalid topology, missing source topics, partition
counts that do not fit), 2 for a bad file or option.";

const AFTER_HELP: &str = "\
Examples:
  streams-group topology wordcount.json
  streams-group topology describe.txt --application-id streams-wordcount --partitions 6
  streams-group topology join.txt --application-id app --topic-partitions orders=8,customers=8
  streams-group topology describe.txt --application-id app --output json";

#[derive(Debug, clap::Args)]
#[command(long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub struct Args {
    /// Topology file: JSON, Kafka Streams Topology#describe() text, or a snapshot; or
    /// group:ID for a live group's topology
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: String,

    /// Application id (needed for describe text: internal topic names start with it)
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// Partitions of every source topic not given with --topic-partitions
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PARTITIONS,
          value_parser = clap::value_parser!(i32).range(1..))]
    pub partitions: i32,

    /// Partition count of one topic (repeatable, or comma-separated); 0 = the topic is missing
    #[arg(long, value_name = "TOPIC=N", value_delimiter = ',', value_parser = parse_topic_count)]
    pub topic_partitions: Vec<(String, i32)>,
}

fn parse_topic_count(s: &str) -> Result<(String, i32), String> {
    let (topic, n) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("expected TOPIC=N, found {s:?}"))?;
    if topic.is_empty() {
        return Err(format!("expected TOPIC=N, found {s:?} (empty topic name)"));
    }
    let n: i32 = n
        .trim()
        .parse()
        .map_err(|_| format!("expected a partition count after '=', found {n:?}"))?;
    if n < 0 {
        return Err(format!("partition count must not be negative, found {n}"));
    }
    Ok((topic.to_string(), n))
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let source = super::live::topology_source(global, &args.file)?;
    let topology = resolve_topology(&source, args.application_id.as_deref(), None)?;
    let counts = TopicCounts {
        partitions: args.partitions,
        overrides: args.topic_partitions.clone(),
    };
    let metadata = assumed_metadata(&topology, &counts);
    let report = report(&topology, args.application_id.as_deref(), metadata);
    out::report(global.format(), &report, view::table)?;
    Ok(Code::answer(report.configuration.ready))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_counts_parse() {
        assert_eq!(parse_topic_count("a=4"), Ok(("a".to_string(), 4)));
        assert_eq!(parse_topic_count("a.b=0"), Ok(("a.b".to_string(), 0)));
        assert!(parse_topic_count("a").is_err());
        assert!(parse_topic_count("=3").is_err());
        assert!(parse_topic_count("a=-1").is_err());
        assert!(parse_topic_count("a=x").is_err());
    }
}
