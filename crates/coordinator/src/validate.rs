//! Request validation: the checks a broker makes before the group coordinator looks at any
//! state, in the broker's order and with its messages.
//!
//! Three layers, as in Apache Kafka: the request handler's topic checks (`KafkaApis`), then the
//! coordinator service's unsupported-feature checks (which depend on the release), then its
//! structural checks (`GroupCoordinatorService.throwIfStreamsGroupHeartbeatRequestIsInvalid`).

use crate::profile::Profile;
use model::heartbeat::{JOIN_EPOCH, STATIC_LEAVE_EPOCH};
use model::topic_name::is_valid_topic_name;
use model::{ErrorCode, HeartbeatRequest, TaskSet, Topology};

use model::KafkaVersion;

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

fn invalid_topology(message: String) -> InvalidRequest {
    InvalidRequest {
        error: ErrorCode::StreamsInvalidTopology,
        message,
    }
}

/// Topics that belong to Kafka itself (`Topic.INTERNAL_TOPICS`).
const KAFKA_INTERNAL_TOPICS: [&str; 3] = [
    "__consumer_offsets",
    "__transaction_state",
    "__share_group_state",
];

pub fn validate(req: &HeartbeatRequest, version: KafkaVersion) -> Result<(), InvalidRequest> {
    if let Some(t) = &req.topology {
        check_topic_names(t)?;
    }
    check_supported_features(req, version)?;
    check_structure(req)
}

/// The request handler's checks on every topic a topology names, before the coordinator.
fn check_topic_names(t: &Topology) -> Result<(), InvalidRequest> {
    let mut required: Vec<&str> = Vec::new();
    for s in &t.subtopologies {
        let names = s
            .source_topics
            .iter()
            .map(String::as_str)
            .chain(s.repartition_sink_topics.iter().map(String::as_str))
            .chain(s.repartition_source_topics.iter().map(|i| i.name.as_str()))
            .chain(s.state_changelog_topics.iter().map(|i| i.name.as_str()));
        for n in names {
            if !required.contains(&n) {
                required.push(n);
            }
        }
    }
    let internal: Vec<&str> = required
        .iter()
        .copied()
        .filter(|n| KAFKA_INTERNAL_TOPICS.contains(n))
        .collect();
    if !internal.is_empty() {
        return Err(invalid_topology(format!(
            "Use of Kafka internal topics {} in a Kafka Streams topology is prohibited.",
            internal.join(",")
        )));
    }
    let bad: Vec<&str> = required
        .iter()
        .copied()
        .filter(|n| !is_valid_topic_name(n))
        .collect();
    if !bad.is_empty() {
        return Err(invalid_topology(format!(
            "Topic names {} are not valid topic names.",
            bad.join(",")
        )));
    }
    Ok(())
}

/// Features a release does not have yet are refused before anything else is looked at.
fn check_supported_features(
    req: &HeartbeatRequest,
    version: KafkaVersion,
) -> Result<(), InvalidRequest> {
    if !version.supports_static_members() && req.instance_id.is_some() {
        return Err(invalid("Static membership is not yet supported."));
    }
    if !version.supports_task_offsets() {
        if req.task_offsets.is_some() {
            return Err(invalid("TaskOffsets are not supported yet."));
        }
        if req.task_end_offsets.is_some() {
            return Err(invalid("TaskEndOffsets are not supported yet."));
        }
    }
    if !version.supports_warmup_tasks() && req.warmup_tasks.as_ref().is_some_and(|w| !w.is_empty())
    {
        return Err(invalid("WarmupTasks are not supported yet."));
    }
    if let Some(t) = &req.topology {
        if t.subtopologies
            .iter()
            .any(|s| !s.source_topic_regex.is_empty())
        {
            return Err(invalid(
                "Regular expressions for source topics are not supported yet.",
            ));
        }
    }
    Ok(())
}

