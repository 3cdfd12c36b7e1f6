//! The coordinator's topology configuration (KIP-1071; Apache Kafka's `InternalTopicManager`):
//! given a topology and the cluster's topic partition counts, decide the partition count of
//! every internal topic, check copartitioning, find missing or mis-partitioned topics and, when
//! everything is in place, the number of tasks of every subtopology.
//!
//! Pipeline ([`configure`]; the first problem stops it):
//! 0. the topology's own checks (`validate.rs`): STREAMS_INVALID_TOPOLOGY;
//! 1. every source topic must exist: MISSING_SOURCE_TOPICS (`checks.rs`);
//! 2. repartition topic counts (`repartition.rs`, Apache's `RepartitionTopics`): a fix-point from
//!    user-fixed counts and the subtopologies' inputs; a loop, or a repartition source that no
//!    subtopology writes, makes the topology invalid;
//! 3. copartition groups (`copartition.rs`, Apache's `CopartitionedTopicsEnforcer`):
//!    all-repartition groups take the topology-wide fixed count, else the max; groups with
//!    external topics need equal external counts (INCORRECTLY_PARTITIONED_TOPICS);
//! 4. changelog counts (`changelog.rs`, Apache's `ChangelogTopics`): max partition count over the
//!    subtopology's sources and repartition sources (the behaviour of Kafka PR #19373); a
//!    changelog that is also a source topic is not internal;
//! 5. internal topics that exist must have the expected count (INCORRECTLY_PARTITIONED_TOPICS);
//!    the others are to be created (MISSING_INTERNAL_TOPICS with the list) (`checks.rs`);
//! 6. ready: tasks per subtopology = max partition count over its input topics.
//!
//! Metadata entries with a partition count below 1 are treated as absent topics.

mod changelog;
mod checks;
mod copartition;
mod repartition;
mod validate;

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use crate::java::JavaHashMap;
use model::codes::{ErrorCode, StatusCode};
use model::topology::{Subtopology, Topology};

use changelog::changelog_counts;
use checks::{mispartitioned, missing_internal, missing_sources, wanted_internal_topics};
use copartition::enforce_copartitioning;
use repartition::repartition_counts;
use validate::validate;

/// Topic name -> partition count, as the cluster's metadata shows them.
pub type TopicMetadata = BTreeMap<String, i32>;

/// A subtopology of a ready topology.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfiguredSubtopology {
    pub id: String,
    /// Number of tasks: the max partition count over source and repartition-source topics.
    pub num_tasks: i32,
    /// True when the subtopology has a changelog topic.
    pub stateful: bool,
    pub source_topics: Vec<String>,
    /// Repartition source topic -> partition count.
    pub repartition_source_topics: BTreeMap<String, i32>,
    /// Changelog topic -> partition count (including a source topic used as changelog).
    pub changelog_topics: BTreeMap<String, i32>,
}

/// An internal topic as the coordinator asks for it to be created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CreatableTopic {
    pub name: String,
    pub partitions: i32,
    /// -1: the broker default.
    pub replication_factor: i16,
    pub configs: BTreeMap<String, String>,
}

/// Why the topology is not ready; sent to members as a heartbeat status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TopicProblem {
    MissingSourceTopics {
        detail: String,
        topics: Vec<String>,
    },
    #[serde(rename = "INCORRECTLY_PARTITIONED_TOPICS")]
    IncorrectlyPartitioned {
        detail: String,
    },
    MissingInternalTopics {
        detail: String,
        to_create: Vec<CreatableTopic>,
        /// The missing topics in the order Kafka 4.1 names them (one `HashMap` of every
        /// internal topic); not part of the JSON.
        #[serde(skip)]
        #[schemars(skip)]
        all_in_hash_order: Vec<String>,
    },
}

