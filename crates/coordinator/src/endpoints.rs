//! The interactive-query map (`PartitionsByUserEndpoint` in heartbeat responses): for each
//! member with a user endpoint (`application.server`), the topic partitions its tasks read.
//!
//! A task (subtopology S, partition p) stands for partition p of every source and
//! repartition-source topic of S; changelogs and sinks are not listed. Releases differ in what
//! happens when a topic of S has fewer partitions than S has tasks (topics of one subtopology
//! need not be copartitioned):
//! - 4.2.2, 4.3.2 and 4.4.0 keep only partitions the topic has and leave out a topic with none
//!   (`EndpointToPartitionsManager.topicPartitionListForTask`; KAFKA-20885 restored this in
//!   4.3.2);
//! - 4.1.2 and 4.3.1 list every task's partition unless the topic has fewer partitions than the
//!   member has tasks of S, and then the lowest ones (as many as the topic has).
//!
//! 4.4 lists warm-up tasks with the standbys. A topic the coordinator's metadata lacks, or a
//! task of a subtopology the configured topology lacks, makes Apache throw (the heartbeat then
//! fails with UNKNOWN_SERVER_ERROR): [`MapError`].
//!
//! Apache's order of topics within an entry follows Java hash sets and, for some lists, a
//! per-JVM random seed; this module sorts topics by name and partitions ascending, and the
//! oracle compares in that order.

use crate::profile::Profile;
use std::collections::BTreeMap;

use crate::topics::{ConfiguredSubtopology, TopicMetadata};
use model::heartbeat::{Endpoint, EndpointPartitions, TopicPartitions};
use model::{Assignment, KafkaVersion, TaskSet};

/// Why Apache cannot build a member's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// The topology is not configured (missing or mis-partitioned source topics).
    Unconfigured,
    /// The member holds tasks of a subtopology the configured topology does not have.
    UnknownSubtopology(String),
    /// A source or repartition-source topic is not in the metadata.
    MissingTopic(String),
}

/// Subtopology id → its source and repartition-source topics.
pub type SubtopologyTopics = BTreeMap<String, Vec<String>>;

/// The topics each configured subtopology reads.
pub fn subtopology_topics(subtopologies: &[ConfiguredSubtopology]) -> SubtopologyTopics {
    subtopologies
        .iter()
        .map(|s| {
            let mut topics = s.source_topics.clone();
            topics.extend(s.repartition_source_topics.keys().cloned());
            (s.id.clone(), topics)
        })
        .collect()
}

/// One member's entry: `endpoint`, and the partitions its `assigned` tasks read.
/// `topics` is `None` while the topology is not configured.
pub fn member_partitions(
    version: KafkaVersion,
    endpoint: &Endpoint,
    assigned: &Assignment,
    topics: Option<&SubtopologyTopics>,
    metadata: &TopicMetadata,
) -> Result<EndpointPartitions, MapError> {
    let topics = topics.ok_or(MapError::Unconfigured)?;
    let standby = if version.endpoint_map_lists_warmups_as_standbys() {
        assigned.standby.union(&assigned.warmup)
    } else {
        assigned.standby.clone()
    };
    Ok(EndpointPartitions {
        endpoint: endpoint.clone(),
        active: topic_partitions(version, &assigned.active, topics, metadata)?,
        standby: topic_partitions(version, &standby, topics, metadata)?,
    })
}

