//! The simulator: Kafka Streams clients on a virtual clock, driving the local coordinator
//! through a scenario, and a report of what happened.
//!
//! Everything is deterministic for a given configuration and seed: events are ordered by
//! (time, sequence number) and the only randomness (start-up jitter) comes from a seeded RNG.

pub mod client;
pub mod example;
pub mod ids;
pub mod invariants;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod select;
pub mod setup;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::coordinator::config::BrokerBounds;
use crate::coordinator::StreamsGroup;
use crate::coordinator::{Coordinator, GroupConfig, GroupState, Removal, RequestContext};
use crate::model::group::GroupDescription;
use crate::model::heartbeat::Endpoint;
use crate::model::natural;
use crate::model::KafkaVersion;
use crate::model::{
    Assignment, ErrorCode, GroupStateName, HeartbeatRequest, HeartbeatResponse, StatusCode,
    Topology,
};
use crate::topology::configure::TopicMetadata;

use client::{Client, Effect, Liveness};
use ids::Ids;
use invariants::Invariants;
use report::{
    Balance, MemberFailure, MemberReport, SimulationReport, StepReport, StopReason, TraceEntry,
};
use scenario::{Action, Scenario, Step};

/// Everything a run needs besides the scenario.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Which coordinator runs: a Kafka release's, or the KIP text's.
    pub kafka_version: KafkaVersion,
    /// The task assignor by name ("sticky": the release's own; "balanced-sticky": ours).
    pub assignor: String,
    pub group_id: String,
    pub members: u32,
    pub threads_per_process: u32,
    pub topology: Topology,
    /// Topics that exist at the start (topic → partitions).
    pub metadata: TopicMetadata,
    pub group: GroupConfig,
    /// The broker's bounds on group configs (a scenario step that sets a config is checked
    /// against them).
    pub broker_bounds: BrokerBounds,
    /// Timing and membership of the simulated clients.
    pub run: RunSettings,
    /// Start from this group (a `describe` snapshot) instead of an empty one: its members are
    /// the initial clients, with their epochs and assignments, and `members` is ignored.
    pub initial: Option<GroupDescription>,
}

/// Timing and membership of the simulated clients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSettings {
    pub seed: u64,
    /// How long a client takes to close a revoked task.
    pub release_delay_ms: i64,
    /// How long a restarting client stays away before it joins again.
    pub restart_delay_ms: i64,
    /// Members get instance ids (static membership).
    pub static_members: bool,
    /// The run stops at this virtual time even if the group never settles.
    pub max_time_ms: i64,
    pub trace: bool,
    /// Spread processes over this many racks (`r1`, `r2`, ...): each member gets the rack id and
    /// the client tag `rack`. 0: no racks.
    pub racks: u32,
    /// Simulated processes serve interactive queries at `PROCESS:8080` (`application.server`).
    pub endpoints: bool,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            seed: 42,
            release_delay_ms: 200,
            restart_delay_ms: 3_000,
            static_members: false,
            max_time_ms: 600_000,
            trace: false,
            racks: 0,
            endpoints: false,
        }
    }
}

/// The port of a simulated process's interactive-query endpoint.
pub const SIMULATED_ENDPOINT_PORT: u16 = 8080;

/// A problem with the scenario that is only known once the run has its members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimError(pub String);

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SimError {}

/// Member ids the run starts with, in order: `p1-t1`, `p1-t2`, `p2-t1`, ... (or the members of
/// the initial group).
pub fn initial_member_ids(cfg: &SimConfig) -> Vec<String> {
    if let Some(g) = &cfg.initial {
        return g.members.iter().map(|m| m.member_id.clone()).collect();
    }
    (0..cfg.members)
        .map(|i| {
            member_name(
                i / cfg.threads_per_process.max(1),
                i % cfg.threads_per_process.max(1),
            )
        })
        .map(|(m, _)| m)
        .collect()
}

/// The process of each member [`initial_member_ids`] lists, in the same order.
pub fn initial_processes(cfg: &SimConfig) -> Vec<String> {
    if let Some(g) = &cfg.initial {
        return g.members.iter().map(|m| m.process_id.clone()).collect();
    }
    let t = cfg.threads_per_process.max(1);
    (0..cfg.members)
        .map(|i| member_name(i / t, i % t).1)
        .collect()
}