impl TopicProblem {
    pub fn status_code(&self) -> StatusCode {
        match self {
            TopicProblem::MissingSourceTopics { .. } => StatusCode::MissingSourceTopics,
            TopicProblem::IncorrectlyPartitioned { .. } => StatusCode::IncorrectlyPartitionedTopics,
            TopicProblem::MissingInternalTopics { .. } => StatusCode::MissingInternalTopics,
        }
    }

    /// The status detail text.
    pub fn detail(&self) -> &str {
        match self {
            TopicProblem::MissingSourceTopics { detail, .. }
            | TopicProblem::IncorrectlyPartitioned { detail }
            | TopicProblem::MissingInternalTopics { detail, .. } => detail,
        }
    }

    /// The status detail as Kafka 4.1 words it: every missing topic, source topics sorted,
    /// internal topics as a Java set prints them ("[a, b]").
    pub fn detail_as_in_4_1(&self) -> String {
        match self {
            TopicProblem::MissingSourceTopics { topics, .. } => {
                format!("Source topics {} are missing.", topics.join(", "))
            }
            TopicProblem::MissingInternalTopics {
                all_in_hash_order, ..
            } => format!(
                "Internal topics are missing: [{}]",
                all_in_hash_order.join(", ")
            ),
            TopicProblem::IncorrectlyPartitioned { detail } => detail.clone(),
        }
    }
}

/// The result of [`configure`].
///
/// * Ready (`problem` is `None`): `subtopologies` has every subtopology with its task count,
///   sorted by id; `internal_topics` lists every internal topic with its count.
/// * Not ready: `subtopologies` is empty (a coordinator assigns no tasks). `internal_topics`
///   lists the internal topics with their expected counts when those could be decided (missing
///   or mis-partitioned internal topics), and is empty otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Configuration {
    pub subtopologies: Vec<ConfiguredSubtopology>,
    pub internal_topics: Vec<CreatableTopic>,
    pub problem: Option<TopicProblem>,
}

impl Configuration {
    pub fn is_ready(&self) -> bool {
        self.problem.is_none()
    }

    /// Tasks of a subtopology (only when ready).
    pub fn num_tasks(&self, id: &str) -> Option<i32> {
        self.subtopologies
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.num_tasks)
    }

    /// Total number of tasks (0 when not ready).
    pub fn total_tasks(&self) -> i64 {
        self.subtopologies
            .iter()
            .map(|s| i64::from(s.num_tasks))
            .sum()
    }

    fn not_ready(problem: TopicProblem) -> Self {
        Configuration {
            subtopologies: Vec::new(),
            internal_topics: Vec::new(),
            problem: Some(problem),
        }
    }
}

/// A topology the coordinator rejects with STREAMS_INVALID_TOPOLOGY (130).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvalidTopology {
    pub message: String,
}

impl InvalidTopology {
    fn new(message: impl Into<String>) -> Self {
        InvalidTopology {
            message: message.into(),
        }
    }

    pub fn error_code(&self) -> ErrorCode {
        ErrorCode::StreamsInvalidTopology
    }
}

impl fmt::Display for InvalidTopology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InvalidTopology {}

/// `names` (duplicates ignored) in the iteration order of a `java.util.HashSet` or `HashMap`
/// they were added to in this order.
fn java_hash_order<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut m = JavaHashMap::<String>::new();
    for n in names {
        m.put(n.to_string());
    }
    m.iter().cloned().collect()
}

/// A topic's partition count, if it is known (exists, or was decided).
type Count<'a> = &'a dyn Fn(&str) -> Option<i32>;

