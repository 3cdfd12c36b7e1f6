//! The checks a heartbeat passes before it changes the group: the member it speaks for, its
//! member epoch, the group's size, the topology it brings and the tasks it says it owns.

use crate::profile::Profile;
use crate::topics::Configuration;
use model::heartbeat::{Status, STATIC_LEAVE_EPOCH};
use model::{Assignment, ErrorCode, HeartbeatRequest, StatusCode, TaskRole, Topology};

use super::{reject, server_error, Rejection, StreamsGroup};
use crate::member::Member;
use crate::profile::TopologyRules;
use crate::topology_epoch::{broker_verdict, kip_verdict, BrokerVerdict, TopologyVerdict};
use model::KafkaVersion;

impl StreamsGroup {
    /// Find or create the member the request speaks for (Apache's
    /// `getOrMaybeCreate{Dynamic,Static}StreamsGroupMember`), without changing the group.
    /// Returns the member as the request finds it and, for a static member coming back under a
    /// new member id, the id it replaces.
    pub(super) fn member_for(
        &self,
        req: &HeartbeatRequest,
        owned: Option<&Assignment>,
    ) -> Result<(Member, Option<String>), Rejection> {
        let joining = req.member_epoch == 0;
        let Some(iid) = req
            .instance_id
            .as_ref()
            .filter(|_| self.version.supports_static_members())
        else {
            let member = match self.members.get(&req.member_id) {
                Some(m) => m.clone(),
                None if joining => self.default_member(&req.member_id),
                None => {
                    return Err(reject(
                        ErrorCode::UnknownMemberId,
                        format!(
                            "Member {} is not a member of group {}.",
                            req.member_id, self.group_id
                        ),
                    ))
                }
            };
            self.check_member_epoch(&member, req.member_epoch, owned)?;
            return Ok((member, None));
        };
        let holder = self
            .static_members
            .get(iid)
            .and_then(|id| self.members.get(id));
        if joining {
            let Some(holder) = holder else {
                let member = match self.members.get(&req.member_id) {
                    Some(m) => m.clone(),
                    None => self.default_member(&req.member_id),
                };
                return Ok((member, None));
            };
            if holder.member_epoch != STATIC_LEAVE_EPOCH {
                return Err(reject(
                    ErrorCode::UnreleasedInstanceId,
                    format!(
                        "Static member {} with instance id {iid} cannot join the group because the instance id is owned by {} member.",
                        req.member_id, holder.member_id
                    ),
                ));
            }
            // The new member takes over the old one's state under its own id, at epoch 0.
            let mut member = holder.clone();
            member.member_id = req.member_id.clone();
            member.member_epoch = 0;
            member.previous_member_epoch = 0;
            return Ok((member, Some(holder.member_id.clone())));
        }
        let Some(holder) = holder else {
            return Err(reject(
                ErrorCode::UnknownMemberId,
                format!("Instance id {iid} is unknown."),
            ));
        };
        if holder.member_id != req.member_id {
            return Err(reject(
                ErrorCode::FencedInstanceId,
                format!(
                    "Static member {} with instance id {iid} was fenced by member {}.",
                    req.member_id, holder.member_id
                ),
            ));
        }
        self.check_member_epoch(holder, req.member_epoch, owned)?;
        Ok((holder.clone(), None))
    }

    /// A member that has not joined yet, as Apache's `StreamsGroupMember.Builder.withDefaults`.
    pub(super) fn default_member(&self, member_id: &str) -> Member {
        let mut m = Member::new(member_id);
        m.topology_epoch = -1;
        m
    }

    pub(super) fn check_member_epoch(
        &self,
        m: &Member,
        epoch: i32,
        owned: Option<&Assignment>,
    ) -> Result<(), Rejection> {
        let rejoin_allowed = self.version > KafkaVersion::V4_1;
        validate_member_epoch(m, epoch, owned, rejoin_allowed).map_err(|mut r| {
            r.fence = self.version.fencing_removes_member();
            r
        })
    }

    /// `throwIfStreamsGroupIsFull`: 4.2 and 4.3 count every join, 4.4 lets known members in.
    pub(super) fn check_not_full(&self, req: &HeartbeatRequest) -> Result<(), Rejection> {
        if self.version.max_size_exempts_known_members() {
            let known_static = req
                .instance_id
                .as_ref()
                .is_some_and(|i| self.static_members.contains_key(i));
            if known_static || self.members.contains_key(&req.member_id) {
                return Ok(());
            }
        }
        if self.members.len() >= self.config.max_size as usize {
            return Err(reject(
                ErrorCode::GroupMaxSizeReached,
                format!(
                    "The streams group has reached its maximum capacity of {} members.",
                    self.config.max_size
                ),
            ));
        }
        Ok(())
    }

