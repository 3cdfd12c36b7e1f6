//! Warm-up and restoration lag of tasks, from the cumulative changelog offsets members report
//! (KIP-1071 `TaskOffsets` / `TaskEndOffsets`; Kafka 4.4+ brokers return them in describe).
//!
//! What the two numbers mean (Kafka Streams 4.4, see docs/lag.md): the offset is a sum over the
//! task's changelog partitions of the *next* offset to restore (last restored offset + 1,
//! `ProcessorStateManager#changelogOffsets`); the end offset of a standby or warm-up task is a sum
//! of the *last* offset in each changelog as of the task's latest fetch (`currentLag` + the
//! batch's last offset, `ProcessorStateManager#restore`), while a restoring active task reports
//! the log end offset it restores up to (the *next* offset, `StoreChangelogReader`'s restore end
//! offset). So a caught-up standby with one changelog reports offset = end offset + 1.
//!
//! The lag is the number of changelog records not yet restored: `end - offset` for an active
//! task, `end - offset + changelogs` for any other (`changelogs` = changelog partitions of the
//! task, from the described topology, else 1), never below 0. A task is caught up when both
//! offsets are known, neither is `i64::MAX` (unknown), and its lag <= `acceptable.recovery.lag`.
//!
//! Against a live cluster the changelogs' log end offsets *now* are known too (the sum over the
//! task's changelog partitions), and the lag is `log end - offset`: a member's end offset is as
//! old as its last report, and a paused or stuck member's report does not move while its
//! changelog grows; its offset does not move either, because it restores nothing.

pub mod live;

use schemars::JsonSchema;
use serde::Serialize;

use model::group::{GroupDescription, MemberDescription};
use model::natural::Natural;
use model::{TaskId, TaskRole};

/// Default of `streams.acceptable.recovery.lag` / `group.streams.acceptable.recovery.lag`.
pub const DEFAULT_ACCEPTABLE_RECOVERY_LAG: i64 = 10_000;

/// The group's `streams.acceptable.recovery.lag` when its broker reported it (Kafka 4.4 keeps
/// it internal and does not), else [`DEFAULT_ACCEPTABLE_RECOVERY_LAG`].
pub fn acceptable_recovery_lag(g: &GroupDescription) -> i64 {
    g.configs
        .as_ref()
        .and_then(|c| c.group.as_ref())
        .and_then(|c| c.get("streams.acceptable.recovery.lag"))
        .and_then(|v| v.trim().parse().ok())
        .filter(|n: &i64| *n >= 0)
        .unwrap_or(DEFAULT_ACCEPTABLE_RECOVERY_LAG)
}

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
    /// The sum of the log end offsets of the task's changelog partitions now (live only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changelog_end_offset: Option<i64>,
    pub lag: Option<i64>,
    pub status: LagStatus,
}

/// What is known of a group's changelogs beyond the members' reports.
pub struct Changelogs<'a> {
    /// Changelog partitions of a task (1 when the topology is not known).
    pub partitions: &'a dyn Fn(&TaskId) -> i64,
    /// The sum of the log end offsets of a task's changelog partitions now, when known.
    pub log_end: &'a dyn Fn(&TaskId) -> Option<i64>,
}

/// Log end offsets of changelog partitions, by (topic, partition).
pub type LogEnds = std::collections::BTreeMap<(String, i32), i64>;

fn known(v: Option<i64>) -> Option<i64> {
    v.filter(|o| *o != i64::MAX && *o >= 0)
}

/// Changelog records a task has not restored yet, from the offset sums a member reports.
///
/// `offset` counts next offsets to restore. A restoring active task's `end` counts log end
/// offsets (next offsets too), so the lag is `end - offset`. Any other task's `end` counts the
/// last offset of each of its `changelogs` partitions, one less than the next offset, so the lag
/// is `end - offset + changelogs`. Never negative.
pub fn task_lag(role: Option<TaskRole>, offset: i64, end: i64, changelogs: i64) -> i64 {
    let behind = end.saturating_sub(offset);
    let behind = match role {
        Some(TaskRole::Active) => behind,
        _ => behind.saturating_add(changelogs.max(1)),
    };
    behind.max(0)
}

