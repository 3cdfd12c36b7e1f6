//! What each described member's interactive-query endpoint serves, as its coordinator computes it.

use crate::topology::topic_counts::topic_metadata;
use coordinator::endpoints;
use model::group::{ServedPartitions, Snapshot};
use model::KafkaVersion;

/// Fill in what each member's interactive-query endpoint serves, as the group coordinator of
/// the recorded release computes it for its heartbeat responses (`coordinator::endpoints`):
/// from the member's current assignment, the described topology and the topics' partition
/// counts ([`topic_metadata`]). Members without an endpoint, and groups without a topology,
/// get none.
pub fn fill_endpoint_partitions(snapshot: &mut Snapshot) {
    let version = snapshot.kafka_version.unwrap_or(KafkaVersion::NEWEST);
    for g in &mut snapshot.groups {
        let Some(subs) = g.topology.subtopologies.as_ref() else {
            continue;
        };
        let topics: endpoints::SubtopologyTopics = subs
            .iter()
            .map(|s| {
                let mut names = s.source_topics.clone();
                names.extend(s.repartition_source_topics.iter().map(|t| t.name.clone()));
                (s.id.clone(), names)
            })
            .collect();
        let counts = topic_metadata(g, 0);
        for m in &mut g.members {
            m.endpoint_partitions = m.user_endpoint.as_ref().and_then(|e| {
                endpoints::member_partitions(version, e, &m.assignment, Some(&topics), &counts)
                    .ok()
                    .map(|p| ServedPartitions {
                        active: p.active,
                        standby: p.standby,
                    })
            });
        }
    }
}
