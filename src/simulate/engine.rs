//! The engine of one run: the simulated clients, the local coordinator they heartbeat, and the
//! virtual clock (a queue of events ordered by time and sequence number). `steps` turns a
//! scenario step into units of work and runs them; `summary` builds the report of the run.

mod steps;
mod summary;

use summary::build_report;
pub use summary::Outcome;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use coordinator::profile::Profile;
use coordinator::topics::TopicMetadata;
use coordinator::StreamsGroup;
use coordinator::{Coordinator, GroupState, Removal, RequestContext};
use model::heartbeat::Endpoint;
use model::{Assignment, HeartbeatRequest, HeartbeatResponse, KafkaVersion, StatusCode, Topology};

use crate::simulate::client::{Client, Effect, Liveness};
use crate::simulate::ids::Ids;
use crate::simulate::invariants::Invariants;
use crate::simulate::report::{self, MemberFailure, SimulationReport, StopReason, TraceEntry};
use crate::simulate::scenario::{Action, Scenario};
use crate::simulate::{member_name, select, SimConfig, SimError, SIMULATED_ENDPOINT_PORT};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    Heartbeat {
        client: usize,
        generation: u64,
    },
    Release {
        client: usize,
        generation: u64,
    },
    /// The coordinator's next timer (a session, rebalance or initial-delay deadline) may be due.
    Expire,
    Rejoin {
        client: usize,
    },
    /// A member of a stopping instance leaves (its stream thread noticed the shutdown).
    Leave {
        client: usize,
    },
}

/// Kafka Streams' `poll.ms` default (`StreamsConfig`): a stream thread runs a rebalance
/// callback, or notices a shutdown, within one poll.
const POLL_MS: i64 = 100;

/// The threads of a closing instance are all told at once and each leaves when it notices and
/// has closed its tasks: up to this far apart.
const LEAVE_SPREAD_MS: i64 = POLL_MS;

/// The threads of one instance heartbeat close together: they start together, and each new
/// assignment reaches them at their heartbeats and is acknowledged within a poll. How close
/// depends on the rebalances they have been through, which a snapshot does not tell:
/// measured on the harness (broker request log), the three threads of an undisturbed 4.3.2
/// instance heartbeat within 8 ms of each other, and 200 ms apart after one rebalance; a
/// killed instance's members expired +0, +158 and +273 ms apart (4.3.2, 3 threads), 8
/// members within 320 ms (4.4.0). So each instance draws how far apart its threads are, up
/// to this, and its threads are drawn within that.
const INSTANCE_PHASE_SPREAD_MS: i64 = 350;

/// How far apart the threads of an instance no rebalance has pulled apart heartbeat: within
/// 8 ms measured; half the instances of a snapshot are taken to be so.
const INSTANCE_TIGHT_SPREAD_MS: i64 = 20;

/// `KafkaStreams.start()` starts its threads in a loop, and each sends its first heartbeat on
/// its first poll: the threads of a new instance join within this many milliseconds.
const THREAD_START_SPREAD_MS: i64 = 50;

/// One unit of scenario work; restarts and deploys expand into one per member.
#[derive(Clone, Debug)]
enum Work {
    Action(Action),
    RestartOne {
        member: String,
        topology: Option<Topology>,
    },
}

struct Engine<'a> {
    cfg: &'a SimConfig,
    /// The configured topology, shared by every client that starts with it.
    topology: Arc<Topology>,
    coordinator: Coordinator,
    metadata: TopicMetadata,
    clients: Vec<Client>,
    /// How many clients are running, kept with every change of liveness so that `settled`
    /// costs nothing while the group is not Stable with that many members.
    running: usize,
    /// Clients by label (what scenarios name) and by member id (what the coordinator names).
    by_member: BTreeMap<String, usize>,
    by_id: BTreeMap<String, usize>,
    /// Where joiners' ids come from, and how many members joined with ids drawn there.
    ids: Ids,
    joiners: u32,
    /// Each member's tasks when the scenario's first step started, by label.
    before_first_step: Option<BTreeMap<String, Assignment>>,
    /// When members of a stopping instance leave: drawn from the run's seed.
    timing: ChaCha8Rng,
    /// Leaves scheduled and not yet sent: the group has not settled while there are any.
    pending_leaves: usize,
    generation: Vec<u64>,
    queue: BinaryHeap<Reverse<(i64, u64, Event)>>,
    /// When the coordinator's timers are next woken.
    expiry_at: Option<i64>,
    seq: u64,
    now: i64,
    heartbeats: u64,
    rebalances: u64,
    /// Target assignments the coordinator had computed when last looked at.
    last_targets_computed: u64,
    /// Distinct assignor warnings, in the order first seen.
    assignor_warnings: Vec<String>,
    statuses_seen: BTreeSet<StatusCode>,
    step_statuses: BTreeSet<StatusCode>,
    errors_seen: BTreeMap<String, u64>,
    invariants: Invariants,
    trace: Vec<report::TraceEntry>,
    next_process: u32,
    restarts: u32,
    failures: Vec<MemberFailure>,
    /// A member died in the unit of work that ran last.
    died_in_unit: bool,
}