/// Every task one member reports offsets for, in task order.
pub fn member_task_lags(
    group_id: &str,
    m: &MemberDescription,
    acceptable_recovery_lag: i64,
    changelogs: &Changelogs,
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
            let role = TaskRole::ALL
                .into_iter()
                .find(|r| m.assignment.get(*r).contains_task(task));
            let changelog_end_offset = (changelogs.log_end)(task);
            let lag = match (offset, end_offset, changelog_end_offset) {
                (Some(o), _, Some(now)) => Some(now.saturating_sub(o).max(0)),
                (Some(o), Some(e), None) => {
                    Some(task_lag(role, o, e, (changelogs.partitions)(task)))
                }
                _ => None,
            };
            let status = match lag {
                Some(l) if l <= acceptable_recovery_lag => LagStatus::CaughtUp,
                Some(_) => LagStatus::Lagging,
                None => LagStatus::Unknown,
            };
            TaskLag {
                group_id: group_id.to_string(),
                member_id: m.member_id.clone(),
                process_id: m.process_id.clone(),
                task: task.clone(),
                role,
                offset,
                end_offset,
                changelog_end_offset,
                lag,
                status,
            }
        })
        .collect()
}

/// Changelog partitions of `task`: its subtopology's changelog topics in the described topology
/// (1 when the topology or the subtopology is not known, or it lists none).
pub fn changelog_partitions(g: &GroupDescription, task: &TaskId) -> i64 {
    g.topology
        .subtopologies
        .iter()
        .flatten()
        .find(|s| s.id == task.subtopology)
        .map_or(1, |s| s.state_changelog_topics.len().max(1) as i64)
}

