//! Warm-up and restoration lag of tasks, from the cumulative changelog offsets members report
//! (KIP-1071 `TaskOffsets` / `TaskEndOffsets`; Kafka 4.4+ brokers return them in describe).
//!
//! A task is caught up when both offsets are known, neither is `i64::MAX` (unknown), and
//! `end - offset <= acceptable.recovery.lag`: the rule the coordinator uses to decide that a
//! warm-up task is ready to take over.

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::group::{GroupDescription, MemberDescription};
use crate::model::natural::Natural;
use crate::model::{TaskId, TaskRole};

/// Default of `streams.acceptable.recovery.lag` / `group.streams.acceptable.recovery.lag`.
pub const DEFAULT_ACCEPTABLE_RECOVERY_LAG: i64 = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LagStatus {
    CaughtUp,
    Lagging,
    /// An offset is missing or unknown (e.g. a dormant standby reports no end offset).
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TaskLag {
    pub group_id: String,
    pub member_id: String,
    pub process_id: String,
    pub task: TaskId,
    /// The member's role for the task; `None` for state it keeps on disk without a role.
    pub role: Option<TaskRole>,
    pub offset: Option<i64>,
    pub end_offset: Option<i64>,
    pub lag: Option<i64>,
    pub status: LagStatus,
}

fn known(v: Option<i64>) -> Option<i64> {
    v.filter(|o| *o != i64::MAX && *o >= 0)
}

/// Every task one member reports offsets for, in task order.
pub fn member_task_lags(
    group_id: &str,
    m: &MemberDescription,
    acceptable_recovery_lag: i64,
) -> Vec<TaskLag> {
    let tasks: std::collections::BTreeSet<&TaskId> = m
        .task_offsets
        .keys()
        .chain(m.task_end_offsets.keys())
        .collect();
    tasks
        .into_iter()
        .map(|task| {
            let offset = known(m.task_offsets.get(task).copied());
            let end_offset = known(m.task_end_offsets.get(task).copied());
            let lag = match (offset, end_offset) {
                (Some(o), Some(e)) => Some(e.saturating_sub(o).max(0)),
                _ => None,
            };
            let status = match lag {
                Some(l) if l <= acceptable_recovery_lag => LagStatus::CaughtUp,
                Some(_) => LagStatus::Lagging,
                None => LagStatus::Unknown,
            };
            let role = TaskRole::ALL
                .into_iter()
                .find(|r| m.assignment.get(*r).contains_task(task));
            TaskLag {
                group_id: group_id.to_string(),
                member_id: m.member_id.clone(),
                process_id: m.process_id.clone(),
                task: task.clone(),
                role,
                offset,
                end_offset,
                lag,
                status,
            }
        })
        .collect()
}

/// Every reported task of every member of the group.
/// Members in natural order of their process and member ids (`p2` before `p10`).
pub fn group_task_lags(g: &GroupDescription, acceptable_recovery_lag: i64) -> Vec<TaskLag> {
    let mut members: Vec<&MemberDescription> = g.members.iter().collect();
    members.sort_by_key(|m| (Natural(&m.process_id), Natural(&m.member_id)));
    members
        .into_iter()
        .flat_map(|m| member_task_lags(&g.group_id, m, acceptable_recovery_lag))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::Assignment;
    use std::collections::BTreeMap;

    /// A member with a standby, a warm-up, dormant state and an unknown end offset.
    pub(crate) fn member() -> MemberDescription {
        let mut assignment = Assignment::default();
        assignment.standby.insert("0", 1);
        assignment.warmup.insert("0", 2);
        MemberDescription {
            member_id: "m".into(),
            member_epoch: 3,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            topology_epoch: 0,
            process_id: "p".into(),
            user_endpoint: None,
            client_tags: BTreeMap::new(),
            task_offsets: BTreeMap::from([
                (TaskId::new("0", 1), 900),
                (TaskId::new("0", 2), 100),
                (TaskId::new("0", 3), 50),
            ]),
            task_end_offsets: BTreeMap::from([
                (TaskId::new("0", 1), 1_000),
                (TaskId::new("0", 2), 50_100),
                (TaskId::new("0", 4), i64::MAX),
            ]),
            assignment: assignment.clone(),
            target_assignment: assignment,
            is_classic: false,
        }
    }

    #[test]
    fn lag_and_status_per_task() {
        let rows = member_task_lags("g", &member(), 10_000);
        let by_task: BTreeMap<i32, &TaskLag> = rows.iter().map(|r| (r.task.partition, r)).collect();
        assert_eq!(by_task[&1].lag, Some(100));
        assert_eq!(by_task[&1].status, LagStatus::CaughtUp);
        assert_eq!(by_task[&1].role, Some(TaskRole::Standby));
        assert_eq!(by_task[&2].lag, Some(50_000));
        assert_eq!(by_task[&2].status, LagStatus::Lagging);
        assert_eq!(by_task[&2].role, Some(TaskRole::Warmup));
        // Dormant state: an offset but no end offset, and no role.
        assert_eq!(by_task[&3].status, LagStatus::Unknown);
        assert_eq!(by_task[&3].role, None);
        // An unknown end offset (Long.MAX_VALUE) is not a lag.
        assert_eq!(by_task[&4].lag, None);
        assert_eq!(rows.len(), 4);
    }

    #[test]
    fn the_threshold_is_inclusive() {
        let rows = member_task_lags("g", &member(), 50_000);
        assert!(rows
            .iter()
            .filter(|r| r.task.partition == 2)
            .all(|r| r.status == LagStatus::CaughtUp));
    }
}
