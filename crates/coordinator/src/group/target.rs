//! The group's target assignment: when the heartbeat of a member computes a new one for the
//! whole group, and how it is computed and installed.

use crate::profile::Profile;
use model::heartbeat::Status;
use model::{KafkaVersion, StatusCode};

use super::{server_error, Rejection, StreamsGroup};
use crate::assignor::TaskAssignor;
use crate::target::{self, WarmupRefiner};

/// What the target assignment step decided for the member at hand.
pub(super) struct TargetForMember {
    pub(super) epoch: i32,
    /// The initial rebalance delay held the target back: Apache's result carries no target map.
    pub(super) held_back: bool,
}

impl StreamsGroup {
    /// `maybeUpdateStreamsTargetAssignment`: the target epoch and tasks this member reconciles
    /// towards, computing a new target for the whole group when it is due.
    pub(super) fn target_for_member(
        &mut self,
        member_id: &str,
        now_ms: i64,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
        status: &mut Vec<Status>,
    ) -> Result<TargetForMember, Rejection> {
        let last = |g: &StreamsGroup| TargetForMember {
            epoch: g.target_assignment_epoch,
            held_back: false,
        };
        if self.version <= KafkaVersion::V4_2 && self.group_epoch <= self.target_assignment_epoch {
            return Ok(last(self));
        }
        if self.initial_delay_deadline.is_some() {
            status.push(Status {
                code: StatusCode::AssignmentDelayed,
                detail: "Assignment delayed due to the configured initial rebalance delay.".into(),
            });
            let epoch = if self.version.initial_delay_epoch_at_least_one() {
                self.target_assignment_epoch.max(1)
            } else {
                self.target_assignment_epoch
            };
            return Ok(TargetForMember {
                epoch,
                held_back: true,
            });
        }
        if self.target_assignment_epoch >= self.group_epoch {
            return Ok(last(self));
        }
        if !self.can_compute_target(now_ms) {
            status.push(Status {
                code: StatusCode::AssignmentDelayed,
                detail: "Assignment delayed due to the configured assignment interval.".into(),
            });
            return Ok(last(self));
        }
        // The heartbeating member joins Apache's member map only when the heartbeat's records
        // are written, after the target: until then it comes last.
        let newcomer = (!self.member_order.contains(member_id)).then_some(member_id);
        self.compute_target(now_ms, assignor, refiner, newcomer)
            .map_err(|_| server_error())?;
        Ok(last(self))
    }

    pub(super) fn compute_target(
        &mut self,
        now_ms: i64,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
        newcomer: Option<&str>,
    ) -> Result<(), String> {
        let mut order: Vec<&str> = self
            .member_order
            .iter()
            .filter(|id| self.members.contains_key(*id))
            .chain(newcomer)
            .collect();
        if order.len() < self.members.len() {
            // Every member is in the order by construction; never let one drop out of a target.
            let listed: std::collections::BTreeSet<&str> = order.iter().copied().collect();
            let missing: Vec<&str> = self
                .members
                .keys()
                .map(String::as_str)
                .filter(|id| !listed.contains(id))
                .collect();
            order.extend(missing);
        }
        let inputs = target::TargetInputs {
            members: &self.members,
            order: &order,
            previous_target: &self.target,
            configuration: self.configuration.as_ref(),
            config: &self.config,
            version: self.version,
        };
        let (target, warnings) =
            target::compute(assignor, refiner, &inputs).map_err(|e| e.message)?;
        self.target = target;
        self.assignor_warnings = warnings;
        self.target_assignment_epoch = self.group_epoch;
        self.target_assignment_timestamp_ms = now_ms;
        self.targets_computed += 1;
        self.recount_unreconciled();
        Ok(())
    }

    /// The assignment configs that trigger a new target when they change: the standby count,
    /// and from 4.4 on the rack-aware assignment tags.
    pub(super) fn assignment_configs(&self) -> (u32, Vec<String>) {
        let tags = if self.version >= KafkaVersion::V4_4 {
            self.config.rack_aware_assignment_tags.clone()
        } else {
            Vec::new()
        };
        (self.config.num_standby_replicas, tags)
    }
}
