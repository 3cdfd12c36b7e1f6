//! A simulated Kafka Streams client: one member (one stream thread) of a process.
//!
//! It behaves as the protocol expects of a real client: joins with epoch 0 and its topology,
//! heartbeats at the interval the coordinator returns, runs the tasks it is given, takes a
//! while to release revoked tasks (and reports them as owned until then), rejoins when fenced,
//! goes silent when it crashes, and dies on the errors the real client treats as fatal.

use std::collections::BTreeMap;
use std::sync::Arc;

use model::heartbeat::{HeartbeatRequest, HeartbeatResponse, LEAVE_EPOCH, STATIC_LEAVE_EPOCH};
use model::{Assignment, ErrorCode, MemberIdentity, StatusCode, TaskId, TaskRole, Topology};

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
    /// Whether the client has had an assignment since it (re)joined. Kafka Streams'
    /// `StreamsMembershipManager` starts from `LocalAssignment.NONE` (local epoch -1), so its
    /// first assignment, even an empty one, is reconciled and acknowledged at once.
    pub has_target: bool,
    /// Whether the group was ready in the last response (`isGroupReady`: none of
    /// MISSING_SOURCE_TOPICS, MISSING_INTERNAL_TOPICS, INCORRECTLY_PARTITIONED_TOPICS,
    /// ASSIGNMENT_DELAYED).
    pub group_ready: bool,
    /// Kafka Streams 4.2.0 and later keep `isGroupReady` in the assignment they reconcile
    /// (KAFKA-19978): a change of it alone is reconciled and acknowledged like new tasks.
    pub tracks_readiness: bool,
    /// Kafka Streams 4.4 sends its task offset sums with the heartbeat that acknowledges a
    /// new assignment, when they changed (`StreamsGroupHeartbeatRequestManager`), and the 4.4
    /// assignor ranks standby candidates by them.
    pub reports_task_offsets: bool,
    /// The task offset sums the client last sent (a restored member: what the snapshot says
    /// it reported). A later report keeps a task's value; a task new to it reports 0.
    pub task_offsets: BTreeMap<TaskId, i64>,
    /// The next heartbeat acknowledges new tasks: it carries the offset sums if they changed.
    offsets_due: bool,
    /// Actives of the last new assignment that were this client's standbys before.
    promoted: Vec<TaskId>,
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
            has_target: false,
            group_ready: false,
            tracks_readiness: true,
            reports_task_offsets: false,
            task_offsets: BTreeMap::new(),
            offsets_due: false,
            promoted: Vec::new(),
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

    /// The heartbeat to send now: [`Client::heartbeat_request`], with the task offset sums
    /// when it acknowledges new tasks and they changed since the client last sent them.
    pub fn next_heartbeat(&mut self, group_id: &str) -> HeartbeatRequest {
        let mut req = self.heartbeat_request(group_id);
        if self.offsets_due && self.releasing.is_none() {
            self.offsets_due = false;
            let sums = self.task_offset_sums();
            if sums != self.task_offsets {
                req.task_offsets = Some(sums.clone());
                self.task_offsets = sums;
            }
        }
        req
    }

    /// What Kafka Streams' `TaskManager.maybeUpdateTaskOffsetSumSnapshot` reports of the
    /// tasks the client holds: its stateful standbys, and the stateful actives it took over
    /// from its own standbys (still restoring when it acknowledges); running actives are left
    /// out. State on disk from earlier assignments (persistent stores) is not known here.
    fn task_offset_sums(&self) -> BTreeMap<TaskId, i64> {
        let stateful = |t: &TaskId| {
            self.topology
                .subtopologies
                .iter()
                .any(|s| s.id == t.subtopology && s.is_stateful())
        };
        let mut held: Vec<TaskId> = self.assignment.standby.tasks().collect();
        held.extend(
            self.assignment
                .active
                .tasks()
                .filter(|t| self.promoted.contains(t)),
        );
        held.into_iter()
            .filter(|t| stateful(t))
            .map(|t| {
                let sum = self.task_offsets.get(&t).copied().unwrap_or(0);
                (t, sum)
            })
            .collect()
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
                // Fenced, the client clears its assignments back to `NONE`.
                self.has_target = false;
                self.group_ready = false;
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
        let tasks = match (&resp.active_tasks, &resp.standby_tasks, &resp.warmup_tasks) {
            (Some(a), Some(s), Some(w)) => Some(Assignment {
                active: a.clone(),
                standby: s.clone(),
                warmup: w.clone(),
            }),
            _ => None,
        };
        self.reconcile(
            tasks,
            group_ready(resp),
            now_ms,
            release_delay_ms,
            assign_delay_ms,
        );
        Effect::Continue
    }

    /// Take a response's assignment (`None`: the same tasks as before) and readiness, as
    /// `StreamsMembershipManager.onHeartbeatSuccess` does: revoked tasks are released after
    /// `release_delay_ms`; new tasks, the first assignment since joining and a change of
    /// readiness alone are acknowledged after `assign_delay_ms`.
    fn reconcile(
        &mut self,
        tasks: Option<Assignment>,
        ready: bool,
        now_ms: i64,
        release_delay_ms: i64,
        assign_delay_ms: i64,
    ) {
        let ready_changed = self.tracks_readiness && ready != self.group_ready;
        // Kafka Streams' reconciled assignment includes the readiness, so its acknowledgement
        // counts as a changed assignment too and carries the offset sums when they changed.
        self.offsets_due |= self.reports_task_offsets && ready_changed;
        let Some(new) = tasks else {
            if self.has_target && ready_changed {
                if self.releasing.is_none() {
                    self.releasing = Some((now_ms + assign_delay_ms, Assignment::default()));
                }
                self.group_ready = ready;
                // Actives taken over earlier run by now.
                self.promoted.clear();
            }
            return;
        };
        let first = !self.has_target;
        self.has_target = true;
        let mut revoked = Assignment::default();
        for role in TaskRole::ALL {
            *revoked.get_mut(role) = self.assignment.get(role).difference(new.get(role));
            // A task that only changes role in this client is converted in place.
            let kept_elsewhere = new.all_tasks();
            *revoked.get_mut(role) = revoked.get(role).difference(&kept_elsewhere);
        }
        if self.reports_task_offsets && new != self.assignment {
            self.offsets_due = true;
            self.promoted = new
                .active
                .tasks()
                .filter(|t| self.assignment.standby.contains_task(t))
                .collect();
        }
        if !revoked.is_empty() {
            let merged = match self.releasing.take() {
                Some((_, r)) => r.union(&revoked),
                None => revoked,
            };
            self.releasing = Some((now_ms + release_delay_ms, merged));
        } else if (new != self.assignment || first || ready_changed) && self.releasing.is_none() {
            self.releasing = Some((now_ms + assign_delay_ms, Assignment::default()));
        }
        self.assignment = new;
        self.group_ready = ready;
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

/// `isGroupReady` of Kafka Streams' `StreamsMembershipManager`: a response with none of these
/// statuses says the group is ready.
fn group_ready(resp: &HeartbeatResponse) -> bool {
    !resp.status.iter().flatten().any(|s| {
        matches!(
            s.code,
            StatusCode::MissingSourceTopics
                | StatusCode::MissingInternalTopics
                | StatusCode::IncorrectlyPartitionedTopics
                | StatusCode::AssignmentDelayed
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::heartbeat::Status;

    fn client(tracks_readiness: bool) -> Client {
        let mut c = Client::new("m".into(), "p".into(), Arc::new(Topology::default()), 0);
        c.tracks_readiness = tracks_readiness;
        c
    }

    fn response(tasks: bool, delayed: bool) -> HeartbeatResponse {
        let empty = tasks.then(Default::default);
        HeartbeatResponse {
            member_epoch: 3,
            heartbeat_interval_ms: 500,
            status: delayed.then(|| {
                vec![Status {
                    code: StatusCode::AssignmentDelayed,
                    detail: String::new(),
                }]
            }),
            active_tasks: empty.clone(),
            standby_tasks: empty.clone(),
            warmup_tasks: empty,
            ..HeartbeatResponse::default()
        }
    }

    /// When the client acknowledges next, if it does before its interval heartbeat.
    fn ack_at(c: &Client) -> Option<i64> {
        c.releasing.as_ref().map(|(at, _)| *at)
    }

    #[test]
    fn the_first_assignment_is_acknowledged_even_when_empty() {
        for tracks in [false, true] {
            let mut c = client(tracks);
            c.on_response(&response(true, false), 100, 200, 30);
            assert_eq!(ack_at(&c), Some(130), "tracks readiness: {tracks}");
            assert!(c.release_due(130));
            // The same empty assignment again is nothing to reconcile.
            c.on_response(&response(true, false), 630, 200, 30);
            assert_eq!(ack_at(&c), None);
        }
    }

    #[test]
    fn a_change_of_readiness_alone_is_acknowledged_from_4_2_on() {
        for (tracks, want) in [(true, Some(530)), (false, None)] {
            let mut c = client(tracks);
            c.on_response(&response(true, false), 0, 200, 30);
            c.release_due(30);
            // ASSIGNMENT_DELAYED, no task lists: the group is no longer ready.
            c.on_response(&response(false, true), 500, 200, 30);
            assert_eq!(ack_at(&c), want, "tracks readiness: {tracks}");
            c.releasing = None;
            // Delayed again: unchanged, nothing to acknowledge.
            c.on_response(&response(false, true), 1000, 200, 30);
            assert_eq!(ack_at(&c), None);
            // Ready again.
            c.on_response(&response(false, false), 1500, 200, 30);
            assert_eq!(ack_at(&c), want.map(|_| 1530), "tracks readiness: {tracks}");
        }
    }

    fn stateful_topology() -> Arc<Topology> {
        let t: Topology = serde_json::from_value(serde_json::json!({
            "subtopologies": [
                {"id": "0", "source_topics": ["in"]},
                {"id": "1", "source_topics": ["rep"], "state_changelog_topics": [
                    {"name": "store-changelog", "partitions": 4}
                ]}
            ]
        }))
        .unwrap();
        Arc::new(t)
    }

    fn tasks(active: &[(&str, i32)], standby: &[(&str, i32)]) -> HeartbeatResponse {
        let set = |ts: &[(&str, i32)]| {
            ts.iter()
                .map(|(s, p)| TaskId::new(*s, *p))
                .collect::<model::TaskSet>()
        };
        HeartbeatResponse {
            member_epoch: 5,
            heartbeat_interval_ms: 500,
            active_tasks: Some(set(active)),
            standby_tasks: Some(set(standby)),
            warmup_tasks: Some(Default::default()),
            ..HeartbeatResponse::default()
        }
    }

    #[test]
    fn a_4_4_client_reports_its_standbys_offsets_when_it_acknowledges() {
        let mut c = Client::new("m".into(), "p".into(), stateful_topology(), 0);
        c.reports_task_offsets = true;
        c.has_target = true;
        c.group_ready = true;
        // Restored from a snapshot: it once reported a task it no longer holds.
        c.task_offsets = [(TaskId::new("1", 2), 7), (TaskId::new("1", 3), 9)].into();
        let before = tasks(&[("0", 0)], &[("1", 2)]);
        c.assignment = Assignment {
            active: before.active_tasks.unwrap(),
            standby: before.standby_tasks.unwrap(),
            warmup: Default::default(),
        };
        // Standby 1_2 becomes active (restoring), standby 1_1 is new.
        c.on_response(&tasks(&[("0", 0), ("1", 2)], &[("1", 1)]), 100, 200, 30);
        // An interval heartbeat while the callbacks run carries no offsets.
        assert_eq!(c.next_heartbeat("g").task_offsets, None);
        assert!(c.release_due(130));
        let sent = c
            .next_heartbeat("g")
            .task_offsets
            .expect("offsets with the ack");
        assert_eq!(
            sent,
            [(TaskId::new("1", 1), 0), (TaskId::new("1", 2), 7)].into(),
            "the new standby at 0, the promoted one with its value, the stale one dropped"
        );
        // Unchanged since: nothing more.
        c.on_response(&tasks(&[("0", 0), ("1", 2)], &[("1", 1)]), 600, 200, 30);
        assert_eq!(c.next_heartbeat("g").task_offsets, None);
    }
}
