//! `simulate`: run simulated Streams clients against the local coordinator.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use colored::Colorize;

use super::profile::{self, GroupOrigin};
use crate::cli::{GlobalArgs, OutputFormat};
use crate::coordinator::config::BrokerBounds;
use crate::coordinator::{GroupConfig, KafkaVersion};
use crate::error::Failure;
use crate::model::group::GroupDescription;
use crate::model::Topology;
use crate::render;
use crate::sim::report::Report;
use crate::sim::scenario::{self, BuiltInContext, Scenario};
use crate::sim::{self, example, SimConfig};
use crate::snapshot;

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
    #[arg(long, value_name = "VERSION", value_parser = super::profile::parse)]
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

/// Largest run accepted; beyond it a typo is more likely than intent.
const MAX_MEMBERS: u32 = 100_000;

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    let (initial, version) = initial_group(global, args)?;
    let mut cfg = sim_config(args, initial, version)?;
    let scenario = load_scenario(args, &mut cfg)?;
    let show_progress = std::io::stderr().is_terminal() && args.members >= 500;
    let bar = show_progress.then(|| {
        let b = indicatif::ProgressBar::new(cfg.max_time_ms.max(1) as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} simulating: virtual {msg} [{elapsed}]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        b
    });
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
    let report = sim::run(&cfg, &scenario, &mut progress).map_err(|e| Failure::usage(e.0))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // As the broker logs them: on stderr, so that stdout stays the report (JSON has them too).
    for w in &report.assignor_warnings {
        eprintln!("warning: assignor: {w}");
    }
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => {
            crate::emit!("{}", render_table(&report, args.trace, global.verbose))
        }
    }
    Ok(
        if report.final_state == "Stable" && report.failed_members.is_empty() {
            crate::exit::SUCCESS
        } else {
            crate::exit::NEGATIVE
        },
    )
}

/// The group to start from, if the run starts from a snapshot or a live group, and the
/// coordinator profile to run.
fn initial_group(
    global: &GlobalArgs,
    args: &Args,
) -> anyhow::Result<(Option<GroupDescription>, KafkaVersion)> {
    let g = if let Some(path) = &args.from_snapshot {
        let snap = snapshot::load_snapshot(path).map_err(|e| Failure::usage(e.to_string()))?;
        let g = snapshot::find_group(&snap, args.group.as_deref())
            .map_err(|e| Failure::usage(e.to_string()))?
            .clone();
        let file = path.display().to_string();
        let origin = GroupOrigin::Snapshot {
            file: &file,
            recorded: snap.kafka_version,
        };
        (g, profile::choose(args.kafka_version, &origin))
    } else if let Some(group) = &args.from_group {
        let (g, detected) = crate::commands::live::describe_group_versioned(global, group)?;
        (
            g,
            profile::choose(args.kafka_version, &GroupOrigin::Live { detected }),
        )
    } else {
        return Ok((
            None,
            profile::choose(args.kafka_version, &GroupOrigin::None),
        ));
    };
    let (g, version) = g;
    if g.members.is_empty() {
        return Err(Failure::usage(format!(
            "group {} has no members to start from (it is {}); use --topology with --members instead",
            g.group_id, g.state
        ))
        .into());
    }
    if snapshot::topology_of(&g).is_none() {
        return Err(Failure::usage(format!(
            "group {} has no initialised topology to start from",
            g.group_id
        ))
        .into());
    }
    Ok((Some(g), version))
}

