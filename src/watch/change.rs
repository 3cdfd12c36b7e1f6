//! What differs between two descriptions of a group: its state and epochs, members joining and
//! leaving, each member's way to its target, lag. Task moves need more than two samples (a task
//! is revoked in one and assigned in a later one) and are tracked by [`super::watcher`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use model::group::{CoordinatorNode, GroupDescription, MemberDescription};
use model::natural::Natural;
use model::TaskRole;

/// One change seen between two samples.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// The cluster could not be described (the previous sample could).
    Unreachable {
        error: String,
    },
    /// The cluster can be described again.
    Reachable,
    /// A group is described that was not before.
    GroupAppeared {
        group: String,
    },
    /// A group is no longer described (deleted, or its description failed).
    GroupGone {
        group: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// Another broker coordinates the group (its coordinator was stopped or killed, or the
    /// leadership of its `__consumer_offsets` partition moved). Measured from the last sample
    /// that described the group, so a move while it could not be described shows when it can.
    CoordinatorMoved {
        group: String,
        from: CoordinatorNode,
        to: CoordinatorNode,
    },
    State {
        group: String,
        from: String,
        to: String,
    },
    GroupEpoch {
        group: String,
        from: i32,
        to: i32,
    },
    TargetAssignmentEpoch {
        group: String,
        from: i32,
        to: i32,
    },
    TopologyEpoch {
        group: String,
        from: i32,
        to: i32,
    },
    MemberJoined {
        group: String,
        member: String,
        process: String,
        member_epoch: i32,
        /// It joined after the group's target assignment was computed: that target has nothing
        /// for it, and it waits for the next one (see [`waits_for_first_target`]).
        waiting_for_first_target: bool,
    },
    MemberLeft {
        group: String,
        member: String,
        process: String,
    },
    /// A task's owners in one role changed: `from` lost it, `to` gained it (standbys may have
    /// several owners).
    TaskMoved {
        group: String,
        task: String,
        role: TaskRole,
        from: Vec<String>,
        to: Vec<String>,
    },
    MemberEpoch {
        group: String,
        member: String,
        from: i32,
        to: i32,
    },
    /// A member got closer to (or further from) its target assignment.
    MemberProgress {
        group: String,
        member: String,
        progress: Progress,
    },
    /// The group's total lag over its input partitions (`null`: not known).
    Lag {
        group: String,
        from: Option<i64>,
        to: Option<i64>,
    },
}

impl Change {
    /// The group the change is about (none for the cluster-wide ones).
    pub fn group(&self) -> Option<&str> {
        match self {
            Change::Unreachable { .. } | Change::Reachable => None,
            Change::GroupAppeared { group }
            | Change::GroupGone { group, .. }
            | Change::CoordinatorMoved { group, .. }
            | Change::State { group, .. }
            | Change::GroupEpoch { group, .. }
            | Change::TargetAssignmentEpoch { group, .. }
            | Change::TopologyEpoch { group, .. }
            | Change::MemberJoined { group, .. }
            | Change::MemberLeft { group, .. }
            | Change::TaskMoved { group, .. }
            | Change::MemberEpoch { group, .. }
            | Change::MemberProgress { group, .. }
            | Change::Lag { group, .. } => Some(group),
        }
    }
}

/// How far a member is from its target: its member epoch against the group's target assignment
/// epoch, and the tasks it owns against those of its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Progress {
    pub member_epoch: i32,
    pub target_epoch: i32,
    /// Tasks of its target assignment (all roles).
    pub target_tasks: usize,
    /// Of those, the ones it owns.
    pub owned_of_target: usize,
    /// Tasks it owns that its target does not have (still to revoke).
    pub to_revoke: usize,
}

impl Progress {
    pub fn of(g: &GroupDescription, m: &MemberDescription) -> Self {
        let mut p = Progress {
            member_epoch: m.member_epoch,
            target_epoch: g.target_assignment_epoch,
            target_tasks: m.target_assignment.len(),
            owned_of_target: 0,
            to_revoke: 0,
        };
        for role in TaskRole::ALL {
            let (owned, target) = (m.assignment.get(role), m.target_assignment.get(role));
            p.owned_of_target += owned.intersection(target).len();
            p.to_revoke += owned.difference(target).len();
        }
        p
    }

