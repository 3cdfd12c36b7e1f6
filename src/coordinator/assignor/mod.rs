//! Task assignors of the streams group coordinator (KIP-1071).
//!
//! An assignor maps a [`GroupSpec`] (members with their process, rack, client tags, current
//! tasks and reported task offsets, plus the subtopologies and the assignment configs) to a
//! [`GroupAssignment`]: active and standby tasks for every member. Assignors never produce
//! warm-up tasks; that is the refiner's job.
//!
//! The only assignor here is [`StickyAssignor`] ("sticky", the broker default). It is
//! deterministic: members are sorted by (process id, member id), tasks by (subtopology id,
//! partition), and every tie is broken on those orders, never on hash-map iteration order.

pub mod java;
pub mod metrics;
mod process_state;
mod rack;
mod sticky;
pub mod synthetic;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::model::{Assignment, TaskId, TaskSet};

pub use metrics::{evaluate, AssignmentMetrics};
pub use sticky::StickyAssignor;
pub use synthetic::synthetic_spec;

/// Assignment configs of the group (`streams.num.standby.replicas`,
/// `streams.rack.aware.assignment.tags`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignmentConfigs {
    #[serde(default)]
    pub num_standby_replicas: u32,
    /// Client tag keys in priority order; empty disables rack-aware standby placement.
    #[serde(default)]
    pub rack_aware_assignment_tags: Vec<String>,
}

/// One subtopology as the assignor sees it (the "TopologyDescriber"): its id, its number of
/// tasks (the maximum partition count of its source topics) and whether it has state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtopologySpec {
    pub id: String,
    pub num_tasks: i32,
    #[serde(default)]
    pub stateful: bool,
}

/// One member: identity, placement metadata, current tasks and reported task offsets.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSpec {
    pub member_id: String,
    pub process_id: String,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack_id: Option<String>,
    #[serde(default)]
    pub client_tags: BTreeMap<String, String>,
    /// The member's current (not target) active, standby and warm-up tasks.
    #[serde(default)]
    pub current: Assignment,
    /// Cumulative changelog offsets per task, as reported in the heartbeat.
    /// JSON: `[{"subtopology": "0", "partition": 1, "offset": 42}]`.
    #[serde(default, with = "crate::model::task::task_offsets_json")]
    pub task_offsets: BTreeMap<TaskId, i64>,
    /// Changelog end offsets per task (not used by the sticky assignor; kept for others).
    #[serde(default, with = "crate::model::task::task_offsets_json")]
    pub task_end_offsets: BTreeMap<TaskId, i64>,
}

/// Everything an assignor needs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSpec {
    pub members: Vec<MemberSpec>,
    pub subtopologies: Vec<SubtopologySpec>,
    #[serde(default)]
    pub configs: AssignmentConfigs,
}

/// The target tasks of one member.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberAssignment {
    pub active: TaskSet,
    pub standby: TaskSet,
}

/// Member id -> its target tasks. Every member of the spec is present, possibly empty.
pub type GroupAssignment = BTreeMap<String, MemberAssignment>;

/// The assignor could not compute an assignment (reported as UNKNOWN_SERVER_ERROR by a broker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignorError {
    pub message: String,
}

impl AssignorError {
    pub fn new(message: impl Into<String>) -> Self {
        AssignorError {
            message: message.into(),
        }
    }
}

impl fmt::Display for AssignorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task assignor failed: {}", self.message)
    }
}

impl std::error::Error for AssignorError {}

/// A server-side task assignor.
pub trait TaskAssignor {
    fn name(&self) -> &'static str;
    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError>;
}
