//! Topic partition counts: the ones a described group implies, and the ones assumed for a
//! topology from `--partitions` and `--topic-partitions`. Every command that needs counts for
//! the coordinator (simulate, topology, check-epoch, diff) takes them from here.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use super::ResolvedTopology;
use coordinator::topics::TopicMetadata;
use model::group::GroupDescription;
use model::Topology;

/// Assumed partition counts: every source topic has `partitions` unless `overrides` gives its
/// count (0: the topic is missing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopicCounts {
    pub partitions: i32,
    pub overrides: Vec<(String, i32)>,
}

impl TopicCounts {
    /// Every source topic of `t` at `partitions`, then the overrides.
    pub fn for_topology(&self, t: &Topology) -> TopicMetadata {
        let mut m = source_topic_metadata(t, self.partitions);
        self.apply(&mut m);
        m
    }

    /// The topics a described group implies (see [`group_metadata`]), then the overrides.
    pub fn for_group(&self, g: &GroupDescription) -> TopicMetadata {
        let mut m = group_metadata(g, self.partitions);
        self.apply(&mut m);
        m
    }

    /// The overrides, over `m`.
    pub fn apply(&self, m: &mut TopicMetadata) {
        for (t, n) in &self.overrides {
            m.insert(t.clone(), *n);
        }
    }
}

/// The assumed topic partition counts: a group's topics as it shows them (a snapshot or a live
/// group), else every source topic at `counts.partitions`; then the overrides.
pub fn assumed_metadata(t: &ResolvedTopology, counts: &TopicCounts) -> TopicMetadata {
    match &t.group {
        Some(g) => counts.for_group(g),
        None => counts.for_topology(&t.topology),
    }
}

/// Where partition counts that were not assumed came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadFrom {
    /// A live group (`group:ID`): the cluster's topic metadata and the coordinator's describe.
    Cluster,
    /// A `describe --output json` snapshot, which recorded them from the cluster.
    Snapshot,
}

impl ReadFrom {
    /// How the text report names it.
    pub fn phrase(self) -> &'static str {
        match self {
            ReadFrom::Cluster => "read from the cluster",
            ReadFrom::Snapshot => "read from the snapshot",
        }
    }
}

/// Which of the counts [`assumed_metadata`] gives were read rather than assumed, and where:
/// `None` for a topology file. A group shows the counts of its input topics that exist (the
/// cluster's metadata listed their partitions) and of its internal topics (the coordinator's
/// describe); a topic given by `--topic-partitions` is assumed.
pub fn read_counts(t: &ResolvedTopology, counts: &TopicCounts) -> Option<(ReadFrom, Vec<String>)> {
    let g = t.group.as_ref()?;
    let from = if t.live {
        ReadFrom::Cluster
    } else {
        ReadFrom::Snapshot
    };
    let mut read: BTreeSet<&str> = g
        .offsets
        .iter()
        .filter(|o| o.end.is_some())
        .map(|o| o.topic.as_str())
        .collect();
    let internal = g.topology.subtopologies.iter().flatten().flat_map(|s| {
        s.repartition_source_topics
            .iter()
            .chain(&s.state_changelog_topics)
    });
    read.extend(
        internal
            .filter(|t| t.partitions > 0)
            .map(|t| t.name.as_str()),
    );
    for (t, _) in &counts.overrides {
        read.remove(t.as_str());
    }
    Some((from, read.into_iter().map(str::to_string).collect()))
}

/// Source topics of a topology, each with `partitions` partitions.
pub fn source_topic_metadata(t: &Topology, partitions: i32) -> BTreeMap<String, i32> {
    t.subtopologies
        .iter()
        .flat_map(|s| s.source_topics.iter())
        .map(|name| (name.clone(), partitions))
        .collect()
}

/// The topics a described group implies, with partition counts: internal topics with the counts
/// describe shows; source topics from the group's committed offsets, else from the largest
/// internal-topic count of their subtopology, else from the tasks assigned, else
/// `default_partitions`.
pub fn topic_metadata(g: &GroupDescription, default_partitions: i32) -> TopicMetadata {
    let mut out = TopicMetadata::new();
    let Some(subs) = g.topology.subtopologies.as_ref() else {
        return out;
    };
    // Partitions seen in committed offsets.
    let mut from_offsets: BTreeMap<&str, i32> = BTreeMap::new();
    for o in &g.offsets {
        let e = from_offsets.entry(o.topic.as_str()).or_insert(0);
        *e = (*e).max(o.partition.saturating_add(1));
    }
    // Tasks per subtopology seen in assignments.
    let mut from_tasks: BTreeMap<&str, i32> = BTreeMap::new();
    for m in &g.members {
        for a in [&m.assignment, &m.target_assignment] {
            for set in [&a.active, &a.standby, &a.warmup] {
                for (s, p) in set.iter() {
                    let e = from_tasks.entry(s).or_insert(0);
                    *e = (*e).max(p.saturating_add(1));
                }
            }
        }
    }
    for s in subs {
        for t in s
            .repartition_source_topics
            .iter()
            .chain(s.state_changelog_topics.iter())
        {
            if t.partitions > 0 && !s.source_topics.contains(&t.name) {
                out.insert(t.name.clone(), t.partitions);
            }
        }
    }
    for s in subs {
        let internal_max = s
            .repartition_source_topics
            .iter()
            .chain(s.state_changelog_topics.iter())
            .map(|t| t.partitions)
            .max()
            .filter(|n| *n > 0);
        for t in &s.source_topics {
            let n = from_offsets
                .get(t.as_str())
                .copied()
                .or(internal_max)
                .or_else(|| from_tasks.get(s.id.as_str()).copied())
                .unwrap_or(default_partitions);
            let e = out.entry(t.clone()).or_insert(n);
            *e = (*e).max(n);
        }
    }
    out
}

/// The topics a described group implies: [`topic_metadata`], and every internal topic
/// of its topology with the partition count describe shows.
pub fn group_metadata(g: &GroupDescription, default_partitions: i32) -> TopicMetadata {
    let mut metadata = topic_metadata(g, default_partitions);
    let described = g.topology.subtopologies.iter().flatten().flat_map(|d| {
        d.repartition_source_topics
            .iter()
            .chain(&d.state_changelog_topics)
    });
    for t in described.filter(|t| t.partitions > 0) {
        metadata.entry(t.name.clone()).or_insert(t.partitions);
    }
    metadata
}
