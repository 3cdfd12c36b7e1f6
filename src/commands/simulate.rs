//! `simulate`: run simulated Streams clients against the local coordinator.

use std::io::IsTerminal;
use std::path::PathBuf;

use model::{GroupStateName, KafkaVersion};
use streams_group::render::{out, simulate as view};
use streams_group::simulate::samples::{self, Progress};
use streams_group::simulate::setup::{
    self, GroupSettings, Members, Names, Plan, Start, StepSize, MAX_MEMBERS,
};
use streams_group::simulate::RunSettings;
use streams_group::source::choice;
use streams_group::source::{load_group, resolve_topology, GroupSource, SourcedGroup};

use super::args::{
    members, source_arg, GroupConfigArgs, KafkaVersionArg, SourceArg, TopicCountArgs,
};
use super::GlobalArgs;
use super::Outcome;
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
  streams-group simulate --from-snapshot group.json --scenario scale-out --instances 2
  streams-group simulate --from-snapshot group.json --scenario crash --process 3f2a
  streams-group simulate --from-snapshot group.json --scenario rolling-bounce --member Xq3v
  streams-group simulate --from-group my-app --bootstrap-server localhost:9092 \\
      --scenario scale-out

Built-in scenarios: start (default), scale-out, scale-in, crash, rolling-bounce, deploy,
create-topics. --process and --member take a process or member id, or a unique prefix of one.
A scenario file is JSON: {\"steps\": [{\"action\": \"add_members\", \"count\": 2},
{\"action\": \"crash\", \"processes\": [\"3f2a\"]}]} (see docs/simulate.md for every action).

Exit status: 0 when the group ends Stable with no member dead, 1 when it does not, 2 on bad
input.";

#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct Args {
    /// Number of simulated members (stream threads) of a new group [default: 4]
    #[arg(allow_negative_numbers = true, long, short = 'n', value_name = "N", value_parser = members,
          conflicts_with_all = ["from_snapshot", "from_group"])]
    pub members: Option<u32>,

    /// Stream threads per process (members of one process share a process id)
    #[arg(allow_negative_numbers = true, long, value_name = "T", conflicts_with = "processes",
          value_parser = clap::value_parser!(u32).range(1..=MAX_MEMBERS as i64))]
    pub threads_per_process: Option<u32>,

    /// Number of processes of a new group; members are spread over them
    #[arg(allow_negative_numbers = true, long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=MAX_MEMBERS as i64),
          conflicts_with_all = ["from_snapshot", "from_group"])]
    pub processes: Option<u32>,

    /// Topology: a JSON or Kafka Streams `Topology#describe()` text file, a snapshot, or
    /// group:ID (default: the built-in example)
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath,
          value_parser = source_arg)]
    pub topology: Option<SourceArg>,

    /// Application id, to name the internal topics of a `Topology#describe()` text
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    #[command(flatten)]
    pub topics: TopicCountArgs,

    /// Scenario: a built-in name or a JSON scenario file
    #[arg(long, default_value = "start", value_name = "NAME|FILE")]
    pub scenario: String,

    /// Members (stream threads) added, removed or crashed by the scale-out, scale-in and crash
    /// scenarios; scale-in and crash take the last ones and leave at least one [default: 2]
    #[arg(allow_negative_numbers = true, long, value_name = "K", value_parser = members)]
    pub count: Option<u32>,

    /// Instead of --count: instances (processes) the scale-out, scale-in and crash scenarios
    /// add, remove or crash; a new instance runs the group's threads per process
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = members, conflicts_with = "count")]
    pub instances: Option<u32>,

    /// The process whose members scale-in removes, crash crashes or rolling-bounce restarts:
    /// its id or a unique prefix of it (repeatable; instead of --count and --instances)
    #[arg(long = "process", value_name = "ID", value_parser = name_arg,
          conflicts_with_all = ["count", "instances"])]
    pub process: Vec<String>,

    /// A member scale-in removes, crash crashes or rolling-bounce restarts: its id or a unique
    /// prefix of it (repeatable; with --process too)
    #[arg(long = "member", value_name = "ID", value_parser = name_arg,
          conflicts_with_all = ["count", "instances"])]
    pub member: Vec<String>,

    #[command(flatten)]
    pub group_config: GroupConfigArgs,

    /// How long a client takes to release a revoked task
    #[arg(long, default_value_t = 200, value_name = "MS",
          allow_negative_numbers = true, value_parser = super::args::non_negative)]
    pub release_delay: i64,

    /// How long a restarting member stays away
    #[arg(long, default_value_t = 3_000, value_name = "MS",
          allow_negative_numbers = true, value_parser = super::args::non_negative)]
    pub restart_delay: i64,

    /// Spread processes over R racks: rack ids and a `rack` client tag, with rack-aware standby
    /// placement (`rack.aware.assignment.tags=rack`)
    #[arg(
        allow_negative_numbers = true,
        long,
        default_value_t = 0,
        value_name = "R"
    )]
    pub racks: u32,

    /// Give every simulated process an interactive-query endpoint (`application.server`
    /// PROCESS:8080): the report shows which partitions each endpoint serves
    #[arg(long)]
    pub endpoints: bool,

    /// Give members instance ids (static membership)
    #[arg(long = "static")]
    pub static_members: bool,

    /// Seed for start-up jitter and for the ids samples draw; the same seed gives the same
    /// report
    #[arg(allow_negative_numbers = true, long, default_value_t = 42, value_parser = super::args::seed)]
    pub seed: u64,

    /// Run the scenario N times, drawing what no tool can know: the ids Kafka gives joiners
    /// (the assignor breaks ties by id), each instance's heartbeat phase, when a stopping
    /// instance's threads leave; report what is certain, what varies and every distinct
    /// outcome. 1 runs it once [default: 20 when they are cheap, else as many as keep the run
    /// within 3 times one run: 1 + 1 per core]
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = samples_arg)]
    pub samples: Option<u32>,

    /// Stop at this virtual time even if the group never settles
    #[arg(allow_negative_numbers = true, long, default_value_t = 600_000, value_name = "MS",
          value_parser = clap::value_parser!(i64).range(1..))]
    pub max_time: i64,

    /// Print the heartbeat-by-heartbeat transcript
    #[arg(long)]
    pub trace: bool,

    #[command(flatten)]
    pub version: KafkaVersionArg,

    /// Task assignor: `sticky` (the release's own StickyTaskAssignor, exactly) or
    /// `balanced-sticky` (this tool's: stateful and stateless balanced apart, rack-aware
    /// standbys). Default: the group's (describe v1 reports it), else sticky
    #[arg(long, value_name = "NAME")]
    pub assignor: Option<String>,

    /// Start from a group in a `describe --output json` snapshot (its members, epochs, tasks)
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath,
          conflicts_with_all = ["topology", "from_group"])]
    pub from_snapshot: Option<PathBuf>,

    /// Start from a live group (needs --bootstrap-server)
    #[arg(long, value_name = "GROUP", conflicts_with = "topology")]
    pub from_group: Option<String>,

    /// The group to start from when the snapshot has several
    #[arg(long, value_name = "GROUP", requires = "from_snapshot")]
    pub group: Option<String>,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let start = starting_group(global, args)?;
    let choice = choice::choose(
        args.version.kafka_version,
        start.as_ref().map(|g| &g.origin),
    );
    if let Some(n) = &choice.note {
        out::note(n);
    }
    if choice.version == KafkaVersion::V4_1
        && args.assignor.as_deref().unwrap_or("sticky") == "sticky"
    {
        out::note(
            "note: Kafka 4.1's assignor breaks ties between equally loaded processes by JVM \
             identity hash codes, which depend on the broker's history: the assignment shown is \
             one a 4.1 broker may compute; epochs, states and timings are exact",
        );
    }
    // Said once the run is known to go ahead: a usage error stays one line.
    let assumed = start
        .as_ref()
        .and_then(|g| setup::assumed_settings_note(&g.group, &plan(args, choice.version)));
    let custom_topology = args.topology.is_some() || start.is_some();
    let start = match start {
        Some(g) => Start::Restore(g.group),
        None => Start::New {
            topology: match &args.topology {
                Some(t) => Some(resolve_topology(
                    &t.source(global)?,
                    args.application_id.as_deref(),
                    None,
                )?),
                None => None,
            },
            application_id: args.application_id.clone(),
        },
    };
    let mut cfg = setup::config(&plan(args, choice.version), start)?;
    let scenario = setup::scenario(&args.scenario, &step_size(args), custom_topology, &mut cfg)?;
    if let Some(n) = &assumed {
        out::note(n);
    }
    if let (Some(n), Some(available)) = (args.samples, available_memory()) {
        let start = cfg
            .initial
            .as_ref()
            .map_or(u64::from(cfg.members), |g| g.members.len() as u64);
        let peak = scenario.peak_members(start, cfg.threads_per_process);
        samples::check_memory(n, peak, available).map_err(CommandError::usage)?;
    }
    let mut alive = Liveness::new(cfg.members, cfg.run.max_time_ms);
    let report = setup::run(&cfg, &scenario, args.samples, &mut |p| alive.progress(p))?;
    alive.finish();
    // As the broker logs them: on stderr, so that stdout stays the report (JSON has them too).
    for w in &report.assignor_warnings {
        out::note(&format!("warning: assignor: {w}"));
    }
    out::report(global.format(), &report, |r| {
        view::table(r, args.trace, global.verbose)
    })?;
    Ok(Code::answer(
        report.final_state == GroupStateName::Stable && report.failed_members.is_empty(),
    ))
}