fn sim_config(
    args: &Args,
    initial: Option<GroupDescription>,
    version: KafkaVersion,
) -> anyhow::Result<SimConfig> {
    if let Some(g) = initial {
        return snapshot_sim_config(args, g, version);
    }
    if args.members == 0 || args.members > MAX_MEMBERS {
        return Err(Failure::usage(format!(
            "--members must be between 1 and {MAX_MEMBERS}, got {}",
            args.members
        ))
        .into());
    }
    let threads = match (args.threads_per_process, args.processes) {
        (Some(0), _) => {
            return Err(Failure::usage("--threads-per-process must be at least 1").into())
        }
        (_, Some(0)) => return Err(Failure::usage("--processes must be at least 1").into()),
        (_, Some(p)) if p > args.members => {
            return Err(Failure::usage(format!(
                "--processes {p} is more than --members {}: every process runs at least one member",
                args.members
            ))
            .into())
        }
        (Some(t), _) => t,
        (None, Some(p)) => args.members.div_ceil(p),
        (None, None) => 1,
    };
    if args.partitions <= 0 || args.partitions > 100_000 {
        return Err(Failure::usage(format!(
            "--partitions must be between 1 and 100000, got {}",
            args.partitions
        ))
        .into());
    }
    let topology = match &args.topology {
        Some(path) => load_topology(path, args.application_id.as_deref())?,
        None => example::topology(),
    };
    let mut metadata = example::source_topic_metadata(&topology, args.partitions);
    for spec in &args.topic_partitions {
        let (topic, n) = spec.split_once('=').ok_or_else(|| {
            Failure::usage(format!("--topic-partitions takes TOPIC=N, got `{spec}`"))
        })?;
        let n: i32 = n.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
            Failure::usage(format!(
                "--topic-partitions {topic}: `{n}` is not a positive number"
            ))
        })?;
        metadata.insert(topic.trim().to_string(), n);
    }
    let group_id = args
        .application_id
        .clone()
        .unwrap_or_else(|| example::APPLICATION_ID.to_string());
    finish(
        args,
        version,
        group_id,
        args.members,
        threads,
        topology,
        metadata,
        args.standby_replicas,
        None,
    )
}

/// A run that starts from a described group: its topology, topics, members and assignments.
fn snapshot_sim_config(
    args: &Args,
    g: GroupDescription,
    version: KafkaVersion,
) -> anyhow::Result<SimConfig> {
    let topology = snapshot::topology_of(&g).expect("checked by initial_group");
    let mut metadata = snapshot::topic_metadata(&g, args.partitions);
    for s in &topology.subtopologies {
        for t in s
            .repartition_source_topics
            .iter()
            .chain(&s.state_changelog_topics)
        {
            if let Some(n) = g
                .topology
                .subtopologies
                .iter()
                .flatten()
                .flat_map(|d| {
                    d.repartition_source_topics
                        .iter()
                        .chain(&d.state_changelog_topics)
                })
                .find(|d| d.name == t.name && d.partitions > 0)
                .map(|d| d.partitions)
            {
                metadata.entry(t.name.clone()).or_insert(n);
            }
        }
    }
    let mut per_process: BTreeMap<&str, u32> = BTreeMap::new();
    for m in &g.members {
        *per_process.entry(&m.process_id).or_default() += 1;
    }
    let threads = args
        .threads_per_process
        .unwrap_or_else(|| per_process.values().copied().max().unwrap_or(1));
    // Standby replicas: what the snapshot shows, unless given.
    let standbys = g
        .members
        .iter()
        .flat_map(|m| m.target_assignment.standby.tasks())
        .fold(BTreeMap::<_, u32>::new(), |mut acc, t| {
            *acc.entry(t).or_default() += 1;
            acc
        })
        .into_values()
        .max()
        .unwrap_or(0);
    let standbys = if args.standby_replicas > 0 {
        args.standby_replicas
    } else {
        standbys
    };
    let (id, members) = (g.group_id.clone(), g.members.len() as u32);
    finish(
        args,
        version,
        id,
        members,
        threads.max(1),
        topology,
        metadata,
        standbys,
        Some(g),
    )
}

/// The group configuration and run settings shared by both kinds of start, checked.
#[allow(clippy::too_many_arguments)]
fn finish(
    args: &Args,
    kafka_version: KafkaVersion,
    group_id: String,
    members: u32,
    threads_per_process: u32,
    topology: Topology,
    metadata: crate::topology::configure::TopicMetadata,
    num_standby_replicas: u32,
    initial: Option<GroupDescription>,
) -> anyhow::Result<SimConfig> {
    let group = GroupConfig {
        session_timeout_ms: args.session_timeout,
        heartbeat_interval_ms: args.heartbeat_interval,
        num_standby_replicas,
        initial_rebalance_delay_ms: args.initial_rebalance_delay,
        rack_aware_assignment_tags: if args.racks > 0 {
            vec!["rack".into()]
        } else {
            vec![]
        },
        ..GroupConfig::default()
    };
    group
        .validate_bounds(&BrokerBounds::default())
        .map_err(|e| Failure::usage(format!("invalid group configuration: {e}")))?;
    if args.release_delay < 0 || args.restart_delay < 0 || args.max_time <= 0 {
        return Err(Failure::usage(
            "--release-delay and --restart-delay must not be negative, --max-time must be positive",
        )
        .into());
    }
    let assignor = super::profile::choose_assignor(
        args.assignor.as_deref(),
        initial.as_ref().and_then(|g| g.assignor.as_deref()),
    )?;
    Ok(SimConfig {
        kafka_version,
        assignor,
        group_id,
        members,
        threads_per_process,
        topology,
        metadata,
        group,
        seed: args.seed,
        release_delay_ms: args.release_delay,
        restart_delay_ms: args.restart_delay,
        static_members: args.static_members,
        max_time_ms: args.max_time,
        trace: args.trace,
        racks: args.racks,
        initial,
    })
}

