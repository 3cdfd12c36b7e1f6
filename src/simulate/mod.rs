//! The simulator: Kafka Streams clients on a virtual clock, driving the local coordinator
//! through a scenario, and a report of what happened.
//!
//! Everything is deterministic for a given configuration and seed: events are ordered by
//! (time, sequence number) and the only randomness (start-up jitter) comes from a seeded RNG.

pub mod client;
mod engine;
pub mod example;
pub mod ids;
pub mod invariants;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod select;
pub mod setup;

use coordinator::config::BrokerBounds;
use coordinator::topics::TopicMetadata;
use coordinator::GroupConfig;
use model::group::GroupDescription;
use model::{KafkaVersion, Topology};

use engine::run_with;
use ids::Ids;
use report::SimulationReport;
use scenario::Scenario;

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

/// Run a scenario once, joiners named by placeholders. `progress` is called with (virtual
/// now, time limit) as time advances. [`samples::run`] runs it again with the ids Kafka
/// would draw.
pub fn run(
    cfg: &SimConfig,
    scenario: &Scenario,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<SimulationReport, SimError> {
    let (mut report, outcome) = run_with(cfg, scenario, Ids::Placeholders, progress)?;
    report.samples = samples::single(&outcome);
    Ok(report)
}