/// Memory the system can give without swapping (`MemAvailable`), where Linux says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// What the scale-out, scale-in, crash and rolling-bounce scenarios add or take.
fn step_size(args: &Args) -> StepSize {
    if !args.process.is_empty() || !args.member.is_empty() {
        return StepSize::Named(Names {
            processes: args.process.clone(),
            members: args.member.clone(),
        });
    }
    match (args.instances, args.count) {
        (Some(n), _) => StepSize::Instances(n),
        (None, Some(n)) => StepSize::Members(n),
        (None, None) => StepSize::Default,
    }
}

/// clap value parser for `--samples`: 1 to the library's bound.
fn samples_arg(s: &str) -> Result<u32, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number of runs, found {s:?}"))?;
    let n = u32::try_from(n).unwrap_or(0);
    samples::check_count(n).map_err(|e| e.replace("--samples must be", "must be"))?;
    Ok(n)
}

/// clap value parser for a process or member id (or a prefix of one): not empty.
fn name_arg(s: &str) -> Result<String, String> {
    if s.is_empty() {
        return Err("expected an id or the start of one, found nothing".into());
    }
    Ok(s.to_string())
}

/// The group the run starts from, if it starts from a snapshot or a live group.
fn starting_group(global: &GlobalArgs, args: &Args) -> Result<Option<SourcedGroup>, CommandError> {
    let source = match (&args.from_snapshot, &args.from_group) {
        (Some(path), _) => GroupSource::Snapshot {
            path: path.clone(),
            group: args.group.clone(),
        },
        (None, Some(id)) => super::connect::live_group(global, id)?,
        (None, None) => return Ok(None),
    };
    Ok(Some(load_group(&source)?))
}

