//! The group's timers: each member's session and rebalance timeouts, the assignment interval
//! between two targets and the initial rebalance delay; `expire` fires what is due.

use crate::profile::Profile;

use super::{Removal, StreamsGroup};
use crate::assignor::TaskAssignor;
use crate::member::Member;
use crate::target::WarmupRefiner;

impl StreamsGroup {
    /// Fire the timers that are due at `now_ms`: session and rebalance timeouts, and the end of
    /// the initial rebalance delay. Returns the members removed.
    pub fn expire(
        &mut self,
        now_ms: i64,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> Vec<Removal> {
        let mut removed = Vec::new();
        let scan = now_ms >= self.member_deadlines_from;
        let due: Vec<(String, bool)> = if !scan {
            Vec::new()
        } else {
            self.members
                .values()
                .filter_map(|m| {
                    if m.session_deadline_ms <= now_ms {
                        Some((m.member_id.clone(), true))
                    } else if let Some((d, e)) = m.rebalance_deadline {
                        (d <= now_ms && m.member_epoch == e).then(|| (m.member_id.clone(), false))
                    } else {
                        None
                    }
                })
                .collect()
        };
        for (id, session) in due {
            self.fence(&id);
            removed.push(if session {
                Removal::SessionTimeout { member_id: id }
            } else {
                Removal::RebalanceTimeout { member_id: id }
            });
        }
        if scan {
            self.member_deadlines_from = self.next_member_deadline().unwrap_or(i64::MAX);
        }
        if self.initial_delay_deadline.is_some_and(|d| d <= now_ms) {
            self.initial_delay_deadline = None;
            // `computeDelayedTargetAssignment`: nothing for an empty group, an up-to-date
            // target or a topology never configured; else the usual target step. A failing
            // assignor keeps the old target; the next heartbeat tries again.
            if !self.members.is_empty()
                && self.group_epoch > self.target_assignment_epoch
                && self.configuration.is_some()
                && self.can_compute_target(now_ms)
            {
                let _ = self.compute_target(now_ms, assignor, refiner, None);
            }
        }
        removed
    }

    /// The earliest time at which `expire` has something to do.
    pub fn next_deadline(&self) -> Option<i64> {
        [self.next_member_deadline(), self.initial_delay_deadline]
            .into_iter()
            .flatten()
            .min()
    }

    /// A time no later than the group's next deadline, in constant time: a driver that wakes
    /// `expire` then never misses a timer, and each `expire` makes the bound exact again
    /// (heartbeats only push deadlines later).
    pub fn deadline_bound(&self) -> Option<i64> {
        let members = (self.member_deadlines_from < i64::MAX).then_some(self.member_deadlines_from);
        [members, self.initial_delay_deadline]
            .into_iter()
            .flatten()
            .min()
    }

    /// The earliest session or armed rebalance timeout of a member.
    fn next_member_deadline(&self) -> Option<i64> {
        self.members
            .values()
            .flat_map(|m| {
                let rebalance = m
                    .rebalance_deadline
                    .filter(|(_, e)| *e == m.member_epoch)
                    .map(|(d, _)| d);
                [Some(m.session_deadline_ms), rebalance]
            })
            .flatten()
            .min()
    }

    /// Lower the bound under the member's deadlines.
    pub(super) fn note_deadlines(&mut self, member: &Member) {
        let rebalance = member.rebalance_deadline.map_or(i64::MAX, |(d, _)| d);
        self.member_deadlines_from = self
            .member_deadlines_from
            .min(member.session_deadline_ms)
            .min(rebalance);
    }

    /// The initial rebalance delay still pending from a failed creation of this group.
    pub(crate) fn inherit_initial_delay(&mut self, deadline_ms: i64, now_ms: i64) {
        if deadline_ms > now_ms {
            self.initial_delay_deadline = Some(deadline_ms);
        }
    }

    pub(crate) fn initial_delay_deadline(&self) -> Option<i64> {
        self.initial_delay_deadline
    }

    /// Whether the initial rebalance delay is holding back the first assignment.
    pub fn assignment_delayed(&self) -> bool {
        self.initial_delay_deadline.is_some()
    }

    /// The assignment interval in force: the group config from 4.3 on, none before.
    fn assignment_interval_ms(&self) -> i64 {
        if self.version.has_assignment_interval() {
            self.config.assignment_interval_ms
        } else {
            0
        }
    }

    /// `canComputeNextTargetAssignment`: at most one new target per assignment interval.
    pub(super) fn can_compute_target(&self, now_ms: i64) -> bool {
        let ts = self.target_assignment_timestamp_ms;
        let interval = self.assignment_interval_ms();
        ts == 0 || interval == 0 || now_ms >= ts.saturating_add(interval)
    }
}
