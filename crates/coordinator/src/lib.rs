//! The streams group coordinator of each Apache Kafka release (KIP-1071), as a pure library:
//! no I/O, no clock, no threads. Time is passed in with every call. A [`Coordinator`] answers
//! StreamsGroupHeartbeat requests the way the group coordinator of a broker of the chosen
//! release answers them (4.1.2, 4.2.2, 4.3.1, 4.3.2, 4.4.0, or the KIP text itself), keeps its
//! groups and fires their timers when asked. The tool uses it to simulate groups, to dry-run
//! topology changes and to replay a group's history; a lock-step oracle runs it side by side
//! with Apache's own `GroupMetadataManager` (docs/dev/coordinator.md).
//!
//! Requests, responses, topologies, task sets and described groups are plain data from
//! `streams-group-model` (`model::` in this workspace).
//!
//! # Where to start
//!
//! - [`Coordinator`] (this file): many groups and their configs;
//!   [`Coordinator::heartbeat`] handles one request, [`Coordinator::expire`] fires due timers.
//! - [`group`]: one group, [`StreamsGroup`]: its state, epochs and members, read through
//!   accessors ([`StreamsGroup::target`], [`StreamsGroup::members`],
//!   [`StreamsGroup::describe`]); the jobs that change it live in `group/` (heartbeat, leave,
//!   target, timers, restore, describe).
//! - [`profile`]: what each release does differently ([`profile::Profile`] on
//!   [`KafkaVersion`]).
//! - [`validate`]: request checks; [`topology_epoch`]: the KIP's topology epoch rules and the
//!   shipped brokers'.
//! - [`reconcile`] + [`ownership`]: moving a member to its target without two owners of a
//!   task.
//! - [`target`] + [`assignor`]: the target assignment (Apache's sticky assignor of each
//!   release, this project's balanced-sticky one, a warm-up hook); [`refined_cache`]: 4.4's
//!   cache of refined assignments.
//! - [`topics`]: a topology configured against the cluster's topics (internal topics to
//!   create, repartition and changelog partition counts, copartitioning).
//! - [`java`]: the iteration orders of Java's `HashMap`, `PriorityQueue` and identity hashes,
//!   which decide Apache's ties; [`member_order`]: the order Apache walks a group's members.
//! - [`config`] and [`broker_settings`]: group configs and the broker's bounds;
//!   [`endpoints`]: the interactive-query map; [`member`]: a member as the group keeps it.
//!
//! # Example: two members of a small topology
//!
//! ```
//! use std::collections::BTreeMap;
//!
//! use model::{
//!     HeartbeatRequest, KafkaVersion, StatusCode, Subtopology, TaskSet, TopicInfo, Topology,
//! };
//! use streams_group_coordinator as coordinator;
//! use coordinator::{Coordinator, GroupConfig, RequestContext};
//!
//! // One subtopology: it reads `orders` and keeps a store whose changelog is an internal topic.
//! let topology = Topology {
//!     epoch: 0,
//!     subtopologies: vec![Subtopology {
//!         id: "0".into(),
//!         source_topics: vec!["orders".into()],
//!         state_changelog_topics: vec![TopicInfo::named("app-counts-changelog")],
//!         ..Subtopology::default()
//!     }],
//! };
//! // The cluster's topics and their partition counts.
//! let mut metadata = BTreeMap::from([("orders".to_string(), 4)]);
//!
//! // Kafka 4.4.0's coordinator with the broker defaults (3 s initial rebalance delay).
//! let mut coordinator = Coordinator::for_version(KafkaVersion::V4_4, GroupConfig::default());
//! let at = |now_ms| RequestContext { now_ms, ..RequestContext::default() };
//! // A heartbeat: epoch 0 joins with the topology; later ones send the member's epoch and the
//! // tasks it owns.
//! let heartbeat = |member: &str, epoch: i32, owned: TaskSet| HeartbeatRequest {
//!     group_id: "app".into(),
//!     member_id: member.into(),
//!     member_epoch: epoch,
//!     rebalance_timeout_ms: if epoch == 0 { 300_000 } else { -1 },
//!     topology: (epoch == 0).then(|| topology.clone()),
//!     process_id: Some(format!("process-{member}")),
//!     active_tasks: Some(owned),
//!     standby_tasks: Some(TaskSet::new()),
//!     warmup_tasks: Some(TaskSet::new()),
//!     ..HeartbeatRequest::default()
//! };
//!
//! // t = 0: `a` joins and creates the group. The changelog topic does not exist: the group is
//! // not ready, and the coordinator asks for the topic (a broker creates it).
//! let out = coordinator.heartbeat(&heartbeat("a", 0, TaskSet::new()), &at(0), &metadata);
//! assert_eq!(out.response.error, None);
//! assert!(out.response.has_status(StatusCode::MissingInternalTopics));
//! assert_eq!(out.topics_to_create[0].name, "app-counts-changelog");
//! for topic in &out.topics_to_create {
//!     metadata.insert(topic.name.clone(), topic.partitions);
//! }
//! let epoch_a = out.response.member_epoch;
//!
//! // t = 100 ms: `b` joins. The topology is ready now, but the initial rebalance delay holds
//! // the first assignment back.
//! let out = coordinator.heartbeat(&heartbeat("b", 0, TaskSet::new()), &at(100), &metadata);
//! assert!(out.response.has_status(StatusCode::AssignmentDelayed));
//! let epoch_b = out.response.member_epoch;
//!
//! // t = 3 s: the delay is over. `expire` fires the timer, which computes the target
//! // assignment: the four tasks of subtopology 0 shared between the two members.
//! assert_eq!(coordinator.next_deadline(), Some(3_000));
//! coordinator.expire(3_000);
//! let target = coordinator.group("app").unwrap().target().clone();
//! assert_eq!((target["a"].active.len(), target["b"].active.len()), (2, 2));
//!
//! // Each member's next heartbeat brings it to its target: it gets its tasks and the new
//! // member epoch.
//! for (member, epoch) in [("a", epoch_a), ("b", epoch_b)] {
//!     let request = heartbeat(member, epoch, TaskSet::new());
//!     let out = coordinator.heartbeat(&request, &at(3_000), &metadata);
//!     let tasks = out.response.active_tasks.unwrap();
//!     assert_eq!(tasks, target[member].active);
//!     let group = coordinator.group("app").unwrap();
//!     assert_eq!(out.response.member_epoch, group.target_assignment_epoch());
//! }
//! let group = coordinator.group("app").unwrap();
//! assert_eq!(group.members()["a"].assigned.active.len(), 2);
//! assert_eq!(group.state().name(), "Stable");
//! ```

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

    /// A time no later than the next deadline of any group, in constant time per group (see
    /// [`StreamsGroup::deadline_bound`]).
    pub fn deadline_bound(&self) -> Option<i64> {
        // An orphan initial delay needs no waking: due, it finds no group and does nothing.
        self.groups
            .values()
            .filter_map(StreamsGroup::deadline_bound)
            .min()
    }
}
#[cfg(test)]
mod tests;