fn load_topology(path: &std::path::Path, application_id: Option<&str>) -> anyhow::Result<Topology> {
    crate::topology::load_topology_file(path, application_id)
        .map_err(|e| Failure::usage(e.to_string()).into())
}

fn load_scenario(args: &Args, cfg: &mut SimConfig) -> anyhow::Result<Scenario> {
    let member_ids = sim::initial_member_ids(cfg);
    if scenario::BUILT_IN.contains(&args.scenario.as_str()) {
        let mut missing = BTreeMap::new();
        if args.scenario == "create-topics" {
            // The source topics do not exist yet: the group waits in NotReady.
            for s in &cfg.topology.subtopologies {
                for t in &s.source_topics {
                    if let Some(n) = cfg.metadata.remove(t) {
                        missing.insert(t.clone(), n);
                    }
                }
            }
        }
        let deploy_topology = if args.topology.is_some() || cfg.initial.is_some() {
            None
        } else {
            Some(example::next_topology(cfg.topology.epoch + 1))
        };
        if args.scenario == "deploy" && deploy_topology.is_none() {
            return Err(Failure::usage(
                "the deploy scenario with --topology or a starting group needs a scenario file naming the new topology",
            )
            .into());
        }
        let ctx = BuiltInContext {
            member_ids: &member_ids,
            count: args.count,
            topology_epoch: cfg.topology.epoch,
            missing_topics: &missing,
            deploy_topology,
        };
        return Ok(scenario::built_in(&args.scenario, &ctx).expect("name checked above"));
    }
    let path = std::path::Path::new(&args.scenario);
    if !path.exists() {
        return Err(Failure::usage(format!(
            "unknown scenario `{}`: use one of {} or a JSON scenario file",
            args.scenario,
            scenario::BUILT_IN.join(", ")
        ))
        .into());
    }
    let text = crate::input::read_document(path)
        .with_context(|| format!("cannot read scenario file {}", path.display()))
        .map_err(|e| Failure::usage(format!("{e:#}")))?;
    let mut s: Scenario = serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{}:{}:{}: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    if s.name.is_empty() {
        s.name = path.display().to_string();
    }
    s.check_limits(u64::from(cfg.members))
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    Ok(s)
}

