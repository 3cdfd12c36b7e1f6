//! A simulated Kafka Streams client: one member (one stream thread) of a process.
//!
//! It behaves as the protocol expects of a real client: joins with epoch 0 and its topology,
//! heartbeats at the interval the coordinator returns, runs the tasks it is given, takes a
//! while to release revoked tasks (and reports them as owned until then), rejoins when fenced,
//! goes silent when it crashes, and dies on the errors the real client treats as fatal.

use std::sync::Arc;

use model::heartbeat::{HeartbeatRequest, HeartbeatResponse, LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use model::{Assignment, ErrorCode, MemberIdentity, TaskRole, Topology};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liveness {
    /// Heartbeating.
    Running,
    /// Left the group, or crashed: sends nothing.
    Stopped,
    /// Stopped by an error the real client cannot recover from.
    Failed,
}

/// What a heartbeat response does to the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Carry on heartbeating.
    Continue,
    /// Membership lost (fenced, unknown): drop every task and join again.
    Rejoin,
    /// An error Kafka Streams treats as fatal: the member stops
    /// (`StreamsGroupHeartbeatRequestManager`: everything but the retriable and the fencing
    /// errors ends the client).
    Fatal { error: ErrorCode, message: String },
}

/// Errors after which the real client retries the heartbeat later.
fn is_retriable(e: ErrorCode) -> bool {
    matches!(
        e,
        ErrorCode::CoordinatorNotAvailable
            | ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorLoadInProgress
            | ErrorCode::RequestTimedOut
    )
}

#[derive(Clone, Debug)]
pub struct Client {
    pub member_id: String,
    /// Who the client is, as its heartbeats declare it: process, `client.id` and host (a member
    /// restored from a snapshot keeps its own, so that its next heartbeat is not a metadata
    /// change), instance id, rack and client tags (`client.tag.*`, used by rack-aware standby
    /// placement), the interactive-query endpoint (`application.server`, sent when joining).
    pub identity: MemberIdentity,
    /// What the scenario and the samples call the member and its process: the ids of a member
    /// that was known before the run, placeholders (`p4-t1`, `p4`) for one that joined in it.
    pub label: String,
    pub process_label: String,
    /// The endpoint information epoch of the last response (Kafka Streams starts at -1, so
    /// its first heartbeat gets the endpoint map).
    pub endpoint_information_epoch: i32,
    /// Shared: every client of a run starts with the same topology.
    pub topology: Arc<Topology>,
    pub liveness: Liveness,
    /// Member epoch as the client knows it (0 until it joined).
    pub epoch: i32,
    /// The assignment the coordinator last sent.
    pub assignment: Assignment,
    /// A new assignment whose callbacks still run on the stream thread: when they end (the
    /// client then acknowledges at once), and the revoked tasks still being closed until then
    /// (none when tasks were only added).
    pub releasing: Option<(i64, Assignment)>,
    pub next_heartbeat_ms: i64,
    pub heartbeat_interval_ms: i64,
    pub rebalance_timeout_ms: i32,
}

impl Client {
    pub fn new(
        member_id: String,
        process_id: String,
        topology: Arc<Topology>,
        start_ms: i64,
    ) -> Client {
        Client {
            label: member_id.clone(),
            process_label: process_id.clone(),
            member_id,
            identity: MemberIdentity {
                client_id: format!("{process_id}-client"),
                client_host: "/127.0.0.1".into(),
                process_id,
                ..MemberIdentity::default()
            },
            endpoint_information_epoch: -1,
            topology,
            liveness: Liveness::Running,
            epoch: 0,
            assignment: Assignment::default(),
            releasing: None,
            next_heartbeat_ms: start_ms,
            heartbeat_interval_ms: 5_000,
            rebalance_timeout_ms: 300_000,
        }
    }

    /// Tasks the client runs right now: its assignment plus what it is still releasing.
    pub fn owned(&self) -> Assignment {
        match &self.releasing {
            Some((_, r)) => self.assignment.union(r),
            None => self.assignment.clone(),
        }
    }

