//! Task assignors of the streams group coordinator (KIP-1071).
//!
//! An assignor maps a [`GroupSpec`] (members with their process, rack, client tags, current
//! tasks and reported task offsets, plus the subtopologies and the assignment configs) to a
//! [`GroupAssignment`]: active and standby tasks for every member. Assignors never produce
//! warm-up tasks; that is the refiner's job.
//!
//! Two assignors, chosen by name with [`assignor_by_name`]:
//! - [`StickyAssignor`] ("sticky", the broker default): Apache's own `StickyTaskAssignor` of a
//!   [`ShippedVersion`], reproduced exactly, ties (Java hash-map and priority-queue orders)
//!   included. See `docs/dev/assignor.md`.
//! - [`BalancedStickyAssignor`] ("balanced-sticky"): this project's variant. It is
//!   deterministic: members are sorted by (process id, member id), tasks by (subtopology id,
//!   partition), and every tie is broken on those orders, never on hash-map iteration order.

mod balanced;
pub mod metrics;
mod process_state;
mod rack;
mod shipped;
pub mod synthetic;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use model::{Assignment, TaskId, TaskSet};

pub use balanced::BalancedStickyAssignor;
pub use metrics::{evaluate, AssignmentMetrics};
pub use shipped::StickyAssignor;
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
    #[serde(default, with = "model::task::task_offsets_json")]
    pub task_offsets: BTreeMap<TaskId, i64>,
    /// Changelog end offsets per task (not used by the sticky assignor; kept for others).
    #[serde(default, with = "model::task::task_offsets_json")]
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

/// An assignment with the warnings the assignor logged while computing it (Apache logs them
/// at WARN; callers may print them to stderr).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssignOutcome {
    pub assignment: GroupAssignment,
    pub warnings: Vec<String>,
}

/// A server-side task assignor.
pub trait TaskAssignor {
    fn name(&self) -> &'static str;
    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError>;

    /// The assignment and the warnings logged on the way (none, unless the assignor has some).
    fn assign_with_warnings(&self, spec: &GroupSpec) -> Result<AssignOutcome, AssignorError> {
        Ok(AssignOutcome {
            assignment: self.assign(spec)?,
            warnings: Vec::new(),
        })
    }
}

/// The Apache Kafka releases whose sticky assignor [`StickyAssignor`] reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShippedVersion {
    /// 4.1.x (checked against 4.1.1 and 4.1.2).
    V4_1,
    /// 4.2.0 and 4.2.1: 4.2.2's algorithm with 4.3.1's first-candidate quirk (the fix,
    /// KAFKA-20899, reached 4.2.2 and 4.3.2).
    V4_2_1,
    /// 4.2.2 (checked against 4.2.2).
    V4_2,
    /// 4.3.0 and 4.3.1: `findPrevMemberWithLeastLoad` has the first-candidate quirk.
    V4_3_1,
    /// 4.3.2: the quirk fixed (KAFKA-20899).
    V4_3,
    /// 4.4.x (checked against 4.4.0): standby candidates include offset reporters, ranked.
    V4_4,
}

impl ShippedVersion {
    pub const ALL: [ShippedVersion; 6] = [
        ShippedVersion::V4_1,
        ShippedVersion::V4_2_1,
        ShippedVersion::V4_2,
        ShippedVersion::V4_3_1,
        ShippedVersion::V4_3,
        ShippedVersion::V4_4,
    ];

    /// The Kafka release the emulation was checked against.
    pub fn kafka_version(self) -> &'static str {
        match self {
            ShippedVersion::V4_1 => "4.1.2",
            ShippedVersion::V4_2_1 => "4.2.1",
            ShippedVersion::V4_2 => "4.2.2",
            ShippedVersion::V4_3_1 => "4.3.1",
            ShippedVersion::V4_3 => "4.3.2",
            ShippedVersion::V4_4 => "4.4.0",
        }
    }
}

impl fmt::Display for ShippedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kafka_version())
    }
}

/// The names [`assignor_by_name`] knows.
pub const ASSIGNOR_NAMES: &[&str] = &["sticky", "balanced-sticky"];

/// An assignor name that [`assignor_by_name`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAssignor {
    pub name: String,
}

impl fmt::Display for UnknownAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown assignor '{}' (valid: {})",
            self.name,
            ASSIGNOR_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownAssignor {}

/// The assignor called `name`: "sticky" is Apache's of `version`, "balanced-sticky" ours.
pub fn assignor_by_name(
    name: &str,
    version: ShippedVersion,
) -> Result<Box<dyn TaskAssignor + Send + Sync>, UnknownAssignor> {
    match name {
        "sticky" => Ok(Box::new(StickyAssignor::new(version))),
        "balanced-sticky" => Ok(Box::new(BalancedStickyAssignor)),
        _ => Err(UnknownAssignor {
            name: name.to_string(),
        }),
    }
}
