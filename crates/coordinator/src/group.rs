//! One streams group: its epochs, topology, members, target assignment and timers, and the
//! heartbeat handling of KIP-1071 that changes them.

mod checks;
mod heartbeat;

use crate::profile::Profile;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::topics::{self, Configuration, CreatableTopic, TopicMetadata};
use model::group::{DescribedTopology, GroupDescription, MemberDescription};
use model::heartbeat::{EndpointPartitions, Status, STATIC_LEAVE_EPOCH};
use model::{
    Assignment, ErrorCode, HeartbeatRequest, HeartbeatResponse, StatusCode, Subtopology, Topology,
};

use super::assignor::TaskAssignor;
use super::config::GroupConfig;
use super::member::Member;
use super::member_order::MemberOrder;
use super::ownership::Ownership;
use super::refined_cache::RefinedCache;
use super::target::{self, TargetAssignment, WarmupRefiner};
use model::KafkaVersion;

/// Group states, named as Kafka names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GroupState {
    Empty,
    NotReady,
    Assigning,
    Reconciling,
    Stable,
}

impl GroupState {
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::NotReady => "NotReady",
            GroupState::Assigning => "Assigning",
            GroupState::Reconciling => "Reconciling",
            GroupState::Stable => "Stable",
        }
    }
}

impl std::fmt::Display for GroupState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the request layer knows that the request body does not carry.
#[derive(Clone, Debug, Default)]
pub struct RequestContext {
    pub now_ms: i64,
    pub client_id: String,
    pub client_host: String,
}

/// The response, plus the internal topics the broker should create for the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeartbeatOutcome {
    pub response: HeartbeatResponse,
    pub topics_to_create: Vec<CreatableTopic>,
}

/// Why a member left the group other than by its own heartbeat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Removal {
    SessionTimeout { member_id: String },
    RebalanceTimeout { member_id: String },
}

/// A rejected heartbeat. `fence` removes the member (the KIP text on a fenced member epoch).
struct Rejection {
    error: ErrorCode,
    message: Option<String>,
    fence: bool,
}

fn reject(error: ErrorCode, message: impl Into<String>) -> Rejection {
    Rejection {
        error,
        message: Some(message.into()),
        fence: false,
    }
}

/// Apache answers an unexpected exception with UNKNOWN_SERVER_ERROR and no message.
fn server_error() -> Rejection {
    Rejection {
        error: ErrorCode::UnknownServerError,
        message: None,
        fence: false,
    }
}

fn error_response(error: ErrorCode, message: Option<String>) -> HeartbeatResponse {
    HeartbeatResponse {
        error: Some(error),
        error_message: message,
        ..HeartbeatResponse::default()
    }
}

/// Apache's `DeadlineAndEpoch` for the metadata refresh: the hash is recomputed from the deadline
/// on, or while the group epoch is below the epoch of the bump that set it (a bump whose records
/// were never written because the heartbeat failed later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RefreshDeadline {
    deadline_ms: i64,
    epoch: i32,
}

impl RefreshDeadline {
    /// `DeadlineAndEpoch.EMPTY`: due at once.
    const EXPIRED: RefreshDeadline = RefreshDeadline {
        deadline_ms: 0,
        epoch: 0,
    };

    /// A heartbeat's bump: `METADATA_REFRESH_INTERVAL_MS` is `Integer.MAX_VALUE`.
    fn after_bump(now_ms: i64, epoch: i32) -> RefreshDeadline {
        RefreshDeadline {
            deadline_ms: now_ms.saturating_add(i64::from(i32::MAX)),
            epoch,
        }
    }

    fn expired(&self, now_ms: i64, group_epoch: i32) -> bool {
        now_ms >= self.deadline_ms || group_epoch < self.epoch
    }
}

/// What the target assignment step decided for the member at hand.
struct TargetForMember {
    epoch: i32,
    /// The initial rebalance delay held the target back: Apache's result carries no target map.
    held_back: bool,
}

