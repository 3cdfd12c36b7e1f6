//! `topology show`: the picture of a topology, with the partition counts that are known (a
//! snapshot's or a live group's, and the ones the user gives) and the tasks they make.

use std::collections::BTreeMap;

use crate::topology::picture::{picture as draw, Picture};
use crate::topology::report::report;
use crate::topology::topic_counts::group_metadata;
use crate::topology::ResolvedTopology;
use coordinator::topics::TopicMetadata;

/// Partition counts the user gives: every source topic (`all`), then single topics.
#[derive(Clone, Debug, Default)]
pub struct GivenCounts {
    pub all: Option<i32>,
    pub topics: Vec<(String, i32)>,
}

/// The picture of `t`. Counts nobody knows are left out rather than assumed: a picture that
/// shows "8 partitions" is read as a fact.
pub fn picture(t: &ResolvedTopology, given: &GivenCounts) -> Picture {
    let mut known: TopicMetadata = match &t.group {
        Some(g) => group_metadata(g, 0),
        None => TopicMetadata::new(),
    };
    known.retain(|_, n| *n > 0);
    if let Some(n) = given.all {
        for s in &t.topology.subtopologies {
            for topic in &s.source_topics {
                known.entry(topic.clone()).or_insert(n);
            }
        }
    }
    for (topic, n) in &given.topics {
        known.insert(topic.clone(), *n);
    }
    let sources_known = t
        .topology
        .subtopologies
        .iter()
        .flat_map(|s| &s.source_topics)
        .all(|s| known.contains_key(s));
    let mut tasks = BTreeMap::new();
    if sources_known {
        // What the coordinator decides for the internal topics, and the tasks they make.
        let r = report(t, None, known.clone());
        for created in &r.configuration.internal_topics_to_create {
            known
                .entry(created.name.clone())
                .or_insert(created.partitions);
        }
        for s in &r.subtopologies {
            if let Some(n) = s.tasks {
                tasks.insert(s.id.clone(), n);
            }
        }
    }
    draw(&t.label, &t.topology, t.graph.as_ref(), &known, &tasks)
}
