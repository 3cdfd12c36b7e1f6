//! One streams group: its epochs, topology, members, target assignment and timers, and the
//! heartbeat handling of KIP-1071 that changes them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::group::{DescribedTopology, GroupDescription, MemberDescription};
use crate::model::heartbeat::{Status, LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use crate::model::{
    Assignment, ErrorCode, HeartbeatRequest, HeartbeatResponse, StatusCode, Subtopology, TaskRole,
    Topology,
};
use crate::topology::configure::{self, Configuration, CreatableTopic, TopicMetadata};

use super::assignor::TaskAssignor;
use super::config::GroupConfig;
use super::member::{Member, MemberState};
use super::ownership::Ownership;
use super::reconcile::reconcile;
use super::target::{self, TargetAssignment, WarmupRefiner};
use super::topology_epoch::{kip_verdict, TopologyVerdict};

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

/// A rejected heartbeat. `fence` removes the member (KIP-1071: a fenced member epoch).
struct Rejection {
    error: ErrorCode,
    message: String,
    fence: bool,
}

fn reject(error: ErrorCode, message: impl Into<String>) -> Rejection {
    Rejection {
        error,
        message: message.into(),
        fence: false,
    }
}

pub struct StreamsGroup {
    pub group_id: String,
    config: GroupConfig,
    group_epoch: i32,
    target_assignment_epoch: i32,
    topology: Option<Topology>,
    /// The topology configured against the topic metadata last seen (soft state).
    configuration: Option<Configuration>,
    /// Partition counts of the topology's required topics when `configuration` was computed.
    metadata_seen: BTreeMap<String, Option<i32>>,
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
}

impl StreamsGroup {
    pub fn new(group_id: &str, config: GroupConfig) -> StreamsGroup {
        StreamsGroup {
            group_id: group_id.to_string(),
            last_assignment_configs: (
                config.num_standby_replicas,
                config.rack_aware_assignment_tags.clone(),
            ),
            config,
            group_epoch: 0,
            target_assignment_epoch: 0,
            topology: None,
            configuration: None,
            metadata_seen: BTreeMap::new(),
            validated_topology_epoch: -1,
            members: BTreeMap::new(),
            static_members: BTreeMap::new(),
            target: BTreeMap::new(),
            ownership: Ownership::default(),
            unreconciled: 0,
            shutdown_requested_by: None,
            initial_delay_deadline: None,
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
        let mut g = StreamsGroup::new(&desc.group_id, config);
        g.group_epoch = desc.group_epoch;
        g.target_assignment_epoch = desc.target_assignment_epoch;
        g.metadata_seen = g.required_metadata(&topology, metadata);
        g.configuration = configure::configure(&topology, metadata).ok();
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
            g.put_member(m);
        }
        g
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

    pub fn ownership(&self) -> &Ownership {
        &self.ownership
    }

    pub fn state(&self) -> GroupState {
        if self.members.is_empty() {
            GroupState::Empty
        } else if self.topology.as_ref().map(|t| t.epoch) != Some(self.validated_topology_epoch) {
            GroupState::NotReady
        } else if self.group_epoch > self.target_assignment_epoch {
            GroupState::Assigning
        } else if self.unreconciled > 0 {
            GroupState::Reconciling
        } else {
            GroupState::Stable
        }
    }

    /// Whether the initial rebalance delay is holding back the first assignment.
    pub fn assignment_delayed(&self) -> bool {
        self.initial_delay_deadline.is_some()
    }

    fn bump_epoch(&mut self) {
        self.group_epoch += 1;
    }

    fn recount_unreconciled(&mut self) {
        let epoch = self.target_assignment_epoch;
        self.unreconciled = self
            .members
            .values()
            .filter(|m| !m.is_reconciled(epoch))
            .count();
    }

    /// Remove a member: its tasks are free, the group epoch goes up.
    fn fence(&mut self, member_id: &str) {
        let Some(m) = self.members.remove(member_id) else {
            return;
        };
        self.ownership.remove(member_id, &m.assigned);
        self.ownership.remove(member_id, &m.pending_revocation);
        if let Some(iid) = &m.instance_id {
            if self.static_members.get(iid).map(String::as_str) == Some(member_id) {
                self.static_members.remove(iid);
            }
        }
        self.target.remove(member_id);
        if !m.is_reconciled(self.target_assignment_epoch) {
            self.unreconciled = self.unreconciled.saturating_sub(1);
        }
        self.bump_epoch();
        if self.members.is_empty() {
            self.target_assignment_epoch = self.group_epoch;
            self.shutdown_requested_by = None;
            self.initial_delay_deadline = None;
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
                let n = metadata.get(&t).copied();
                (t, n)
            })
            .collect()
    }

    /// Handle one heartbeat of a member that is joining or already in the group.
    pub(crate) fn heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> HeartbeatOutcome {
        match self.try_heartbeat(req, ctx, metadata, assignor, refiner) {
            Ok(outcome) => outcome,
            Err(r) => {
                if r.fence {
                    self.fence(&req.member_id);
                }
                HeartbeatOutcome {
                    response: HeartbeatResponse::error(&req.member_id, r.error, r.message),
                    topics_to_create: Vec::new(),
                }
            }
        }
    }

    fn try_heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> Result<HeartbeatOutcome, Rejection> {
        let joining = req.member_epoch == 0;
        let owned = owned_tasks(req);

        // --- Checks first: nothing changes before the request is known to be good. ---
        let mut replaces_static: Option<String> = None;
        if let Some(iid) = &req.instance_id {
            match self.static_members.get(iid) {
                Some(holder) if holder != &req.member_id => {
                    if !joining {
                        return Err(reject(
                            ErrorCode::FencedInstanceId,
                            format!("Static member {iid} is held by another member id."),
                        ));
                    }
                    let holder_epoch = self.members.get(holder).map(|m| m.member_epoch);
                    if holder_epoch != Some(STATIC_LEAVE_EPOCH) {
                        return Err(reject(
                            ErrorCode::UnreleasedInstanceId,
                            format!("Instance id {iid} is still used by member {holder}: it must leave first."),
                        ));
                    }
                    replaces_static = Some(holder.clone());
                }
                None if !joining => {
                    return Err(reject(
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {iid} is unknown in group {}.", self.group_id),
                    ));
                }
                _ => {}
            }
        }

        let existing = self.members.get(&req.member_id);
        if !joining {
            let Some(m) = existing else {
                return Err(reject(
                    ErrorCode::UnknownMemberId,
                    format!(
                        "Member {} is not a member of group {}.",
                        req.member_id, self.group_id
                    ),
                ));
            };
            validate_member_epoch(m, req.member_epoch, owned.as_ref())?;
        } else if existing.is_none()
            && replaces_static.is_none()
            && self.members.len() >= self.config.max_size as usize
        {
            return Err(reject(
                ErrorCode::GroupMaxSizeReached,
                format!(
                    "Group {} has reached its maximum size of {}.",
                    self.group_id, self.config.max_size
                ),
            ));
        }

        let mut new_topology: Option<Topology> = None;
        if joining {
            // Validation guarantees a topology on join.
            let requested = req.topology.as_ref().ok_or_else(|| {
                reject(
                    ErrorCode::InvalidRequest,
                    "Topology must be provided when joining.",
                )
            })?;
            match kip_verdict(self.topology.as_ref(), requested) {
                TopologyVerdict::Initialize | TopologyVerdict::Update => {
                    new_topology = Some(requested.clone())
                }
                TopologyVerdict::Unchanged => {}
                TopologyVerdict::Reject { error, message } => return Err(reject(error, message)),
            }
        }

        let topology_after = new_topology.as_ref().or(self.topology.as_ref());
        let mut new_configuration: Option<Option<Configuration>> = None;
        let mut new_metadata_seen = None;
        if let Some(topology) = topology_after {
            let seen = self.required_metadata(topology, metadata);
            if new_topology.is_some() || self.configuration.is_none() || seen != self.metadata_seen
            {
                match configure::configure(topology, metadata) {
                    Ok(c) => new_configuration = Some(Some(c)),
                    Err(e) if new_topology.is_some() => {
                        return Err(reject(ErrorCode::StreamsInvalidTopology, e.message))
                    }
                    Err(_) => new_configuration = Some(None),
                }
                new_metadata_seen = Some(seen);
            }
        }
        let configuration_after = match &new_configuration {
            Some(c) => c.as_ref(),
            None => self.configuration.as_ref(),
        };
        if let (Some(conf), Some(owned)) =
            (configuration_after.filter(|c| c.is_ready()), owned.as_ref())
        {
            let known = existing.map(|m| m.assigned.union(&m.pending_revocation));
            for role in TaskRole::ALL {
                for (s, p) in owned.get(role).iter() {
                    let exists = conf.num_tasks(s).is_some_and(|n| p >= 0 && p < n);
                    let given = known.as_ref().is_some_and(|k| k.get(role).contains(s, p));
                    if !exists && !given {
                        return Err(reject(
                            ErrorCode::InvalidRequest,
                            format!("Owned {role} task {s}_{p} does not exist in the topology."),
                        ));
                    }
                }
            }
        }

        // --- The request is good: apply it. ---
        let was_empty = self.members.is_empty();
        let mut bump = false;

        if let Some(old_id) = replaces_static {
            self.replace_static_member(&old_id, &req.member_id);
        }
        let is_new = !self.members.contains_key(&req.member_id);
        let before = self.members.get(&req.member_id).cloned();
        let mut member = before
            .clone()
            .unwrap_or_else(|| Member::new(&req.member_id));
        if is_new {
            bump = true;
        }
        member.instance_id = req.instance_id.clone();
        member.rack_id = req.rack_id.clone();
        if req.rebalance_timeout_ms != -1 {
            member.rebalance_timeout_ms = req.rebalance_timeout_ms;
        }
        if let Some(t) = &req.topology {
            member.topology_epoch = t.epoch;
        }
        member.client_id = ctx.client_id.clone();
        member.client_host = ctx.client_host.clone();
        if let Some(p) = &req.process_id {
            member.process_id = p.clone();
        } else if member.process_id.is_empty() {
            member.process_id = req.member_id.clone();
        }
        if let Some(tags) = &req.client_tags {
            member.client_tags = tags.clone();
        }
        if joining || req.user_endpoint.is_some() {
            member.user_endpoint = req.user_endpoint.clone();
        }
        if joining && member.member_epoch == STATIC_LEAVE_EPOCH {
            member.member_epoch = 0;
        }
        if let Some(b) = &before {
            if b.metadata_key() != member.metadata_key() {
                bump = true;
            }
        }
        if let Some(o) = &req.task_offsets {
            member.task_offsets = o.clone();
        }
        if let Some(o) = &req.task_end_offsets {
            member.task_end_offsets = o.clone();
        }

        if let Some(t) = new_topology {
            self.topology = Some(t);
            bump = true;
        }
        if let Some(c) = new_configuration {
            self.configuration = c;
        }
        if let Some(seen) = new_metadata_seen {
            self.metadata_seen = seen;
        }
        let validated = match (&self.topology, &self.configuration) {
            (Some(t), Some(c)) if c.is_ready() => t.epoch,
            _ => -1,
        };
        if validated != self.validated_topology_epoch {
            self.validated_topology_epoch = validated;
            bump = true;
        }
        let configs = (
            self.config.num_standby_replicas,
            self.config.rack_aware_assignment_tags.clone(),
        );
        if configs != self.last_assignment_configs {
            self.last_assignment_configs = configs;
            bump = true;
        }
        if bump {
            self.bump_epoch();
        }
        if let Some(iid) = &member.instance_id {
            self.static_members
                .insert(iid.clone(), member.member_id.clone());
        }
        self.put_member(member);

        if was_empty
            && self.config.initial_rebalance_delay_ms > 0
            && self.initial_delay_deadline.is_none()
        {
            self.initial_delay_deadline = Some(ctx.now_ms + self.config.initial_rebalance_delay_ms);
        }
        if let Err(e) = self.maybe_update_target(assignor, refiner) {
            return Err(reject(ErrorCode::UnknownServerError, e));
        }

        // Reconcile this member towards its target.
        let mut member = self.members[&req.member_id].clone();
        let previous_assigned = before.as_ref().map(|b| b.assigned.clone());
        let target_epoch = self.target_assignment_epoch;
        let member_target = self
            .target
            .get(&member.member_id)
            .cloned()
            .unwrap_or_default();
        if !(member.is_reconciled(target_epoch) && member.assigned == member_target) {
            let r = reconcile(
                &member,
                target_epoch,
                &member_target,
                owned.as_ref(),
                &self.ownership,
            );
            member.member_epoch = r.member_epoch;
            member.previous_member_epoch = r.previous_member_epoch;
            member.state = r.state;
            member.assigned = r.assigned;
            member.pending_revocation = r.pending_revocation;
        }
        member.session_deadline_ms = ctx.now_ms.saturating_add(self.config.session_timeout_ms);
        if member.state == MemberState::UnrevokedTasks {
            let armed_for_this_epoch = member
                .rebalance_deadline
                .is_some_and(|(_, e)| e == member.member_epoch);
            if !armed_for_this_epoch {
                let timeout = i64::from(member.rebalance_timeout_ms.max(0));
                member.rebalance_deadline =
                    Some((ctx.now_ms.saturating_add(timeout), member.member_epoch));
            }
        } else {
            member.rebalance_deadline = None;
        }
        if req.shutdown_application {
            self.shutdown_requested_by = Some(member.member_id.clone());
        }
        let tasks_changed = previous_assigned.as_ref() != Some(&member.assigned);
        let response = self.response_for(&member, joining || tasks_changed);
        self.put_member(member);
        let topics_to_create = match self.configuration.as_ref().and_then(|c| c.problem.as_ref()) {
            Some(configure::TopicProblem::MissingInternalTopics { to_create, .. }) => {
                to_create.clone()
            }
            _ => Vec::new(),
        };
        Ok(HeartbeatOutcome {
            response,
            topics_to_create,
        })
    }

    /// Insert or replace a member, keeping the ownership index and the reconciled count right.
    fn put_member(&mut self, member: Member) {
        let epoch = self.target_assignment_epoch;
        if let Some(old) = self.members.get(&member.member_id) {
            self.ownership.remove(&old.member_id, &old.assigned);
            self.ownership
                .remove(&old.member_id, &old.pending_revocation);
            if !old.is_reconciled(epoch) {
                self.unreconciled = self.unreconciled.saturating_sub(1);
            }
        }
        self.ownership
            .add(&member.member_id, &member.process_id, &member.assigned);
        self.ownership.add(
            &member.member_id,
            &member.process_id,
            &member.pending_revocation,
        );
        if !member.is_reconciled(epoch) {
            self.unreconciled += 1;
        }
        self.members.insert(member.member_id.clone(), member);
    }

    /// A static member that left temporarily comes back under a new member id: it takes over
    /// the old member's assignment and target, without a new group epoch.
    fn replace_static_member(&mut self, old_id: &str, new_id: &str) {
        let Some(mut m) = self.members.get(old_id).cloned() else {
            return;
        };
        self.ownership.remove(old_id, &m.assigned);
        self.ownership.remove(old_id, &m.pending_revocation);
        if !m.is_reconciled(self.target_assignment_epoch) {
            self.unreconciled = self.unreconciled.saturating_sub(1);
        }
        self.members.remove(old_id);
        if let Some(t) = self.target.remove(old_id) {
            self.target.insert(new_id.to_string(), t);
        }
        m.member_id = new_id.to_string();
        m.member_epoch = 0;
        m.previous_member_epoch = 0;
        self.put_member(m);
    }

    fn maybe_update_target(
        &mut self,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> Result<(), String> {
        if self.group_epoch <= self.target_assignment_epoch || self.initial_delay_deadline.is_some()
        {
            return Ok(());
        }
        let target = target::compute(
            assignor,
            refiner,
            &self.members,
            self.configuration.as_ref(),
            &self.config,
        )
        .map_err(|e| e.message)?;
        self.target = target;
        self.target_assignment_epoch = self.group_epoch;
        self.recount_unreconciled();
        Ok(())
    }

    fn response_for(&self, member: &Member, send_tasks: bool) -> HeartbeatResponse {
        let mut status = Vec::new();
        if let Some(t) = &self.topology {
            if member.topology_epoch < t.epoch {
                status.push(Status {
                    code: StatusCode::StaleTopology,
                    detail: format!(
                        "The member's topology epoch {} is older than the group's topology epoch {}.",
                        member.topology_epoch, t.epoch
                    ),
                });
            }
        }
        if let Some(p) = self.configuration.as_ref().and_then(|c| c.problem.as_ref()) {
            status.push(Status {
                code: p.status_code(),
                detail: p.detail().to_string(),
            });
        }
        if let Some(by) = &self.shutdown_requested_by {
            status.push(Status {
                code: StatusCode::ShutdownApplication,
                detail: format!("Member {by} requested that the application shuts down."),
            });
        }
        if self.initial_delay_deadline.is_some() {
            status.push(Status {
                code: StatusCode::AssignmentDelayed,
                detail: "The first assignment waits for the initial rebalance delay.".into(),
            });
        }
        HeartbeatResponse {
            member_id: member.member_id.clone(),
            member_epoch: member.member_epoch,
            heartbeat_interval_ms: clamp_i32(self.config.heartbeat_interval_ms),
            acceptable_recovery_lag: self.config.acceptable_recovery_lag,
            task_offset_interval_ms: clamp_i32(self.config.task_offset_interval_ms),
            status: Some(status),
            active_tasks: send_tasks.then(|| member.assigned.active.clone()),
            standby_tasks: send_tasks.then(|| member.assigned.standby.clone()),
            warmup_tasks: send_tasks.then(|| member.assigned.warmup.clone()),
            ..HeartbeatResponse::default()
        }
    }

    /// A member leaves: for good (-1), or a static member temporarily (-2).
    pub(crate) fn leave(&mut self, req: &HeartbeatRequest) -> HeartbeatResponse {
        if req.shutdown_application {
            self.shutdown_requested_by = Some(req.member_id.clone());
        }
        if let Some(iid) = &req.instance_id {
            match self.static_members.get(iid) {
                None => {
                    return HeartbeatResponse::error(
                        &req.member_id,
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {iid} is unknown in group {}.", self.group_id),
                    )
                }
                Some(holder) if holder != &req.member_id => {
                    return HeartbeatResponse::error(
                        &req.member_id,
                        ErrorCode::FencedInstanceId,
                        format!("Static member {iid} is held by another member id."),
                    )
                }
                Some(_) => {}
            }
            if req.member_epoch == STATIC_LEAVE_EPOCH {
                if let Some(mut m) = self.members.get(&req.member_id).cloned() {
                    m.member_epoch = STATIC_LEAVE_EPOCH;
                    m.pending_revocation = Assignment::default();
                    self.put_member(m);
                }
                return HeartbeatResponse {
                    member_id: req.member_id.clone(),
                    member_epoch: STATIC_LEAVE_EPOCH,
                    ..HeartbeatResponse::default()
                };
            }
        }
        if !self.members.contains_key(&req.member_id) {
            return HeartbeatResponse::error(
                &req.member_id,
                ErrorCode::UnknownMemberId,
                format!(
                    "Member {} is not a member of group {}.",
                    req.member_id, self.group_id
                ),
            );
        }
        self.fence(&req.member_id);
        HeartbeatResponse {
            member_id: req.member_id.clone(),
            member_epoch: LEAVE_EPOCH,
            ..HeartbeatResponse::default()
        }
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
        let due: Vec<(String, bool)> = self
            .members
            .values()
            .filter_map(|m| {
                if m.session_deadline_ms <= now_ms {
                    Some((m.member_id.clone(), true))
                } else if let Some((d, e)) = m.rebalance_deadline {
                    (d <= now_ms && m.member_epoch == e && m.state == MemberState::UnrevokedTasks)
                        .then(|| (m.member_id.clone(), false))
                } else {
                    None
                }
            })
            .collect();
        for (id, session) in due {
            self.fence(&id);
            removed.push(if session {
                Removal::SessionTimeout { member_id: id }
            } else {
                Removal::RebalanceTimeout { member_id: id }
            });
        }
        if self.initial_delay_deadline.is_some_and(|d| d <= now_ms) {
            self.initial_delay_deadline = None;
            // A failing assignor keeps the old target; the next heartbeat tries again.
            let _ = self.maybe_update_target(assignor, refiner);
        }
        removed
    }

    /// The earliest time at which `expire` has something to do.
    pub fn next_deadline(&self) -> Option<i64> {
        let members = self.members.values().flat_map(|m| {
            let rebalance = m
                .rebalance_deadline
                .filter(|(_, e)| *e == m.member_epoch && m.state == MemberState::UnrevokedTasks)
                .map(|(d, _)| d);
            [Some(m.session_deadline_ms), rebalance]
        });
        members.chain([self.initial_delay_deadline]).flatten().min()
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
                })
                .collect(),
            offsets: Vec::new(),
            assignor: None,
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

/// The owned tasks reported in the request, if all three lists were sent.
fn owned_tasks(req: &HeartbeatRequest) -> Option<Assignment> {
    Some(Assignment {
        active: req.active_tasks.clone()?,
        standby: req.standby_tasks.clone()?,
        warmup: req.warmup_tasks.clone()?,
    })
}

/// KIP-1071 member epoch check, with the KIP-848 handling of a lost response: a member one
/// epoch behind that owns nothing beyond its assignment is let through.
fn validate_member_epoch(
    m: &Member,
    epoch: i32,
    owned: Option<&Assignment>,
) -> Result<(), Rejection> {
    let fenced = || Rejection {
        error: ErrorCode::FencedMemberEpoch,
        message: format!(
            "The member epoch {epoch} of member {} does not match its epoch {}: it must rejoin.",
            m.member_id, m.member_epoch
        ),
        fence: true,
    };
    if epoch > m.member_epoch {
        return Err(fenced());
    }
    if epoch < m.member_epoch {
        let lost_response = epoch == m.previous_member_epoch
            && owned.is_some_and(|o| {
                TaskRole::ALL
                    .iter()
                    .all(|r| o.get(*r).difference(m.assigned.get(*r)).is_empty())
            });
        if !lost_response {
            return Err(fenced());
        }
    }
    Ok(())
}