/// A member's ids, and what the scenario and the samples call it and its process.
struct Names {
    member_id: String,
    process_id: String,
    label: String,
    process_label: String,
}

/// What the coordinator's clock reads at virtual time 0. A broker's clock is the wall clock,
/// never near 0, and Apache reads a target assignment timestamp of 0 as "never computed"
/// (`GroupMetadataManager.canComputeNextTargetAssignment`): on a clock starting at 0 a target
/// computed at 0 would not start the assignment interval.
const CLOCK_BASE_MS: i64 = 1_000_000_000_000;

impl<'a> Engine<'a> {
    fn schedule(&mut self, at: i64, e: Event) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, e)));
    }

    /// A new member of process `process` (0-based): its placeholders, and its ids from the
    /// run's id source.
    fn joiner(&mut self, process: u32, thread: u32) -> Names {
        let (label, process_label) = member_name(process, thread);
        self.joiners += 1;
        Names {
            member_id: self.ids.member(&label),
            process_id: self.ids.process(&process_label),
            label,
            process_label,
        }
    }

    fn add_client(&mut self, names: Names, topology: Arc<Topology>, start: i64) -> usize {
        let mut c = Client::new(names.member_id.clone(), names.process_id, topology, start);
        c.label = names.label.clone();
        c.process_label = names.process_label;
        if self.cfg.run.static_members {
            // The instance id is the user's choice, the same in every sample.
            c.identity.instance_id = Some(
                names
                    .label
                    .split("-r")
                    .next()
                    .unwrap_or(&names.label)
                    .to_string(),
            );
        }
        c.heartbeat_interval_ms = self.cfg.group.heartbeat_interval_ms;
        // The clients are of the broker's release.
        c.tracks_readiness = self.cfg.kafka_version >= KafkaVersion::V4_2_1;
        c.reports_task_offsets = self.cfg.kafka_version >= KafkaVersion::V4_4;
        if self.cfg.run.endpoints {
            c.identity.user_endpoint = Some(Endpoint {
                host: c.identity.process_id.clone(),
                port: SIMULATED_ENDPOINT_PORT,
            });
        }
        if self.cfg.run.racks > 0 {
            // Processes are numbered p1, p2, ...: neighbours land on different racks.
            let n: u32 = c.process_label.trim_start_matches('p').parse().unwrap_or(1);
            let rack = format!("r{}", (n.saturating_sub(1)) % self.cfg.run.racks + 1);
            c.identity.rack_id = Some(rack.clone());
            c.identity.client_tags.insert("rack".into(), rack);
        }
        let idx = self.clients.len();
        self.clients.push(c);
        self.running += 1;
        self.generation.push(0);
        self.by_member.insert(names.label, idx);
        self.by_id.insert(names.member_id, idx);
        self.schedule(
            start,
            Event::Heartbeat {
                client: idx,
                generation: 0,
            },
        );
        idx
    }

    fn group_state(&self) -> Option<GroupState> {
        self.coordinator
            .group(&self.cfg.group_id)
            .map(|g| g.state())
    }

    /// Settled: Stable, and the group's members are exactly the running clients.
    fn settled(&self) -> bool {
        let Some(g) = self.coordinator.group(&self.cfg.group_id) else {
            return false;
        };
        g.state() == GroupState::Stable
            && self.pending_leaves == 0
            && g.members().len() == self.running
            && self
                .clients
                .iter()
                .filter(|c| c.liveness == Liveness::Running)
                .all(|c| g.members().contains_key(&c.member_id))
    }

    fn send(&mut self, idx: usize, req: HeartbeatRequest) -> HeartbeatResponse {
        let ctx = RequestContext {
            now_ms: CLOCK_BASE_MS + self.now,
            client_id: self.clients[idx].identity.client_id.clone(),
            client_host: self.clients[idx].identity.client_host.clone(),
        };
        let out = self.coordinator.heartbeat(&req, &ctx, &self.metadata);
        // The broker creates the internal topics the coordinator asks for.
        for t in &out.topics_to_create {
            self.metadata.entry(t.name.clone()).or_insert(t.partitions);
        }
        self.heartbeats += 1;
        let resp = out.response;
        for s in resp.status.iter().flatten() {
            self.statuses_seen.insert(s.code);
            self.step_statuses.insert(s.code);
        }
        if let Some(e) = resp.error {
            *self.errors_seen.entry(e.name()).or_default() += 1;
        }
        if self.cfg.run.trace {
            self.trace.push(TraceEntry {
                time_ms: self.now,
                member_id: req.member_id.clone(),
                request_epoch: req.member_epoch,
                owned_active: req.active_tasks.clone().unwrap_or_default(),
                owned_standby: req.standby_tasks.clone().unwrap_or_default(),
                response_epoch: resp.member_epoch,
                assigned_active: resp.active_tasks.clone(),
                assigned_standby: resp.standby_tasks.clone(),
                statuses: resp.status.iter().flatten().map(|s| s.code).collect(),
                error: resp.error,
            });
        }
        self.count_rebalance();
        self.arm_expiry();
        resp
    }

    /// Wake the coordinator's timers when the earliest may be due: exactly at a member's own
    /// deadline, as the broker's timer fires, not at the next tick of a coarser clock.
    fn arm_expiry(&mut self) {
        let Some(bound) = self.coordinator.deadline_bound() else {
            return;
        };
        let at = (bound - CLOCK_BASE_MS).max(self.now);
        if self.expiry_at.is_none_or(|armed| at < armed) {
            self.expiry_at = Some(at);
            self.schedule(at, Event::Expire);
        }
    }

    /// A new target assignment epoch is one more rebalance.
    fn count_rebalance(&mut self) {
        if let Some(g) = self.coordinator.group(&self.cfg.group_id) {
            if g.targets_computed() != self.last_targets_computed {
                self.last_targets_computed = g.targets_computed();
                self.rebalances += 1;
                for w in g.assignor_warnings() {
                    // Bounded: one line per distinct warning is what a reader can use.
                    if self.assignor_warnings.len() < 20 && !self.assignor_warnings.contains(w) {
                        self.assignor_warnings.push(w.clone());
                    }
                }
            }
        }
    }

    fn heartbeat(&mut self, idx: usize) {
        if self.clients[idx].liveness != Liveness::Running {
            return;
        }
        let req = self.clients[idx].next_heartbeat(&self.cfg.group_id);
        let resp = self.send(idx, req);
        // Only an error or a new assignment changes what the client runs.
        let before = (resp.error.is_some() || resp.active_tasks.is_some())
            .then(|| self.clients[idx].owned());
        let now = self.now;
        // The assign callback runs in the stream thread's next poll: within `poll.ms`.
        let assign_delay = self.timing.gen_range(0..=POLL_MS);
        let release_delay = self.cfg.run.release_delay_ms;
        let effect = self.clients[idx].on_response(&resp, now, release_delay, assign_delay);
        if self.clients[idx].liveness != Liveness::Running {
            self.running -= 1;
        }
        if let Some(before) = before {
            self.after_client_change(idx, &before);
        }
        self.generation[idx] += 1;
        if let Effect::Fatal { error, message } = effect {
            self.failures.push(MemberFailure {
                member_id: self.clients[idx].member_id.clone(),
                time_ms: now,
                error,
                message,
            });
            return;
        }
        let g = self.generation[idx];
        let next = self.clients[idx].next_heartbeat_ms;
        self.schedule(
            next,
            Event::Heartbeat {
                client: idx,
                generation: g,
            },
        );
        if let Some((at, _)) = self.clients[idx].releasing {
            self.schedule(
                at,
                Event::Release {
                    client: idx,
                    generation: g,
                },
            );
        }
    }

    fn after_client_change(&mut self, idx: usize, before: &Assignment) {
        let c = &self.clients[idx];
        let after = if c.liveness == Liveness::Running {
            c.owned()
        } else {
            Assignment::default()
        };
        self.invariants.update(
            &c.member_id,
            &c.identity.process_id,
            before,
            &after,
            self.now,
        );
    }

    fn release(&mut self, idx: usize) {
        let before = self.clients[idx].owned();
        if self.clients[idx].release_due(self.now) {
            self.after_client_change(idx, &before);
            // Tell the coordinator at once, as a real client acknowledges a revocation.
            self.heartbeat(idx);
        }
    }

    fn stop(&mut self, idx: usize, leave: bool) {
        if leave {
            let req = self.clients[idx].leave_request(&self.cfg.group_id);
            self.send(idx, req);
        }
        let before = self.clients[idx].owned();
        if self.clients[idx].liveness == Liveness::Running {
            self.running -= 1;
        }
        self.clients[idx].liveness = Liveness::Stopped;
        self.after_client_change(idx, &before);
        self.generation[idx] += 1;
    }

    fn member_index(&self, id: &str) -> Result<usize, SimError> {
        match self.by_member.get(id) {
            Some(i) if self.clients[*i].liveness == Liveness::Running => Ok(*i),
            _ => {
                let (valid, _) = self.running_ids();
                let e = select::NameError::Unknown {
                    kind: select::Kind::Member,
                    name: id.to_string(),
                };
                Err(SimError(e.message(" in the scenario", &valid)))
            }
        }
    }

    /// The running members' labels and their processes', in the order they started.
    fn running_ids(&self) -> (Vec<&str>, Vec<&str>) {
        self.clients
            .iter()
            .filter(|c| c.liveness == Liveness::Running)
            .map(|c| (c.label.as_str(), c.process_label.as_str()))
            .unzip()
    }

    fn apply(&mut self, work: &Work) -> Result<(), SimError> {
        match work {
            Work::Action(Action::AddMembers { count }) => self.add_members(*count),
            Work::Action(Action::AddInstances { count, threads }) => {
                let t = threads.unwrap_or(self.cfg.threads_per_process);
                self.add_instances(*count, t);
            }
            Work::Action(Action::RemoveMembers { members, .. }) => {
                // Each leaves within a poll of the stop, in no set order, as the threads of
                // closing instances do; one alone leaves at once.
                for m in members {
                    let i = self.member_index(m)?;
                    let at = match members.len() {
                        1 => self.now,
                        _ => self.now + self.timing.gen_range(0..=LEAVE_SPREAD_MS),
                    };
                    self.pending_leaves += 1;
                    self.schedule(at, Event::Leave { client: i });
                }
            }
            Work::Action(Action::Crash { members, .. }) => {
                for m in members {
                    let i = self.member_index(m)?;
                    self.stop(i, false);
                }
            }
            Work::Action(Action::CreateTopics { topics }) => self.create_topics(topics)?,
            Work::Action(Action::SetStandbyReplicas {
                num_standby_replicas,
            }) => self.set_standby_replicas(*num_standby_replicas)?,
            Work::Action(Action::Wait { .. }) => {}
            Work::Action(Action::Restart { .. }) | Work::Action(Action::Deploy { .. }) => {
                // Expanded into one `RestartOne` per member before the steps run.
                return Err(SimError("internal: an unexpanded restart step".into()));
            }
            Work::RestartOne { member, topology } => self.restart_one(member, topology)?,
        }
        Ok(())
    }

    /// New members in new processes of the run's threads per process, with the group's
    /// topology.
    fn add_members(&mut self, count: u32) {
        let t = self.cfg.threads_per_process.max(1);
        let topology = self.group_topology();
        for i in 0..count {
            let names = self.joiner(self.next_process + i / t, i % t);
            let start = self.thread_start();
            self.add_client(names, Arc::clone(&topology), start);
        }
        self.next_process += count.div_ceil(t);
    }

    /// New instances (processes) of `threads` members each, with the group's topology.
    fn add_instances(&mut self, count: u32, threads: u32) {
        let topology = self.group_topology();
        for i in 0..count {
            for t in 0..threads.max(1) {
                let names = self.joiner(self.next_process + i, t);
                let start = self.thread_start();
                self.add_client(names, Arc::clone(&topology), start);
            }
        }
        self.next_process += count;
    }

    /// When a thread of an instance starting now sends its first heartbeat.
    fn thread_start(&mut self) -> i64 {
        self.now + self.timing.gen_range(0..=THREAD_START_SPREAD_MS)
    }

    /// The topology new members start with: the group's, else the configured one.
    fn group_topology(&self) -> Arc<Topology> {
        self.coordinator
            .group(&self.cfg.group_id)
            .and_then(|g| g.topology().cloned())
            .map_or_else(|| Arc::clone(&self.topology), Arc::new)
    }

    /// Naming an existing topic with more partitions grows it, as `kafka-topics.sh --alter
    /// --partitions` would; Kafka cannot shrink a topic.
    fn create_topics(&mut self, topics: &BTreeMap<String, i32>) -> Result<(), SimError> {
        for (t, n) in topics {
            if let Some(old) = self.metadata.get(t).filter(|old| **old > *n) {
                return Err(SimError(format!(
                    "create_topics: topic `{t}` has {old} partitions and Kafka cannot shrink a topic to {n}"
                )));
            }
            self.metadata.insert(t.clone(), *n);
        }
        Ok(())
    }

    fn set_standby_replicas(&mut self, n: u32) -> Result<(), SimError> {
        if let Some(g) = self.coordinator.group_mut(&self.cfg.group_id) {
            let mut c = g.config().clone();
            c.num_standby_replicas = n;
            c.validate_bounds(&self.cfg.broker_bounds)
                .map_err(|e| SimError(format!("set_standby_replicas: {e}")))?;
            g.set_config(c);
        }
        Ok(())
    }

    /// The member leaves and comes back after the restart delay: the same member object when
    /// static, else a new member id in the same process.
    fn restart_one(&mut self, member: &str, topology: &Option<Topology>) -> Result<(), SimError> {
        let i = self.member_index(member)?;
        self.stop(i, true);
        self.restarts += 1;
        let topology = topology
            .clone()
            .map_or_else(|| Arc::clone(&self.clients[i].topology), Arc::new);
        let at = self.now + self.cfg.run.restart_delay_ms;
        if self.cfg.run.static_members {
            // Same member object comes back: reuse the client slot.
            let c = &mut self.clients[i];
            if c.liveness != Liveness::Running {
                self.running += 1;
            }
            c.liveness = Liveness::Running;
            c.epoch = 0;
            c.assignment = Assignment::default();
            c.topology = topology;
            self.schedule(at, Event::Rejoin { client: i });
        } else {
            // A restarted Kafka Streams client keeps its process id (the state directory
            // holds it) and draws a new member id.
            let base = member.split("-r").next().unwrap_or(member);
            let label = format!("{base}-r{}", self.restarts);
            self.joiners += 1;
            let names = Names {
                member_id: self.ids.member(&label),
                process_id: self.clients[i].identity.process_id.clone(),
                label,
                process_label: self.clients[i].process_label.clone(),
            };
            self.by_member.remove(member);
            self.add_client(names, topology, at);
        }
        Ok(())
    }

    /// The label of the member the coordinator knows as `id`.
    fn label_of<'s>(&'s self, id: &'s str) -> &'s str {
        self.by_id
            .get(id)
            .map_or(id, |&i| self.clients[i].label.as_str())
    }

    /// Each member's assignment, by label.
    fn current_assignments(&self) -> BTreeMap<String, Assignment> {
        self.coordinator
            .group(&self.cfg.group_id)
            .map(|g| {
                g.members()
                    .iter()
                    .map(|(id, m)| (self.label_of(id).to_string(), m.assigned.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Process events until `until` returns true or the time limit passes. Returns whether the
    /// condition was met.
    fn run_until(
        &mut self,
        deadline: i64,
        progress: &mut dyn FnMut(i64, i64),
        mut until: impl FnMut(&Self) -> bool,
    ) -> bool {
        loop {
            if until(self) {
                return true;
            }
            let Some(Reverse((at, _, event))) = self.queue.pop() else {
                // Nothing will ever happen again: the time limit ends the wait.
                self.now = self.now.max(deadline);
                progress(self.now, self.cfg.run.max_time_ms);
                return until(self);
            };
            if at > deadline {
                self.queue.push(Reverse((at, 0, event)));
                self.now = deadline;
                progress(self.now, self.cfg.run.max_time_ms);
                return until(self);
            }
            self.now = self.now.max(at);
            progress(self.now, self.cfg.run.max_time_ms);
            match event {
                Event::Heartbeat { client, generation } => {
                    if self.generation[client] == generation {
                        self.heartbeat(client);
                    }
                }
                Event::Release { client, generation } => {
                    if self.generation[client] == generation {
                        self.release(client);
                    }
                }
                Event::Rejoin { client } => {
                    self.generation[client] += 1;
                    self.heartbeat(client);
                }
                Event::Leave { client } => {
                    self.pending_leaves -= 1;
                    if self.clients[client].liveness == Liveness::Running {
                        self.stop(client, true);
                    }
                }
                Event::Expire => {
                    // An earlier wake replaced this one.
                    if self.expiry_at != Some(at) {
                        continue;
                    }
                    self.expiry_at = None;
                    for (_, removal) in self.coordinator.expire(CLOCK_BASE_MS + self.now) {
                        let why = match removal {
                            Removal::SessionTimeout { .. } => "removed by session timeout",
                            Removal::RebalanceTimeout { .. } => "removed by rebalance timeout",
                        };
                        *self.errors_seen.entry(why.to_string()).or_default() += 1;
                    }
                    self.count_rebalance();
                    self.arm_expiry();
                }
            }
        }
    }
}

impl<'a> Engine<'a> {
    /// An engine for `cfg` with no clients yet.
    fn new(cfg: &'a SimConfig, ids: Ids) -> Result<Self, SimError> {
        if cfg.members == 0 && cfg.initial.is_none() {
            return Err(SimError("a run needs at least one member".into()));
        }
        cfg.group
            .validate_bounds(&cfg.broker_bounds)
            .map_err(|e| SimError(format!("invalid group configuration: {e}")))?;
        let assignor = coordinator::assignor::assignor_by_name(
            &cfg.assignor,
            cfg.kafka_version.shipped_assignor(),
        )
        .map_err(|e| SimError(e.to_string()))?;
        Ok(Engine {
            cfg,
            topology: Arc::new(cfg.topology.clone()),
            coordinator: Coordinator::for_version(cfg.kafka_version, cfg.group.clone())
                .with_assignor(assignor),
            metadata: cfg.metadata.clone(),
            clients: Vec::new(),
            running: 0,
            by_member: BTreeMap::new(),
            by_id: BTreeMap::new(),
            ids,
            joiners: 0,
            before_first_step: None,
            timing: ChaCha8Rng::seed_from_u64(cfg.run.seed ^ 0x1EAF_5EED),
            pending_leaves: 0,
            generation: Vec::new(),
            queue: BinaryHeap::new(),
            expiry_at: None,
            seq: 0,
            now: 0,
            heartbeats: 0,
            rebalances: 0,
            last_targets_computed: 0,
            assignor_warnings: Vec::new(),
            statuses_seen: BTreeSet::new(),
            step_statuses: BTreeSet::new(),
            errors_seen: BTreeMap::new(),
            invariants: Invariants::default(),
            trace: Vec::new(),
            next_process: 0,
            restarts: 0,
            failures: Vec::new(),
            died_in_unit: false,
        })
    }

    /// The clients the run starts with: the initial group's members, carrying on where the
    /// group is, or `members` new ones joining with a little jitter.
    fn start_clients(&mut self) {
        let cfg = self.cfg;
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.run.seed);
        let Some(initial) = &cfg.initial else {
            // Instances start within half a second of each other, the threads of each within
            // a few milliseconds.
            let t = cfg.threads_per_process.max(1);
            let mut instance_start = 0;
            for i in 0..cfg.members {
                if i % t == 0 {
                    instance_start = rng.gen_range(0..500);
                }
                let names = self.joiner(i / t, i % t);
                let start = instance_start + rng.gen_range(0..=THREAD_START_SPREAD_MS);
                self.add_client(names, Arc::clone(&self.topology), start);
            }
            self.next_process = cfg.members.div_ceil(t);
            return;
        };
        // The coordinator already knows the group; its members carry on heartbeating.
        let group = StreamsGroup::restore_as(
            initial,
            cfg.topology.clone(),
            cfg.group.clone(),
            &cfg.metadata,
            CLOCK_BASE_MS,
            cfg.kafka_version,
        );
        self.coordinator.insert_group(group);
        let interval = cfg.group.heartbeat_interval_ms.max(1);
        let mut instance_phase: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
        for m in &initial.members {
            // Where the member is in its heartbeat schedule is unknown: its next heartbeat is
            // drawn within one interval (its instance's phase and spread, then its own place
            // within that spread), and its last was an interval before that.
            let (phase, spread) = *instance_phase
                .entry(m.process_id.as_str())
                .or_insert_with(|| instance_schedule(&mut rng, interval));
            let start = (phase + rng.gen_range(0..=spread)) % interval;
            let names = Names {
                member_id: m.member_id.clone(),
                process_id: m.process_id.clone(),
                label: m.member_id.clone(),
                process_label: m.process_id.clone(),
            };
            let idx = self.add_client(names, Arc::clone(&self.topology), start);
            let c = &mut self.clients[idx];
            c.epoch = m.member_epoch;
            c.assignment = m.assignment.clone();
            c.identity = m.identity();
            // A running member has had its assignment; the group was ready unless it was
            // waiting for topics or for a delayed target assignment.
            c.has_target = true;
            c.group_ready = !matches!(initial.state.as_str(), "NotReady" | "Assigning");
            // What the member last reported, as the coordinator holds it.
            c.task_offsets = m.task_offsets.clone();
            let owned = c.owned();
            let (member, process) = (c.member_id.clone(), c.identity.process_id.clone());
            self.invariants
                .update(&member, &process, &Assignment::default(), &owned, 0);
            if let Some(g) = self.coordinator.group_mut(&cfg.group_id) {
                g.heard_from(&member, CLOCK_BASE_MS + start - interval);
            }
        }
        self.arm_expiry();
        let processes: BTreeSet<&str> = initial
            .members
            .iter()
            .map(|m| m.process_id.as_str())
            .collect();
        self.next_process = processes.len() as u32;
    }
}

/// Where a snapshot's instance is in its heartbeat schedule, drawn: its phase within one
/// `interval`, and how far apart its threads are (within [`INSTANCE_TIGHT_SPREAD_MS`] for half
/// the instances, up to [`INSTANCE_PHASE_SPREAD_MS`] for the others).
fn instance_schedule(rng: &mut ChaCha8Rng, interval: i64) -> (i64, i64) {
    let widest = match rng.gen_bool(0.5) {
        true => INSTANCE_TIGHT_SPREAD_MS,
        false => INSTANCE_PHASE_SPREAD_MS,
    };
    let phase = rng.gen_range(0..interval);
    (phase, rng.gen_range(0..=widest.min(interval - 1)))
}

/// Run a scenario once with joiners' ids from `ids`: the report, and the outcome by label.
pub(super) fn run_with(
    cfg: &SimConfig,
    scenario: &Scenario,
    ids: Ids,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<(SimulationReport, Outcome), SimError> {
    let mut e = Engine::new(cfg, ids)?;
    e.start_clients();

    let limit = cfg.run.max_time_ms;
    // The group forms first, unless the first step is due earlier (e.g. topics appear).
    let formation_deadline = scenario
        .steps
        .first()
        .and_then(|s| s.at_ms)
        .unwrap_or(limit)
        .min(limit);
    let formed = e.run_until(formation_deadline, progress, |e| e.settled());
    let mut virtual_time_to_stable_ms = formed.then_some(e.now);
    // The group never formed and no step is left to run: the time limit ended the run.
    let mut settled = formed || formation_deadline < limit;

    let mut steps = Vec::new();
    // Steps start only while there is time left: none when the group never formed.
    let to_run = if settled { &scenario.steps[..] } else { &[] };
    for step in to_run {
        let (step, step_settled) = e.run_step(step, progress)?;
        settled = step_settled;
        steps.push(step);
        if virtual_time_to_stable_ms.is_none() && settled {
            virtual_time_to_stable_ms = Some(e.now);
        }
        if !settled || !e.failures.is_empty() {
            break;
        }
    }
    // Let one more heartbeat round pass so that the report shows a quiet group.
    let quiet_until = (e.now + cfg.group.heartbeat_interval_ms).min(limit);
    e.run_until(quiet_until, progress, |e| e.now >= quiet_until);

    let stop_reason = if !e.failures.is_empty() {
        StopReason::MemberFailed
    } else if settled {
        StopReason::Completed
    } else {
        StopReason::MaxTime
    };
    // A described group was running before the run began: its time to Stable counts from
    // the scenario's first step, until the group was Stable after it. A new group's first
    // step is forming, at 0.
    let from_first_step = cfg.initial.is_some() && !steps.is_empty();
    if from_first_step {
        virtual_time_to_stable_ms = steps[0].time_to_stable_ms;
    }
    let mut report = build_report(&e, scenario, virtual_time_to_stable_ms, steps);
    report.stop_reason = stop_reason;
    report.stable_from_first_step = from_first_step;
    let outcome = e.outcome(&report);
    Ok((report, outcome))
}
