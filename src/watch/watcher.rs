//! The changes of a watch, sample after sample. Besides the pairwise [`group_changes`], it
//! remembers who last owned each task, so that a task revoked in one sample and assigned in a
//! later one shows as moved from its old owner to its new one, and it keeps a short history of
//! each group's state and epochs.

use std::collections::{BTreeMap, BTreeSet};

use super::change::{group_changes, Change};
use super::sample::Sample;
use crate::model::group::GroupDescription;
use crate::model::{TaskId, TaskRole};

/// How many history points are kept per group.
pub const HISTORY_LEN: usize = 32;

/// A group's state and epochs from one sample on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub at_ms: i64,
    pub state: String,
    pub group_epoch: i32,
    pub target_epoch: i32,
}

type Owners = BTreeMap<(TaskId, TaskRole), BTreeSet<String>>;

/// What has been seen so far.
#[derive(Debug, Default)]
pub struct Watcher {
    /// The last sample that described the cluster.
    last: Option<Sample>,
    /// Why the cluster cannot be described, while it cannot.
    unreachable: Option<String>,
    /// Per group, the last owners each task had (kept while it has none).
    owners: BTreeMap<String, Owners>,
    history: BTreeMap<String, Vec<Point>>,
}

impl Watcher {
    pub fn new() -> Self {
        Watcher::default()
    }

    /// The changes since the previous sample. An unreachable cluster is one change when it
    /// goes away and one when it is back; what changed meanwhile is measured against the last
    /// sample that described it.
    pub fn observe(&mut self, sample: &Sample) -> Vec<Change> {
        if let Some(error) = &sample.error {
            let went_away = self.unreachable.is_none();
            self.unreachable = Some(error.clone());
            return match went_away {
                true => vec![Change::Unreachable {
                    error: error.clone(),
                }],
                false => vec![],
            };
        }
        let mut out = Vec::new();
        if self.unreachable.take().is_some() {
            out.push(Change::Reachable);
        }
        if let Some(prev) = &self.last {
            out.extend(groups_changes(prev, sample));
        }
        for g in &sample.snapshot.groups {
            out.extend(self.moves(g));
            self.remember(sample.sampled_at_ms, g);
        }
        self.last = Some(sample.clone());
        out
    }

    /// The recent states and epochs of `group`, oldest first.
    pub fn history(&self, group: &str) -> &[Point] {
        self.history.get(group).map_or(&[], Vec::as_slice)
    }

    /// The last sample that described the cluster.
    pub fn last(&self) -> Option<&Sample> {
        self.last.as_ref()
    }

    pub fn is_unreachable(&self) -> bool {
        self.unreachable.is_some()
    }

    /// Why the cluster cannot be described (the latest sample's error), while it cannot.
    pub fn unreachable(&self) -> Option<&str> {
        self.unreachable.as_deref()
    }

    /// Tasks whose owners changed since they last had owners: one lost it, another gained it.
    /// A standby added or dropped with no one losing or gaining in exchange is no move.
    fn moves(&mut self, g: &GroupDescription) -> Vec<Change> {
        let first_sight = !self.owners.contains_key(&g.group_id);
        let known = self.owners.entry(g.group_id.clone()).or_default();
        let mut out = Vec::new();
        for (key, now) in owners_of(g) {
            if let Some(last) = known.get(&key).filter(|_| !first_sight) {
                let from: Vec<String> = last.difference(&now).cloned().collect();
                let to: Vec<String> = now.difference(last).cloned().collect();
                if !from.is_empty() && !to.is_empty() {
                    out.push(Change::TaskMoved {
                        group: g.group_id.clone(),
                        task: key.0.to_string(),
                        role: key.1,
                        from,
                        to,
                    });
                }
            }
            known.insert(key, now);
        }
        out
    }

    fn remember(&mut self, at_ms: i64, g: &GroupDescription) {
        let points = self.history.entry(g.group_id.clone()).or_default();
        let point = Point {
            at_ms,
            state: g.state.clone(),
            group_epoch: g.group_epoch,
            target_epoch: g.target_assignment_epoch,
        };
        let same = |p: &Point| {
            (&p.state, p.group_epoch, p.target_epoch)
                == (&point.state, point.group_epoch, point.target_epoch)
        };
        if !points.last().is_some_and(same) {
            points.push(point);
        }
        if points.len() > HISTORY_LEN {
            points.remove(0);
        }
    }
}

/// Groups that appeared, went, or changed between two samples that described the cluster.
fn groups_changes(prev: &Sample, next: &Sample) -> Vec<Change> {
    let mut out = Vec::new();
    for g in &next.snapshot.groups {
        match prev.group(&g.group_id) {
            Some(old) => out.extend(group_changes(old, g)),
            None => out.push(Change::GroupAppeared {
                group: g.group_id.clone(),
            }),
        }
    }
    for g in &prev.snapshot.groups {
        if next.group(&g.group_id).is_none() {
            let error = next
                .group_errors
                .iter()
                .find(|e| e.group_id == g.group_id)
                .map(|e| e.error.clone());
            out.push(Change::GroupGone {
                group: g.group_id.clone(),
                error,
            });
        }
    }
    out
}

/// Who owns each task now, per role.
fn owners_of(g: &GroupDescription) -> Owners {
    let mut out = Owners::new();
    for m in &g.members {
        for role in TaskRole::ALL {
            for task in m.assignment.get(role).tasks() {
                out.entry((task, role))
                    .or_default()
                    .insert(m.member_id.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