fn topic_partitions(
    version: KafkaVersion,
    tasks: &TaskSet,
    topics: &SubtopologyTopics,
    metadata: &TopicMetadata,
) -> Result<Vec<TopicPartitions>, MapError> {
    let mut out = Vec::new();
    for (subtopology, partitions) in tasks.subtopologies() {
        let names = topics
            .get(subtopology)
            .ok_or_else(|| MapError::UnknownSubtopology(subtopology.to_string()))?;
        for topic in names {
            let count = *metadata
                .get(topic)
                .ok_or_else(|| MapError::MissingTopic(topic.clone()))?;
            let listed: Vec<i32> = if version.endpoint_map_keeps_existing_partitions_only() {
                partitions.iter().filter(|p| *p < count).collect()
            } else if (count as usize) < partitions.len() {
                partitions.iter().take(count.max(0) as usize).collect()
            } else {
                partitions.iter().collect()
            };
            if listed.is_empty() && version.endpoint_map_keeps_existing_partitions_only() {
                continue;
            }
            out.push(TopicPartitions {
                topic: topic.clone(),
                partitions: listed,
            });
        }
    }
    out.sort_by(|a, b| (&a.topic, &a.partitions).cmp(&(&b.topic, &b.partitions)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(entries: &[(&str, &[i32])]) -> TaskSet {
        let mut set = TaskSet::default();
        for (s, ps) in entries {
            for p in *ps {
                set.insert(s, *p);
            }
        }
        set
    }

    fn endpoint() -> Endpoint {
        Endpoint {
            host: "app-1".into(),
            port: 8080,
        }
    }

    /// Subtopology 0 reads `wide` (4 partitions) and `narrow` (2): not copartitioned.
    fn setup() -> (SubtopologyTopics, TopicMetadata) {
        let topics = SubtopologyTopics::from([
            (
                "0".to_string(),
                vec!["wide".to_string(), "narrow".to_string()],
            ),
            ("1".to_string(), vec!["app-repartition".to_string()]),
        ]);
        let metadata = TopicMetadata::from([
            ("wide".to_string(), 4),
            ("narrow".to_string(), 2),
            ("app-repartition".to_string(), 4),
        ]);
        (topics, metadata)
    }

    fn listed(v: &[TopicPartitions]) -> Vec<(String, Vec<i32>)> {
        v.iter()
            .map(|t| (t.topic.clone(), t.partitions.clone()))
            .collect()
    }

    #[test]
    fn releases_since_4_3_2_keep_only_partitions_that_exist() {
        let (topics, metadata) = setup();
        let assigned = Assignment {
            active: tasks(&[("0", &[1, 3])]),
            standby: tasks(&[("0", &[2]), ("1", &[2])]),
            warmup: tasks(&[("1", &[0])]),
        };
        for v in [KafkaVersion::V4_2, KafkaVersion::V4_3] {
            let e = member_partitions(v, &endpoint(), &assigned, Some(&topics), &metadata).unwrap();
            assert_eq!(
                listed(&e.active),
                [("narrow".into(), vec![1]), ("wide".into(), vec![1, 3])]
            );
            // Partition 2 of `narrow` does not exist: the topic is left out.
            assert_eq!(
                listed(&e.standby),
                [
                    ("app-repartition".into(), vec![2]),
                    ("wide".into(), vec![2])
                ]
            );
        }
        // 4.4 lists the warm-up task with the standbys.
        let e = member_partitions(
            KafkaVersion::V4_4,
            &endpoint(),
            &assigned,
            Some(&topics),
            &metadata,
        )
        .unwrap();
        assert_eq!(e.standby[0].partitions, vec![0, 2]);
    }

    #[test]
    fn releases_4_1_and_4_3_1_cut_only_when_the_topic_has_fewer_partitions_than_tasks() {
        let (topics, metadata) = setup();
        let one = Assignment {
            active: tasks(&[("0", &[3])]),
            ..Assignment::default()
        };
        let three = Assignment {
            active: tasks(&[("0", &[1, 2, 3])]),
            ..Assignment::default()
        };
        for v in [KafkaVersion::V4_1, KafkaVersion::V4_3_1] {
            let e = member_partitions(v, &endpoint(), &one, Some(&topics), &metadata).unwrap();
            assert_eq!(
                listed(&e.active),
                [("narrow".into(), vec![3]), ("wide".into(), vec![3])]
            );
            let e = member_partitions(v, &endpoint(), &three, Some(&topics), &metadata).unwrap();
            assert_eq!(
                listed(&e.active),
                [
                    ("narrow".into(), vec![1, 2]),
                    ("wide".into(), vec![1, 2, 3])
                ]
            );
        }
    }

    #[test]
    fn what_apache_cannot_build_is_an_error() {
        let (topics, mut metadata) = setup();
        let assigned = Assignment {
            active: tasks(&[("1", &[0])]),
            ..Assignment::default()
        };
        let v = KafkaVersion::V4_4;
        assert_eq!(
            member_partitions(v, &endpoint(), &assigned, None, &metadata),
            Err(MapError::Unconfigured)
        );
        metadata.remove("app-repartition");
        assert_eq!(
            member_partitions(v, &endpoint(), &assigned, Some(&topics), &metadata),
            Err(MapError::MissingTopic("app-repartition".into()))
        );
        let unknown = Assignment {
            active: tasks(&[("7", &[0])]),
            ..Assignment::default()
        };
        assert_eq!(
            member_partitions(v, &endpoint(), &unknown, Some(&topics), &metadata),
            Err(MapError::UnknownSubtopology("7".into()))
        );
        // No tasks, nothing to look up.
        let none = Assignment::default();
        let e = member_partitions(v, &endpoint(), &none, Some(&topics), &metadata).unwrap();
        assert!(e.active.is_empty() && e.standby.is_empty());
    }
}
