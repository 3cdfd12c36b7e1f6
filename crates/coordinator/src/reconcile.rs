//! Reconciliation: moving one member from its current assignment towards its target.
//!
//! The rules that keep tasks safe:
//! - a task is granted to a new owner only after its previous owner confirmed the release (a
//!   heartbeat whose owned-task lists no longer contain it; no lists, no confirmation);
//! - while a member has revocations pending it is granted nothing and keeps its old epoch;
//! - a process never holds two copies of a task (its members share one state directory), so a
//!   standby or warm-up waits until no other member of the process holds the task;
//! - role changes inside one member happen in place: active → standby keeps the state, standby ↔
//!   warm-up needs no confirmation, standby/warm-up → active is granted once the old active owner
//!   released it.

use model::{Assignment, TaskRole};

use super::member::{Member, MemberState};
use super::ownership::Ownership;

/// The outcome for one member; `None` fields mean "unchanged".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconciled {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: MemberState,
    pub assigned: Assignment,
    pub pending_revocation: Assignment,
}

/// Whether the member still owns any task of `pending`. Without owned lists nothing is confirmed.
fn still_owned(pending: &Assignment, owned: Option<&Assignment>) -> bool {
    let Some(owned) = owned else {
        return !pending.is_empty();
    };
    TaskRole::ALL
        .iter()
        .any(|r| !pending.get(*r).is_disjoint(owned.get(*r)))
}

/// How a release moves a member between roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleChanges {
    /// Kafka 4.4: a member's own copy changes role in place (see the module docs).
    InPlace,
    /// Kafka 4.2 and 4.3: every role change is a revocation, then a grant once the member's
    /// own process no longer holds the task.
    RevokeFirst,
}

/// Compute the member's next step. `owned` is what the member reported in this heartbeat
/// (`None` when it sent no task lists).
pub fn reconcile(
    member: &Member,
    target_epoch: i32,
    target: &Assignment,
    owned: Option<&Assignment>,
    ownership: &Ownership,
    role_changes: RoleChanges,
) -> Reconciled {
    let next = |epoch_if_revoking: i32| match role_changes {
        RoleChanges::InPlace => next_in_place(
            member,
            epoch_if_revoking,
            target_epoch,
            target,
            owned,
            ownership,
        ),
        RoleChanges::RevokeFirst => next_revoke_first(
            member,
            epoch_if_revoking,
            target_epoch,
            target,
            owned,
            ownership,
        ),
    };
    let unchanged = Reconciled {
        member_epoch: member.member_epoch,
        previous_member_epoch: member.previous_member_epoch,
        state: member.state,
        assigned: member.assigned.clone(),
        pending_revocation: member.pending_revocation.clone(),
    };
    match member.state {
        // Apache looks at the epoch only: a stable member at the target epoch is left alone.
        MemberState::Stable if member.member_epoch == target_epoch => unchanged,
        MemberState::Stable | MemberState::UnreleasedTasks => next(member.member_epoch),
        MemberState::UnrevokedTasks => {
            if still_owned(&member.pending_revocation, owned) {
                unchanged
            } else {
                next(member.member_epoch + 1)
            }
        }
    }
}

/// Kafka 4.2 and 4.3 (`CurrentAssignmentBuilder.computeNextAssignment`): keep what stays,
/// revoke what goes, and grant what is free, where a copy anywhere in the member's process
/// (its own included) blocks a grant.
fn next_revoke_first(
    member: &Member,
    epoch_if_revoking: i32,
    target_epoch: i32,
    target: &Assignment,
    owned: Option<&Assignment>,
    ownership: &Ownership,
) -> Reconciled {
    let step = Step::towards(member, target, |role, s, p| {
        ownership.is_unreleased_by_process(role, s, p, &member.identity.process_id)
    });
    let revocations_pending = !step.revoke.is_empty() && still_owned(&step.revoke, owned);
    step.finish(member, epoch_if_revoking, target_epoch, revocations_pending)
}

/// One reconciliation step's decision: what the member keeps, gives up and gets.
struct Step {
    keep: Assignment,
    revoke: Assignment,
    grant: Assignment,
    any_unreleased: bool,
}

impl Step {
    /// Keep what stays, revoke what goes, grant what the target adds unless `unreleased` says
    /// another copy still holds it.
    fn towards(
        member: &Member,
        target: &Assignment,
        unreleased: impl Fn(TaskRole, &str, i32) -> bool,
    ) -> Step {
        let mut step = Step {
            keep: Assignment::default(),
            revoke: Assignment::default(),
            grant: Assignment::default(),
            any_unreleased: false,
        };
        for role in TaskRole::ALL {
            let cur = member.assigned.get(role);
            let tgt = target.get(role);
            *step.keep.get_mut(role) = cur.intersection(tgt);
            *step.revoke.get_mut(role) = cur.difference(tgt);
            for (s, p) in tgt.difference(cur).iter() {
                if unreleased(role, s, p) {
                    step.any_unreleased = true;
                } else {
                    step.grant.get_mut(role).insert(s, p);
                }
            }
        }
        step
    }

