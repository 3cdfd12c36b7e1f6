//! `lag`: warm-up and restoration lag per task of a group, against `acceptable.recovery.lag`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::lag::{group_task_lags, LagStatus, TaskLag};
use crate::model::group::GroupDescription;

/// The `lag` report.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LagReport {
    pub group_id: String,
    pub acceptable_recovery_lag: i64,
    pub caught_up: usize,
    pub lagging: usize,
    pub unknown: usize,
    pub tasks: Vec<TaskLag>,
    /// The group has members and none reports task offsets: nothing could be checked.
    #[serde(skip)]
    pub nothing_reported: bool,
}

/// The lag of every task a member of `g` reports offsets for.
pub fn report(g: &GroupDescription, acceptable_recovery_lag: i64) -> LagReport {
    let tasks = group_task_lags(g, acceptable_recovery_lag);
    let count = |s: LagStatus| tasks.iter().filter(|t| t.status == s).count();
    LagReport {
        group_id: g.group_id.clone(),
        acceptable_recovery_lag,
        caught_up: count(LagStatus::CaughtUp),
        lagging: count(LagStatus::Lagging),
        unknown: count(LagStatus::Unknown),
        nothing_reported: tasks.is_empty() && !g.members.is_empty(),
        tasks,
    }
}

impl LagReport {
    /// A gate passes only on evidence: a lagging task, or nothing reported at all, fails it.
    pub fn gate_passes(&self) -> bool {
        self.lagging == 0 && !self.nothing_reported
    }
}
