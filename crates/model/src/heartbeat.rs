//! StreamsGroupHeartbeat request and response as plain data.
//!
//! The local coordinator takes and returns these; the wire codec (`kafka::codec`) converts them
//! to and from bytes. `None` keeps the protocol's meaning of null ("unchanged" / "not sent").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::codes::{ErrorCode, StatusCode};
use super::task::TaskId;
use super::task_set::TaskSet;
use super::topology::Topology;

/// Member epoch sent to join (or rejoin) a group.
pub const JOIN_EPOCH: i32 = 0;
/// Member epoch sent to leave a group for good.
pub const LEAVE_EPOCH: i32 = -1;
/// Member epoch sent by a static member that leaves temporarily (it will come back).
pub const STATIC_LEAVE_EPOCH: i32 = -2;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
}

/// Partitions of one topic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TopicPartitions {
    pub topic: String,
    pub partitions: Vec<i32>,
}

/// The partitions whose records one member's interactive-query endpoint
/// (`application.server`) serves: one entry of a heartbeat's `PartitionsByUserEndpoint`.
/// Topics are sorted by name and partitions ascending (the broker's order varies between
/// releases and, for some lists, between broker restarts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EndpointPartitions {
    pub endpoint: Endpoint,
    /// Source and repartition-source partitions of the member's active tasks.
    pub active: Vec<TopicPartitions>,
    /// The same for its standby tasks (and, from Kafka 4.4, its warm-up tasks).
    pub standby: Vec<TopicPartitions>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeartbeatRequest {
    pub group_id: String,
    pub member_id: String,
    pub member_epoch: i32,
    pub endpoint_information_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    /// -1 means "unchanged"; required on join.
    pub rebalance_timeout_ms: i32,
    /// Only on join.
    pub topology: Option<Topology>,
    pub active_tasks: Option<TaskSet>,
    pub standby_tasks: Option<TaskSet>,
    pub warmup_tasks: Option<TaskSet>,
    pub process_id: Option<String>,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Option<BTreeMap<String, String>>,
    /// Cumulative changelog offsets per task; `None` means unchanged.
    pub task_offsets: Option<BTreeMap<TaskId, i64>>,
    /// Cumulative changelog end offsets per task; `None` means unchanged.
    pub task_end_offsets: Option<BTreeMap<TaskId, i64>>,
    pub shutdown_application: bool,
}

impl HeartbeatRequest {
    /// True when the three owned-task lists were sent.
    pub fn reports_owned_tasks(&self) -> bool {
        self.active_tasks.is_some() && self.standby_tasks.is_some() && self.warmup_tasks.is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    pub code: StatusCode,
    pub detail: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeartbeatResponse {
    pub throttle_time_ms: i32,
    pub error: Option<ErrorCode>,
    pub error_message: Option<String>,
    pub member_id: String,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    pub acceptable_recovery_lag: i64,
    pub task_offset_interval_ms: i32,
    pub status: Option<Vec<Status>>,
    /// `None` means "unchanged since the last response".
    pub active_tasks: Option<TaskSet>,
    pub standby_tasks: Option<TaskSet>,
    pub warmup_tasks: Option<TaskSet>,
    pub endpoint_information_epoch: i32,
    /// The interactive-query map, one entry per member with an endpoint; `None` when the
    /// member's endpoint information epoch is current.
    pub partitions_by_user_endpoint: Option<Vec<EndpointPartitions>>,
}

impl HeartbeatResponse {
    pub fn error(member_id: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        HeartbeatResponse {
            error: Some(code),
            error_message: Some(message.into()),
            member_id: member_id.to_string(),
            ..HeartbeatResponse::default()
        }
    }

    pub fn has_status(&self, code: StatusCode) -> bool {
        self.status
            .as_ref()
            .is_some_and(|s| s.iter().any(|st| st.code == code))
    }
}
