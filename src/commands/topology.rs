//! `topology`: parse a topology file and show its subtopologies, the tasks they make and the
//! internal topics the coordinator would create, for assumed source topic partition counts.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::cli::{GlobalArgs, OutputFormat};
use crate::error::Failure;
use crate::exit;
use crate::model::topology::Topology;
use crate::render;
use crate::topology::configure::{configure, CreatableTopic, TopicMetadata, TopicProblem};
use crate::topology::load_topology_file_with_notes;

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
    /// Topology file: JSON, or Kafka Streams Topology#describe() text
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

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

/// One subtopology in the report.
#[derive(Debug, Serialize)]
pub struct SubtopologyRow {
    pub id: String,
    pub stateful: bool,
    /// Tasks once the internal topics exist; absent when the topology would not be ready.
    pub tasks: Option<i32>,
    pub source_topics: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source_topic_regex: Vec<String>,
    pub repartition_source_topics: Vec<String>,
    pub repartition_sink_topics: Vec<String>,
    pub changelog_topics: Vec<String>,
    pub copartition_groups: Vec<Vec<String>>,
}

/// What the coordinator would do with the topology.
#[derive(Debug, Serialize)]
pub struct ConfigurationReport {
    /// True when the topology is ready once the internal topics below are created.
    pub ready: bool,
    /// `READY`, a heartbeat status name, or `STREAMS_INVALID_TOPOLOGY`.
    pub status: String,
    /// The Kafka error code for an invalid topology (130).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<i16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Internal topics the coordinator asks to be created (MISSING_INTERNAL_TOPICS).
    pub internal_topics_to_create: Vec<CreatableTopic>,
    pub total_tasks: i64,
}

/// The `topology` report: the JSON output contract.
#[derive(Debug, Serialize)]
pub struct Report {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    pub epoch: i32,
    /// Partition counts assumed for the topics (sources and any --topic-partitions).
    pub topic_partitions: BTreeMap<String, i32>,
    pub subtopologies: Vec<SubtopologyRow>,
    pub configuration: ConfigurationReport,
    pub notes: Vec<String>,
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    let (topology, notes) =
        load_topology_file_with_notes(&args.file, args.application_id.as_deref())
            .map_err(|e| Failure::usage(e.to_string()))?;
    let report = build_report(args, &topology, notes);
    let code = if report.configuration.ready {
        exit::SUCCESS
    } else {
        exit::NEGATIVE
    };
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => crate::emit!("{}", render_table(&report)),
    }
    Ok(code)
}

/// The assumed metadata: every source topic at `--partitions`, then `--topic-partitions`.
pub fn assumed_metadata(args: &Args, topology: &Topology) -> TopicMetadata {
    let mut m = TopicMetadata::new();
    for s in &topology.subtopologies {
        for t in &s.source_topics {
            m.insert(t.clone(), args.partitions);
        }
    }
    for (t, n) in &args.topic_partitions {
        m.insert(t.clone(), *n);
    }
    m
}