/// The plan from the arguments.
fn plan(args: &Args, kafka_version: KafkaVersion) -> Plan {
    let g = &args.group_config;
    Plan {
        kafka_version,
        assignor: args.assignor.clone(),
        members: Members {
            members: args.members,
            threads_per_process: args.threads_per_process,
            processes: args.processes,
        },
        topics: args.topics.counts(),
        group: GroupSettings {
            session_timeout_ms: g.session_timeout,
            heartbeat_interval_ms: g.heartbeat_interval,
            initial_rebalance_delay_ms: g.initial_rebalance_delay,
            num_standby_replicas: g.standby_replicas,
            broker: g.broker_config.clone(),
        },
        run: RunSettings {
            seed: args.seed,
            release_delay_ms: args.release_delay,
            restart_delay_ms: args.restart_delay,
            static_members: args.static_members,
            max_time_ms: args.max_time,
            trace: args.trace,
            racks: args.racks,
            endpoints: args.endpoints,
        },
    }
}

/// Runs of at least this many members are expected to be long: they show progress on stderr.
const LONG_RUN_MEMBERS: u32 = 500;

/// How a long run shows it is alive, on stderr (stdout is the report): a spinner on a terminal,
/// otherwise a plain line per 10 % of the way, first of the first run's virtual time against
/// --max-time, then of the samples. Small runs say nothing.
enum Liveness {
    Silent,
    Bar {
        bar: indicatif::ProgressBar,
        last_ms: i64,
    },
    Lines {
        time_tenths: i64,
        sample_tenths: u32,
    },
}

impl Liveness {
    fn new(members: u32, max_time_ms: i64) -> Self {
        if members < LONG_RUN_MEMBERS {
            return Liveness::Silent;
        }
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(max_time_ms.max(1) as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} simulating: {msg} [{elapsed}]")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            return Liveness::Bar { bar, last_ms: 0 };
        }
        out::note(&format!(
            "simulating {members} members: a line per 10 % of --max-time ({} s of virtual \
             time), then per 10 % of the samples",
            max_time_ms / 1000
        ));
        Liveness::Lines {
            time_tenths: 0,
            sample_tenths: 0,
        }
    }

    fn progress(&mut self, p: Progress) {
        match (self, p) {
            (Liveness::Silent, _) => {}
            (Liveness::Bar { bar, last_ms }, Progress::Time { now_ms, .. }) => {
                if now_ms - *last_ms >= 1000 {
                    *last_ms = now_ms;
                    bar.set_message(format!("virtual {:.0} s", now_ms as f64 / 1000.0));
                    bar.tick();
                }
            }
            (Liveness::Bar { bar, .. }, Progress::Samples { done, count }) => {
                bar.set_message(format!("sample {done} of {count}"));
                bar.tick();
            }
            (Liveness::Lines { time_tenths, .. }, Progress::Time { now_ms, limit_ms }) => {
                let tenths = (now_ms.saturating_mul(10) / limit_ms.max(1)).min(10);
                if tenths > *time_tenths {
                    *time_tenths = tenths;
                    out::note(&format!(
                        "simulating: first run at virtual {} s of {} s ({} %)",
                        now_ms / 1000,
                        limit_ms / 1000,
                        now_ms.saturating_mul(100) / limit_ms.max(1)
                    ));
                }
            }
            (Liveness::Lines { sample_tenths, .. }, Progress::Samples { done, count }) => {
                let tenths = (done.saturating_mul(10) / count.max(1)).min(10);
                if tenths > *sample_tenths {
                    *sample_tenths = tenths;
                    out::note(&format!(
                        "simulating: {done} of {count} samples done ({} %)",
                        done.saturating_mul(100) / count.max(1)
                    ));
                }
            }
        }
    }

    fn finish(self) {
        if let Liveness::Bar { bar, .. } = self {
            bar.finish_and_clear();
        }
    }
}