    /// At the target epoch and owning exactly its target.
    pub fn caught_up(&self) -> bool {
        self.member_epoch >= self.target_epoch
            && self.owned_of_target == self.target_tasks
            && self.to_revoke == 0
    }

    /// The same tasks picture, whatever the epochs (those are changes of their own).
    fn same_tasks(&self, other: &Progress) -> bool {
        (self.target_tasks, self.owned_of_target, self.to_revoke)
            == (other.target_tasks, other.owned_of_target, other.to_revoke)
            && self.caught_up() == other.caught_up()
    }
}

/// Whether a member that has just joined waits for its first target: the group epoch is past
/// the target assignment's (the coordinator has not computed a target since the join, e.g.
/// within the assignment interval) and the target has nothing for the member. Every target
/// computed has every member, so once the target epoch moves on, the member has its own
/// (possibly empty) target. Its member epoch is the old target's and it owns nothing, which
/// would read as "at its target" without this.
pub fn waits_for_first_target(g: &GroupDescription, m: &MemberDescription) -> bool {
    g.group_epoch > g.target_assignment_epoch && m.target_assignment.is_empty()
}

/// The group's total lag, when every input partition's lag is known.
pub fn total_lag(g: &GroupDescription) -> Option<i64> {
    g.offsets.iter().map(|o| o.lag).sum()
}

/// Everything but task moves that changed from `prev` to `next` (the same group).
pub fn group_changes(prev: &GroupDescription, next: &GroupDescription) -> Vec<Change> {
    let group = || next.group_id.clone();
    let mut out = Vec::new();
    if prev.state != next.state {
        out.push(Change::State {
            group: group(),
            from: prev.state.clone(),
            to: next.state.clone(),
        });
    }
    let epochs = [
        (prev.group_epoch, next.group_epoch, 0),
        (
            prev.target_assignment_epoch,
            next.target_assignment_epoch,
            1,
        ),
        (prev.topology.epoch, next.topology.epoch, 2),
    ];
    for (from, to, which) in epochs.into_iter().filter(|(a, b, _)| a != b) {
        out.push(match which {
            0 => Change::GroupEpoch {
                group: group(),
                from,
                to,
            },
            1 => Change::TargetAssignmentEpoch {
                group: group(),
                from,
                to,
            },
            _ => Change::TopologyEpoch {
                group: group(),
                from,
                to,
            },
        });
    }
    out.extend(member_changes(prev, next));
    let (from, to) = (total_lag(prev), total_lag(next));
    if from != to {
        out.push(Change::Lag {
            group: group(),
            from,
            to,
        });
    }
    out
}

/// Members that joined or left, and members whose epoch or way to their target changed.
fn member_changes(prev: &GroupDescription, next: &GroupDescription) -> Vec<Change> {
    let before = members_by_id(prev);
    let after = members_by_id(next);
    let group = || next.group_id.clone();
    let mut out = Vec::new();
    for (id, m) in &after {
        let Some(old) = before.get(id) else {
            out.push(Change::MemberJoined {
                group: group(),
                member: m.member_id.clone(),
                process: m.process_id.clone(),
                member_epoch: m.member_epoch,
                waiting_for_first_target: waits_for_first_target(next, m),
            });
            continue;
        };
        if old.member_epoch != m.member_epoch {
            out.push(Change::MemberEpoch {
                group: group(),
                member: m.member_id.clone(),
                from: old.member_epoch,
                to: m.member_epoch,
            });
        }
        let (was, now) = (Progress::of(prev, old), Progress::of(next, m));
        if !was.same_tasks(&now) || was.caught_up() != now.caught_up() {
            out.push(Change::MemberProgress {
                group: group(),
                member: m.member_id.clone(),
                progress: now,
            });
        }
    }
    for (id, m) in &before {
        if !after.contains_key(id) {
            out.push(Change::MemberLeft {
                group: group(),
                member: m.member_id.clone(),
                process: m.process_id.clone(),
            });
        }
    }
    out
}

/// Members in natural order of their ids.
fn members_by_id(g: &GroupDescription) -> BTreeMap<Natural<'_>, &MemberDescription> {
    g.members
        .iter()
        .map(|m| (Natural(m.member_id.as_str()), m))
        .collect()
}

#[cfg(test)]
mod tests;