fn member_name(process: u32, thread: u32) -> (String, String) {
    let p = format!("p{}", process + 1);
    (format!("{p}-t{}", thread + 1), p)
}

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
    Tick,
    Rejoin {
        client: usize,
    },
    /// A member of a stopping instance leaves (its stream thread noticed the shutdown).
    Leave {
        client: usize,
    },
}

/// Kafka Streams' `poll.ms` default: a stream thread notices a shutdown within one poll, so
/// the threads of a closing instance leave the group up to this far apart.
const LEAVE_SPREAD_MS: i64 = 100;

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
            c.instance_id = Some(
                names
                    .label
                    .split("-r")
                    .next()
                    .unwrap_or(&names.label)
                    .to_string(),
            );
        }
        c.heartbeat_interval_ms = self.cfg.group.heartbeat_interval_ms;
        if self.cfg.run.endpoints {
            c.user_endpoint = Some(Endpoint {
                host: c.process_id.clone(),
                port: SIMULATED_ENDPOINT_PORT,
            });
        }
        if self.cfg.run.racks > 0 {
            // Processes are numbered p1, p2, ...: neighbours land on different racks.
            let n: u32 = c.process_label.trim_start_matches('p').parse().unwrap_or(1);
            let rack = format!("r{}", (n.saturating_sub(1)) % self.cfg.run.racks + 1);
            c.rack_id = Some(rack.clone());
            c.client_tags.insert("rack".into(), rack);
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
            now_ms: self.now,
            client_id: self.clients[idx].client_id.clone(),
            client_host: self.clients[idx].client_host.clone(),
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
        resp
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
        let req = self.clients[idx].heartbeat_request(&self.cfg.group_id);
        let resp = self.send(idx, req);
        // Only an error or a new assignment changes what the client runs.
        let before = (resp.error.is_some() || resp.active_tasks.is_some())
            .then(|| self.clients[idx].owned());
        let now = self.now;
        let effect = self.clients[idx].on_response(&resp, now, self.cfg.run.release_delay_ms);
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
        self.invariants
            .update(&c.member_id, &c.process_id, before, &after, self.now);
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
            self.add_client(names, Arc::clone(&topology), self.now);
        }
        self.next_process += count.div_ceil(t);
    }

    /// New instances (processes) of `threads` members each, with the group's topology.
    fn add_instances(&mut self, count: u32, threads: u32) {
        let topology = self.group_topology();
        for i in 0..count {
            for t in 0..threads.max(1) {
                let names = self.joiner(self.next_process + i, t);
                self.add_client(names, Arc::clone(&topology), self.now);
            }
        }
        self.next_process += count;
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
                process_id: self.clients[i].process_id.clone(),
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
                return false;
            };
            if at > deadline {
                self.queue.push(Reverse((at, 0, event)));
                self.now = deadline;
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
                Event::Tick => {
                    for (_, removal) in self.coordinator.expire(self.now) {
                        let why = match removal {
                            Removal::SessionTimeout { .. } => "removed by session timeout",
                            Removal::RebalanceTimeout { .. } => "removed by rebalance timeout",
                        };
                        *self.errors_seen.entry(why.to_string()).or_default() += 1;
                    }
                    self.count_rebalance();
                    self.schedule(self.now + TICK_MS, Event::Tick);
                }
            }
        }
    }
}

/// How often coordinator timers are checked, in virtual milliseconds.
const TICK_MS: i64 = 250;

