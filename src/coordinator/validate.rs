//! Request validation: the checks made before any group state is looked at.

use crate::model::heartbeat::{JOIN_EPOCH, STATIC_LEAVE_EPOCH};
use crate::model::{ErrorCode, HeartbeatRequest};

/// A request the coordinator refuses outright.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidRequest {
    pub error: ErrorCode,
    pub message: String,
}

fn invalid(message: impl Into<String>) -> InvalidRequest {
    InvalidRequest {
        error: ErrorCode::InvalidRequest,
        message: message.into(),
    }
}

pub fn validate(req: &HeartbeatRequest) -> Result<(), InvalidRequest> {
    if req.group_id.is_empty() {
        return Err(invalid("GroupId can't be empty."));
    }
    if req.member_id.is_empty() {
        return Err(invalid("MemberId can't be empty."));
    }
    if req.instance_id.as_deref() == Some("") {
        return Err(invalid("InstanceId can't be empty."));
    }
    if req.rack_id.as_deref() == Some("") {
        return Err(invalid("RackId can't be empty."));
    }
    let lists = [&req.active_tasks, &req.standby_tasks, &req.warmup_tasks];
    let sent = lists.iter().filter(|l| l.is_some()).count();
    if sent != 0 && sent != 3 {
        return Err(invalid(
            "If one of ActiveTasks, StandbyTasks and WarmupTasks is set, all three must be set.",
        ));
    }
    match req.member_epoch {
        JOIN_EPOCH => {
            if req.rebalance_timeout_ms == -1 {
                return Err(invalid("RebalanceTimeoutMs must be provided when joining."));
            }
            if lists
                .iter()
                .any(|l| l.as_ref().is_some_and(|t| !t.is_empty()))
            {
                return Err(invalid("Owned tasks must be empty when joining."));
            }
            let Some(topology) = &req.topology else {
                return Err(invalid("Topology must be provided when joining."));
            };
            for s in &topology.subtopologies {
                if !s.source_topic_regex.is_empty() {
                    return Err(invalid(
                        "Regular expressions for source topics are not supported by this coordinator.",
                    ));
                }
                if let Some(c) = s.state_changelog_topics.iter().find(|c| c.partitions != 0) {
                    return Err(InvalidRequest {
                        error: ErrorCode::StreamsInvalidTopology,
                        message: format!(
                            "Changelog topic {} must have an undefined partition count, but it is set to {}.",
                            c.name, c.partitions
                        ),
                    });
                }
            }
        }
        STATIC_LEAVE_EPOCH if req.instance_id.is_none() => {
            return Err(invalid(
                "InstanceId can't be null when leaving with epoch -2.",
            ));
        }
        e if e < STATIC_LEAVE_EPOCH => {
            return Err(invalid(format!("MemberEpoch {e} is invalid.")));
        }
        _ => {}
    }
    if req.member_epoch != JOIN_EPOCH && req.topology.is_some() {
        return Err(invalid("Topology can only be provided when (re-)joining."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{TaskSet, TopicInfo, Topology};

    fn join() -> HeartbeatRequest {
        HeartbeatRequest {
            group_id: "g".into(),
            member_id: "m".into(),
            member_epoch: 0,
            rebalance_timeout_ms: 1000,
            topology: Some(Topology::default()),
            ..HeartbeatRequest::default()
        }
    }

    fn err(req: HeartbeatRequest) -> InvalidRequest {
        validate(&req).unwrap_err()
    }

    #[test]
    fn a_good_join_passes() {
        assert!(validate(&join()).is_ok());
    }

    #[test]
    fn each_rule_has_its_error() {
        assert!(err(HeartbeatRequest {
            group_id: "".into(),
            ..join()
        })
        .message
        .contains("GroupId"));
        assert!(err(HeartbeatRequest {
            member_id: "".into(),
            ..join()
        })
        .message
        .contains("MemberId"));
        assert!(err(HeartbeatRequest {
            instance_id: Some("".into()),
            ..join()
        })
        .message
        .contains("InstanceId"));
        assert!(err(HeartbeatRequest {
            rack_id: Some("".into()),
            ..join()
        })
        .message
        .contains("RackId"));
        assert!(err(HeartbeatRequest {
            rebalance_timeout_ms: -1,
            ..join()
        })
        .message
        .contains("RebalanceTimeoutMs"));
        assert!(err(HeartbeatRequest {
            topology: None,
            ..join()
        })
        .message
        .contains("Topology must"));
        let partial = HeartbeatRequest {
            active_tasks: Some(TaskSet::new()),
            ..join()
        };
        assert!(err(partial).message.contains("all three"));
        let owned: TaskSet = [("0", 1)].into_iter().collect();
        let with_tasks = HeartbeatRequest {
            active_tasks: Some(owned),
            standby_tasks: Some(TaskSet::new()),
            warmup_tasks: Some(TaskSet::new()),
            ..join()
        };
        assert!(err(with_tasks).message.contains("empty when joining"));
        let static_leave = HeartbeatRequest {
            member_epoch: -2,
            topology: None,
            ..join()
        };
        assert!(err(static_leave).message.contains("epoch -2"));
        let bad_epoch = HeartbeatRequest {
            member_epoch: -3,
            topology: None,
            ..join()
        };
        assert!(err(bad_epoch).message.contains("-3"));
        let topo_later = HeartbeatRequest {
            member_epoch: 4,
            ..join()
        };
        assert!(err(topo_later).message.contains("only be provided"));
    }

    #[test]
    fn changelog_with_partitions_is_an_invalid_topology() {
        let mut t = Topology::default();
        t.subtopologies.push(crate::model::Subtopology {
            id: "0".into(),
            state_changelog_topics: vec![TopicInfo {
                partitions: 3,
                ..TopicInfo::named("c")
            }],
            ..Default::default()
        });
        let e = err(HeartbeatRequest {
            topology: Some(t),
            ..join()
        });
        assert_eq!(e.error, ErrorCode::StreamsInvalidTopology);
    }
}