    /// 4.4's role changes on one member. Demotion active -> standby: the state stays where it
    /// is; the standby is usable at once, while the active copy is still revoked (its release
    /// must be observed). Standby <-> warm-up: no confirmation needed. Promotion standby or
    /// warm-up -> active: the copy is not revoked; it stays until the active is granted.
    /// Returns the promoted copies (role, subtopology, partition).
    fn change_roles_in_place(
        &mut self,
        current: &Assignment,
        target: &Assignment,
    ) -> Vec<(TaskRole, String, i32)> {
        let demoted: Vec<(String, i32)> = current
            .active
            .iter()
            .filter(|(s, p)| self.grant.standby.contains(s, *p))
            .map(|(s, p)| (s.to_string(), p))
            .collect();
        for (s, p) in &demoted {
            self.grant.standby.remove(s, *p);
            self.keep.standby.insert(s, *p);
        }
        for (from, to) in [
            (TaskRole::Standby, TaskRole::Warmup),
            (TaskRole::Warmup, TaskRole::Standby),
        ] {
            let moved: Vec<(String, i32)> = current
                .get(from)
                .iter()
                .filter(|(s, p)| target.get(to).contains(s, *p))
                .map(|(s, p)| (s.to_string(), p))
                .collect();
            for (s, p) in moved {
                self.revoke.get_mut(from).remove(&s, p);
                self.grant.get_mut(to).insert(&s, p);
            }
        }
        let mut promoted = Vec::new();
        for from in [TaskRole::Standby, TaskRole::Warmup] {
            for (s, p) in current.get(from).iter() {
                if target.active.contains(s, p) {
                    promoted.push((from, s.to_string(), p));
                }
            }
        }
        for (from, s, p) in &promoted {
            self.revoke.get_mut(*from).remove(s, *p);
        }
        promoted
    }

    /// Both releases end alike: with revocations outstanding the member only keeps, at
    /// `epoch_if_revoking`; otherwise it gets the grants too, at the target epoch.
    fn finish(
        self,
        member: &Member,
        epoch_if_revoking: i32,
        target_epoch: i32,
        revocations_pending: bool,
    ) -> Reconciled {
        if revocations_pending {
            return Reconciled {
                member_epoch: epoch_if_revoking,
                previous_member_epoch: member.member_epoch,
                state: MemberState::UnrevokedTasks,
                assigned: self.keep,
                pending_revocation: self.revoke,
            };
        }
        let mut assigned = self.keep;
        for role in TaskRole::ALL {
            assigned.get_mut(role).extend(self.grant.get(role));
        }
        Reconciled {
            member_epoch: target_epoch,
            previous_member_epoch: member.member_epoch,
            state: if self.any_unreleased {
                MemberState::UnreleasedTasks
            } else {
                MemberState::Stable
            },
            assigned,
            pending_revocation: Assignment::default(),
        }
    }
}