#[derive(Clone)]
pub struct StreamsGroup {
    pub group_id: String,
    version: KafkaVersion,
    config: GroupConfig,
    group_epoch: i32,
    target_assignment_epoch: i32,
    /// When the current target was computed (0: unknown, so the next one may come at once).
    target_assignment_timestamp_ms: i64,
    topology: Option<Topology>,
    /// The topology configured against the topic metadata last seen (soft state).
    configuration: Option<Configuration>,
    /// Partition counts of the topology's required topics that the last epoch bump of a
    /// heartbeat recorded: the local stand-in for Apache's stored metadata hash.
    metadata_seen: BTreeMap<String, Option<i32>>,
    /// When the heartbeat next recomputes that hash (Apache's soft `metadataRefreshDeadline`).
    metadata_refresh: RefreshDeadline,
    /// The required topics of the stored topology as this group last saw them: a change is
    /// Apache's `onMetadataUpdate` asking the groups subscribed to a topic for a refresh.
    metadata_observed: BTreeMap<String, Option<i32>>,
    /// The topology epoch for which the configuration was ready, or -1.
    validated_topology_epoch: i32,
    last_assignment_configs: (u32, Vec<String>),
    members: BTreeMap<String, Member>,
    /// Static members: instance id → member id.
    static_members: BTreeMap<String, String>,
    target: TargetAssignment,
    ownership: Ownership,
    unreconciled: usize,
    shutdown_requested_by: Option<String>,
    initial_delay_deadline: Option<i64>,
    endpoint_information_epoch: i32,
    /// Each member's entry of the interactive-query map as last built (Apache's
    /// `endpointToPartitionsCache`, 4.2+, soft state): reused until the member's records are
    /// written or the topology is configured again, so an entry can lag behind the metadata.
    endpoint_cache: BTreeMap<String, EndpointPartitions>,
    /// How many members have an interactive-query endpoint: with none, the endpoint map is
    /// empty without a walk over the members (which every heartbeat after a change would do).
    endpoint_members: usize,
    /// False until the first successful heartbeat has created the group.
    persisted: bool,
    /// How many target assignments this group computed (rebalances), for reports.
    targets_computed: u64,
    /// The order Apache's coordinator walks the members in (its assignor's tie-breaks).
    member_order: MemberOrder,
    /// 4.4's refined-assignment cache (soft state).
    refined: RefinedCache,
    /// What the assignor warned about when it computed the current target.
    assignor_warnings: Vec<String>,
    /// No member's session or rebalance timeout is due before this: a lower bound, lowered
    /// whenever a member is written and made exact by each scan, so that `expire` looks at the
    /// members only when one may be due (a heartbeat only moves a deadline later).
    member_deadlines_from: i64,
}

impl StreamsGroup {
    pub fn new(group_id: &str, config: GroupConfig) -> StreamsGroup {
        StreamsGroup::with_version(group_id, config, KafkaVersion::NEWEST)
    }

    pub fn with_version(
        group_id: &str,
        config: GroupConfig,
        version: KafkaVersion,
    ) -> StreamsGroup {
        // From 4.3 a new group starts at group and assignment epoch 1 (`groupEpoch.set(1)`,
        // `TargetAssignmentMetadata.INITIAL`); 4.2 starts at 0 and jumps to 2 on the first bump.
        let initial_epoch = version.initial_group_epoch();
        StreamsGroup {
            group_id: group_id.to_string(),
            version,
            last_assignment_configs: (
                config.num_standby_replicas,
                config.rack_aware_assignment_tags.clone(),
            ),
            config,
            group_epoch: initial_epoch,
            target_assignment_epoch: initial_epoch,
            target_assignment_timestamp_ms: 0,
            topology: None,
            configuration: None,
            metadata_seen: BTreeMap::new(),
            metadata_refresh: RefreshDeadline::EXPIRED,
            metadata_observed: BTreeMap::new(),
            validated_topology_epoch: -1,
            members: BTreeMap::new(),
            endpoint_members: 0,
            static_members: BTreeMap::new(),
            target: BTreeMap::new(),
            ownership: Ownership::default(),
            unreconciled: 0,
            shutdown_requested_by: None,
            initial_delay_deadline: None,
            endpoint_information_epoch: version.initial_endpoint_information_epoch(),
            endpoint_cache: BTreeMap::new(),
            persisted: false,
            targets_computed: 0,
            member_order: MemberOrder::default(),
            refined: RefinedCache::default(),
            assignor_warnings: Vec::new(),
            member_deadlines_from: i64::MAX,
        }
    }

