//! The changes of a watch, sample after sample. Besides the pairwise [`group_changes`], it
//! remembers each task's owners as of its last move, so that a task revoked in one sample and
//! assigned in a later one, or a standby taken by its new owner before its old owner dropped
//! it, shows as moved from its old owner to its new one; and it keeps a short history of each
//! group's state and epochs.

use std::collections::{BTreeMap, BTreeSet};

use super::change::{group_changes, Change};
use super::sample::Sample;
use model::group::{CoordinatorNode, GroupDescription};
use model::movement::TaskMove;
use model::{natural, TaskId, TaskRole};

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

/// Per task and role, a set of owners.
type Owners = BTreeMap<(TaskId, TaskRole), BTreeSet<String>>;

/// What has been seen so far.
#[derive(Debug, Default)]
pub struct Watcher {
    /// The last sample that described the cluster.
    last: Option<Sample>,
    /// Why the cluster cannot be described, while it cannot.
    unreachable: Option<String>,
    /// Per group, each task's owners as of its last move (or as the group was first seen):
    /// what the next move is measured from.
    owners: BTreeMap<String, Owners>,
    history: BTreeMap<String, Vec<Point>>,
    /// Per group, its coordinator in the last sample that named one: a group gone meanwhile
    /// (its describe timed out while the coordinator moved) is compared with it when it is back.
    coordinators: BTreeMap<String, CoordinatorNode>,
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
            out.extend(self.coordinator_moved(g));
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

    /// The group's coordinator, when it is another broker than the last one seen. A broker is
    /// known by its id: a node restarted on another address still coordinates.
    fn coordinator_moved(&mut self, g: &GroupDescription) -> Option<Change> {
        let now = g.coordinator.clone()?;
        let before = self.coordinators.insert(g.group_id.clone(), now.clone())?;
        (before.id != now.id).then(|| Change::CoordinatorMoved {
            group: g.group_id.clone(),
            from: before,
            to: now,
        })
    }

    /// Tasks that moved: an owner lost the task and another gained it, both since the task's
    /// last move (or since the group was first seen), in the same sample or in different ones.
    /// So a task revoked in one sample and assigned in a later one moves when it is assigned,
    /// and a standby its new owner took before the old owner let go (standbys are not
    /// exclusive) moves when the old owner drops it. As many owners lose the task as gain it in
    /// one move (paired in natural order of their ids); what is left over waits for its pair
    /// ([`Watcher::unpaired`]), and a gain that is lost again before it paired cancels out.
    fn moves(&mut self, g: &GroupDescription) -> Vec<Change> {
        let now = owners_of(g);
        let Some(base) = self.owners.get_mut(&g.group_id) else {
            self.owners.insert(g.group_id.clone(), now);
            return Vec::new();
        };
        let keys: BTreeSet<(TaskId, TaskRole)> = base.keys().chain(now.keys()).cloned().collect();
        let empty = BTreeSet::new();
        let mut out = Vec::new();
        for key in keys {
            let owners = base.entry(key.clone()).or_default();
            let Some((from, to)) = pair(owners, now.get(&key).unwrap_or(&empty)) else {
                continue;
            };
            for x in &from {
                owners.remove(x);
            }
            owners.extend(to.iter().cloned());
            out.push(Change::TaskMoved {
                group: g.group_id.clone(),
                task: key.0.to_string(),
                role: key.1,
                from,
                to,
            });
        }
        base.retain(|_, o| !o.is_empty());
        out
    }

    /// Per group of the last sample that described the cluster, the owner changes no move has
    /// paired yet: a task dropped that no one took (yet), a replica added that no one gave up.
    /// The moves reported since the first sample, then these, compose
    /// ([`model::movement::compose`]) to the moves of `diff_owners` between the group's
    /// first sample and the last one.
    pub fn unpaired(&self) -> Vec<(String, TaskMove)> {
        let Some(last) = &self.last else {
            return Vec::new();
        };
        let empty = BTreeSet::new();
        let mut out = Vec::new();
        for g in &last.snapshot.groups {
            let Some(base) = self.owners.get(&g.group_id) else {
                continue;
            };
            let now = owners_of(g);
            let keys: BTreeSet<&(TaskId, TaskRole)> = base.keys().chain(now.keys()).collect();
            for key in keys {
                let (b, n) = (
                    base.get(key).unwrap_or(&empty),
                    now.get(key).unwrap_or(&empty),
                );
                let (from, to) = (sorted(b.difference(n)), sorted(n.difference(b)));
                if !from.is_empty() || !to.is_empty() {
                    let task = key.0.to_string();
                    let m = TaskMove {
                        task,
                        role: key.1,
                        from,
                        to,
                    };
                    out.push((g.group_id.clone(), m));
                }
            }
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

/// The owners that lost the task since `base` and as many of those that gained it, each in
/// natural order; none when nobody lost it or nobody gained it.
fn pair(base: &BTreeSet<String>, now: &BTreeSet<String>) -> Option<(Vec<String>, Vec<String>)> {
    let (mut from, mut to) = (sorted(base.difference(now)), sorted(now.difference(base)));
    let n = from.len().min(to.len());
    if n == 0 {
        return None;
    }
    from.truncate(n);
    to.truncate(n);
    Some((from, to))
}

/// Owner ids in natural order.
fn sorted<'a>(ids: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut v: Vec<String> = ids.cloned().collect();
    natural::sort(&mut v);
    v
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