/// Kafka counts a string of blanks as empty (`String.trim().isEmpty()`).
fn blank(s: &str) -> bool {
    s.trim_matches(|c: char| c <= ' ').is_empty()
}

fn must_be_empty(list: &Option<TaskSet>, message: &str) -> Result<(), InvalidRequest> {
    match list {
        Some(l) if l.is_empty() => Ok(()),
        // A missing list is refused too: the joining member must say it owns nothing.
        _ => Err(invalid(message)),
    }
}

fn check_structure(req: &HeartbeatRequest) -> Result<(), InvalidRequest> {
    if blank(&req.member_id) {
        return Err(invalid("MemberId can't be empty."));
    }
    if blank(&req.group_id) {
        return Err(invalid("GroupId can't be empty."));
    }
    if req.instance_id.as_deref().is_some_and(blank) {
        return Err(invalid("InstanceId can't be empty."));
    }
    if req.rack_id.as_deref().is_some_and(blank) {
        return Err(invalid("RackId can't be empty."));
    }
    match req.member_epoch {
        JOIN_EPOCH => {
            if req.rebalance_timeout_ms == -1 {
                return Err(invalid(
                    "RebalanceTimeoutMs must be provided in first request.",
                ));
            }
            must_be_empty(
                &req.active_tasks,
                "ActiveTasks must be empty when (re-)joining.",
            )?;
            must_be_empty(
                &req.standby_tasks,
                "StandbyTasks must be empty when (re-)joining.",
            )?;
            must_be_empty(
                &req.warmup_tasks,
                "WarmupTasks must be empty when (re-)joining.",
            )?;
            let Some(topology) = &req.topology else {
                return Err(invalid("Topology must be non-null when (re-)joining."));
            };
            for s in &topology.subtopologies {
                if let Some(c) = s.state_changelog_topics.iter().find(|c| c.partitions != 0) {
                    return Err(invalid_topology(format!(
                        "Changelog topic {} must have an undefined partition count, but it is set to {}.",
                        c.name, c.partitions
                    )));
                }
            }
        }
        STATIC_LEAVE_EPOCH if req.instance_id.is_none() => {
            return Err(invalid("InstanceId can't be null."));
        }
        e if e < STATIC_LEAVE_EPOCH => {
            return Err(invalid(format!(
                "MemberEpoch is {e}, but must be greater than or equal to -2."
            )));
        }
        _ => {}
    }
    let lists = [&req.active_tasks, &req.standby_tasks, &req.warmup_tasks];
    if lists.iter().any(|l| l.is_some()) && lists.iter().any(|l| l.is_none()) {
        return Err(invalid(
            "If one task-type is non-null, all must be non-null.",
        ));
    }
    if req.member_epoch != JOIN_EPOCH && req.topology.is_some() {
        return Err(invalid("Topology can only be provided when (re-)joining."));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{TopicInfo, Topology};

    fn join() -> HeartbeatRequest {
        HeartbeatRequest {
            group_id: "g".into(),
            member_id: "m".into(),
            member_epoch: 0,
            rebalance_timeout_ms: 1000,
            topology: Some(Topology::default()),
            active_tasks: Some(TaskSet::new()),
            standby_tasks: Some(TaskSet::new()),
            warmup_tasks: Some(TaskSet::new()),
            ..HeartbeatRequest::default()
        }
    }

    fn err(req: HeartbeatRequest) -> InvalidRequest {
        validate(&req, KafkaVersion::V4_4).unwrap_err()
    }

    #[test]
    fn a_good_join_passes() {
        assert!(validate(&join(), KafkaVersion::V4_4).is_ok());
    }

    #[test]
    fn each_rule_has_its_error() {
        let cases: Vec<(HeartbeatRequest, &str)> = vec![
            (
                HeartbeatRequest {
                    group_id: " ".into(),
                    ..join()
                },
                "GroupId can't be empty.",
            ),
            (
                HeartbeatRequest {
                    member_id: "".into(),
                    group_id: "".into(),
                    ..join()
                },
                "MemberId can't be empty.",
            ),
            (
                HeartbeatRequest {
                    instance_id: Some("".into()),
                    ..join()
                },
                "InstanceId can't be empty.",
            ),
            (
                HeartbeatRequest {
                    rack_id: Some("  ".into()),
                    ..join()
                },
                "RackId can't be empty.",
            ),
            (
                HeartbeatRequest {
                    rebalance_timeout_ms: -1,
                    ..join()
                },
                "RebalanceTimeoutMs must be provided in first request.",
            ),
            (
                HeartbeatRequest {
                    topology: None,
                    ..join()
                },
                "Topology must be non-null when (re-)joining.",
            ),
            (
                HeartbeatRequest {
                    active_tasks: None,
                    ..join()
                },
                "ActiveTasks must be empty when (re-)joining.",
            ),
            (
                HeartbeatRequest {
                    member_epoch: -2,
                    topology: None,
                    ..join()
                },
                "InstanceId can't be null.",
            ),
            (
                HeartbeatRequest {
                    member_epoch: -3,
                    topology: None,
                    ..join()
                },
                "MemberEpoch is -3, but must be greater than or equal to -2.",
            ),
            (
                HeartbeatRequest {
                    member_epoch: 4,
                    ..join()
                },
                "Topology can only be provided when (re-)joining.",
            ),
            (
                HeartbeatRequest {
                    member_epoch: 4,
                    topology: None,
                    warmup_tasks: None,
                    ..join()
                },
                "If one task-type is non-null, all must be non-null.",
            ),
        ];
        for (req, message) in cases {
            assert_eq!(err(req).message, message);
        }
        let owned: TaskSet = [("0", 1)].into_iter().collect();
        let with_tasks = HeartbeatRequest {
            active_tasks: Some(owned),
            ..join()
        };
        assert_eq!(
            err(with_tasks).message,
            "ActiveTasks must be empty when (re-)joining."
        );
    }

    #[test]
    fn releases_before_4_4_refuse_static_members_offsets_and_warmups() {
        let static_join = HeartbeatRequest {
            instance_id: Some("i".into()),
            ..join()
        };
        for v in [
            KafkaVersion::V4_1,
            KafkaVersion::V4_2,
            KafkaVersion::V4_3_1,
            KafkaVersion::V4_3,
        ] {
            assert_eq!(
                validate(&static_join, v).unwrap_err().message,
                "Static membership is not yet supported."
            );
            let offsets = HeartbeatRequest {
                task_offsets: Some(Default::default()),
                ..join()
            };
            assert_eq!(
                validate(&offsets, v).unwrap_err().message,
                "TaskOffsets are not supported yet."
            );
        }
        assert!(validate(&static_join, KafkaVersion::V4_4).is_ok());
        assert!(validate(&static_join, KafkaVersion::Kip).is_ok());
    }

    #[test]
    fn topic_names_are_checked_as_the_broker_does() {
        let mut t = Topology::default();
        t.subtopologies.push(model::Subtopology {
            id: "0".into(),
            source_topics: vec!["__consumer_offsets".into(), "a b".into()],
            ..Default::default()
        });
        let e = err(HeartbeatRequest {
            topology: Some(t.clone()),
            ..join()
        });
        assert_eq!(e.error, ErrorCode::StreamsInvalidTopology);
        assert!(
            e.message.contains("internal topics __consumer_offsets"),
            "{}",
            e.message
        );
        t.subtopologies[0].source_topics.remove(0);
        let e = err(HeartbeatRequest {
            topology: Some(t),
            ..join()
        });
        assert_eq!(e.message, "Topic names a b are not valid topic names.");
    }

    #[test]
    fn changelog_with_partitions_is_an_invalid_topology() {
        let mut t = Topology::default();
        t.subtopologies.push(model::Subtopology {
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