    /// Rebuild a group from a description (a `describe` snapshot), as a coordinator rebuilds its
    /// state from the offsets topic: epochs, topology, members with their current and target
    /// assignments. Sessions start at `now_ms`.
    pub fn restore(
        desc: &GroupDescription,
        topology: Topology,
        config: GroupConfig,
        metadata: &TopicMetadata,
        now_ms: i64,
    ) -> StreamsGroup {
        StreamsGroup::restore_as(
            desc,
            topology,
            config,
            metadata,
            now_ms,
            KafkaVersion::NEWEST,
        )
    }

    pub fn restore_as(
        desc: &GroupDescription,
        topology: Topology,
        config: GroupConfig,
        metadata: &TopicMetadata,
        now_ms: i64,
        version: KafkaVersion,
    ) -> StreamsGroup {
        let mut g = StreamsGroup::with_version(&desc.group_id, config, version);
        g.persisted = true;
        g.group_epoch = desc.group_epoch;
        g.target_assignment_epoch = desc.target_assignment_epoch;
        g.metadata_seen = g.required_metadata(&topology, metadata);
        g.metadata_observed = g.metadata_seen.clone();
        g.configuration = topics::configure(&topology, metadata).ok();
        g.validated_topology_epoch = match &g.configuration {
            Some(c) if c.is_ready() => topology.epoch,
            _ => -1,
        };
        g.topology = Some(topology);
        for d in &desc.members {
            let mut m = Member::new(&d.member_id);
            m.instance_id = d.instance_id.clone();
            m.rack_id = d.rack_id.clone();
            m.client_id = d.client_id.clone();
            m.client_host = d.client_host.clone();
            m.process_id = d.process_id.clone();
            m.user_endpoint = d.user_endpoint.clone();
            m.client_tags = d.client_tags.clone();
            m.topology_epoch = d.topology_epoch;
            m.rebalance_timeout_ms = 300_000;
            m.member_epoch = d.member_epoch;
            m.previous_member_epoch = d.member_epoch;
            m.assigned = d.assignment.clone();
            m.task_offsets = d.task_offsets.clone();
            m.task_end_offsets = d.task_end_offsets.clone();
            m.session_deadline_ms = now_ms.saturating_add(g.config.session_timeout_ms);
            if let Some(iid) = &m.instance_id {
                g.static_members.insert(iid.clone(), m.member_id.clone());
            }
            g.target
                .insert(d.member_id.clone(), d.target_assignment.clone());
            g.member_order.put(&m.member_id);
            g.put_member(m);
        }
        // The coordinator's own order, when the description kept it, decides ties as the
        // broker's would; else the members' order stands in for it.
        let listed = desc.member_order.len() == g.members.len()
            && desc
                .member_order
                .iter()
                .all(|id| g.members.contains_key(id));
        if let Some(order) = listed
            .then(|| MemberOrder::from_iteration(&desc.member_order))
            .flatten()
        {
            g.member_order = order;
        }
        g
    }

    pub fn version(&self) -> KafkaVersion {
        self.version
    }

    pub fn config(&self) -> &GroupConfig {
        &self.config
    }

    /// Change group configs (e.g. `streams.num.standby.replicas`); takes effect on the next
    /// heartbeat, which bumps the group epoch if the assignment configs changed.
    pub fn set_config(&mut self, config: GroupConfig) {
        self.config = config;
    }

    pub fn group_epoch(&self) -> i32 {
        self.group_epoch
    }

    /// Target assignments computed since the group was created or restored.
    /// The warnings of the assignor's last run (e.g. standbys it could not place).
    pub fn assignor_warnings(&self) -> &[String] {
        &self.assignor_warnings
    }

    pub fn targets_computed(&self) -> u64 {
        self.targets_computed
    }

    pub fn target_assignment_epoch(&self) -> i32 {
        self.target_assignment_epoch
    }

    pub fn topology(&self) -> Option<&Topology> {
        self.topology.as_ref()
    }

    pub fn configuration(&self) -> Option<&Configuration> {
        self.configuration.as_ref()
    }

    pub fn members(&self) -> &BTreeMap<String, Member> {
        &self.members
    }

    pub fn target(&self) -> &TargetAssignment {
        &self.target
    }

    /// The members in the order Apache's `TimelineHashMap` of members iterates them.
    pub fn member_order(&self) -> Vec<&str> {
        self.member_order.iter().collect()
    }