/// The changelog topics of `task`'s subtopology in the described topology.
fn changelog_topics<'a>(g: &'a GroupDescription, task: &TaskId) -> Vec<&'a str> {
    g.topology
        .subtopologies
        .iter()
        .flatten()
        .find(|s| s.id == task.subtopology)
        .map(|s| {
            s.state_changelog_topics
                .iter()
                .map(|t| t.name.as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// Every changelog topic of the described topology.
pub fn all_changelog_topics(g: &GroupDescription) -> std::collections::BTreeSet<String> {
    g.topology
        .subtopologies
        .iter()
        .flatten()
        .flat_map(|s| s.state_changelog_topics.iter().map(|t| t.name.clone()))
        .collect()
}

/// The sum of the log end offsets of `task`'s changelog partitions (partition = the task's
/// partition in each changelog topic); unknown when the topology lists no changelog for it or
/// any of them is missing from `ends`.
pub fn task_log_end(g: &GroupDescription, task: &TaskId, ends: &LogEnds) -> Option<i64> {
    let topics = changelog_topics(g, task);
    if topics.is_empty() {
        return None;
    }
    topics.iter().try_fold(0i64, |sum, t| {
        ends.get(&(t.to_string(), task.partition))
            .map(|e| sum.saturating_add(*e))
    })
}

/// Every reported task of every member of the group, with the changelogs' log end offsets now
/// when they were looked up.
/// Members in natural order of their process and member ids (`p2` before `p10`).
pub fn group_task_lags(
    g: &GroupDescription,
    acceptable_recovery_lag: i64,
    ends: Option<&LogEnds>,
) -> Vec<TaskLag> {
    let partitions = |task: &TaskId| changelog_partitions(g, task);
    let log_end = |task: &TaskId| ends.and_then(|e| task_log_end(g, task, e));
    let changelogs = Changelogs {
        partitions: &partitions,
        log_end: &log_end,
    };
    let mut members: Vec<&MemberDescription> = g.members.iter().collect();
    members.sort_by_key(|m| (Natural(&m.process_id), Natural(&m.member_id)));
    members
        .into_iter()
        .flat_map(|m| member_task_lags(&g.group_id, m, acceptable_recovery_lag, &changelogs))
        .collect()
}

/// The `lag` report.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LagReport {
    pub group_id: String,
    pub acceptable_recovery_lag: i64,
    pub caught_up: usize,
    pub lagging: usize,
    pub unknown: usize,
    pub tasks: Vec<TaskLag>,
    /// Why there is nothing to check, when no member reports task offsets (or there are no
    /// members): a gate must not pass on that.
    #[serde(skip)]
    pub nothing_to_check: Option<String>,
    /// Changelog partitions whose log end offset could not be read (live only).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl LagReport {
    /// A gate passes only on evidence: a lagging task, or nothing to check, fails it.
    pub fn gate_passes(&self) -> bool {
        self.lagging == 0 && self.nothing_to_check.is_none()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use model::Assignment;
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
            endpoint_partitions: None,
        }
    }

    fn reported_only() -> Changelogs<'static> {
        Changelogs {
            partitions: &|_| 1,
            log_end: &|_| None,
        }
    }

    /// Live, the changelogs' log end offsets now decide: a standby whose member last reported
    /// itself caught up (offset 900 = end 899 + 1) while 5,000 records have since reached its
    /// changelog is 5,000 behind; on-disk state gets a lag too.
    #[test]
    fn the_log_end_now_beats_a_stale_report() {
        let mut m = member();
        m.task_end_offsets.insert(TaskId::new("0", 1), 899);
        let now = Changelogs {
            partitions: &|_| 1,
            log_end: &|t| Some(if t.partition == 1 { 5_900 } else { 150 }),
        };
        let rows = member_task_lags("g", &m, 1_000, &now);
        let by_task: BTreeMap<i32, &TaskLag> = rows.iter().map(|r| (r.task.partition, r)).collect();
        assert_eq!(by_task[&1].lag, Some(5_000));
        assert_eq!(by_task[&1].changelog_end_offset, Some(5_900));
        assert_eq!(by_task[&1].status, LagStatus::Lagging);
        assert_eq!(by_task[&2].lag, Some(50));
        assert_eq!(by_task[&3].lag, Some(100), "on-disk state, offset 50");
        // No offset: still unknown, whatever the log end.
        assert_eq!(by_task[&4].lag, None);
        // Restored past the log end (a truncated changelog): never negative.
        let rows = member_task_lags(
            "g",
            &m,
            1_000,
            &Changelogs {
                partitions: &|_| 1,
                log_end: &|_| Some(10),
            },
        );
        assert!(rows.iter().all(|r| r.lag.unwrap_or(0) == 0));
    }

    #[test]
    fn a_task_log_end_sums_its_changelog_partitions() {
        use model::group::DescribedTopology;
        use model::topology::{Subtopology, TopicInfo};
        let sub = Subtopology {
            id: "0".into(),
            state_changelog_topics: vec![
                TopicInfo::named("a-changelog"),
                TopicInfo::named("b-changelog"),
            ],
            ..Subtopology::default()
        };
        let g = GroupDescription {
            member_order: Vec::new(),
            topology: DescribedTopology {
                subtopologies: Some(vec![sub]),
                ..DescribedTopology::default()
            },
            group_id: "g".into(),
            state: "Stable".into(),
            group_epoch: 1,
            target_assignment_epoch: 1,
            coordinator: None,
            members: vec![member()],
            offsets: vec![],
            assignor: None,
            configs: None,
        };
        let ends: LogEnds = [
            (("a-changelog".to_string(), 3), 100),
            (("b-changelog".to_string(), 3), 20),
            (("a-changelog".to_string(), 4), 7),
        ]
        .into_iter()
        .collect();
        assert_eq!(task_log_end(&g, &TaskId::new("0", 3), &ends), Some(120));
        assert_eq!(
            task_log_end(&g, &TaskId::new("0", 4), &ends),
            None,
            "b-changelog-4 unknown"
        );
        assert_eq!(
            task_log_end(&g, &TaskId::new("1", 3), &ends),
            None,
            "no such subtopology"
        );
        assert_eq!(
            all_changelog_topics(&g).into_iter().collect::<Vec<_>>(),
            ["a-changelog", "b-changelog"]
        );
        // The acceptable lag: the group's when its broker reports it, else Kafka's default.
        assert_eq!(acceptable_recovery_lag(&g), DEFAULT_ACCEPTABLE_RECOVERY_LAG);
        let mut reported = g.clone();
        let configs = [(
            "streams.acceptable.recovery.lag".to_string(),
            "250".to_string(),
        )];
        reported.configs = Some(model::group::ClusterSettings {
            group: Some(configs.into_iter().collect()),
            ..Default::default()
        });
        assert_eq!(acceptable_recovery_lag(&reported), 250);
    }

    #[test]
    fn lag_and_status_per_task() {
        let rows = member_task_lags("g", &member(), 10_000, &reported_only());
        let by_task: BTreeMap<i32, &TaskLag> = rows.iter().map(|r| (r.task.partition, r)).collect();
        // A standby's end offset is the last offset in its changelog: offsets 900..=1000 are
        // still to restore.
        assert_eq!(by_task[&1].lag, Some(101));
        assert_eq!(by_task[&1].status, LagStatus::CaughtUp);
        assert_eq!(by_task[&1].role, Some(TaskRole::Standby));
        assert_eq!(by_task[&2].lag, Some(50_001));
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
        let rows = member_task_lags("g", &member(), 50_001, &reported_only());
        assert!(rows
            .iter()
            .filter(|r| r.task.partition == 2)
            .all(|r| r.status == LagStatus::CaughtUp));
        let rows = member_task_lags("g", &member(), 50_000, &reported_only());
        assert!(rows
            .iter()
            .filter(|r| r.task.partition == 2)
            .all(|r| r.status == LagStatus::Lagging));
    }

    /// What a Kafka Streams 4.4 member reports (seen live): a caught-up standby of a task with
    /// one changelog whose last record is at offset 29 reports offset 30 (the next offset to
    /// restore) and end offset 29 (the last offset).
    #[test]
    fn a_caught_up_standby_reports_one_past_its_end_offset() {
        assert_eq!(task_lag(Some(TaskRole::Standby), 30, 29, 1), 0);
        assert_eq!(task_lag(Some(TaskRole::Warmup), 30, 29, 1), 0);
        assert_eq!(task_lag(None, 30, 29, 1), 0);
        // 10 records behind: restored up to 19, the changelog's last offset is 29.
        assert_eq!(task_lag(Some(TaskRole::Standby), 20, 29, 1), 10);
        // Two changelogs, last offsets 29 and 9, restored up to 24 and 9: 5 behind.
        assert_eq!(task_lag(Some(TaskRole::Standby), 25 + 10, 29 + 9, 2), 5);
        // An unknown changelog count counts as 1 (never below 1).
        assert_eq!(task_lag(Some(TaskRole::Standby), 20, 29, 0), 10);
    }

    /// A restoring active task reports the log end offset it restores up to (a next offset).
    #[test]
    fn a_restoring_active_task_counts_up_to_the_log_end_offset() {
        assert_eq!(task_lag(Some(TaskRole::Active), 30, 30, 1), 0);
        assert_eq!(task_lag(Some(TaskRole::Active), 20, 30, 1), 10);
    }

    #[test]
    fn the_lag_is_never_negative() {
        assert_eq!(task_lag(Some(TaskRole::Standby), 100, 29, 1), 0);
        assert_eq!(task_lag(Some(TaskRole::Active), 100, 29, 1), 0);
        assert_eq!(
            task_lag(Some(TaskRole::Standby), 0, i64::MAX - 1, 5),
            i64::MAX
        );
    }
}