/// Configure `topology` against `metadata`; see the module documentation.
pub fn configure(
    topology: &Topology,
    metadata: &TopicMetadata,
) -> Result<Configuration, InvalidTopology> {
    let mut subs: Vec<&Subtopology> = topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    validate(&subs)?;
    let existing = |t: &str| metadata.get(t).copied().filter(|c| *c >= 1);

    // 1. Missing source topics.
    if let Some(problem) = missing_sources(&subs, &existing) {
        return Ok(Configuration::not_ready(problem));
    }
    let walk = java_walk(topology, &subs);

    // 2. Repartition topic partition counts.
    let mut counts = repartition_counts(&walk, &existing)?;

    // 3. Copartitioning.
    if let Err(problem) = enforce_copartitioning(&walk, &existing, &mut counts)? {
        return Ok(Configuration::not_ready(problem));
    }

    let count_of = |t: &str| existing(t).or_else(|| counts.get(t).copied());

    // 4. Changelog partition counts.
    let changelogs = changelog_counts(&walk, &count_of)?;

    // 5. Internal topics: the create list, then what exists.
    let wanted = wanted_internal_topics(&subs, &counts, &changelogs);
    let internal_topics: Vec<CreatableTopic> = wanted.values().cloned().collect();
    let problem = mispartitioned(&walk, &wanted, &existing)
        .or_else(|| missing_internal(&subs, wanted, &existing));
    if let Some(problem) = problem {
        return Ok(Configuration {
            subtopologies: Vec::new(),
            internal_topics,
            problem: Some(problem),
        });
    }

    // 6. Ready.
    Ok(Configuration {
        subtopologies: subs.iter().map(|s| configured(s, &count_of)).collect(),
        internal_topics,
        problem: None,
    })
}

/// Apache walks the subtopologies in the order of its `HashMap` by id (filled in the request's
/// order); where that order matters (repartition counts decided in passes, the first
/// mis-partitioned topic named), so do we.
fn java_walk<'a>(topology: &Topology, subs: &[&'a Subtopology]) -> Vec<&'a Subtopology> {
    let by_id: BTreeMap<&str, &Subtopology> = subs.iter().map(|s| (s.id.as_str(), *s)).collect();
    java_hash_order(topology.subtopologies.iter().map(|s| s.id.as_str()))
        .iter()
        .filter_map(|id| by_id.get(id.as_str()).copied())
        .collect()
}

/// A subtopology of a ready topology: its tasks and topic partition counts.
fn configured(s: &Subtopology, count_of: Count<'_>) -> ConfiguredSubtopology {
    let mut source_topics = s.source_topics.clone();
    source_topics.sort();
    source_topics.dedup();
    let counts = |ts: &[model::TopicInfo]| -> BTreeMap<String, i32> {
        ts.iter()
            .map(|t| (t.name.clone(), count_of(&t.name).unwrap_or(0)))
            .collect()
    };
    ConfiguredSubtopology {
        id: s.id.clone(),
        num_tasks: s.input_topics().filter_map(count_of).max().unwrap_or(0),
        stateful: s.is_stateful(),
        source_topics,
        repartition_source_topics: counts(&s.repartition_source_topics),
        changelog_topics: counts(&s.state_changelog_topics),
    }
}

/// The internal topics a coordinator would create for `topology` on a cluster with `metadata`
/// (sorted by name), and any other topic problem it has. An invalid topology has neither: its
/// error is what the coordinator answers.
pub fn topics_to_create(
    topology: &Topology,
    metadata: &TopicMetadata,
) -> (Vec<CreatableTopic>, Option<TopicProblem>) {
    let Ok(c) = configure(topology, metadata) else {
        return (Vec::new(), None);
    };
    let mut create: Vec<CreatableTopic> = c
        .internal_topics
        .iter()
        .filter(|t| metadata.get(&t.name).is_none_or(|n| *n <= 0))
        .cloned()
        .collect();
    if let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = &c.problem {
        for t in to_create {
            if !create.iter().any(|x| x.name == t.name) {
                create.push(t.clone());
            }
        }
    }
    create.sort_by(|a, b| a.name.cmp(&b.name));
    let problem = c
        .problem
        .filter(|p| !matches!(p, TopicProblem::MissingInternalTopics { .. }));
    (create, problem)
}

#[cfg(test)]
mod tests;