    /// The group's topology after a join with `requested`: `Some` when it changes.
    pub(super) fn topology_for(&self, requested: &Topology) -> Result<Option<Topology>, Rejection> {
        match self.version.topology_rules() {
            TopologyRules::Kip => match kip_verdict(self.topology.as_ref(), requested) {
                TopologyVerdict::Initialize | TopologyVerdict::Update => {
                    Ok(Some(requested.clone()))
                }
                TopologyVerdict::Unchanged => Ok(None),
                TopologyVerdict::Reject { error, message } => Err(reject(error, message)),
            },
            TopologyRules::Shipped => {
                // A negative epoch or a repeated subtopology id fails in Apache's record
                // constructors: UNKNOWN_SERVER_ERROR without a message.
                let mut ids: Vec<&str> = requested
                    .subtopologies
                    .iter()
                    .map(|s| s.id.as_str())
                    .collect();
                ids.sort_unstable();
                if requested.epoch < 0 || ids.windows(2).any(|w| w[0] == w[1]) {
                    return Err(server_error());
                }
                match broker_verdict(self.topology.as_ref(), requested) {
                    BrokerVerdict::Initialize => Ok(Some(requested.clone())),
                    BrokerVerdict::Accepted | BrokerVerdict::AcceptedStale => Ok(None),
                    BrokerVerdict::Rejected { error, message } => Err(reject(error, message)),
                }
            }
        }
    }

    /// STALE_TOPOLOGY for a member behind the group's topology epoch. Shipped brokers compare
    /// with the group's topology before this heartbeat; the KIP profile with the one after it.
    pub(super) fn stale_topology_status(
        &self,
        member: &Member,
        after: &Topology,
    ) -> Option<Status> {
        let group_topology = match self.version.topology_rules() {
            TopologyRules::Shipped => self.topology.as_ref()?,
            TopologyRules::Kip => after,
        };
        (member.topology_epoch < group_topology.epoch).then(|| Status {
            code: StatusCode::StaleTopology,
            detail: format!(
                "The member's topology epoch {} is behind the group's topology epoch {}.",
                member.topology_epoch, group_topology.epoch
            ),
        })
    }

    /// `throwIfRequestContainsInvalidTasks`: every owned task must exist in a ready topology.
    /// The KIP profile also lets a member keep reporting tasks it was given before a topology
    /// update shrank them away, so that it can confirm their release.
    pub(super) fn check_owned_tasks_exist(
        &self,
        conf: &Configuration,
        owned: &Assignment,
        member: &Member,
    ) -> Result<(), Rejection> {
        // The KIP checks only tasks the member does not already hold.
        let known = (self.version == KafkaVersion::Kip)
            .then(|| member.assigned.union(&member.pending_revocation));
        for role in TaskRole::ALL {
            // One lookup per subtopology, not per task: every heartbeat of a member that runs
            // tasks of many subtopologies passes here.
            for (s, partitions) in owned.get(role).subtopologies() {
                let mut unknown = partitions
                    .iter()
                    .filter(|p| !known.as_ref().is_some_and(|k| k.get(role).contains(s, *p)))
                    .peekable();
                if unknown.peek().is_none() {
                    continue;
                }
                let Some(n) = conf.num_tasks(s) else {
                    return Err(reject(
                        ErrorCode::InvalidRequest,
                        format!("Subtopology {s} does not exist in the topology."),
                    ));
                };
                // Partitions ascend: the first invalid one is the one a walk in order meets.
                if let Some(p) = unknown.find(|p| *p < 0 || *p >= n) {
                    return Err(reject(
                        ErrorCode::InvalidRequest,
                        format!(
                            "Task {p} for subtopology {s} is invalid. Number of tasks for this subtopology: {n}"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The owned tasks reported in the request, if all three lists were sent.
pub(super) fn owned_tasks(req: &HeartbeatRequest) -> Option<Assignment> {
    Some(Assignment {
        active: req.active_tasks.clone()?,
        standby: req.standby_tasks.clone()?,
        warmup: req.warmup_tasks.clone()?,
    })
}

/// KIP-1071 member epoch check, with the KIP-848 handling of a lost response: a member one
/// epoch behind that owns nothing beyond its assignment is let through. From 4.2 a rejoin
/// (epoch 0) always passes (KAFKA-19233); 4.1 treats it as any smaller epoch, so only a
/// member whose previous epoch is 0 may rejoin under its id.
fn validate_member_epoch(
    m: &Member,
    epoch: i32,
    owned: Option<&Assignment>,
    rejoin_allowed: bool,
) -> Result<(), Rejection> {
    let fenced = |relation: &str| {
        Rejection {
        error: ErrorCode::FencedMemberEpoch,
        message: Some(format!(
            "The streams group member has a {relation} member epoch ({epoch}) than the one known by the group coordinator ({}). The member must abandon all its partitions and rejoin.",
            m.member_epoch
        )),
        fence: true,
    }
    };
    if epoch == 0 && rejoin_allowed {
        return Ok(());
    }
    if epoch > m.member_epoch {
        return Err(fenced("greater"));
    }
    if epoch < m.member_epoch {
        let lost_response = epoch == m.previous_member_epoch
            && owned.is_some_and(|o| {
                TaskRole::ALL
                    .iter()
                    .all(|r| o.get(*r).difference(m.assigned.get(*r)).is_empty())
            });
        if !lost_response {
            return Err(fenced("smaller"));
        }
    }
    Ok(())
}
