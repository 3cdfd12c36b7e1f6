//! The member table and what is kept in step with it: the ownership index of tasks, the
//! counts of unreconciled members and of members with an endpoint; fencing a member.

use super::StreamsGroup;
use crate::member::Member;
use crate::profile::Profile;
use model::KafkaVersion;

impl StreamsGroup {
    /// Insert or replace a member, keeping the ownership index and the reconciled count right.
    pub(super) fn put_member(&mut self, member: Member) {
        let epoch = self.target_assignment_epoch;
        self.note_deadlines(&member);
        if !member.is_reconciled(epoch) {
            self.unreconciled += 1;
        }
        let old = self.members.get_mut(&member.member_id);
        // Most heartbeats change no task: the index stays as it is (only the order of a task's
        // holders would change, and no question asked of the index depends on it).
        let reindex = old.as_ref().is_none_or(|old| {
            old.assigned != member.assigned
                || old.pending_revocation != member.pending_revocation
                || old.identity.process_id != member.identity.process_id
        });
        if let Some(old) = &old {
            if !old.is_reconciled(epoch) {
                self.unreconciled = self.unreconciled.saturating_sub(1);
            }
            if reindex {
                self.ownership.remove(&old.member_id, &old.assigned);
                self.ownership
                    .remove(&old.member_id, &old.pending_revocation);
            }
        }
        if reindex {
            let (id, process) = (&member.member_id, &member.identity.process_id);
            self.ownership.add(id, process, &member.assigned);
            self.ownership.add(id, process, &member.pending_revocation);
        }
        let had_endpoint = old
            .as_ref()
            .is_some_and(|o| o.identity.user_endpoint.is_some());
        self.endpoint_members = self.endpoint_members
            + usize::from(member.identity.user_endpoint.is_some())
            - usize::from(had_endpoint);
        match old {
            Some(old) => *old = member,
            None => {
                self.members.insert(member.member_id.clone(), member);
            }
        }
    }

    /// Whether any member has an interactive-query endpoint.
    pub(crate) fn any_endpoint(&self) -> bool {
        self.endpoint_members > 0
    }

    /// Change a stored member in place (not its process), keeping the ownership index and the
    /// count of unreconciled members as `put_member` does, without copying the member.
    pub(super) fn update_member(&mut self, member_id: &str, change: impl FnOnce(&mut Member)) {
        let epoch = self.target_assignment_epoch;
        let Some(m) = self.members.get_mut(member_id) else {
            return;
        };
        // Copies of the task sets are reference counts.
        let (assigned, pending) = (m.assigned.clone(), m.pending_revocation.clone());
        let was_reconciled = m.is_reconciled(epoch);
        let had_endpoint = m.identity.user_endpoint.is_some();
        change(m);
        self.endpoint_members = self.endpoint_members
            + usize::from(m.identity.user_endpoint.is_some())
            - usize::from(had_endpoint);
        let rebalance = m.rebalance_deadline.map_or(i64::MAX, |(d, _)| d);
        self.member_deadlines_from = self
            .member_deadlines_from
            .min(m.session_deadline_ms)
            .min(rebalance);
        if assigned != m.assigned || pending != m.pending_revocation {
            self.ownership.remove(member_id, &assigned);
            self.ownership.remove(member_id, &pending);
            self.ownership
                .add(member_id, &m.identity.process_id, &m.assigned);
            self.ownership
                .add(member_id, &m.identity.process_id, &m.pending_revocation);
        }
        match (was_reconciled, m.is_reconciled(epoch)) {
            (true, false) => self.unreconciled += 1,
            (false, true) => self.unreconciled = self.unreconciled.saturating_sub(1),
            _ => {}
        }
    }

    pub(super) fn recount_unreconciled(&mut self) {
        let epoch = self.target_assignment_epoch;
        self.unreconciled = self
            .members
            .values()
            .filter(|m| !m.is_reconciled(epoch))
            .count();
    }

    /// Remove a member: its tasks are free, the group epoch goes up.
    pub(super) fn fence(&mut self, member_id: &str) {
        let Some(m) = self.members.remove(member_id) else {
            return;
        };
        self.endpoint_members -= usize::from(m.identity.user_endpoint.is_some());
        self.member_order.remove(member_id);
        self.ownership.remove(member_id, &m.assigned);
        self.ownership.remove(member_id, &m.pending_revocation);
        if let Some(iid) = &m.identity.instance_id {
            if self.static_members.get(iid).map(String::as_str) == Some(member_id) {
                self.static_members.remove(iid);
            }
        }
        // The refined cache keeps the removed member's entry (soft state, filled earlier).
        self.endpoint_cache.remove(member_id);
        self.target.remove(member_id);
        if !m.is_reconciled(self.target_assignment_epoch) {
            self.unreconciled = self.unreconciled.saturating_sub(1);
        }
        self.group_epoch += 1;
        if self.version == KafkaVersion::V4_1 {
            // 4.1's epoch record for a fenced member carries metadata hash 0, the hash of "no
            // required topic exists": the next hash computed differs from it (the group epoch
            // goes up again) unless every required topic is gone by then.
            for seen in self.metadata_seen.values_mut() {
                *seen = None;
            }
        }
        if self.members.is_empty() {
            // 4.4 writes a target at the new epoch with timestamp 0, as for a new group, so the
            // interval does not hold back the next computation.
            // 4.3.2 writes the same (KAFKA-20442); 4.3.1 and earlier leave it alone.
            if self.version.resets_target_epoch_when_empty() {
                self.target_assignment_epoch = self.group_epoch;
                self.target_assignment_timestamp_ms = 0;
            }
            self.shutdown_requested_by = None;
            if self.version == KafkaVersion::Kip {
                self.initial_delay_deadline = None;
            }
        }
    }
}
