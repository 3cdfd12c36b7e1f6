//! Dry runs: what the coordinator would answer to a member joining with a given topology, for
//! `check-epoch`. The answer comes from the coordinator itself (not from a copy of its rules),
//! and `agrees` checks it against `topology_epoch::kip_verdict`.

use coordinator::topics::TopicMetadata;
use model::{ErrorCode, HeartbeatRequest, TaskSet, Topology};

use coordinator::topology_epoch::TopologyVerdict;
use coordinator::{Coordinator, GroupConfig, RequestContext};
use model::KafkaVersion;

/// The group's own topology was refused by the coordinator, so nothing can be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedRejected {
    pub error: ErrorCode,
    pub message: String,
}

impl std::fmt::Display for SeedRejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the group's own topology is not accepted by the local coordinator: {}: {}",
            self.error.name(),
            self.message
        )
    }
}

impl std::error::Error for SeedRejected {}

fn join_request(group_id: &str, member_id: &str, topology: &Topology) -> HeartbeatRequest {
    HeartbeatRequest {
        group_id: group_id.to_string(),
        member_id: member_id.to_string(),
        member_epoch: 0,
        rebalance_timeout_ms: 300_000,
        topology: Some(topology.clone()),
        active_tasks: Some(TaskSet::new()),
        standby_tasks: Some(TaskSet::new()),
        warmup_tasks: Some(TaskSet::new()),
        process_id: Some(format!("{member_id}-process")),
        ..HeartbeatRequest::default()
    }
}

/// Seed a coordinator of `version` with a group whose topology is `group_topology` (none: a new group), then
/// join a member with `new`. Returns the join's error code and message (`None`: accepted).
pub fn join_with(
    version: KafkaVersion,
    group_id: &str,
    group_topology: Option<&Topology>,
    new: &Topology,
    metadata: &TopicMetadata,
) -> Result<(Option<ErrorCode>, Option<String>), SeedRejected> {
    let mut c = Coordinator::for_version(version, GroupConfig::default());
    let ctx = RequestContext {
        now_ms: 0,
        client_id: "streams-group-check-epoch".into(),
        client_host: "/127.0.0.1".into(),
    };
    if let Some(t) = group_topology {
        let seed = c.heartbeat(
            &join_request(group_id, "existing-member", t),
            &ctx,
            metadata,
        );
        if let Some(error) = seed.response.error {
            return Err(SeedRejected {
                error,
                message: seed.response.error_message.unwrap_or_default(),
            });
        }
    }
    let out = c.heartbeat(&join_request(group_id, "new-member", new), &ctx, metadata);
    Ok((out.response.error, out.response.error_message))
}

/// Whether the coordinator's answer agrees with the topology epoch rules. A topology the rules
/// accept may still be refused for other reasons (STREAMS_INVALID_TOPOLOGY, INVALID_REQUEST),
/// but never on epoch grounds.
pub fn agrees(kip: &TopologyVerdict, error: Option<ErrorCode>) -> bool {
    let epoch_code = |e: ErrorCode| {
        matches!(
            e,
            ErrorCode::StreamsTopologyFenced | ErrorCode::StreamsInvalidTopologyEpoch
        )
    };
    match (kip, error) {
        (TopologyVerdict::Reject { error: k, .. }, Some(e)) => *k == e,
        (TopologyVerdict::Reject { .. }, None) => false,
        (_, Some(e)) => !epoch_code(e),
        (_, None) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coordinator::topology_epoch::kip_verdict;
    use model::Subtopology;
    use std::collections::BTreeMap;

    fn topo(epoch: i32, source: &str) -> Topology {
        Topology {
            epoch,
            subtopologies: vec![Subtopology {
                id: "0".into(),
                source_topics: vec![source.into()],
                ..Subtopology::default()
            }],
        }
    }

    #[test]
    fn the_coordinator_answer_matches_the_rules_for_every_row() {
        let md = BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 2)]);
        let group = topo(3, "a");
        for (new, want) in [
            (topo(3, "a"), None),
            (topo(3, "b"), Some(ErrorCode::StreamsInvalidTopologyEpoch)),
            (topo(2, "a"), Some(ErrorCode::StreamsTopologyFenced)),
            (topo(4, "b"), None),
            (topo(5, "b"), Some(ErrorCode::StreamsInvalidTopologyEpoch)),
        ] {
            let (error, _) = join_with(KafkaVersion::Kip, "g", Some(&group), &new, &md).unwrap();
            assert_eq!(error, want, "epoch {}", new.epoch);
            assert!(agrees(&kip_verdict(Some(&group), &new), error));
        }
        // A new group takes any topology.
        assert_eq!(
            join_with(KafkaVersion::Kip, "g", None, &topo(7, "b"), &md)
                .unwrap()
                .0,
            None
        );
    }

    #[test]
    fn disagreement_is_detected() {
        let v = kip_verdict(Some(&topo(3, "a")), &topo(4, "b"));
        assert!(!agrees(&v, Some(ErrorCode::StreamsTopologyFenced)));
        assert!(agrees(&v, Some(ErrorCode::StreamsInvalidTopology)));
    }
}