    pub fn heartbeat_request(&self, group_id: &str) -> HeartbeatRequest {
        let joining = self.epoch == 0;
        let owned = self.owned();
        HeartbeatRequest {
            group_id: group_id.to_string(),
            member_id: self.member_id.clone(),
            member_epoch: self.epoch,
            instance_id: self.identity.instance_id.clone(),
            rack_id: self.identity.rack_id.clone(),
            rebalance_timeout_ms: if joining {
                self.rebalance_timeout_ms
            } else {
                -1
            },
            topology: joining.then(|| Topology::clone(&self.topology)),
            active_tasks: Some(owned.active),
            standby_tasks: Some(owned.standby),
            warmup_tasks: Some(owned.warmup),
            process_id: Some(self.identity.process_id.clone()),
            client_tags: (!self.identity.client_tags.is_empty())
                .then(|| self.identity.client_tags.clone()),
            user_endpoint: if joining {
                self.identity.user_endpoint.clone()
            } else {
                None
            },
            endpoint_information_epoch: self.endpoint_information_epoch,
            ..HeartbeatRequest::default()
        }
    }

    pub fn leave_request(&self, group_id: &str) -> HeartbeatRequest {
        HeartbeatRequest {
            group_id: group_id.to_string(),
            member_id: self.member_id.clone(),
            member_epoch: if self.identity.instance_id.is_some() {
                STATIC_LEAVE_EPOCH
            } else {
                LEAVE_EPOCH
            },
            instance_id: self.identity.instance_id.clone(),
            rebalance_timeout_ms: -1,
            ..HeartbeatRequest::default()
        }
    }

    /// Apply a response at `now_ms`. A new assignment is acknowledged once the stream thread
    /// has run its callbacks (`StreamsMembershipManager`: revoke, then assign, then an
    /// ACKNOWLEDGING heartbeat at once): `release_delay_ms` after it when tasks were revoked
    /// (they are committed and closed first), `assign_delay_ms` when tasks were only added.
    pub fn on_response(
        &mut self,
        resp: &HeartbeatResponse,
        now_ms: i64,
        release_delay_ms: i64,
        assign_delay_ms: i64,
    ) -> Effect {
        if let Some(err) = resp.error {
            if matches!(
                err,
                ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId
            ) {
                self.assignment = Assignment::default();
                self.releasing = None;
                self.epoch = 0;
                // It joins again once the stream thread has run the lost-tasks callback, in its
                // next poll.
                self.next_heartbeat_ms = now_ms + assign_delay_ms;
                return Effect::Rejoin;
            }
            if is_retriable(err) {
                self.next_heartbeat_ms = now_ms + self.heartbeat_interval_ms;
                return Effect::Continue;
            }
            self.liveness = Liveness::Failed;
            return Effect::Fatal {
                error: err,
                message: resp.error_message.clone().unwrap_or_default(),
            };
        }
        self.epoch = resp.member_epoch;
        self.endpoint_information_epoch = resp.endpoint_information_epoch;
        if resp.heartbeat_interval_ms > 0 {
            self.heartbeat_interval_ms = i64::from(resp.heartbeat_interval_ms);
        }
        self.next_heartbeat_ms = now_ms + self.heartbeat_interval_ms;
        if let (Some(a), Some(s), Some(w)) =
            (&resp.active_tasks, &resp.standby_tasks, &resp.warmup_tasks)
        {
            let new = Assignment {
                active: a.clone(),
                standby: s.clone(),
                warmup: w.clone(),
            };
            let mut revoked = Assignment::default();
            for role in TaskRole::ALL {
                *revoked.get_mut(role) = self.assignment.get(role).difference(new.get(role));
                // A task that only changes role in this client is converted in place.
                let kept_elsewhere = new.all_tasks();
                *revoked.get_mut(role) = revoked.get(role).difference(&kept_elsewhere);
            }
            if !revoked.is_empty() {
                let merged = match self.releasing.take() {
                    Some((_, r)) => r.union(&revoked),
                    None => revoked,
                };
                let at = now_ms + release_delay_ms;
                self.releasing = Some((at, merged));
            } else if new != self.assignment && self.releasing.is_none() {
                self.releasing = Some((now_ms + assign_delay_ms, Assignment::default()));
            }
            self.assignment = new;
        }
        Effect::Continue
    }

    /// Finish releasing revoked tasks if their time has come; returns true if it did.
    pub fn release_due(&mut self, now_ms: i64) -> bool {
        if self.releasing.as_ref().is_some_and(|(at, _)| *at <= now_ms) {
            self.releasing = None;
            return true;
        }
        false
    }
}