/// Kafka 4.4: as in 4.2 and 4.3, but a task changing role on the same member changes in place
/// (see `Step::change_roles_in_place`), and a copy this member holds in another role does not
/// block a grant.
fn next_in_place(
    member: &Member,
    epoch_if_revoking: i32,
    target_epoch: i32,
    target: &Assignment,
    owned: Option<&Assignment>,
    ownership: &Ownership,
) -> Reconciled {
    let current = &member.assigned;
    // Copies this member is assigned in another role are not "held elsewhere", except that a
    // warm-up never joins an active copy (see `is_unreleased`).
    let mut step = Step::towards(member, target, |role, s, p| {
        ownership.is_unreleased(role, s, p, current, &member.identity.process_id)
    });
    let promoted = step.change_roles_in_place(current, target);
    let revocations_pending = !step.revoke.is_empty() && still_owned(&step.revoke, owned);
    for (from, s, p) in &promoted {
        if !step.grant.active.contains(s, *p) || revocations_pending {
            step.keep.get_mut(*from).insert(s, *p);
        }
    }
    step.finish(member, epoch_if_revoking, target_epoch, revocations_pending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::TaskSet;

    fn set(tasks: &[(&str, i32)]) -> TaskSet {
        tasks.iter().copied().collect()
    }

    fn member(id: &str, process: &str, epoch: i32, active: &[(&str, i32)]) -> Member {
        let mut m = Member::new(id);
        m.identity.process_id = process.into();
        m.member_epoch = epoch;
        m.assigned.active = set(active);
        m
    }

    fn ownership_of(members: &[&Member]) -> Ownership {
        let mut o = Ownership::default();
        for m in members {
            o.add(&m.member_id, &m.identity.process_id, &m.assigned);
            o.add(&m.member_id, &m.identity.process_id, &m.pending_revocation);
        }
        o
    }

    fn target(active: &[(&str, i32)], standby: &[(&str, i32)]) -> Assignment {
        Assignment {
            active: set(active),
            standby: set(standby),
            warmup: TaskSet::new(),
        }
    }

    #[test]
    fn revocation_waits_for_confirmation_and_keeps_the_old_epoch() {
        let a = member("a", "p1", 1, &[("0", 0), ("0", 1)]);
        let o = ownership_of(&[&a]);
        let t = target(&[("0", 0)], &[]);
        let owned = a.assigned.clone();
        let r = reconcile(&a, 2, &t, Some(&owned), &o, RoleChanges::InPlace);
        assert_eq!(r.state, MemberState::UnrevokedTasks);
        assert_eq!(r.member_epoch, 1);
        assert_eq!(r.assigned.active, set(&[("0", 0)]));
        assert_eq!(r.pending_revocation.active, set(&[("0", 1)]));
    }

    #[test]
    fn revocation_without_owned_lists_is_not_confirmed() {
        let a = member("a", "p1", 1, &[("0", 0), ("0", 1)]);
        let o = ownership_of(&[&a]);
        let r = reconcile(
            &a,
            2,
            &target(&[("0", 0)], &[]),
            None,
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::UnrevokedTasks);
    }

    #[test]
    fn confirmed_revocation_moves_to_the_target_epoch() {
        let mut a = member("a", "p1", 1, &[("0", 0)]);
        a.state = MemberState::UnrevokedTasks;
        a.pending_revocation.active = set(&[("0", 1)]);
        let o = ownership_of(&[&a]);
        let owned = target(&[("0", 0)], &[]);
        let r = reconcile(
            &a,
            2,
            &target(&[("0", 0)], &[]),
            Some(&owned),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::Stable);
        assert_eq!(r.member_epoch, 2);
        assert_eq!(r.previous_member_epoch, 1);
    }

    #[test]
    fn a_task_still_held_elsewhere_is_not_granted() {
        let a = member("a", "p1", 1, &[("0", 0)]);
        let b = member("b", "p2", 1, &[]);
        let o = ownership_of(&[&a, &b]);
        let r = reconcile(
            &b,
            2,
            &target(&[("0", 0)], &[]),
            Some(&b.assigned.clone()),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::UnreleasedTasks);
        assert_eq!(r.member_epoch, 2);
        assert!(r.assigned.active.is_empty());
    }

    #[test]
    fn standby_waits_for_another_member_of_the_process_to_drop_its_copy() {
        let a = member("a", "p1", 1, &[("0", 0)]);
        let b = member("b", "p1", 1, &[]);
        let o = ownership_of(&[&a, &b]);
        let r = reconcile(
            &b,
            2,
            &target(&[], &[("0", 0)]),
            Some(&b.assigned.clone()),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::UnreleasedTasks);
        assert!(r.assigned.standby.is_empty());
        // On another process the standby is granted at once.
        let c = member("c", "p2", 1, &[]);
        let o = ownership_of(&[&a, &c]);
        let r = reconcile(
            &c,
            2,
            &target(&[], &[("0", 0)]),
            Some(&c.assigned.clone()),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::Stable);
        assert_eq!(r.assigned.standby, set(&[("0", 0)]));
    }

    #[test]
    fn demotion_keeps_a_standby_while_the_active_is_revoked() {
        let a = member("a", "p1", 1, &[("0", 0)]);
        let o = ownership_of(&[&a]);
        let owned = a.assigned.clone();
        let r = reconcile(
            &a,
            2,
            &target(&[], &[("0", 0)]),
            Some(&owned),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::UnrevokedTasks);
        assert_eq!(r.assigned.standby, set(&[("0", 0)]));
        assert_eq!(r.pending_revocation.active, set(&[("0", 0)]));
    }

    #[test]
    fn promotion_waits_for_the_old_active_owner() {
        let a = member("a", "p1", 1, &[("0", 0)]);
        let mut b = member("b", "p2", 1, &[]);
        b.assigned.standby = set(&[("0", 0)]);
        let o = ownership_of(&[&a, &b]);
        let owned = b.assigned.clone();
        let r = reconcile(
            &b,
            2,
            &target(&[("0", 0)], &[]),
            Some(&owned),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::UnreleasedTasks);
        assert_eq!(r.assigned.standby, set(&[("0", 0)]));
        assert!(r.assigned.active.is_empty());
        // Once a released it, b gets the active and drops the standby in place.
        let o = ownership_of(&[&b]);
        let r = reconcile(
            &b,
            2,
            &target(&[("0", 0)], &[]),
            Some(&owned),
            &o,
            RoleChanges::InPlace,
        );
        assert_eq!(r.state, MemberState::Stable);
        assert_eq!(r.assigned.active, set(&[("0", 0)]));
        assert!(r.assigned.standby.is_empty());
    }
}
