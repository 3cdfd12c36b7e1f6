//! `topology`: a topology's subtopologies, the tasks they make and the internal topics the
//! coordinator would create, for assumed source topic partition counts.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use model::{ErrorCode, StatusCode, Subtopology, Topology};

use crate::topology::topic_counts::ReadFrom;
use crate::topology::ResolvedTopology;
use coordinator::topics::{configure, CreatableTopic, TopicMetadata, TopicProblem};

/// One subtopology in the report.
#[derive(Debug, Serialize, JsonSchema)]
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

/// Where the topology stands: `READY`, the heartbeat status the group would get (e.g.
/// `MISSING_SOURCE_TOPICS`), or the error of an invalid topology (`STREAMS_INVALID_TOPOLOGY`).
/// Serialised as that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigurationStatus {
    Ready,
    Status(StatusCode),
    Invalid(ErrorCode),
}

impl ConfigurationStatus {
    pub fn name(self) -> String {
        match self {
            ConfigurationStatus::Ready => "READY".to_string(),
            ConfigurationStatus::Status(s) => s.name(),
            ConfigurationStatus::Invalid(e) => e.name(),
        }
    }
}

impl std::fmt::Display for ConfigurationStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for ConfigurationStatus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// What the coordinator would do with the topology.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ConfigurationReport {
    /// True when the topology is ready once the internal topics below are created.
    pub ready: bool,
    pub status: ConfigurationStatus,
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
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(rename = "Report")]
pub struct TopologyReport {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    pub epoch: i32,
    /// Partition counts of the topics (sources, internal topics a group shows, any
    /// --topic-partitions): assumed, except those named in `partitions_read`.
    pub topic_partitions: BTreeMap<String, i32>,
    /// Where the counts named in `partitions_read` were read: `cluster` for `group:ID`,
    /// `snapshot` for a snapshot; absent for a topology file (every count assumed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partitions_read_from: Option<ReadFrom>,
    /// The topics of `topic_partitions` whose counts were read, not assumed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partitions_read: Vec<String>,
    pub subtopologies: Vec<SubtopologyRow>,
    pub configuration: ConfigurationReport,
    pub notes: Vec<String>,
}

/// What the coordinator makes of `t.topology` on the topics in `metadata` (the assumed counts).
pub fn report(
    t: &ResolvedTopology,
    application_id: Option<&str>,
    metadata: TopicMetadata,
) -> TopologyReport {
    let (configuration, tasks) = configuration(&t.topology, &metadata);
    let mut subs: Vec<&Subtopology> = t.topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    TopologyReport {
        file: t.label.clone(),
        application_id: application_id.map(str::to_string),
        epoch: t.topology.epoch,
        topic_partitions: metadata,
        partitions_read_from: None,
        partitions_read: Vec::new(),
        subtopologies: subs
            .into_iter()
            .map(|s| row(s, tasks.get(&s.id).copied()))
            .collect(),
        configuration,
        notes: t.notes.clone(),
    }
}

impl TopologyReport {
    /// The report, saying which counts were read and where (see
    /// [`read_counts`](crate::topology::topic_counts::read_counts)).
    pub fn with_read_counts(mut self, read: Option<(ReadFrom, Vec<String>)>) -> Self {
        if let Some((from, topics)) = read {
            self.partitions_read = topics
                .into_iter()
                .filter(|t| self.topic_partitions.contains_key(t))
                .collect();
            self.partitions_read_from = Some(from).filter(|_| !self.partitions_read.is_empty());
        }
        self
    }
}

/// What the coordinator asks for, then what it does once those topics exist; and the tasks per
/// subtopology then.
fn configuration(
    topology: &Topology,
    metadata: &TopicMetadata,
) -> (ConfigurationReport, BTreeMap<String, i32>) {
    let mut to_create = Vec::new();
    let result = configure(topology, metadata).and_then(|c| match &c.problem {
        Some(TopicProblem::MissingInternalTopics {
            to_create: list, ..
        }) => {
            to_create = list.clone();
            let mut after = metadata.clone();
            for t in list {
                after.insert(t.name.clone(), t.partitions);
            }
            configure(topology, &after)
        }
        _ => Ok(c),
    });
    match result {
        Err(invalid) => (
            ConfigurationReport {
                ready: false,
                status: ConfigurationStatus::Invalid(invalid.error_code()),
                error_code: Some(invalid.error_code().code()),
                detail: Some(invalid.message),
                internal_topics_to_create: Vec::new(),
                total_tasks: 0,
            },
            BTreeMap::new(),
        ),
        Ok(c) => (
            ConfigurationReport {
                ready: c.is_ready(),
                status: c.problem.as_ref().map_or(ConfigurationStatus::Ready, |p| {
                    ConfigurationStatus::Status(p.status_code())
                }),
                error_code: None,
                detail: c.problem.as_ref().map(|p| p.detail().to_string()),
                internal_topics_to_create: to_create,
                total_tasks: c.total_tasks(),
            },
            c.subtopologies
                .iter()
                .map(|s| (s.id.clone(), s.num_tasks))
                .collect(),
        ),
    }
}

/// One subtopology's row: its lists sorted and without duplicates.
fn row(s: &Subtopology, tasks: Option<i32>) -> SubtopologyRow {
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v.dedup();
        v
    };
    let names = |ts: &[model::TopicInfo]| ts.iter().map(|t| t.name.clone()).collect();
    let mut copartition_groups: Vec<Vec<String>> = s
        .copartition_groups
        .iter()
        .map(|g| g.iter().cloned().collect())
        .collect();
    copartition_groups.sort();
    SubtopologyRow {
        id: s.id.clone(),
        stateful: s.is_stateful(),
        tasks,
        source_topics: sorted(s.source_topics.clone()),
        source_topic_regex: sorted(s.source_topic_regex.clone()),
        repartition_source_topics: sorted(names(&s.repartition_source_topics)),
        repartition_sink_topics: sorted(s.repartition_sink_topics.clone()),
        changelog_topics: sorted(names(&s.state_changelog_topics)),
        copartition_groups,
    }
}
