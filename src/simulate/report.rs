//! The simulation report: one value, rendered as a table or as JSON (README, "simulate JSON").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::heartbeat::EndpointPartitions;
use crate::model::movement::{OwnerDiff, TaskMove};
use crate::model::{Assignment, ErrorCode, GroupStateName, StatusCode, TaskSet};

#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "Report")]
pub struct SimulationReport {
    /// The coordinator profile that ran, by its exact release ("4.3.2", "4.4.0") or "kip".
    pub kafka_version: String,
    /// The task assignor that ran.
    pub assignor: String,
    pub scenario: String,
    pub seed: u64,
    /// How many runs the report stands for: when members join, Kafka draws their ids and the
    /// assignor breaks ties by them, so the scenario runs again with such ids and this says
    /// what varied. The rest of the report is the first run's (placeholder ids).
    pub samples: crate::simulate::samples::Samples,
    /// Why the run ended: every step ran and the group settled, the `--max-time` limit
    /// passed first, or a member died of an error fatal to a Kafka Streams client.
    pub stop_reason: StopReason,
    /// The virtual time limit of the run (`--max-time`).
    pub max_time_ms: i64,
    /// The group's state at the end (`Dead`: no group).
    pub final_state: GroupStateName,
    pub group_epoch: i32,
    pub target_assignment_epoch: i32,
    pub topology_epoch: i32,
    /// Virtual time until the group was Stable, if it was. A run that starts a new group
    /// counts from the start (0) until the group first was Stable. A run that starts from a
    /// described group (`--from-snapshot`, `--from-group`), which was running before, counts
    /// from the start of the scenario's first step until the group was Stable after that step
    /// (that step's `time_to_stable_ms`); with no step, from the start.
    pub virtual_time_to_stable_ms: Option<i64>,
    /// `virtual_time_to_stable_ms` counts from the scenario's first step (the run started from
    /// a described group), not from the start.
    #[serde(skip)]
    pub stable_from_first_step: bool,
    pub virtual_time_end_ms: i64,
    pub heartbeats: u64,
    /// Target assignments computed (each is a rebalance).
    pub rebalances: u64,
    /// Tasks that changed owner (active or standby), summed over the scenario steps.
    pub tasks_moved: u64,
    pub total_tasks: u64,
    pub balance: Balance,
    /// Heartbeat statuses seen, in name order.
    pub statuses_seen: Vec<StatusCode>,
    pub errors_seen: BTreeMap<String, u64>,
    pub invariant_violations: Vec<String>,
    /// Members stopped by an error the real Kafka Streams client treats as fatal.
    pub failed_members: Vec<MemberFailure>,
    /// What the assignor warned about (as Apache's logs at WARN), distinct, at most 20.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assignor_warnings: Vec<String>,
    /// What to do instead, when the run shows the user's plan failing on their broker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
    pub steps: Vec<StepReport>,
    pub members: Vec<MemberReport>,
    /// The interactive-query map at the end, as the coordinator sends it to members (one entry
    /// per member with an endpoint, in the coordinator's member order); absent when no member
    /// has an endpoint (`--endpoints`, or a starting group whose members have one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partitions_by_user_endpoint: Vec<EndpointPartitions>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TraceEntry>,
}

/// Why a simulation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Every step ran, and the group settled after each (and after forming).
    Completed,
    /// The virtual time limit (`--max-time`) passed before the group settled.
    MaxTime,
    /// A member died (see `failed_members`); the run stopped at that step.
    MemberFailed,
}

/// A member that died, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MemberFailure {
    pub member_id: String,
    pub time_ms: i64,
    pub error: ErrorCode,
    pub message: String,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Balance {
    pub min_tasks_per_member: usize,
    pub max_tasks_per_member: usize,
    pub min_active_per_member: usize,
    pub max_active_per_member: usize,
    pub min_tasks_per_process: usize,
    pub max_tasks_per_process: usize,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MemberReport {
    pub member_id: String,
    pub process_id: String,
    pub member_epoch: i32,
    pub topology_epoch: i32,
    pub assignment: Assignment,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StepReport {
    /// What the step did, naming every member.
    pub step: String,
    /// The same for a table cell: more than a few members are counted, not listed.
    #[serde(skip)]
    pub short_label: String,
    pub started_at_ms: i64,
    /// When the group was Stable again after the step, if it was.
    pub stable_at_ms: Option<i64>,
    pub time_to_stable_ms: Option<i64>,
    pub group_epoch_before: i32,
    pub group_epoch_after: i32,
    pub moved_active: u64,
    pub moved_standby: u64,
    /// Heartbeat statuses seen during the step, in name order.
    pub statuses_seen: Vec<StatusCode>,
    /// Tasks that changed owner, with their old and new owners.
    pub moves: Vec<TaskMove>,
    /// Members whose tasks changed.
    pub diff: Vec<OwnerDiff>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TraceEntry {
    pub time_ms: i64,
    pub member_id: String,
    pub request_epoch: i32,
    pub owned_active: TaskSet,
    pub owned_standby: TaskSet,
    pub response_epoch: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_active: Option<TaskSet>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_standby: Option<TaskSet>,
    pub statuses: Vec<StatusCode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorCode>,
}

/// Statuses in the order of their names, as reports list them.
pub fn by_name(statuses: impl IntoIterator<Item = StatusCode>) -> Vec<StatusCode> {
    let mut v: Vec<StatusCode> = statuses.into_iter().collect();
    v.sort_by_key(|s| s.name());
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON contract: codes appear as Kafka's names, as the strings they replaced.
    #[test]
    fn codes_serialise_as_their_names() {
        for code in -1..140 {
            let e = ErrorCode::from_code(code);
            if !matches!(e, ErrorCode::Other(_)) {
                assert_eq!(serde_json::to_value(e).unwrap(), e.name());
            }
        }
        for code in 0..7 {
            let s = StatusCode::from_code(code);
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
        let sorted = by_name([
            StatusCode::StaleTopology,
            StatusCode::AssignmentDelayed,
            StatusCode::StaleTopology,
        ]);
        assert_eq!(
            sorted,
            vec![StatusCode::AssignmentDelayed, StatusCode::StaleTopology]
        );
    }
}