    pub fn ownership(&self) -> &Ownership {
        &self.ownership
    }

    pub fn state(&self) -> GroupState {
        if self.members.is_empty() {
            GroupState::Empty
        } else if self.not_ready() {
            GroupState::NotReady
        } else if self.group_epoch > self.target_assignment_epoch {
            GroupState::Assigning
        } else if self.unreconciled > 0 {
            GroupState::Reconciling
        } else {
            GroupState::Stable
        }
    }

    /// The interactive-query map as a member receives it now: every member with an endpoint, in
    /// Apache's member order, computed afresh (no cache); members whose entry Apache could not
    /// build are left out.
    pub fn current_endpoint_map(&self, metadata: &TopicMetadata) -> Vec<EndpointPartitions> {
        let topics = self
            .configuration
            .as_ref()
            .filter(|c| !c.subtopologies.is_empty())
            .map(|c| super::endpoints::subtopology_topics(&c.subtopologies));
        self.member_order
            .iter()
            .filter_map(|id| self.members.get(id))
            .filter_map(|m| {
                let e = m.user_endpoint.as_ref()?;
                super::endpoints::member_partitions(
                    self.version,
                    e,
                    &m.assigned,
                    topics.as_ref(),
                    metadata,
                )
                .ok()
            })
            .collect()
    }

