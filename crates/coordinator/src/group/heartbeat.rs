//! The heartbeat of a member that joins or is in the group, in Apache's order: validate, plan,
//! apply, reconcile, respond. The checks it runs are in `checks.rs`.

use crate::profile::Profile;
use std::collections::BTreeMap;

use crate::topics::{self, Configuration, TopicMetadata};
use model::heartbeat::{Endpoint, EndpointPartitions, Status};
use model::{Assignment, ErrorCode, HeartbeatRequest, HeartbeatResponse, StatusCode, Topology};

use super::checks::owned_tasks;
use super::metadata::RefreshDeadline;
use super::{
    clamp_i32, error_response, reject, server_error, HeartbeatOutcome, Rejection, RequestContext,
    StreamsGroup,
};
use crate::assignor::TaskAssignor;
use crate::endpoints;
use crate::member::{Member, MemberState};
use crate::reconcile::{reconcile, RoleChanges};
use crate::refined_cache::RefinedCache;
use crate::target::{TargetAssignment, WarmupRefiner};
use model::KafkaVersion;

/// What a heartbeat that passed every check changes, before anything is written.
struct Plan {
    /// The member as the request found it.
    before: Member,
    /// The member with the request's metadata.
    updated: Member,
    /// The member id of the static member this one takes over from.
    replaces_static: Option<String>,
    member_record_written: bool,
    /// A new group epoch, so a new target.
    bump: bool,
    topology: TopologyPlan,
    assignment_configs: (u32, Vec<String>),
    /// The group before the heartbeat, kept only when a release may still fail it late.
    backup: Option<Box<StreamsGroup>>,
}

/// The group's topology and its configuration after the heartbeat; `None` where unchanged.
struct TopologyPlan {
    new_topology: Option<Topology>,
    stale_topology: Option<Status>,
    metadata_seen: Option<BTreeMap<String, Option<i32>>>,
    configuration: Option<Configuration>,
    validated_topology_epoch: i32,
    /// No configured subtopologies: missing or mis-partitioned source topics.
    unconfigured: bool,
    bump: bool,
}

/// What `apply` leaves for the answer.
struct Applied {
    before: Member,
    replaces_static: Option<String>,
    member_record_written: bool,
    empties_for_a_moment: bool,
    stale_topology: Option<Status>,
    backup: Option<Box<StreamsGroup>>,
}

impl StreamsGroup {
    /// Handle one heartbeat of a member that is joining or already in the group.
    pub(crate) fn heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> HeartbeatOutcome {
        self.observe_metadata(metadata);
        match self.try_heartbeat(req, ctx, metadata, assignor, refiner) {
            Ok(outcome) => outcome,
            Err(r) => {
                if r.fence {
                    self.fence(&req.member_id);
                }
                HeartbeatOutcome {
                    response: error_response(r.error, r.message),
                    topics_to_create: Vec::new(),
                }
            }
        }
    }

