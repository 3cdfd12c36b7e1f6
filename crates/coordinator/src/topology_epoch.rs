//! The topology epoch rules for a joining member, and what shipped brokers do instead.
//!
//! KIP-1071, with ER the topology epoch of the request and EG the group's:
//! ER = EG: the topologies must be equal, else STREAMS_INVALID_TOPOLOGY_EPOCH;
//! ER < EG: STREAMS_TOPOLOGY_FENCED; ER > EG + 1: STREAMS_INVALID_TOPOLOGY_EPOCH;
//! ER = EG + 1: the group's topology is updated.
//!
//! Apache Kafka 4.1 to 4.4 implement none of this (reference: kafka-wire-protocol.md §6.3): a
//! lower epoch joins with STALE_TOPOLOGY, any other difference is INVALID_REQUEST "Topology
//! updates are not supported yet.". Both verdicts come from here, so `check-epoch` and the local
//! coordinator can never disagree.

use schemars::JsonSchema;
use serde::Serialize;

use model::{ErrorCode, Topology};

/// What the KIP's rules do with a joining member's topology.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum TopologyVerdict {
    /// The group has no topology yet: the request's becomes the group's.
    Initialize,
    /// Same epoch, same topology.
    Unchanged,
    /// Epoch + 1: the group's topology is replaced.
    Update,
    /// The join is rejected with this error.
    Reject { error: ErrorCode, message: String },
}

impl TopologyVerdict {
    pub fn is_accepted(&self) -> bool {
        !matches!(self, TopologyVerdict::Reject { .. })
    }
}

/// The KIP-1071 rules. `group` is the group's current topology, if it has one.
pub fn kip_verdict(group: Option<&Topology>, request: &Topology) -> TopologyVerdict {
    if request.epoch < 0 {
        return TopologyVerdict::Reject {
            error: ErrorCode::StreamsInvalidTopologyEpoch,
            message: format!("Topology epoch {} must not be negative.", request.epoch),
        };
    }
    let Some(group) = group else {
        return TopologyVerdict::Initialize;
    };
    let (er, eg) = (i64::from(request.epoch), i64::from(group.epoch));
    if er == eg {
        if request.same_content(group) {
            TopologyVerdict::Unchanged
        } else {
            TopologyVerdict::Reject {
                error: ErrorCode::StreamsInvalidTopologyEpoch,
                message: format!(
                    "Topology epoch {er} equals the group's, but the topology differs: bump the topology epoch to {} to deploy it.",
                    eg + 1
                ),
            }
        }
    } else if er < eg {
        TopologyVerdict::Reject {
            error: ErrorCode::StreamsTopologyFenced,
            message: format!("Topology epoch {er} is older than the group's topology epoch {eg}."),
        }
    } else if er > eg + 1 {
        TopologyVerdict::Reject {
            error: ErrorCode::StreamsInvalidTopologyEpoch,
            message: format!(
                "Topology epoch {er} skips ahead of the group's topology epoch {eg}: only {} is accepted.",
                eg + 1
            ),
        }
    } else {
        TopologyVerdict::Update
    }
}

/// What a shipped Apache Kafka broker (4.1 to 4.4) does with the same join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum BrokerVerdict {
    /// The group has no topology: the request's is stored.
    Initialize,
    /// Same epoch, same topology: accepted.
    Accepted,
    /// A lower epoch: the member joins, runs the group's topology and gets STALE_TOPOLOGY.
    AcceptedStale,
    /// Rejected with INVALID_REQUEST "Topology updates are not supported yet.".
    Rejected { error: ErrorCode, message: String },
}

impl BrokerVerdict {
    pub fn is_accepted(&self) -> bool {
        !matches!(self, BrokerVerdict::Rejected { .. })
    }
}

/// The message shipped brokers return for any topology change.
pub const BROKER_UPDATE_MESSAGE: &str = "Topology updates are not supported yet.";

/// Shipped brokers compare topologies as records, the epoch included.
pub fn broker_verdict(group: Option<&Topology>, request: &Topology) -> BrokerVerdict {
    let Some(group) = group else {
        return BrokerVerdict::Initialize;
    };
    if request.epoch < group.epoch {
        BrokerVerdict::AcceptedStale
    } else if request.same_record(group) {
        BrokerVerdict::Accepted
    } else {
        BrokerVerdict::Rejected {
            error: ErrorCode::InvalidRequest,
            message: BROKER_UPDATE_MESSAGE.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::Subtopology;

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
    fn no_group_topology_initializes() {
        assert_eq!(
            kip_verdict(None, &topo(0, "a")),
            TopologyVerdict::Initialize
        );
        assert_eq!(
            broker_verdict(None, &topo(5, "a")),
            BrokerVerdict::Initialize
        );
    }

    #[test]
    fn same_epoch_same_topology_is_accepted() {
        assert_eq!(
            kip_verdict(Some(&topo(3, "a")), &topo(3, "a")),
            TopologyVerdict::Unchanged
        );
        assert_eq!(
            broker_verdict(Some(&topo(3, "a")), &topo(3, "a")),
            BrokerVerdict::Accepted
        );
    }

    #[test]
    fn same_epoch_different_topology_is_invalid_epoch() {
        let v = kip_verdict(Some(&topo(3, "a")), &topo(3, "b"));
        assert!(matches!(
            v,
            TopologyVerdict::Reject {
                error: ErrorCode::StreamsInvalidTopologyEpoch,
                ..
            }
        ));
        let b = broker_verdict(Some(&topo(3, "a")), &topo(3, "b"));
        assert!(matches!(
            b,
            BrokerVerdict::Rejected {
                error: ErrorCode::InvalidRequest,
                ..
            }
        ));
    }

    #[test]
    fn lower_epoch_is_fenced() {
        let v = kip_verdict(Some(&topo(3, "a")), &topo(2, "a"));
        assert!(matches!(
            v,
            TopologyVerdict::Reject {
                error: ErrorCode::StreamsTopologyFenced,
                ..
            }
        ));
        assert_eq!(
            broker_verdict(Some(&topo(3, "a")), &topo(2, "a")),
            BrokerVerdict::AcceptedStale
        );
    }

    #[test]
    fn epoch_jump_of_more_than_one_is_invalid_epoch() {
        let v = kip_verdict(Some(&topo(3, "a")), &topo(5, "b"));
        assert!(matches!(
            v,
            TopologyVerdict::Reject {
                error: ErrorCode::StreamsInvalidTopologyEpoch,
                ..
            }
        ));
        assert!(!broker_verdict(Some(&topo(3, "a")), &topo(5, "b")).is_accepted());
    }

    #[test]
    fn epoch_plus_one_updates() {
        assert_eq!(
            kip_verdict(Some(&topo(3, "a")), &topo(4, "b")),
            TopologyVerdict::Update
        );
        assert_eq!(
            kip_verdict(Some(&topo(3, "a")), &topo(4, "a")),
            TopologyVerdict::Update
        );
        // Shipped brokers include the epoch in equality, so even the same topology is refused.
        assert!(!broker_verdict(Some(&topo(3, "a")), &topo(4, "a")).is_accepted());
    }

    #[test]
    fn negative_epoch_is_invalid() {
        assert!(!kip_verdict(None, &topo(-1, "a")).is_accepted());
    }

    #[test]
    fn order_of_lists_does_not_make_a_difference() {
        let mut a = topo(1, "a");
        a.subtopologies[0].source_topics = vec!["x".into(), "y".into()];
        let mut b = a.clone();
        b.subtopologies[0].source_topics.reverse();
        assert_eq!(kip_verdict(Some(&a), &b), TopologyVerdict::Unchanged);
    }
}
