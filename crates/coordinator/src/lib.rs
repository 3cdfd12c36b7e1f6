//! The streams group coordinator, carried locally: a pure library (no I/O, time passed in) that
//! does what a broker's group coordinator does for streams groups, as KIP-1071 specifies.
//!
//! - `validate`: request checks; `topology_epoch`: the KIP's topology epoch rules (and the
//!   shipped broker's);
//! - `group`: one group's state machine, epochs, heartbeat and leave handling, timers;
//! - `reconcile` + `ownership`: moving a member to its target without two owners of a task;
//! - `target` + `assignor`: the target assignment (sticky assignor, warm-up hook).

pub mod assignor;
pub mod broker_settings;
pub mod config;
pub mod endpoints;
pub mod group;
pub mod java;
pub mod member;
pub mod member_order;
pub mod ownership;
pub mod profile;
pub mod reconcile;
pub mod refined_cache;
pub mod target;
pub mod topics;
pub mod topology_epoch;
pub mod validate;

use crate::profile::Profile;
use std::collections::{BTreeMap, BTreeSet};

pub use config::GroupConfig;
pub use group::{GroupState, HeartbeatOutcome, Removal, RequestContext, StreamsGroup};

use crate::topics::TopicMetadata;
use model::heartbeat::{LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use model::{ErrorCode, HeartbeatRequest, HeartbeatResponse, KafkaVersion};

use assignor::{StickyAssignor, TaskAssignor};
use target::{NoWarmups, WarmupRefiner};

/// A group coordinator for many groups.
pub struct Coordinator {
    version: KafkaVersion,
    defaults: GroupConfig,
    groups: BTreeMap<String, StreamsGroup>,
    /// Group ids taken by groups of other types (classic, consumer, share).
    other_groups: BTreeSet<String>,
    assignor: Box<dyn TaskAssignor>,
    refiner: Box<dyn WarmupRefiner>,
    /// Initial-rebalance-delay timers of groups whose creating heartbeat failed after scheduling
    /// one: Apache's timer outlives the group that was never stored, and the next creating join
    /// finds it scheduled (`scheduleIfAbsent`), so the delay runs from the failed join.
    orphan_initial_delays: BTreeMap<String, i64>,
    /// Group configs (`kafka-configs.sh --entity-type groups`): like Apache's, they exist apart
    /// from the group, before it is created and after it is deleted.
    group_configs: BTreeMap<String, GroupConfig>,
}

impl Coordinator {
    /// The newest release's coordinator.
    pub fn new(defaults: GroupConfig) -> Coordinator {
        Coordinator::for_version(KafkaVersion::NEWEST, defaults)
    }

    pub fn for_version(version: KafkaVersion, defaults: GroupConfig) -> Coordinator {
        Coordinator {
            version,
            defaults,
            groups: BTreeMap::new(),
            other_groups: BTreeSet::new(),
            assignor: Box::new(StickyAssignor::new(version.shipped_assignor())),
            refiner: Box::new(NoWarmups),
            orphan_initial_delays: BTreeMap::new(),
            group_configs: BTreeMap::new(),
        }
    }

    pub fn version(&self) -> KafkaVersion {
        self.version
    }

    /// The name of the task assignor that runs ("sticky", "balanced-sticky").
    pub fn assignor_name(&self) -> &'static str {
        self.assignor.name()
    }

    pub fn with_assignor(mut self, assignor: Box<dyn TaskAssignor>) -> Coordinator {
        self.assignor = assignor;
        self
    }

    /// Set a group's configs (validated by the caller, e.g. `GroupConfig::with_group_config`);
    /// a group created later starts with them.
    pub fn set_group_config(&mut self, group_id: &str, config: GroupConfig) {
        if let Some(g) = self.groups.get_mut(group_id) {
            g.set_config(config.clone());
        }
        self.group_configs.insert(group_id.to_string(), config);
    }

    /// The configs a group has or would be created with.
    pub fn group_config(&self, group_id: &str) -> &GroupConfig {
        match self.groups.get(group_id) {
            Some(g) => g.config(),
            None => self.group_configs.get(group_id).unwrap_or(&self.defaults),
        }
    }

    /// Mark a group id as used by another group type: streams heartbeats for it fail.
    pub fn add_other_group(&mut self, group_id: &str) {
        self.other_groups.insert(group_id.to_string());
    }

    /// Put a group in place, e.g. one restored from a snapshot.
    pub fn insert_group(&mut self, group: StreamsGroup) {
        self.groups.insert(group.group_id.clone(), group);
    }

    pub fn group(&self, group_id: &str) -> Option<&StreamsGroup> {
        self.groups.get(group_id)
    }

    pub fn group_mut(&mut self, group_id: &str) -> Option<&mut StreamsGroup> {
        self.groups.get_mut(group_id)
    }

    /// A topic was deleted from the cluster (it may come back under a new topic id).
    pub fn topic_deleted(&mut self, topic: &str) {
        for g in self.groups.values_mut() {
            g.topic_deleted(topic);
        }
    }

    /// Handle one StreamsGroupHeartbeat. `metadata` is the cluster's topics and partition counts.
    pub fn heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
    ) -> HeartbeatOutcome {
        let fail = |code: ErrorCode, message: String| HeartbeatOutcome {
            response: HeartbeatResponse {
                error: Some(code),
                error_message: Some(message),
                ..HeartbeatResponse::default()
            },
            topics_to_create: Vec::new(),
        };
        if let Err(e) = validate::validate(req, self.version) {
            return fail(e.error, e.message);
        }
        if self.other_groups.contains(&req.group_id) {
            return fail(
                ErrorCode::GroupIdNotFound,
                format!("Group {} is not a streams group.", req.group_id),
            );
        }
        if req.member_epoch == LEAVE_EPOCH || req.member_epoch == STATIC_LEAVE_EPOCH {
            return match self.groups.get_mut(&req.group_id) {
                Some(g) => HeartbeatOutcome {
                    response: g.leave(req),
                    topics_to_create: Vec::new(),
                },
                None => fail(
                    ErrorCode::GroupIdNotFound,
                    format!("Group {} not found.", req.group_id),
                ),
            };
        }
        let joining = req.member_epoch == 0;
        if !self.groups.contains_key(&req.group_id) {
            if !joining {
                return fail(
                    ErrorCode::GroupIdNotFound,
                    format!("Streams group {} not found.", req.group_id),
                );
            }
            // A group is created by a successful join only.
            let config = self.group_config(&req.group_id).clone();
            let mut g = StreamsGroup::with_version(&req.group_id, config, self.version);
            if let Some(d) = self.orphan_initial_delays.remove(&req.group_id) {
                g.inherit_initial_delay(d, ctx.now_ms);
            }
            let out = g.heartbeat(
                req,
                ctx,
                metadata,
                self.assignor.as_ref(),
                self.refiner.as_ref(),
            );
            if out.response.error.is_none() {
                self.groups.insert(req.group_id.clone(), g);
            } else if let Some(d) = g.initial_delay_deadline() {
                self.orphan_initial_delays.insert(req.group_id.clone(), d);
            }
            return out;
        }
        let g = self.groups.get_mut(&req.group_id).expect("checked above");
        g.heartbeat(
            req,
            ctx,
            metadata,
            self.assignor.as_ref(),
            self.refiner.as_ref(),
        )
    }

    /// Fire due timers in every group.
    pub fn expire(&mut self, now_ms: i64) -> Vec<(String, Removal)> {
        // A due orphan timer finds no group and does nothing.
        self.orphan_initial_delays.retain(|_, d| *d > now_ms);
        let mut out = Vec::new();
        for (id, g) in &mut self.groups {
            for r in g.expire(now_ms, self.assignor.as_ref(), self.refiner.as_ref()) {
                out.push((id.clone(), r));
            }
        }
        out
    }

    pub fn next_deadline(&self) -> Option<i64> {
        self.groups
            .values()
            .filter_map(StreamsGroup::next_deadline)
            .min()
    }
}
#[cfg(test)]
mod tests;