fn build_report(args: &Args, topology: &Topology, notes: Vec<String>) -> Report {
    let metadata = assumed_metadata(args, topology);
    let mut to_create = Vec::new();
    let result = match configure(topology, &metadata) {
        Ok(c) => match &c.problem {
            Some(TopicProblem::MissingInternalTopics {
                to_create: list, ..
            }) => {
                // What the coordinator asks for, then the topology with those topics created.
                to_create = list.clone();
                let mut after = metadata.clone();
                for t in list {
                    after.insert(t.name.clone(), t.partitions);
                }
                configure(topology, &after)
            }
            _ => Ok(c),
        },
        Err(e) => Err(e),
    };
    let (configuration, tasks): (ConfigurationReport, BTreeMap<String, i32>) = match result {
        Err(invalid) => (
            ConfigurationReport {
                ready: false,
                status: invalid.error_code().name(),
                error_code: Some(invalid.error_code().code()),
                detail: Some(invalid.message),
                internal_topics_to_create: Vec::new(),
                total_tasks: 0,
            },
            BTreeMap::new(),
        ),
        Ok(c) => {
            let tasks = c
                .subtopologies
                .iter()
                .map(|s| (s.id.clone(), s.num_tasks))
                .collect();
            (
                ConfigurationReport {
                    ready: c.is_ready(),
                    status: c
                        .problem
                        .as_ref()
                        .map(|p| p.status_code().name())
                        .unwrap_or_else(|| "READY".to_string()),
                    error_code: None,
                    detail: c.problem.as_ref().map(|p| p.detail().to_string()),
                    internal_topics_to_create: to_create,
                    total_tasks: c.total_tasks(),
                },
                tasks,
            )
        }
    };
    let mut subs: Vec<_> = topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    let sorted = |v: &mut Vec<String>| {
        v.sort();
        v.dedup();
    };
    let subtopologies = subs
        .into_iter()
        .map(|s| {
            let mut row = SubtopologyRow {
                id: s.id.clone(),
                stateful: s.is_stateful(),
                tasks: tasks.get(&s.id).copied(),
                source_topics: s.source_topics.clone(),
                source_topic_regex: s.source_topic_regex.clone(),
                repartition_source_topics: s
                    .repartition_source_topics
                    .iter()
                    .map(|t| t.name.clone())
                    .collect(),
                repartition_sink_topics: s.repartition_sink_topics.clone(),
                changelog_topics: s
                    .state_changelog_topics
                    .iter()
                    .map(|t| t.name.clone())
                    .collect(),
                copartition_groups: s
                    .copartition_groups
                    .iter()
                    .map(|g| g.iter().cloned().collect())
                    .collect(),
            };
            sorted(&mut row.source_topics);
            sorted(&mut row.source_topic_regex);
            sorted(&mut row.repartition_source_topics);
            sorted(&mut row.repartition_sink_topics);
            sorted(&mut row.changelog_topics);
            row.copartition_groups.sort();
            row
        })
        .collect();
    Report {
        file: args.file.display().to_string(),
        application_id: args.application_id.clone(),
        epoch: topology.epoch,
        topic_partitions: metadata,
        subtopologies,
        configuration,
        notes,
    }
}

fn cell(items: &[String]) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join("\n")
    }
}

/// The table form of the report.
pub fn render_table(r: &Report) -> String {
    let mut out = String::new();
    let mut t = render::table::new(&[
        "SUBTOPOLOGY",
        "STATEFUL",
        "TASKS",
        "SOURCE TOPICS",
        "REPARTITION SOURCES",
        "REPARTITION SINKS",
        "CHANGELOGS",
        "COPARTITIONED",
    ]);
    for s in &r.subtopologies {
        let mut sources = s.source_topics.clone();
        sources.extend(s.source_topic_regex.iter().map(|p| format!("/{p}/")));
        let groups: Vec<String> = s
            .copartition_groups
            .iter()
            .map(|g| format!("{{{}}}", g.join(", ")))
            .collect();
        t.add_row(vec![
            s.id.clone(),
            if s.stateful { "yes" } else { "no" }.to_string(),
            s.tasks.map(|n| n.to_string()).unwrap_or_else(|| "-".into()),
            cell(&sources),
            cell(&s.repartition_source_topics),
            cell(&s.repartition_sink_topics),
            cell(&s.changelog_topics),
            cell(&groups),
        ]);
    }
    out.push_str(&render::table::render(&t));

    let c = &r.configuration;
    if !c.internal_topics_to_create.is_empty() {
        out.push_str("\nInternal topics the coordinator asks to create:\n");
        let mut t = render::table::new(&["TOPIC", "PARTITIONS", "REPLICATION"]);
        for it in &c.internal_topics_to_create {
            t.add_row(vec![
                it.name.clone(),
                it.partitions.to_string(),
                if it.replication_factor < 0 {
                    "default".to_string()
                } else {
                    it.replication_factor.to_string()
                },
            ]);
        }
        out.push_str(&render::table::render(&t));
    }
    out.push('\n');
    if c.ready {
        let n = r.subtopologies.len();
        let when = if c.internal_topics_to_create.is_empty() {
            "Ready"
        } else {
            "Ready once the internal topics above exist"
        };
        out.push_str(&format!(
            "{when}: {} tasks in {n} {}.\n",
            c.total_tasks,
            if n == 1 {
                "subtopology"
            } else {
                "subtopologies"
            }
        ));
    } else {
        match (&c.error_code, &c.detail) {
            (Some(code), Some(d)) => {
                out.push_str(&format!("Not accepted: {} ({code}): {d}\n", c.status))
            }
            (_, Some(d)) => out.push_str(&format!("Not ready: {}: {d}\n", c.status)),
            _ => out.push_str(&format!("Not ready: {}\n", c.status)),
        }
    }
    let assumed: Vec<String> = r
        .topic_partitions
        .iter()
        .map(|(t, n)| format!("{t}={n}"))
        .collect();
    if !assumed.is_empty() {
        out.push_str(&format!("Assumed partitions: {}\n", assumed.join(", ")));
    }
    for n in &r.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
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