    /// Apache's `streamsGroupHeartbeat`, in its four steps: check the request and work out
    /// what it changes without touching the group (`plan`), write the member and the group's
    /// new epochs and topology (`apply`), bring the member towards its target (`reconcile`),
    /// and answer (`respond`).
    fn try_heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
    ) -> Result<HeartbeatOutcome, Rejection> {
        let owned = owned_tasks(req);
        let plan = self.plan(req, ctx, metadata, owned.as_ref())?;
        let applied = self.apply(plan, req, ctx, metadata);
        let mut status: Vec<Status> = applied.stale_topology.iter().cloned().collect();
        let assignment_record_written =
            self.reconcile_member(req, ctx, owned.as_ref(), assignor, refiner, &mut status)?;
        self.respond(req, applied, assignment_record_written, status, metadata)
    }

    /// Every check of the request, and the member and group state it leads to, computed
    /// without changing the group (but for the soft state Apache keeps on a failure).
    fn plan(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        owned: Option<&Assignment>,
    ) -> Result<Plan, Rejection> {
        if req.member_epoch == 0 {
            self.check_not_full(req)?;
        }
        let (before, replaces_static) = self.member_for(req, owned)?;
        let updated = self.with_request_metadata(&before, req, ctx);
        let is_static = self.version.supports_static_members() && req.instance_id.is_some();
        // Apache writes the member record when anything in it changed (and always for a new
        // member); only some changes ask for a new target.
        let member_record_written = before.metadata() != updated.metadata()
            || !self.members.contains_key(&before.member_id);
        let metadata_bump = before.metadata() != updated.metadata()
            && (!is_static
                || before.epoch_relevant_metadata() != updated.epoch_relevant_metadata());
        let topology = self.plan_topology(req, ctx, metadata, &updated, &before, owned)?;
        let assignment_configs = self.assignment_configs();
        let bump = metadata_bump
            || topology.bump
            || (assignment_configs != self.last_assignment_configs
                && self.version.bumps_on_validation());
        let backup = self
            .endpoint_map_may_fail(
                &topology,
                metadata,
                &before,
                &updated,
                replaces_static.as_deref(),
            )
            .then(|| Box::new(self.clone()));
        Ok(Plan {
            before,
            updated,
            replaces_static,
            member_record_written,
            bump,
            topology,
            assignment_configs,
            backup,
        })
    }

    /// The member as found, with what the request says about it.
    fn with_request_metadata(
        &self,
        member: &Member,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
    ) -> Member {
        let mut updated = member.clone();
        if self.version.supports_static_members() {
            if let Some(iid) = &req.instance_id {
                updated.identity.instance_id = Some(iid.clone());
            }
        }
        if let Some(r) = &req.rack_id {
            updated.identity.rack_id = Some(r.clone());
        }
        if req.rebalance_timeout_ms != -1 {
            updated.rebalance_timeout_ms = req.rebalance_timeout_ms;
        }
        if let Some(t) = &req.topology {
            updated.topology_epoch = t.epoch;
        }
        updated.identity.client_id = ctx.client_id.clone();
        updated.identity.client_host = ctx.client_host.clone();
        if let Some(p) = &req.process_id {
            updated.identity.process_id = p.clone();
        }
        if let Some(tags) = &req.client_tags {
            updated.identity.client_tags = tags.clone();
        }
        // 4.4 clears the endpoint of a joining member that sends none; 4.2 and 4.3 keep it.
        let joining = req.member_epoch == 0;
        if req.user_endpoint.is_some() || (joining && self.version >= KafkaVersion::V4_4) {
            updated.identity.user_endpoint = req.user_endpoint.clone();
        }
        updated
    }

    /// The group's topology after the request, checked against the topic metadata. A change of
    /// the required topics' partitions is Apache's metadata hash change and bumps the group
    /// epoch. The hash is recomputed only for a new topology, a missing configuration or an
    /// expired refresh deadline, so a change that a bump outside a heartbeat left unrefreshed
    /// stays unseen.
    fn plan_topology(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
        updated: &Member,
        before: &Member,
        owned: Option<&Assignment>,
    ) -> Result<TopologyPlan, Rejection> {
        let had_topology = self.topology.is_some();
        let new_topology = match &req.topology {
            Some(requested) => self.topology_for(requested)?,
            None => None,
        };
        let after = new_topology
            .as_ref()
            .or(self.topology.as_ref())
            .ok_or_else(server_error)?;
        let stale_topology = self.stale_topology_status(updated, after);
        let mut reconfigure = !had_topology || new_topology.is_some();
        let metadata_seen = (reconfigure
            || self.configuration.is_none()
            || self.metadata_refresh.expired(ctx.now_ms, self.group_epoch))
        .then(|| self.required_metadata(after, metadata))
        .filter(|seen| *seen != self.metadata_seen);
        reconfigure |= metadata_seen.is_some();
        let configuration = if reconfigure || self.configuration.is_none() {
            let c = topics::configure(after, metadata)
                .map_err(|e| reject(ErrorCode::StreamsInvalidTopology, e.message))?;
            Some(c)
        } else {
            None
        };
        let epoch_after = after.epoch;
        let conf = configuration
            .as_ref()
            .or(self.configuration.as_ref())
            .ok_or_else(server_error)?;
        let unconfigured = !matches!(
            conf.problem,
            None | Some(topics::TopicProblem::MissingInternalTopics { .. })
        );
        // A ready topology: owned tasks must exist in it.
        let validated_topology_epoch = if conf.is_ready() {
            if let Some(Err(e)) = owned.map(|o| self.check_owned_tasks_exist(conf, o, before)) {
                // Apache checks after it stored the configured topology (soft state that a
                // failed heartbeat does not revert).
                if reconfigure {
                    self.configuration = configuration;
                    self.endpoint_cache.clear();
                }
                return Err(e);
            }
            epoch_after
        } else {
            -1
        };
        // A new validated topology (4.2+), or the KIP's topology update, asks for a new target.
        let bump = metadata_seen.is_some()
            || (validated_topology_epoch != self.validated_topology_epoch
                && self.version.bumps_on_validation())
            || (new_topology.is_some() && had_topology);
        Ok(TopologyPlan {
            new_topology,
            stale_topology,
            metadata_seen,
            configuration,
            validated_topology_epoch,
            unconfigured,
            bump,
        })
    }

    /// Whether building the interactive-query map may throw: the topology has no configured
    /// subtopologies (missing or mis-partitioned source topics), or a topic they read is not
    /// in the metadata. Releases then fail the heartbeat late, after every check, with
    /// UNKNOWN_SERVER_ERROR, so the group before it is kept. Cheap checks first: the member scan
    /// is O(members).
    fn endpoint_map_may_fail(
        &self,
        topology: &TopologyPlan,
        metadata: &TopicMetadata,
        before: &Member,
        updated: &Member,
        replaces_static: Option<&str>,
    ) -> bool {
        let conf = topology
            .configuration
            .as_ref()
            .or(self.configuration.as_ref());
        let topic_missing = || {
            conf.is_some_and(|c| {
                c.subtopologies.iter().any(|s| {
                    s.source_topics
                        .iter()
                        .chain(s.repartition_source_topics.keys())
                        .any(|t| !metadata.contains_key(t))
                })
            })
        };
        self.version.is_release()
            && (topology.unconfigured || topic_missing())
            && self.endpoints_in_group(before, updated, replaces_static)
    }

    /// Whether the map would have entries: 4.2+ lists the other members as stored and this
    /// member as updated (a rejoin without an endpoint has none any more; 4.4 leaves out the
    /// static member this one replaces); 4.1 lists the stored members with their stored
    /// endpoints. (Apache caches entries, but every reconfiguration clears the cache, so an
    /// entry never outlives the configuration it was built on.)
    fn endpoints_in_group(
        &self,
        before: &Member,
        updated: &Member,
        replaces_static: Option<&str>,
    ) -> bool {
        if self.version.endpoint_map_of_stored_members() {
            let stored = self.members.contains_key(&before.member_id);
            return (stored && before.identity.user_endpoint.is_some())
                || (self.persisted
                    && self.members.iter().any(|(id, m)| {
                        *id != updated.member_id && m.identity.user_endpoint.is_some()
                    }));
        }
        updated.identity.user_endpoint.is_some()
            || (self.persisted
                && self.members.iter().any(|(id, m)| {
                    *id != updated.member_id
                        && replaces_static != Some(id.as_str())
                        && m.identity.user_endpoint.is_some()
                }))
    }

    /// The interactive-query map for the member `requester` answered with, in Apache's member
    /// order (`before`: the requester as stored). `Ok(None)`: 4.1's null for an empty map.
    fn endpoint_map(
        &mut self,
        requester: &str,
        before: &Member,
        metadata: &TopicMetadata,
    ) -> Result<Option<Vec<EndpointPartitions>>, endpoints::MapError> {
        let topics = self
            .configuration
            .as_ref()
            .filter(|c| {
                matches!(
                    c.problem,
                    None | Some(topics::TopicProblem::MissingInternalTopics { .. })
                )
            })
            .map(|c| endpoints::subtopology_topics(&c.subtopologies));
        let version = self.version;
        let entry = |endpoint: &Endpoint, m: &Member| {
            endpoints::member_partitions(version, endpoint, &m.assigned, topics.as_ref(), metadata)
        };
        let mut map = Vec::new();
        // No endpoint anywhere (the requester's stored one included): the map is empty.
        if !self.any_endpoint() && before.identity.user_endpoint.is_none() {
            return Ok((!version.endpoint_map_of_stored_members()).then_some(map));
        }
        if version.endpoint_map_of_stored_members() {
            for id in self.member_order.iter() {
                let stored = if id == requester {
                    before.identity.user_endpoint.as_ref()
                } else {
                    self.members
                        .get(id)
                        .and_then(|m| m.identity.user_endpoint.as_ref())
                };
                if let (Some(endpoint), Some(m)) = (stored, self.members.get(id)) {
                    map.push(entry(endpoint, m)?);
                }
            }
            return Ok((!map.is_empty()).then_some(map));
        }
        let order: Vec<String> = self
            .member_order
            .iter()
            .filter(|id| *id != requester)
            .chain(std::iter::once(requester))
            .map(str::to_string)
            .collect();
        for id in order {
            let Some(m) = self.members.get(&id) else {
                continue;
            };
            let Some(endpoint) = &m.identity.user_endpoint else {
                continue;
            };
            if let Some(cached) = self.endpoint_cache.get(&id) {
                map.push(cached.clone());
                continue;
            }
            let e = entry(endpoint, m)?;
            self.endpoint_cache.insert(id, e.clone());
            map.push(e);
        }
        Ok(Some(map))
    }

    /// Write what the plan decided: the member record, the group epoch, the topology.
    fn apply(
        &mut self,
        plan: Plan,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        metadata: &TopicMetadata,
    ) -> Applied {
        let was_empty = self.members.is_empty();
        // Replacing the only member empties the group for a moment when Apache replays the old
        // member's tombstones (after this response is built), which clears a shutdown request.
        let empties_for_a_moment = plan.replaces_static.is_some() && self.members.len() == 1;
        if let Some(old_id) = &plan.replaces_static {
            self.replace_static_member(old_id, &req.member_id);
        }
        if plan.bump {
            self.group_epoch = self.next_group_epoch();
            self.last_assignment_configs = plan.assignment_configs;
            self.metadata_refresh = RefreshDeadline::after_bump(ctx.now_ms, self.group_epoch);
        }
        let topology = plan.topology;
        if let Some(t) = topology.new_topology {
            self.metadata_observed = self.required_metadata(&t, metadata);
            self.topology = Some(t);
        }
        if let Some(c) = topology.configuration {
            self.configuration = Some(c);
            self.endpoint_cache.clear();
        }
        if let Some(seen) = topology.metadata_seen {
            self.metadata_seen = seen;
        }
        self.validated_topology_epoch = topology.validated_topology_epoch;
        self.put_updated_member(plan.updated, &plan.before, req);
        if was_empty
            && self.version.has_initial_rebalance_delay()
            && self.config.initial_rebalance_delay_ms > 0
            && self.initial_delay_deadline.is_none()
        {
            self.initial_delay_deadline = Some(ctx.now_ms + self.config.initial_rebalance_delay_ms);
        }
        Applied {
            before: plan.before,
            replaces_static: plan.replaces_static,
            member_record_written: plan.member_record_written,
            empties_for_a_moment,
            stale_topology: topology.stale_topology,
            backup: plan.backup,
        }
    }

    /// Store the updated member with the task offsets it reported, and its instance id.
    fn put_updated_member(&mut self, mut updated: Member, before: &Member, req: &HeartbeatRequest) {
        if let Some(o) = &req.task_offsets {
            updated.task_offsets = o.clone();
        }
        if let Some(o) = &req.task_end_offsets {
            updated.task_end_offsets = o.clone();
        }
        // As `StreamsGroup.updateStaticMember`: the member's old instance id is forgotten, even
        // when the member now names another one.
        if let Some(old) = &before.identity.instance_id {
            self.static_members.remove(old);
        }
        if let Some(iid) = &updated.identity.instance_id {
            self.static_members
                .insert(iid.clone(), updated.member_id.clone());
        }
        self.put_member(updated);
    }

    /// The member's target (a new one for the group when it is due), and the member reconciled
    /// towards it in place, with its timers reset. Returns whether its current assignment
    /// record is written.
    fn reconcile_member(
        &mut self,
        req: &HeartbeatRequest,
        ctx: &RequestContext,
        owned: Option<&Assignment>,
        assignor: &dyn TaskAssignor,
        refiner: &dyn WarmupRefiner,
        status: &mut Vec<Status>,
    ) -> Result<bool, Rejection> {
        let target =
            self.target_for_member(&req.member_id, ctx.now_ms, assignor, refiner, status)?;
        // The member's tasks in the target, looked up in place (no copy per heartbeat); 4.4 reads
        // them from its cache of refined assignments, which the lookup may fill.
        let empty = TargetAssignment::new();
        let target_tasks = if self.version.caches_refined_assignment() {
            self.refined.lookup(
                &req.member_id,
                target.epoch,
                if target.held_back {
                    &empty
                } else {
                    &self.target
                },
                self.config.num_warmup_replicas > 0,
            )
        } else if target.held_back {
            None
        } else {
            self.target.get(&req.member_id)
        };
        let no_tasks = Assignment::default();
        let target_tasks = target_tasks.unwrap_or(&no_tasks);
        let member = &self.members[&req.member_id];
        let reconciled = (!member.is_reconciled(target.epoch)).then(|| {
            reconcile(
                member,
                target.epoch,
                target_tasks,
                owned,
                &self.ownership,
                if self.version.in_place_role_changes() {
                    RoleChanges::InPlace
                } else {
                    RoleChanges::RevokeFirst
                },
            )
        });
        let session_deadline_ms = ctx.now_ms.saturating_add(self.config.session_timeout_ms);
        let mut assignment_record_written = false;
        self.update_member(&req.member_id, |member| {
            if let Some(r) = reconciled {
                assignment_record_written = r.member_epoch != member.member_epoch
                    || r.previous_member_epoch != member.previous_member_epoch
                    || r.state != member.state
                    || r.assigned != member.assigned
                    || r.pending_revocation != member.pending_revocation;
                member.member_epoch = r.member_epoch;
                member.previous_member_epoch = r.previous_member_epoch;
                member.state = r.state;
                member.assigned = r.assigned;
                member.pending_revocation = r.pending_revocation;
                if assignment_record_written {
                    // The rebalance timeout runs from the moment the member has tasks to revoke.
                    member.rebalance_deadline =
                        (member.state == MemberState::UnrevokedTasks).then(|| {
                            let timeout = i64::from(member.rebalance_timeout_ms.max(0));
                            (ctx.now_ms.saturating_add(timeout), member.member_epoch)
                        });
                }
            }
            member.session_deadline_ms = session_deadline_ms;
        });
        if req.shutdown_application {
            // The first member to ask is the one named until the group empties.
            self.shutdown_requested_by
                .get_or_insert_with(|| req.member_id.clone());
        }
        Ok(assignment_record_written)
    }

    /// The endpoint information epoch, the interactive-query map (and the late failure a
    /// release gives when it cannot build it), the response, and the records' effect on
    /// Apache's member order.
    fn respond(
        &mut self,
        req: &HeartbeatRequest,
        applied: Applied,
        assignment_record_written: bool,
        status: Vec<Status>,
        metadata: &TopicMetadata,
    ) -> Result<HeartbeatOutcome, Rejection> {
        let before = &applied.before;
        let send_tasks = self.note_endpoint_change(req, before, applied.replaces_static.as_deref());
        let map = if self.endpoint_information_epoch != req.endpoint_information_epoch {
            match self.endpoint_map(&req.member_id, before, metadata) {
                Ok(map) => Some(map),
                // The KIP text has no such failure: the map is left out.
                Err(_) if !self.version.is_release() => None,
                Err(_) => {
                    let member = self.members[&req.member_id].clone();
                    match applied.backup {
                        Some(backup) => self.fail_keeping_soft_state(*backup, &member),
                        // The plan did not foresee this failure: answer as Apache does, but
                        // the group keeps what this heartbeat wrote.
                        None => debug_assert!(false, "endpoint map failed without a backup"),
                    }
                    return Err(server_error());
                }
            }
        } else {
            None
        };
        let mut response = self.response_for(&self.members[&req.member_id], send_tasks, status);
        response.partitions_by_user_endpoint = map.flatten();
        // A group created by this heartbeat is not stored yet: from 4.2 Apache answers endpoint
        // epoch 0 (4.1 the throwaway group's), and works on a throwaway group object; the one
        // its records then build has none of the soft state (the configured topology, the
        // endpoint information epoch, the map cache).
        response.endpoint_information_epoch =
            if self.persisted || self.version.endpoint_map_of_stored_members() {
                self.endpoint_information_epoch
            } else {
                0
            };
        let topics_to_create = match self.configuration.as_ref().and_then(|c| c.problem.as_ref()) {
            Some(topics::TopicProblem::MissingInternalTopics { to_create, .. }) => {
                to_create.clone()
            }
            _ => Vec::new(),
        };
        if !self.persisted && self.version.is_release() {
            self.configuration = None;
            self.metadata_refresh = RefreshDeadline::EXPIRED;
            self.endpoint_information_epoch = self.version.initial_endpoint_information_epoch();
            self.endpoint_cache.clear();
            self.refined = RefinedCache::default();
        }
        self.persisted = true;
        if applied.empties_for_a_moment {
            self.shutdown_requested_by = None;
        }
        // The records replay in order: the member record, then its current assignment; each is
        // a `put` into Apache's member table.
        if applied.member_record_written || applied.replaces_static.is_some() {
            self.member_order.put(&req.member_id);
        }
        if assignment_record_written {
            self.member_order.put(&req.member_id);
        }
        // Replaying the member's records drops its cached map entry (`StreamsGroup.updateMember`).
        if applied.member_record_written || assignment_record_written {
            self.endpoint_cache.remove(&req.member_id);
        }
        Ok(HeartbeatOutcome {
            response,
            topics_to_create,
        })
    }

    /// The endpoint information epoch and map cache after this member's heartbeat; returns
    /// whether the response carries the member's tasks (a join, or a change).
    fn note_endpoint_change(
        &mut self,
        req: &HeartbeatRequest,
        before: &Member,
        replaces_static: Option<&str>,
    ) -> bool {
        let member = &self.members[&req.member_id];
        let tasks_changed = before.assigned != member.assigned;
        let send_tasks = req.member_epoch == 0 || tasks_changed;
        let endpoint_changed = before.identity.user_endpoint != member.identity.user_endpoint;
        let v44 = self.version >= KafkaVersion::V4_4;
        let bump = if v44 {
            endpoint_changed || (tasks_changed && member.identity.user_endpoint.is_some())
        } else if self.version.endpoint_map_of_stored_members() {
            send_tasks && (req.member_epoch != 0 || !member.assigned.is_empty())
        } else {
            send_tasks && member.identity.user_endpoint.is_some()
        };
        if send_tasks || (v44 && (endpoint_changed || replaces_static.is_some())) {
            self.endpoint_cache.remove(&req.member_id);
            if let Some(old) = replaces_static {
                self.endpoint_cache.remove(old);
            }
        }
        if bump {
            self.endpoint_information_epoch += 1;
        }
        send_tasks
    }

    /// A heartbeat that throws after it changed the group: Apache's runtime replays none of its
    /// records but reverts nothing either (`CoordinatorWriteEvent.run`), so what the handler set
    /// directly stays: the configured topology, the endpoint information epoch, the shutdown
    /// request and the timers it scheduled (the member's session and rebalance timeouts, the
    /// initial rebalance delay). Everything record-backed is as in `backup`.
    fn fail_keeping_soft_state(&mut self, backup: StreamsGroup, member: &Member) {
        let failed = std::mem::replace(self, backup);
        self.configuration = failed.configuration;
        self.endpoint_information_epoch = failed.endpoint_information_epoch;
        self.endpoint_cache = failed.endpoint_cache;
        self.shutdown_requested_by = failed.shutdown_requested_by;
        self.initial_delay_deadline = failed.initial_delay_deadline;
        self.refined = failed.refined;
        self.metadata_refresh = failed.metadata_refresh;
        self.update_member(&member.member_id, |m| {
            m.session_deadline_ms = member.session_deadline_ms;
            m.rebalance_deadline = member.rebalance_deadline;
        });
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
        self.endpoint_members -= usize::from(m.identity.user_endpoint.is_some());
        self.member_order.remove(old_id);
        if let Some(t) = self.target.remove(old_id) {
            self.target.insert(new_id.to_string(), t);
        }
        self.refined.relabel(old_id, new_id);
        m.member_id = new_id.to_string();
        m.member_epoch = 0;
        m.previous_member_epoch = 0;
        self.put_member(m);
    }

    fn response_for(
        &self,
        member: &Member,
        send_tasks: bool,
        mut status: Vec<Status>,
    ) -> HeartbeatResponse {
        if let Some(p) = self.configuration.as_ref().and_then(|c| c.problem.as_ref()) {
            status.push(Status {
                code: p.status_code(),
                detail: if self.version == KafkaVersion::V4_1 {
                    p.detail_as_in_4_1()
                } else {
                    p.detail().to_string()
                },
            });
        }
        if let Some(by) = &self.shutdown_requested_by {
            status.push(Status {
                code: StatusCode::ShutdownApplication,
                detail: format!("Streams group member {by} encountered a fatal error and requested a shutdown for the entire application."),
            });
        }
        if self.version.reports_missing_client_tags() {
            let missing: Vec<&str> = self
                .config
                .rack_aware_assignment_tags
                .iter()
                .map(String::as_str)
                .filter(|t| !member.identity.client_tags.contains_key(*t))
                .collect();
            if !missing.is_empty() {
                status.push(Status {
                    code: StatusCode::MissingClientTags,
                    detail: format!(
                        "Missing required client tags for rack-aware standby assignment: [{}]. Configure them via 'client.tag.<tagKey>' in your Streams config.",
                        missing.join(", ")
                    ),
                });
            }
        }
        let (lag, offset_interval) = if self.version.sends_recovery_settings() {
            (
                self.config.acceptable_recovery_lag,
                clamp_i32(self.config.task_offset_interval_ms),
            )
        } else {
            (0, 0)
        };
        HeartbeatResponse {
            member_id: member.member_id.clone(),
            member_epoch: member.member_epoch,
            heartbeat_interval_ms: clamp_i32(self.config.heartbeat_interval_ms),
            acceptable_recovery_lag: lag,
            task_offset_interval_ms: offset_interval,
            // 4.1 leaves an empty status list out (null); later releases always send it.
            status: (!status.is_empty() || self.version > KafkaVersion::V4_1).then_some(status),
            active_tasks: send_tasks.then(|| member.assigned.active.clone()),
            standby_tasks: send_tasks.then(|| member.assigned.standby.clone()),
            warmup_tasks: send_tasks.then(|| member.assigned.warmup.clone()),
            ..HeartbeatResponse::default()
        }
    }
}
