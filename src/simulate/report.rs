//! The simulation report: one value, rendered as a table or as JSON (README, "simulate JSON").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use model::heartbeat::EndpointPartitions;
use model::movement::{OwnerDiff, TaskMove};
use model::{Assignment, ErrorCode, GroupStateName, StatusCode, TaskSet};

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
    pub samples: Samples,
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

/// How many runs a report stands for, and what varied between them.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Samples {
    /// Runs behind the report: the first (placeholder ids) is the one the report shows.
    pub count: u32,
    /// No member drew an id (only known members left, crashed or restarted as static
    /// members), and every sample ended with the same assignment: the assignment shown is the
    /// one Kafka computes, and only the timing (heartbeat phases) varied.
    pub exact: bool,
    /// Members that joined with ids Kafka draws at random, in the first run.
    pub joiners: u32,
    /// What varied across the runs; absent with one run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distribution: Option<Distribution>,
    /// Every distinct assignment the runs ended with, the most frequent first (ties: the one
    /// a lower-numbered sample reached first; the report's own run is sample 1). Absent with
    /// one run: the report's `members` are its outcome.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<SampledOutcome>,
}

/// Across the samples.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Distribution {
    /// Active and standby tasks that changed owner, summed over the steps.
    pub moved_active: Range,
    pub moved_standby: Range,
    /// Time to Stable (as `virtual_time_to_stable_ms`) over the samples in which the group
    /// was Stable; absent when it never was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_to_stable_ms: Option<Range>,
    /// Samples in which the group was never Stable.
    pub never_stable: u32,
    /// How many different assignments the samples ended with (1: the same in every sample).
    pub distinct_assignments: u32,
    /// For each member present when the first step started, the tasks it had then and still
    /// has at the end in every sample: what is certain whichever ids the joiners get.
    pub kept_in_every_sample: Vec<Kept>,
    /// For each task that had an owner when the first step started: in how many samples it
    /// stayed where it was.
    pub tasks: Vec<TaskStay>,
    /// Each process's load at the end, across the samples.
    pub processes: Vec<ProcessLoad>,
    /// Invariant violations in the samples after the first (the first's are in the report).
    pub invariant_violations: usize,
}

/// One assignment the samples ended with, and how many did.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SampledOutcome {
    /// Samples that ended with it.
    pub count: u32,
    /// The first sample (1-based; 1 is the report's run) that ended with it.
    pub first_sample: u32,
    /// The members at the end, as the report's `members`: a known member by its id, a joiner
    /// by its placeholder (`p4-t1`, process `p4`).
    pub members: Vec<MemberReport>,
}

/// The fewest, the median (the lower middle value of an even count) and the most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Range {
    pub min: i64,
    pub median: i64,
    pub max: i64,
}

impl Range {
    pub fn of(mut values: Vec<i64>) -> Option<Range> {
        values.sort_unstable();
        Some(Range {
            min: *values.first()?,
            median: values[(values.len() - 1) / 2],
            max: *values.last()?,
        })
    }
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Kept {
    pub member_id: String,
    pub active: TaskSet,
    pub standby: TaskSet,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TaskStay {
    pub subtopology: String,
    pub partition: i32,
    /// Samples in which the task's active owner at the end was its owner before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_stayed: Option<u32>,
    /// Samples in which the task's standby owners at the end were those before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standby_stayed: Option<u32>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ProcessLoad {
    /// The process id, or the placeholder (`p4`) of a process that joined.
    pub process_id: String,
    /// Active and standby tasks of the process's members at the end.
    pub tasks: Range,
    pub active: Range,
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