    /// 4.2 and later: the topology epoch has not been validated against the topics (a stored
    /// fact). 4.1: the topology is not configured and ready, which is soft state: a new group,
    /// or one whose coordinator just loaded it, is NOT_READY until a heartbeat configures it.
    fn not_ready(&self) -> bool {
        if self.version == KafkaVersion::V4_1 {
            self.topology.is_none() || !self.configuration.as_ref().is_some_and(|c| c.is_ready())
        } else {
            self.topology.as_ref().map(|t| t.epoch) != Some(self.validated_topology_epoch)
        }
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

    fn next_group_epoch(&self) -> i32 {
        if self.group_epoch == 0 && self.version.first_bump_skips_epoch_one() {
            2
        } else {
            self.group_epoch + 1
        }
    }

    fn recount_unreconciled(&mut self) {
        let epoch = self.target_assignment_epoch;
        self.unreconciled = self
            .members
            .values()
            .filter(|m| !m.is_reconciled(epoch))
            .count();
    }

    /// The assignment configs that trigger a new target when they change: the standby count,
    /// and from 4.4 on the rack-aware assignment tags.
    fn assignment_configs(&self) -> (u32, Vec<String>) {
        let tags = if self.version >= KafkaVersion::V4_4 {
            self.config.rack_aware_assignment_tags.clone()
        } else {
            Vec::new()
        };
        (self.config.num_standby_replicas, tags)
    }

    /// Remove a member: its tasks are free, the group epoch goes up.
    fn fence(&mut self, member_id: &str) {
        let Some(m) = self.members.remove(member_id) else {
            return;
        };
        self.endpoint_members -= usize::from(m.user_endpoint.is_some());
        self.member_order.remove(member_id);
        self.ownership.remove(member_id, &m.assigned);
        self.ownership.remove(member_id, &m.pending_revocation);
        if let Some(iid) = &m.instance_id {
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

    /// A topic the group has seen was deleted. Apache's metadata hash covers the topic id, so a
    /// topic re-created with the same partition count is still a change: the count the group
    /// saw is replaced by 0, which `required_metadata` never yields, so that the next heartbeat
    /// sees a change whatever the topic looks like by then.
    pub(crate) fn topic_deleted(&mut self, topic: &str) {
        if let Some(seen) = self.metadata_seen.get_mut(topic) {
            if seen.is_some() {
                *seen = Some(0);
            }
        }
        if self.metadata_observed.contains_key(topic) {
            self.metadata_refresh = RefreshDeadline::EXPIRED;
        }
    }

    /// Apache's `onMetadataUpdate` calls `requestMetadataRefresh` on every group whose stored
    /// topology requires a changed topic; we learn of changes only when a heartbeat brings the
    /// metadata, which is the first moment the refresh can matter.
    fn observe_metadata(&mut self, metadata: &TopicMetadata) {
        let Some(topology) = &self.topology else {
            return;
        };
        // `metadata_observed` always covers the stored topology's required topics (it is set
        // with the topology): when none of them changed there is nothing to build. Both maps
        // are sorted, so one walk through both answers it (every heartbeat asks).
        let mut topics = metadata.iter().peekable();
        let unchanged = self.metadata_observed.iter().all(|(t, seen)| {
            while topics
                .next_if(|(name, _)| name.as_str() < t.as_str())
                .is_some()
            {}
            let now = topics
                .next_if(|(name, _)| *name == t)
                .map(|(_, n)| *n)
                .filter(|n| *n > 0);
            now == *seen
        });
        if unchanged {
            return;
        }
        let now = self.required_metadata(topology, metadata);
        if now != self.metadata_observed {
            self.metadata_refresh = RefreshDeadline::EXPIRED;
            self.metadata_observed = now;
        }
    }

    fn required_metadata(
        &self,
        topology: &Topology,
        metadata: &TopicMetadata,
    ) -> BTreeMap<String, Option<i32>> {
        topology
            .required_topics()
            .into_iter()
            .map(|t| {
                let n = metadata.get(&t).copied().filter(|n| *n > 0);
                (t, n)
            })
            .collect()
    }

    /// `maybeUpdateStreamsTargetAssignment`: the target epoch and tasks this member reconciles
    /// towards, computing a new target for the whole group when it is due.
    fn target_for_member(
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

    /// `canComputeNextTargetAssignment`: at most one new target per assignment interval.
    fn can_compute_target(&self, now_ms: i64) -> bool {
        let ts = self.target_assignment_timestamp_ms;
        let interval = self.assignment_interval_ms();
        ts == 0 || interval == 0 || now_ms >= ts.saturating_add(interval)
    }

    fn compute_target(
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

    /// Insert or replace a member, keeping the ownership index and the reconciled count right.
    fn put_member(&mut self, member: Member) {
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
                || old.process_id != member.process_id
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
            let (id, process) = (&member.member_id, &member.process_id);
            self.ownership.add(id, process, &member.assigned);
            self.ownership.add(id, process, &member.pending_revocation);
        }
        let had_endpoint = old.as_ref().is_some_and(|o| o.user_endpoint.is_some());
        self.endpoint_members = self.endpoint_members + usize::from(member.user_endpoint.is_some())
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

    /// Lower the bound under the member's deadlines.
    fn note_deadlines(&mut self, member: &Member) {
        let rebalance = member.rebalance_deadline.map_or(i64::MAX, |(d, _)| d);
        self.member_deadlines_from = self
            .member_deadlines_from
            .min(member.session_deadline_ms)
            .min(rebalance);
    }

    /// Change a stored member in place (not its process), keeping the ownership index and the
    /// count of unreconciled members as `put_member` does, without copying the member.
    fn update_member(&mut self, member_id: &str, change: impl FnOnce(&mut Member)) {
        let epoch = self.target_assignment_epoch;
        let Some(m) = self.members.get_mut(member_id) else {
            return;
        };
        // Copies of the task sets are reference counts.
        let (assigned, pending) = (m.assigned.clone(), m.pending_revocation.clone());
        let was_reconciled = m.is_reconciled(epoch);
        let had_endpoint = m.user_endpoint.is_some();
        change(m);
        self.endpoint_members = self.endpoint_members + usize::from(m.user_endpoint.is_some())
            - usize::from(had_endpoint);
        let rebalance = m.rebalance_deadline.map_or(i64::MAX, |(d, _)| d);
        self.member_deadlines_from = self
            .member_deadlines_from
            .min(m.session_deadline_ms)
            .min(rebalance);
        if assigned != m.assigned || pending != m.pending_revocation {
            self.ownership.remove(member_id, &assigned);
            self.ownership.remove(member_id, &pending);
            self.ownership.add(member_id, &m.process_id, &m.assigned);
            self.ownership
                .add(member_id, &m.process_id, &m.pending_revocation);
        }
        match (was_reconciled, m.is_reconciled(epoch)) {
            (true, false) => self.unreconciled += 1,
            (false, true) => self.unreconciled = self.unreconciled.saturating_sub(1),
            _ => {}
        }
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

    /// A member leaves: for good (-1), or a static member temporarily (-2).
    pub(crate) fn leave(&mut self, req: &HeartbeatRequest) -> HeartbeatResponse {
        if req.shutdown_application {
            self.shutdown_requested_by
                .get_or_insert_with(|| req.member_id.clone());
        }
        let left = HeartbeatResponse {
            member_id: req.member_id.clone(),
            member_epoch: req.member_epoch,
            // 4.1 sets no status list at all (null); later releases an empty one.
            status: (self.version > KafkaVersion::V4_1).then(Vec::new),
            // Fields a leave does not set keep the schema default (-1 for the recovery lag).
            acceptable_recovery_lag: if self.version.sends_recovery_settings() {
                -1
            } else {
                0
            },
            ..HeartbeatResponse::default()
        };
        let static_id = req
            .instance_id
            .as_ref()
            .filter(|_| self.version.supports_static_members());
        if let Some(iid) = static_id {
            let holder = self.static_members.get(iid).cloned();
            let Some(holder) = holder else {
                return error_response(
                    ErrorCode::UnknownMemberId,
                    Some(format!("Instance id {iid} is unknown.")),
                );
            };
            if holder != req.member_id {
                return error_response(
                    ErrorCode::FencedInstanceId,
                    Some(format!(
                        "Static member {} with instance id {iid} was fenced by member {holder}.",
                        req.member_id
                    )),
                );
            }
            if req.member_epoch == STATIC_LEAVE_EPOCH {
                if let Some(mut m) = self.members.get(&holder).cloned() {
                    m.member_epoch = STATIC_LEAVE_EPOCH;
                    m.pending_revocation = Assignment::default();
                    self.put_member(m);
                }
                return HeartbeatResponse {
                    member_id: holder,
                    ..left
                };
            }
            self.fence(&holder);
            return left;
        }
        if !self.members.contains_key(&req.member_id) {
            return error_response(
                ErrorCode::UnknownMemberId,
                Some(format!(
                    "Member {} is not a member of group {}.",
                    req.member_id, self.group_id
                )),
            );
        }
        self.fence(&req.member_id);
        left
    }

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

    /// The group as StreamsGroupDescribe shows it.
    pub fn describe(&self) -> GroupDescription {
        let epoch = self.topology.as_ref().map_or(-1, |t| t.epoch);
        let subtopologies = match (&self.topology, &self.configuration) {
            (Some(t), Some(c)) if c.is_ready() => Some(configured_subtopologies(t, c)),
            (Some(t), _) => Some(t.subtopologies.clone()),
            _ => None,
        };
        GroupDescription {
            member_order: self.member_order.iter().map(String::from).collect(),
            group_id: self.group_id.clone(),
            state: self.state().name().to_string(),
            group_epoch: self.group_epoch,
            target_assignment_epoch: self.target_assignment_epoch,
            coordinator: None,
            topology: DescribedTopology {
                epoch,
                subtopologies,
            },
            members: self
                .members
                .values()
                .map(|m| MemberDescription {
                    member_id: m.member_id.clone(),
                    member_epoch: m.member_epoch,
                    instance_id: m.instance_id.clone(),
                    rack_id: m.rack_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    topology_epoch: m.topology_epoch,
                    process_id: m.process_id.clone(),
                    user_endpoint: m.user_endpoint.clone(),
                    client_tags: m.client_tags.clone(),
                    task_offsets: m.task_offsets.clone(),
                    task_end_offsets: m.task_end_offsets.clone(),
                    assignment: m.assigned.clone(),
                    target_assignment: self.target.get(&m.member_id).cloned().unwrap_or_default(),
                    is_classic: false,
                    endpoint_partitions: None,
                })
                .collect(),
            offsets: Vec::new(),
            assignor: None,
            configs: None,
        }
    }
}

/// The topology with the partition counts the configuration decided, as describe shows it.
fn configured_subtopologies(t: &Topology, c: &Configuration) -> Vec<Subtopology> {
    let counts: BTreeMap<&str, i32> = c
        .internal_topics
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    t.subtopologies
        .iter()
        .map(|s| {
            let mut s = s.clone();
            for info in s
                .repartition_source_topics
                .iter_mut()
                .chain(s.state_changelog_topics.iter_mut())
            {
                if let Some(n) = counts.get(info.name.as_str()) {
                    info.partitions = *n;
                }
            }
            s
        })
        .collect()
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}