/// Run a scenario once, joiners named by placeholders. `progress` is called with (virtual
/// now, time limit) as time advances. [`samples::run`] runs it again with the ids Kafka
/// would draw.
pub fn run(
    cfg: &SimConfig,
    scenario: &Scenario,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<SimulationReport, SimError> {
    let (mut report, outcome) = run_with(cfg, scenario, Ids::Placeholders, progress)?;
    report.samples = samples::Samples::single(&outcome);
    Ok(report)
}

/// Run a scenario once with joiners' ids from `ids`: the report, and the outcome by label.
fn run_with(
    cfg: &SimConfig,
    scenario: &Scenario,
    ids: Ids,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<(SimulationReport, samples::Outcome), SimError> {
    let mut e = Engine::new(cfg, ids)?;
    e.start_clients();
    e.schedule(TICK_MS, Event::Tick);

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

/// A member's ids, and what the scenario and the samples call it and its process.
struct Names {
    member_id: String,
    process_id: String,
    label: String,
    process_label: String,
}

/// A scenario step as units of work: its label, its units.
struct Planned {
    label: String,
    /// The label for a table: long member lists counted.
    short_label: String,
    units: Vec<Work>,
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
        let assignor = crate::coordinator::assignor::assignor_by_name(
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
            let t = cfg.threads_per_process.max(1);
            for i in 0..cfg.members {
                let names = self.joiner(i / t, i % t);
                let start = rng.gen_range(0..500);
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
            0,
            cfg.kafka_version,
        );
        self.coordinator.insert_group(group);
        for m in &initial.members {
            let start = rng.gen_range(0..cfg.group.heartbeat_interval_ms.max(1));
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
            c.instance_id = m.instance_id.clone();
            c.client_id = m.client_id.clone();
            c.client_host = m.client_host.clone();
            c.rack_id = m.rack_id.clone();
            c.client_tags = m.client_tags.clone();
            c.user_endpoint = m.user_endpoint.clone();
            let owned = c.owned();
            let (member, process) = (c.member_id.clone(), c.process_id.clone());
            self.invariants
                .update(&member, &process, &Assignment::default(), &owned, 0);
        }
        let processes: BTreeSet<&str> = initial
            .members
            .iter()
            .map(|m| m.process_id.as_str())
            .collect();
        self.next_process = processes.len() as u32;
    }

    /// A step as units of work, planned when it starts: the members and processes it names
    /// are looked up among the running clients (by id or unique prefix), an added instance
    /// gets the run's threads per process unless the step says, and restarts and deploys
    /// become one restart per member.
    fn plan(&self, step: &Step) -> Result<Planned, SimError> {
        let action = self.resolve(&step.action)?;
        let restart =
            |member: String, topology: Option<Topology>| Work::RestartOne { member, topology };
        let units = match &action {
            Action::Restart { members, .. } => {
                members.iter().map(|m| restart(m.clone(), None)).collect()
            }
            Action::Deploy {
                topology,
                topology_epoch,
            } => {
                let mut t = topology
                    .clone()
                    .unwrap_or_else(|| example::next_topology(*topology_epoch));
                t.epoch = *topology_epoch;
                let (running, _) = self.running_ids();
                running
                    .into_iter()
                    .map(|m| restart(m.to_string(), Some(t.clone())))
                    .collect()
            }
            other => vec![Work::Action(other.clone())],
        };
        // Members added with several threads per process come in new processes.
        let t = self.cfg.threads_per_process.max(1);
        let processes = match &action {
            Action::AddMembers { count } if t > 1 => {
                format!(" in {} new process(es)", count.div_ceil(t))
            }
            _ => String::new(),
        };
        Ok(Planned {
            label: action.label() + &processes,
            short_label: action.short_label() + &processes,
            units,
        })
    }

    /// The action with the members and processes it names resolved to running members' ids
    /// (`processes` left empty), and an added instance's threads filled in.
    fn resolve(&self, action: &Action) -> Result<Action, SimError> {
        let named = |members: &[String], processes: &[String]| {
            let (ids, of) = self.running_ids();
            let origins = select::Origins {
                members: " in the scenario",
                processes: " in the scenario",
            };
            select::named_members(members, processes, &ids, &of, origins).map_err(SimError)
        };
        Ok(match action {
            Action::RemoveMembers { members, processes } => Action::RemoveMembers {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::Crash { members, processes } => Action::Crash {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::Restart { members, processes } => Action::Restart {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::AddInstances { count, threads } => Action::AddInstances {
                count: *count,
                threads: Some(threads.unwrap_or(self.cfg.threads_per_process).max(1)),
            },
            other => other.clone(),
        })
    }

    /// Run one step: wait for its time if it has one, plan it, apply its units (each waiting
    /// for the group to settle, as a rolling restart does), and report it. Also says whether
    /// the group settled; a member dying ends the step.
    fn run_step(
        &mut self,
        step: &Step,
        progress: &mut dyn FnMut(i64, i64),
    ) -> Result<(StepReport, bool), SimError> {
        let limit = self.cfg.run.max_time_ms;
        if let Some(at) = step.at_ms {
            self.run_until(at.min(limit), progress, |e| e.now >= at);
        }
        let step = self.plan(step)?;
        let started = self.now;
        let epoch_before = self.group_epoch();
        let before = self.current_assignments();
        if self.before_first_step.is_none() {
            self.before_first_step = Some(before.clone());
        }
        self.step_statuses.clear();
        let mut settled = true;
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        for unit in &step.units {
            settled = self.run_unit(unit, &mut renames, progress)?;
            if !settled || self.died_in_unit {
                break;
            }
        }
        let after = self.current_assignments();
        let d = crate::model::movement::diff_owners(&before, &after);
        let report = StepReport {
            step: step.label,
            short_label: step.short_label,
            started_at_ms: started,
            stable_at_ms: settled.then_some(self.now),
            time_to_stable_ms: settled.then_some(self.now - started),
            group_epoch_before: epoch_before,
            group_epoch_after: self.group_epoch(),
            moved_active: d.moved_active,
            moved_standby: d.moved_standby,
            statuses_seen: report::by_name(self.step_statuses.iter().copied()),
            moves: d.moves,
            diff: d.owners,
        };
        Ok((report, settled))
    }

    /// Apply one unit of work and wait for the group to settle; whether it did.
    fn run_unit(
        &mut self,
        unit: &Work,
        renames: &mut BTreeMap<String, String>,
        progress: &mut dyn FnMut(i64, i64),
    ) -> Result<bool, SimError> {
        let limit = self.cfg.run.max_time_ms;
        self.died_in_unit = false;
        // A restarted member may have been renamed by an earlier unit of this step.
        let unit = match unit {
            Work::RestartOne { member, topology } => Work::RestartOne {
                member: renames
                    .get(member)
                    .cloned()
                    .unwrap_or_else(|| member.clone()),
                topology: topology.clone(),
            },
            u => u.clone(),
        };
        let count_before = self.clients.len();
        self.apply(&unit)?;
        if let (Work::RestartOne { member, .. }, true) = (&unit, self.clients.len() > count_before)
        {
            let renamed = self.clients[self.clients.len() - 1].label.clone();
            renames.insert(member.clone(), renamed);
        }
        if let Work::Action(Action::Wait { ms }) = unit {
            let until = self.now + ms;
            self.run_until(until.min(limit), progress, |e| e.now >= until);
        }
        let failures = self.failures.len();
        let settled = self.run_until(limit, progress, |e| {
            e.settled() || e.failures.len() > failures
        });
        if self.failures.len() > failures {
            // A member died: an operator stops the rollout here, and so does the run.
            self.died_in_unit = true;
            return Ok(self.run_until(limit, progress, |e| e.settled()));
        }
        Ok(settled)
    }

    fn group_epoch(&self) -> i32 {
        self.coordinator
            .group(&self.cfg.group_id)
            .map_or(0, |g| g.group_epoch())
    }
}

impl Engine<'_> {
    /// The run as samples compare it: by label.
    fn outcome(&self, report: &SimulationReport) -> samples::Outcome {
        let after = self
            .coordinator
            .group(&self.cfg.group_id)
            .map(|g| {
                g.members()
                    .iter()
                    .map(|(id, m)| {
                        let process = self
                            .by_id
                            .get(id)
                            .map_or(&m.process_id, |&i| &self.clients[i].process_label);
                        let label = self.label_of(id).to_string();
                        (label, (process.clone(), m.assigned.clone()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        samples::Outcome {
            joiners: self.joiners,
            before: self.before_first_step.clone(),
            after,
            moved_active: report.steps.iter().map(|s| s.moved_active).sum(),
            moved_standby: report.steps.iter().map(|s| s.moved_standby).sum(),
            time_to_stable_ms: report.virtual_time_to_stable_ms,
            heartbeats: self.heartbeats,
            invariant_violations: self.invariants.violations.len(),
        }
    }
}

/// Members grouped by process, as the table's first column reads, each in natural order.
fn sort_by_process(members: &mut [MemberReport]) {
    members.sort_by(|a, b| {
        natural::cmp(&a.process_id, &b.process_id)
            .then_with(|| natural::cmp(&a.member_id, &b.member_id))
    });
}

fn build_report(
    e: &Engine<'_>,
    scenario: &Scenario,
    tts: Option<i64>,
    steps: Vec<StepReport>,
) -> SimulationReport {
    debug_assert_eq!(
        e.running,
        e.clients
            .iter()
            .filter(|c| c.liveness == Liveness::Running)
            .count(),
        "the running count follows every change of liveness"
    );
    let cfg = e.cfg;
    let group = e.coordinator.group(&cfg.group_id);
    let members: Vec<MemberReport> = group
        .map(|g| {
            g.members()
                .values()
                .map(|m| MemberReport {
                    member_id: m.member_id.clone(),
                    process_id: m.process_id.clone(),
                    member_epoch: m.member_epoch,
                    topology_epoch: m.topology_epoch,
                    assignment: m.assigned.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut members = members;
    sort_by_process(&mut members);
    let total_tasks = group
        .and_then(|g| g.configuration())
        .filter(|c| c.is_ready())
        .map_or(0, |c| {
            c.subtopologies
                .iter()
                .map(|s| s.num_tasks.max(0) as u64)
                .sum()
        });
    SimulationReport {
        kafka_version: cfg.kafka_version.release().to_string(),
        assignor: e.coordinator.assignor_name().to_string(),
        scenario: if scenario.name.is_empty() {
            "custom".into()
        } else {
            scenario.name.clone()
        },
        seed: cfg.run.seed,
        samples: samples::Samples::default(),
        stop_reason: StopReason::Completed,
        max_time_ms: cfg.run.max_time_ms,
        final_state: e.group_state().map_or(GroupStateName::Dead, state_name),
        group_epoch: group.map_or(0, |g| g.group_epoch()),
        target_assignment_epoch: group.map_or(0, |g| g.target_assignment_epoch()),
        topology_epoch: group.and_then(|g| g.topology()).map_or(-1, |t| t.epoch),
        virtual_time_to_stable_ms: tts,
        stable_from_first_step: false,
        virtual_time_end_ms: e.now,
        heartbeats: e.heartbeats,
        rebalances: e.rebalances,
        tasks_moved: steps.iter().map(|s| s.moved_active + s.moved_standby).sum(),
        total_tasks,
        balance: balance(&members),
        statuses_seen: report::by_name(e.statuses_seen.iter().copied()),
        errors_seen: e.errors_seen.clone(),
        invariant_violations: e.invariants.violations.clone(),
        failed_members: e.failures.clone(),
        assignor_warnings: e.assignor_warnings.clone(),
        advice: advice(cfg, scenario, &e.failures),
        steps,
        members,
        partitions_by_user_endpoint: group
            .map_or_else(Vec::new, |g| g.current_endpoint_map(&e.metadata)),
        trace: e.trace.clone(),
    }
}

/// The fewest and most tasks per member (all, and active) and per process.
fn balance(members: &[MemberReport]) -> Balance {
    let tasks = |m: &MemberReport| m.assignment.active.len() + m.assignment.standby.len();
    let mut per_process: BTreeMap<&str, usize> = BTreeMap::new();
    for m in members {
        *per_process.entry(&m.process_id).or_default() += tasks(m);
    }
    let min_max = |v: &mut dyn Iterator<Item = usize>| -> (usize, usize) {
        v.fold(None, |acc: Option<(usize, usize)>, x| match acc {
            None => Some((x, x)),
            Some((a, b)) => Some((a.min(x), b.max(x))),
        })
        .unwrap_or((0, 0))
    };
    let (min_m, max_m) = min_max(&mut members.iter().map(tasks));
    let (min_a, max_a) = min_max(&mut members.iter().map(|m| m.assignment.active.len()));
    let (min_p, max_p) = min_max(&mut per_process.values().copied());
    Balance {
        min_tasks_per_member: min_m,
        max_tasks_per_member: max_m,
        min_active_per_member: min_a,
        max_active_per_member: max_a,
        min_tasks_per_process: min_p,
        max_tasks_per_process: max_p,
    }
}

/// The coordinator's state as reports name it.
fn state_name(s: GroupState) -> GroupStateName {
    match s {
        GroupState::Empty => GroupStateName::Empty,
        GroupState::NotReady => GroupStateName::NotReady,
        GroupState::Assigning => GroupStateName::Assigning,
        GroupState::Reconciling => GroupStateName::Reconciling,
        GroupState::Stable => GroupStateName::Stable,
    }
}

/// How to get where the run could not: a topology change on a release that refuses them.
fn advice(cfg: &SimConfig, scenario: &Scenario, failures: &[MemberFailure]) -> Option<String> {
    let deploys = scenario
        .steps
        .iter()
        .any(|s| matches!(s.action, Action::Deploy { .. }));
    let refused = failures
        .iter()
        .any(|f| f.error == ErrorCode::InvalidRequest);
    (deploys && refused && cfg.kafka_version.is_release()).then(|| {
        format!(
            "Kafka {} brokers refuse topology changes (\"Topology updates are not supported yet.\"): \
             deploy the new topology under a new application.id, or stop every instance, delete the \
             group (kafka-streams-groups.sh --bootstrap-server <broker> --delete --group {}) and start \
             the new version; --kafka-version kip shows the KIP-1071 epoch-bump upgrade",
            cfg.kafka_version, cfg.group_id
        )
    })
}
