//! `simulate`: run simulated Streams clients against the local coordinator.

use std::io::IsTerminal;
use std::path::PathBuf;

use streams_group::model::KafkaVersion;
use streams_group::render::{out, simulate as view};
use streams_group::usecase::profile;
use streams_group::usecase::simulation::{
    self, GroupSettings, Members, Plan, RunSettings, Start, TopicCounts,
};
use streams_group::usecase::source::{load_group, GroupSource, SourcedGroup};

use super::Outcome;
use crate::cli::GlobalArgs;
use crate::command_error::CommandError;
use crate::exit::Code;

const EXAMPLES: &str = "\
Examples:
  streams-group simulate --members 6
  streams-group simulate --members 6 --threads-per-process 2 --standby-replicas 1
  streams-group simulate --members 4 --scenario scale-out --count 2
  streams-group simulate --members 4 --scenario deploy --trace
  streams-group simulate --topology topology.txt --application-id my-app --partitions 12 \\
      --scenario my-scenario.json --output json
  streams-group simulate --from-snapshot group.json --scenario scale-out --count 2
  streams-group simulate --from-group my-app --bootstrap-server localhost:9092 --scenario scale-out

Built-in scenarios: start (default), scale-out, scale-in, crash, rolling-bounce, deploy,
create-topics. A scenario file is JSON: {\"steps\": [{\"action\": \"add_members\", \"count\": 2}]}
(see the README for every action).

Exit status: 0 when the group ends Stable with no member dead, 1 when it does not, 2 on bad
input.";

#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Number of simulated members (stream threads)
    #[arg(long, short = 'n', default_value_t = 4, value_name = "N")]
    pub members: u32,

    /// Stream threads per process (members of one process share a process id)
    #[arg(long, value_name = "T", conflicts_with = "processes")]
    pub threads_per_process: Option<u32>,

    /// Number of processes; members are spread over them
    #[arg(long, value_name = "P")]
    pub processes: Option<u32>,

    /// Topology file: JSON or Kafka Streams `Topology#describe()` text (default: built-in example)
    #[arg(long, value_name = "FILE")]
    pub topology: Option<PathBuf>,

    /// Application id, to name the internal topics of a `Topology#describe()` text
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// Partitions of every source topic
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub partitions: i32,

    /// Partitions of one topic, overriding --partitions (repeatable)
    #[arg(long = "topic-partitions", value_name = "TOPIC=N")]
    pub topic_partitions: Vec<String>,

    /// Scenario: a built-in name or a JSON scenario file
    #[arg(long, default_value = "start", value_name = "NAME|FILE")]
    pub scenario: String,

    /// Members added, removed or crashed by the scale-out, scale-in and crash scenarios
    #[arg(long, default_value_t = 2, value_name = "K")]
    pub count: u32,

    /// streams.num.standby.replicas
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub standby_replicas: u32,

    /// streams.session.timeout.ms
    #[arg(long, default_value_t = 45_000, value_name = "MS")]
    pub session_timeout: i64,

    /// streams.heartbeat.interval.ms
    #[arg(long, default_value_t = 5_000, value_name = "MS")]
    pub heartbeat_interval: i64,

    /// streams.initial.rebalance.delay.ms
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    pub initial_rebalance_delay: i64,

    /// How long a client takes to release a revoked task
    #[arg(long, default_value_t = 200, value_name = "MS")]
    pub release_delay: i64,

    /// How long a restarting member stays away
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    pub restart_delay: i64,

    /// Spread processes over R racks: rack ids and a `rack` client tag, with rack-aware standby
    /// placement (`rack.aware.assignment.tags=rack`)
    #[arg(long, default_value_t = 0, value_name = "R")]
    pub racks: u32,

    /// Give members instance ids (static membership)
    #[arg(long = "static")]
    pub static_members: bool,

    /// Seed for start-up jitter; the same seed gives the same run
    #[arg(long, default_value_t = 42)]
    pub seed: u64,

    /// Stop at this virtual time even if the group never settles
    #[arg(long, default_value_t = 600_000, value_name = "MS")]
    pub max_time: i64,

    /// Print the heartbeat-by-heartbeat transcript
    #[arg(long)]
    pub trace: bool,

    /// Kafka release whose group coordinator runs: 4.2, 4.3, 4.4 or kip (the KIP-1071 text, with
    /// topology epoch updates). Default: the snapshot's or live broker's version, else 4.4
    #[arg(long, value_name = "VERSION", value_parser = super::args::kafka_version)]
    pub kafka_version: Option<KafkaVersion>,

    /// Task assignor: `sticky` (the release's own StickyTaskAssignor, exactly) or
    /// `balanced-sticky` (this tool's: stateful and stateless balanced apart, rack-aware
    /// standbys). Default: the group's (describe v1 reports it), else sticky
    #[arg(long, value_name = "NAME")]
    pub assignor: Option<String>,

    /// Start from a group in a `describe --output json` snapshot (its members, epochs, tasks)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["topology", "from_group"])]
    pub from_snapshot: Option<PathBuf>,

    /// Start from a live group (needs --bootstrap-server)
    #[arg(long, value_name = "GROUP", conflicts_with = "topology")]
    pub from_group: Option<String>,

    /// The group to start from when the snapshot has several
    #[arg(long, value_name = "GROUP", requires = "from_snapshot")]
    pub group: Option<String>,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let start = starting_group(global, args)?;
    let choice = profile::choose(args.kafka_version, start.as_ref().map(|g| &g.origin));
    if let Some(n) = &choice.note {
        out::note(n);
    }
    let custom_topology = args.topology.is_some() || start.is_some();
    let start = match start {
        Some(g) => Start::Restore(g.group),
        None => Start::New {
            topology: match &args.topology {
                Some(path) => Some(
                    streams_group::topology::load_topology_file(
                        path,
                        args.application_id.as_deref(),
                    )
                    .map_err(|e| CommandError::usage(e.to_string()))?,
                ),
                None => None,
            },
            application_id: args.application_id.clone(),
        },
    };
    let mut cfg = simulation::config(&plan(args, choice.version)?, start)?;
    let scenario = simulation::scenario(&args.scenario, args.count, custom_topology, &mut cfg)?;
    let bar = progress_bar(args, cfg.max_time_ms);
    let mut last = 0;
    let mut progress = |now: i64, _limit: i64| {
        if let Some(b) = &bar {
            if now - last >= 1000 {
                last = now;
                b.set_message(format!("{:.0} s", now as f64 / 1000.0));
                b.tick();
            }
        }
    };
    let report = simulation::run(&cfg, &scenario, &mut progress)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // As the broker logs them: on stderr, so that stdout stays the report (JSON has them too).
    for w in &report.assignor_warnings {
        out::note(&format!("warning: assignor: {w}"));
    }
    out::report(global.format(), &report, |r| {
        view::table(r, args.trace, global.verbose)
    })?;
    Ok(Code::answer(
        report.final_state == "Stable" && report.failed_members.is_empty(),
    ))
}

