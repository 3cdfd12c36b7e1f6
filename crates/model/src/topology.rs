//! The topology as a Streams member sends it in its joining heartbeat (KIP-1071 `Topology`).
//!
//! This is also the JSON topology file format (see README, "Topology files"). Field names are the
//! protocol's, in snake_case. One deliberate difference from the wire: copartition groups name
//! their topics instead of giving indexes into the subtopology's topic lists, which keeps files
//! readable; the wire codec converts between the two.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A topology with its epoch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topology {
    /// Topology epoch (KIP-1071: defaults to 0).
    #[serde(default)]
    pub epoch: i32,
    pub subtopologies: Vec<Subtopology>,
}

/// One subtopology: the unit that is split into tasks, one per input partition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Subtopology {
    /// Subtopology id, a string in the protocol ("0", "1", ...).
    pub id: String,
    /// External (user) topics this subtopology reads.
    #[serde(default)]
    pub source_topics: Vec<String>,
    /// Source topic patterns (KIP-1071 allows them; shipped brokers reject them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_topic_regex: Vec<String>,
    /// Repartition topics this subtopology writes to.
    #[serde(default)]
    pub repartition_sink_topics: Vec<String>,
    /// Repartition topics this subtopology reads; created by the coordinator.
    #[serde(default)]
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Changelog topics of this subtopology's state stores; created by the coordinator.
    #[serde(default)]
    pub state_changelog_topics: Vec<TopicInfo>,
    /// Groups of input topics that must have the same number of partitions (joins).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copartition_groups: Vec<BTreeSet<String>>,
}

/// An internal topic: name, partition count (0 = let the coordinator decide), replication
/// factor (0 = broker default) and topic configs.
#[derive(
    Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct TopicInfo {
    pub name: String,
    #[serde(default)]
    pub partitions: i32,
    #[serde(default)]
    pub replication_factor: i16,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub topic_configs: BTreeMap<String, String>,
}

impl TopicInfo {
    pub fn named(name: impl Into<String>) -> Self {
        TopicInfo {
            name: name.into(),
            ..TopicInfo::default()
        }
    }
}

impl Subtopology {
    /// A subtopology is stateful when it has a state changelog topic.
    pub fn is_stateful(&self) -> bool {
        !self.state_changelog_topics.is_empty()
    }

    /// Source and repartition-source topic names: the topics whose partitions make the tasks.
    pub fn input_topics(&self) -> impl Iterator<Item = &str> + '_ {
        self.source_topics.iter().map(String::as_str).chain(
            self.repartition_source_topics
                .iter()
                .map(|t| t.name.as_str()),
        )
    }
}

impl Topology {
    pub fn subtopology(&self, id: &str) -> Option<&Subtopology> {
        self.subtopologies.iter().find(|s| s.id == id)
    }

    /// Every topic the topology needs to exist: sources, repartition sources and changelogs.
    pub fn required_topics(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for s in &self.subtopologies {
            out.extend(s.source_topics.iter().cloned());
            out.extend(s.repartition_source_topics.iter().map(|t| t.name.clone()));
            out.extend(s.state_changelog_topics.iter().map(|t| t.name.clone()));
        }
        out
    }

    /// The same topology with every list sorted, so that two topologies that differ only in
    /// order compare equal. The coordinator compares topologies in this form.
    pub fn normalized(&self) -> Topology {
        let mut t = self.clone();
        t.subtopologies.sort_by(|a, b| a.id.cmp(&b.id));
        for s in &mut t.subtopologies {
            s.source_topics.sort();
            s.source_topic_regex.sort();
            s.repartition_sink_topics.sort();
            s.repartition_source_topics.sort();
            s.state_changelog_topics.sort();
            s.copartition_groups.sort();
        }
        t
    }

    /// Equal as the broker's topology records are (`StreamsTopology.equals` in Apache 4.1 to
    /// 4.4): the same epoch, the same subtopologies by id, and every list in the same order.
    /// A member that sends its lists in another order sends a different topology. Kept apart
    /// from `same_content` because files carry no wire order (see `check-epoch`).
    pub fn same_record(&self, other: &Topology) -> bool {
        fn by_id(t: &Topology) -> BTreeMap<&str, &Subtopology> {
            t.subtopologies.iter().map(|s| (s.id.as_str(), s)).collect()
        }
        self.epoch == other.epoch && by_id(self) == by_id(other)
    }

    /// Equal content, ignoring the epoch and the order of lists.
    pub fn same_content(&self, other: &Topology) -> bool {
        let a = self.normalized();
        let b = other.normalized();
        a.subtopologies == b.subtopologies
    }
}