fn state_colored(state: &str) -> String {
    match state {
        "Stable" => state.green().to_string(),
        "Empty" | "Dead" => state.dimmed().to_string(),
        _ => state.yellow().to_string(),
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn ms(v: Option<i64>) -> String {
    v.map_or("never".into(), |v| format!("{:.1} s", v as f64 / 1000.0))
}

fn render_table(r: &Report, trace: bool, verbose: bool) -> String {
    let mut out = String::new();
    if trace {
        let mut t = render::table::new(&[
            "TIME",
            "MEMBER",
            "REQ-EPOCH",
            "OWNED-ACTIVE",
            "RESP-EPOCH",
            "ASSIGNED-ACTIVE",
            "ASSIGNED-STANDBY",
            "STATUS/ERROR",
        ]);
        for e in &r.trace {
            let mut notes = e.statuses.clone();
            if let Some(err) = &e.error {
                notes.push(err.red().to_string());
            }
            t.add_row(vec![
                format!("{:.3}s", e.time_ms as f64 / 1000.0),
                e.member_id.clone(),
                e.request_epoch.to_string(),
                e.owned_active.compact(),
                e.response_epoch.to_string(),
                e.assigned_active
                    .as_ref()
                    .map_or("-".into(), |s| s.compact()),
                e.assigned_standby
                    .as_ref()
                    .map_or("-".into(), |s| s.compact()),
                notes.join(" "),
            ]);
        }
        out.push_str(&render::table::render(&t));
        out.push('\n');
    }
    out.push_str(&format!(
        "Kafka {} coordinator, {} assignor. Scenario {} (seed {}): group {} at group epoch {}, target assignment epoch {}, topology epoch {}\n",
        r.kafka_version,
        r.assignor,
        r.scenario,
        r.seed,
        state_colored(&r.final_state),
        r.group_epoch,
        r.target_assignment_epoch,
        r.topology_epoch
    ));
    out.push_str(&format!(
        "{}; {}, {}, {} moved; ended at {}\n",
        match r.virtual_time_to_stable_ms {
            Some(t) => format!("Stable after {} of virtual time", ms(Some(t))),
            None => "Never Stable".to_string(),
        },
        plural(r.heartbeats, "heartbeat"),
        plural(r.rebalances, "rebalance"),
        plural(r.tasks_moved, "task"),
        ms(Some(r.virtual_time_end_ms)),
    ));
    out.push_str(&format!(
        "Balance: {}-{} tasks per member ({}-{} active), {}-{} per process; {} tasks in all\n",
        r.balance.min_tasks_per_member,
        r.balance.max_tasks_per_member,
        r.balance.min_active_per_member,
        r.balance.max_active_per_member,
        r.balance.min_tasks_per_process,
        r.balance.max_tasks_per_process,
        r.total_tasks
    ));
    if !r.statuses_seen.is_empty() {
        out.push_str(&format!("Statuses seen: {}\n", r.statuses_seen.join(", ")));
    }
    if !r.errors_seen.is_empty() {
        let e: Vec<String> = r
            .errors_seen
            .iter()
            .map(|(k, v)| format!("{k} x{v}"))
            .collect();
        out.push_str(&format!("Errors and removals: {}\n", e.join(", ")));
    }
    for f in &r.failed_members {
        out.push_str(&format!(
            "{} {} at {}: {} \"{}\" (fatal for a Kafka Streams client)\n",
            "MEMBER DIED:".red().bold(),
            f.member_id,
            ms(Some(f.time_ms)),
            f.error,
            f.message
        ));
    }
    if let Some(a) = &r.advice {
        out.push_str(&format!("{} {a}\n", "Advice:".bold()));
    }
    for v in &r.invariant_violations {
        out.push_str(&format!("{} {v}\n", "INVARIANT VIOLATED:".red().bold()));
    }
    if !r.steps.is_empty() {
        out.push('\n');
        let mut t = render::table::new(&[
            "STEP",
            "STARTED",
            "STABLE-AFTER",
            "GROUP-EPOCH",
            "MOVED-ACTIVE",
            "MOVED-STANDBY",
            "STATUSES",
        ]);
        for s in &r.steps {
            t.add_row(vec![
                s.step.clone(),
                ms(Some(s.started_at_ms)),
                ms(s.time_to_stable_ms),
                format!("{} -> {}", s.group_epoch_before, s.group_epoch_after),
                s.moved_active.to_string(),
                s.moved_standby.to_string(),
                s.statuses_seen.join(" "),
            ]);
        }
        out.push_str(&render::table::render(&t));
        if verbose {
            for s in &r.steps {
                out.push_str(&format!("\nAssignment changes in step \"{}\":\n", s.step));
                out.push_str(&render::diff::moves_and_owners(&s.moves, &s.diff, "MEMBER"));
            }
        }
    }
    out.push('\n');
    let mut t = render::table::new(&[
        "PROCESS",
        "MEMBER",
        "MEMBER-EPOCH",
        "TOPOLOGY-EPOCH",
        "ACTIVE",
        "STANDBY",
    ]);
    for m in &r.members {
        t.add_row(vec![
            m.process_id.clone(),
            m.member_id.clone(),
            m.member_epoch.to_string(),
            m.topology_epoch.to_string(),
            m.assignment.active.compact(),
            m.assignment.standby.compact(),
        ]);
    }
    out.push_str(&render::table::render(&t));
    out
}