/// The group the run starts from, if it starts from a snapshot or a live group.
fn starting_group(global: &GlobalArgs, args: &Args) -> Result<Option<SourcedGroup>, CommandError> {
    let source = match (&args.from_snapshot, &args.from_group) {
        (Some(path), _) => GroupSource::Snapshot {
            path: path.clone(),
            group: args.group.clone(),
        },
        (None, Some(id)) => super::live::live_group(global, id)?,
        (None, None) => return Ok(None),
    };
    Ok(Some(load_group(&source)?))
}

/// The plan from the arguments.
fn plan(args: &Args, kafka_version: KafkaVersion) -> Result<Plan, CommandError> {
    let mut overrides = Vec::new();
    for spec in &args.topic_partitions {
        let (topic, n) = spec.split_once('=').ok_or_else(|| {
            CommandError::usage(format!("--topic-partitions takes TOPIC=N, got `{spec}`"))
        })?;
        let n: i32 = n.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
            CommandError::usage(format!(
                "--topic-partitions {topic}: `{n}` is not a positive number"
            ))
        })?;
        overrides.push((topic.trim().to_string(), n));
    }
    Ok(Plan {
        kafka_version,
        assignor: args.assignor.clone(),
        members: Members {
            members: Some(args.members),
            threads_per_process: args.threads_per_process,
            processes: args.processes,
        },
        topics: TopicCounts {
            partitions: args.partitions,
            overrides,
        },
        group: GroupSettings {
            session_timeout_ms: args.session_timeout,
            heartbeat_interval_ms: args.heartbeat_interval,
            initial_rebalance_delay_ms: args.initial_rebalance_delay,
            num_standby_replicas: (args.standby_replicas > 0).then_some(args.standby_replicas),
        },
        run: RunSettings {
            seed: args.seed,
            release_delay_ms: args.release_delay,
            restart_delay_ms: args.restart_delay,
            static_members: args.static_members,
            max_time_ms: args.max_time,
            trace: args.trace,
            racks: args.racks,
        },
    })
}

/// A spinner on a terminal for big runs.
fn progress_bar(args: &Args, max_time_ms: i64) -> Option<indicatif::ProgressBar> {
    let show = std::io::stderr().is_terminal() && args.members >= 500;
    show.then(|| {
        let b = indicatif::ProgressBar::new(max_time_ms.max(1) as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} simulating: virtual {msg} [{elapsed}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        b
    })
}
