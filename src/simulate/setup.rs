//! Building a simulation: a new group on a topology (a file or the built-in example), or one
//! that starts from a described group. What a described group shows of how its application
//! runs (threads per process, standby replicas) is inferred here, once.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::Error;
use crate::simulate::report::SimulationReport;
use crate::simulate::scenario::{self, BuiltInContext, Scenario};
use crate::simulate::{self, example, select, RunSettings, SimConfig};
use crate::source::choice;
use crate::topology::topic_counts::TopicCounts;
use crate::topology::ResolvedTopology;
use coordinator::broker_settings::BrokerSettings;
use coordinator::config::BrokerBounds;
use coordinator::topics::TopicMetadata;
use coordinator::GroupConfig;
use model::group::ClusterSettings;
use model::group::GroupDescription;
use model::{KafkaVersion, Topology};

/// The most members a run may start with; beyond it a typo is more likely than intent.
pub const MAX_MEMBERS: u32 = scenario::MAX_MEMBERS as u32;
/// The most partitions a topic may have in a run.
pub const MAX_PARTITIONS: i32 = scenario::MAX_PARTITIONS;

/// What a described group shows of how its application runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupShape {
    pub members: u32,
    /// The most members any process runs (a process runs one member per stream thread).
    pub threads_per_process: u32,
    /// The most standby owners any task has in the target assignment: the target is what the
    /// assignor computed from `num.standby.replicas`, the current assignment may still lag.
    pub num_standby_replicas: u32,
}

/// Infer the shape of a described group's application.
pub fn group_shape(g: &GroupDescription) -> GroupShape {
    let mut per_process: BTreeMap<&str, u32> = BTreeMap::new();
    for m in &g.members {
        *per_process.entry(&m.process_id).or_default() += 1;
    }
    let mut standby_owners: BTreeMap<_, u32> = BTreeMap::new();
    for t in g
        .members
        .iter()
        .flat_map(|m| m.target_assignment.standby.tasks())
    {
        *standby_owners.entry(t).or_default() += 1;
    }
    GroupShape {
        members: g.members.len() as u32,
        threads_per_process: per_process.values().copied().max().unwrap_or(1).max(1),
        num_standby_replicas: standby_owners.values().copied().max().unwrap_or(0),
    }
}

/// The group configs a run is given. Each one not given is the starting group's (as its broker
/// reported it), else the broker's default (reported, or declared with `broker`), else Kafka's;
/// the standby replicas fall back to what a starting group shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupSettings {
    pub session_timeout_ms: Option<i64>,
    pub heartbeat_interval_ms: Option<i64>,
    pub initial_rebalance_delay_ms: Option<i64>,
    pub num_standby_replicas: Option<u32>,
    /// Broker settings declared by name (`--broker-config KEY=VALUE`), over what the broker
    /// reported.
    pub broker: Vec<(String, String)>,
}

/// How many clients, and how they are grouped into processes. `None`: from the starting group,
/// else one member per process.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Members {
    pub members: Option<u32>,
    pub threads_per_process: Option<u32>,
    pub processes: Option<u32>,
}

/// Everything a simulation needs besides where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub kafka_version: KafkaVersion,
    /// The assignor asked for; `None`: the group's, else sticky.
    pub assignor: Option<String>,
    pub members: Members,
    pub topics: TopicCounts,
    pub group: GroupSettings,
    pub run: RunSettings,
}

/// Where a simulation starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// A new group of the plan's members on this topology (`None`: the built-in example app).
    /// A topology from a snapshot or a live group runs on that group's topics.
    New {
        topology: Option<ResolvedTopology>,
        application_id: Option<String>,
    },
    /// A new group running a described group's topology on its topics, with as many members
    /// (unless the plan says otherwise): what the assignor would do from scratch.
    /// `label` names where the group came from in errors.
    LikeGroup {
        group: GroupDescription,
        label: String,
    },
    /// The described group itself, restored as a coordinator restores a group after a
    /// failover: its members carry on heartbeating.
    Restore(GroupDescription),
}

/// The simulator's configuration for `plan` from `start`, checked.
pub fn config(plan: &Plan, start: Start) -> Result<SimConfig, Error> {
    let c = match start {
        Start::New {
            topology,
            application_id,
        } => new_group(plan, topology, application_id)?,
        Start::LikeGroup { group, label } => like_group(plan, &group, &label)?,
        Start::Restore(g) => restore(plan, g)?,
    };
    finish(plan, c)
}

/// The group-dependent part of a configuration.
struct Cast {
    group_id: String,
    members: u32,
    threads_per_process: u32,
    topology: Topology,
    metadata: TopicMetadata,
    num_standby_replicas: u32,
    recorded_assignor: Option<String>,
    /// The starting group's configs and its broker's settings, as recorded.
    recorded_settings: Option<ClusterSettings>,
    initial: Option<GroupDescription>,
}

fn new_group(
    plan: &Plan,
    topology: Option<ResolvedTopology>,
    application_id: Option<String>,
) -> Result<Cast, Error> {
    let members = plan.members.members.unwrap_or(4);
    check_members(members)?;
    check_partitions(plan.topics.partitions)?;
    let threads = threads(members, &plan.members)?;
    let (topology, metadata, group_id) = match topology {
        Some(t) => {
            let metadata = match &t.group {
                Some(g) => plan.topics.for_group(g),
                None => plan.topics.for_topology(&t.topology),
            };
            let id = t.group.map(|g| g.group_id);
            (t.topology, metadata, id)
        }
        None => {
            let t = example::topology();
            let metadata = plan.topics.for_topology(&t);
            (t, metadata, None)
        }
    };
    Ok(Cast {
        group_id: application_id
            .or(group_id)
            .unwrap_or_else(|| example::APPLICATION_ID.to_string()),
        members,
        threads_per_process: threads,
        metadata,
        topology,
        num_standby_replicas: plan.group.num_standby_replicas.unwrap_or(0),
        recorded_assignor: None,
        recorded_settings: None,
        initial: None,
    })
}

fn like_group(plan: &Plan, g: &GroupDescription, label: &str) -> Result<Cast, Error> {
    let topology = crate::topology::described::topology_of(g).ok_or_else(|| {
        Error::input(format!(
            "{label}: group {} shows no topology to simulate (subtopologies are null)",
            g.group_id
        ))
    })?;
    let shape = group_shape(g);
    let members = match plan.members.members {
        Some(n) => n,
        None if shape.members == 0 => {
            return Err(Error::input(format!(
                "{label}: group {} has no members: give --members N",
                g.group_id
            )))
        }
        None => shape.members,
    };
    check_members(members)?;
    check_partitions(plan.topics.partitions)?;
    Ok(cast_like(plan, g, &shape, members, topology))
}

fn restore(plan: &Plan, g: GroupDescription) -> Result<Cast, Error> {
    if g.members.is_empty() {
        return Err(Error::input(format!(
            "group {} has no members to start from (it is {}); use --topology with --members instead",
            g.group_id, g.state
        )));
    }
    let Some(topology) = crate::topology::described::topology_of(&g) else {
        return Err(Error::input(format!(
            "group {} has no initialised topology to start from",
            g.group_id
        )));
    };
    check_partitions(plan.topics.partitions)?;
    let shape = group_shape(&g);
    let mut cast = cast_like(plan, &g, &shape, shape.members, topology);
    cast.initial = Some(g);
    Ok(cast)
}

/// A cast shaped like group `g` (its id, topic metadata, threads per process, standby count and
/// assignor) where the plan does not say otherwise.
fn cast_like(
    plan: &Plan,
    g: &GroupDescription,
    shape: &GroupShape,
    members: u32,
    topology: Topology,
) -> Cast {
    Cast {
        group_id: g.group_id.clone(),
        members,
        threads_per_process: plan
            .members
            .threads_per_process
            .unwrap_or(shape.threads_per_process)
            .max(1),
        metadata: plan.topics.for_group(g),
        topology,
        num_standby_replicas: plan
            .group
            .num_standby_replicas
            .unwrap_or(shape.num_standby_replicas),
        recorded_assignor: g.assignor.clone(),
        recorded_settings: g.configs.clone(),
        initial: None,
    }
}

fn check_members(members: u32) -> Result<(), Error> {
    if members == 0 || members > MAX_MEMBERS {
        return Err(Error::input(format!(
            "a simulation runs 1 to {MAX_MEMBERS} members, not {members}"
        )));
    }
    Ok(())
}

fn check_partitions(partitions: i32) -> Result<(), Error> {
    if partitions <= 0 || partitions > MAX_PARTITIONS {
        return Err(Error::input(format!(
            "a source topic has 1 to {MAX_PARTITIONS} partitions, not {partitions}"
        )));
    }
    Ok(())
}

/// Threads per process of a new group: given, or members spread over the given processes, or
/// one.
fn threads(members: u32, m: &Members) -> Result<u32, Error> {
    match (m.threads_per_process, m.processes) {
        (Some(0), _) => Err(Error::input("a process runs at least one thread")),
        (_, Some(0)) => Err(Error::input("a simulation runs at least one process")),
        (_, Some(p)) if p > members => Err(Error::input(format!(
            "--processes {p} is more than --members {members}: every process runs at least one member"
        ))),
        (Some(t), _) => Ok(t),
        (None, Some(p)) => Ok(members.div_ceil(p)),
        (None, None) => Ok(1),
    }
}

/// The group configuration and run settings shared by every start, checked.
fn finish(plan: &Plan, c: Cast) -> Result<SimConfig, Error> {
    let run = &plan.run;
    let (group, broker_bounds) = group_config(plan, &c)?;
    if run.release_delay_ms < 0 || run.restart_delay_ms < 0 || run.max_time_ms <= 0 {
        return Err(Error::input(
            "the release and restart delays must not be negative, the time limit must be positive",
        ));
    }
    let assignor =
        choice::choose_assignor(plan.assignor.as_deref(), c.recorded_assignor.as_deref())?;
    let mut metadata = c.metadata;
    // A count of 0 is a missing topic.
    metadata.retain(|_, n| *n > 0);
    Ok(SimConfig {
        kafka_version: plan.kafka_version,
        assignor,
        group_id: c.group_id,
        members: c.members,
        threads_per_process: c.threads_per_process,
        topology: c.topology,
        metadata,
        group,
        broker_bounds,
        run: run.clone(),
        initial: c.initial,
    })
}

/// The group configs of the run and the broker's bounds, checked: given > the starting group's
/// > the broker's defaults > Kafka's.
fn group_config(plan: &Plan, c: &Cast) -> Result<(GroupConfig, BrokerBounds), Error> {
    let recorded = c.recorded_settings.as_ref();
    let mut broker = match recorded.and_then(|r| r.broker.as_ref()) {
        Some(reported) => BrokerSettings::from_reported(reported)
            .map_err(|e| Error::input(format!("the recorded broker settings: {e}")))?,
        None => BrokerSettings::default(),
    };
    for (k, v) in &plan.group.broker {
        broker
            .set(k, v)
            .map_err(|e| Error::input(format!("--broker-config {k}={v}: {e}")))?;
    }
    let mut group = match recorded {
        Some(r) => broker
            .group_config_recorded(r)
            .map_err(|e| Error::input(format!("the recorded group configs: {e}")))?,
        None => broker.defaults.clone(),
    };
    let given = &plan.group;
    group.session_timeout_ms = given.session_timeout_ms.unwrap_or(group.session_timeout_ms);
    group.heartbeat_interval_ms = given
        .heartbeat_interval_ms
        .unwrap_or(group.heartbeat_interval_ms);
    group.initial_rebalance_delay_ms = given
        .initial_rebalance_delay_ms
        .unwrap_or(group.initial_rebalance_delay_ms);
    if given.num_standby_replicas.is_some() || recorded.and_then(|r| r.group.as_ref()).is_none() {
        group.num_standby_replicas = c.num_standby_replicas;
    }
    if plan.run.racks > 0 {
        group.rack_aware_assignment_tags = vec!["rack".into()];
    }
    group.validate_bounds(&broker.bounds).map_err(|e| {
        let hint = match e.0.contains("broker setting") {
            true => "; declare the broker's with --broker-config KEY=VALUE",
            false => "",
        };
        Error::input(format!("invalid group configuration: {e}{hint}"))
    })?;
    Ok((group, broker.bounds))
}

/// A note when a run starts from a group whose configs were not recorded (an offline snapshot
/// from before they were, or a principal without DescribeConfigs rights): which settings the
/// run assumed, and how to declare them.
pub fn assumed_settings_note(g: &GroupDescription, plan: &Plan) -> Option<String> {
    let why = match &g.configs {
        None => "the snapshot does not record them".to_string(),
        Some(s) if s.group.is_some() && s.broker.is_some() => return None,
        Some(s) => s.unreadable.join("; "),
    };
    if !plan.group.broker.is_empty() {
        return None;
    }
    let d = GroupConfig::default();
    Some(format!(
        "note: group {}'s configs are not known ({why}): assumed Kafka's defaults (session \
         timeout {} ms, heartbeat interval {} ms, initial rebalance delay {} ms); declare the \
         broker's with --broker-config KEY=VALUE",
        g.group_id, d.session_timeout_ms, d.heartbeat_interval_ms, d.initial_rebalance_delay_ms,
    ))
}

/// The scenario to run: a built-in name, or a JSON scenario file. `custom_topology`: the run
/// has no built-in next topology to deploy (a topology file or a starting group). The
/// `create-topics` scenario takes the source topics out of `cfg` until its step creates them.
pub fn scenario(
    name_or_file: &str,
    size: &StepSize,
    custom_topology: bool,
    cfg: &mut SimConfig,
) -> Result<Scenario, Error> {
    check_size_applies(name_or_file, size)?;
    if scenario::BUILT_IN.contains(&name_or_file) {
        return built_in(name_or_file, size, custom_topology, cfg);
    }
    let path = Path::new(name_or_file);
    let looks_like_a_path = name_or_file.contains(['/', '\\']) || name_or_file.ends_with(".json");
    if !path.exists() && looks_like_a_path {
        return Err(Error::input(format!(
            "{name_or_file}: no such file (a scenario is one of {} or a JSON scenario file)",
            scenario::BUILT_IN.join(", ")
        )));
    }
    if !path.exists() {
        return Err(Error::input(format!(
            "unknown scenario `{name_or_file}`: use one of {} or a JSON scenario file",
            scenario::BUILT_IN.join(", ")
        )));
    }
    let file = path.display().to_string();
    let text = model::input::read_document(path)
        .map_err(|e| Error::input(format!("cannot read scenario file {file}: {e}")))?;
    if text.trim().is_empty() {
        return Err(Error::input(format!(
            "{file}: the scenario file is empty: it holds {{\"steps\": [...]}} (docs/simulate.md, \"Scenarios\")"
        )));
    }
    let mut s: Scenario = serde_json::from_str(&text).map_err(|e| {
        let message = model::input::json_message(&e);
        Error::input(format!("{file}:{}:{}: {message}", e.line(), e.column()))
    })?;
    if s.name.is_empty() {
        s.name = file.clone();
    }
    s.check_limits(u64::from(cfg.members), cfg.threads_per_process)
        .map_err(|e| Error::input(format!("{file}: {e}")))?;
    Ok(s)
}

/// `--count` and `--instances` size only some built-in scenarios, and `--process`/`--member`
/// name only
/// what others take.
fn check_size_applies(name_or_file: &str, size: &StepSize) -> Result<(), Error> {
    match size {
        StepSize::Instances(_) if !SIZED_BY_INSTANCES.contains(&name_or_file) => {
            Err(Error::input(format!(
                "--instances sizes only the {} scenarios, not `{name_or_file}`: leave it out \
                 or pick one of those",
                SIZED_BY_INSTANCES.join(", ")
            )))
        }
        StepSize::Members(_) if !SIZED_BY_INSTANCES.contains(&name_or_file) => {
            Err(Error::input(format!(
                "--count sizes only the {} scenarios, not `{name_or_file}`: leave it out \
                 (--members sets how many start) or pick one of those",
                SIZED_BY_INSTANCES.join(", ")
            )))
        }
        StepSize::Named(_) if !TAKES_NAMED.contains(&name_or_file) => {
            let not = if scenario::BUILT_IN.contains(&name_or_file) {
                format!("not `{name_or_file}`: leave them out or pick one of those")
            } else {
                format!(
                    "not the scenario file `{name_or_file}`: name them in its steps \
                     (`members`, `processes`)"
                )
            };
            Err(Error::input(format!(
                "--process and --member name what the {} scenarios remove, crash or restart, {not}",
                TAKES_NAMED.join(", ")
            )))
        }
        _ => Ok(()),
    }
}

/// How much the scale-out, scale-in and crash scenarios add, remove or crash, or which members
/// scale-in, crash and rolling-bounce take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepSize {
    /// Nothing asked: two members; scale-in and crash take fewer when the group is that small
    /// (the last member keeps running, unless it is the only one).
    Default,
    /// Members (stream threads), as asked: scale-out puts them in new processes of the run's
    /// threads per process; scale-in and crash take the last ones, and asking for as many as
    /// the group has, or more, is an error (one keeps running).
    Members(u32),
    /// Instances (processes): scale-out adds instances of the run's threads per process (for
    /// a starting group, the most members any of its processes runs); scale-in and crash take
    /// every member of the last instances, and asking for as many as the group has, or more,
    /// is an error.
    Instances(u32),
    /// Exactly these processes and members, each by its id or a unique prefix of it: scale-in
    /// and crash take them (not every member: one keeps running), rolling-bounce restarts them.
    Named(Names),
}

/// Processes and members named by id or unique prefix (`--process`, `--member`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub processes: Vec<String>,
    pub members: Vec<String>,
}

/// The built-in scenarios `--instances` sizes.
pub const SIZED_BY_INSTANCES: &[&str] = &["scale-out", "scale-in", "crash"];

/// The built-in scenarios `--process` and `--member` name members for.
pub const TAKES_NAMED: &[&str] = &["scale-in", "crash", "rolling-bounce"];

fn built_in(
    name: &str,
    size: &StepSize,
    custom_topology: bool,
    cfg: &mut SimConfig,
) -> Result<Scenario, Error> {
    let member_ids = simulate::initial_member_ids(cfg);
    let processes = simulate::initial_processes(cfg);
    let taken = taken(name, size, cfg, &member_ids, &processes)?;
    let mut missing = BTreeMap::new();
    if name == "create-topics" {
        // The source topics do not exist yet: the group waits in NotReady.
        for s in &cfg.topology.subtopologies {
            for t in &s.source_topics {
                if let Some(n) = cfg.metadata.remove(t) {
                    missing.insert(t.clone(), n);
                }
            }
        }
    }
    let deploy_topology =
        (!custom_topology).then(|| example::next_topology(cfg.topology.epoch + 1));
    if name == "deploy" && deploy_topology.is_none() {
        return Err(Error::input(
            "the deploy scenario with --topology or a starting group needs a scenario file naming the new topology",
        ));
    }
    let ctx = BuiltInContext {
        member_ids: &member_ids,
        count: taken.count,
        instances: taken.instances.map(|count| scenario::Instances {
            count,
            processes: &processes,
            threads_per_process: cfg.threads_per_process,
        }),
        named: taken.named.as_deref(),
        topology_epoch: cfg.topology.epoch,
        missing_topics: &missing,
        deploy_topology,
    };
    scenario::built_in(name, &ctx)
        .ok_or_else(|| Error::Internal(format!("built-in scenario {name} is not built in")))
}

/// What a built-in scenario adds or takes: a count of members or instances, or named members.
struct Taken {
    count: u32,
    instances: Option<u32>,
    named: Option<Vec<String>>,
}

/// What `size` asks `name` to add or take from the run's starting members, checked: named
/// processes and members exist, and scale-in and crash leave a member running.
fn taken(
    name: &str,
    size: &StepSize,
    cfg: &SimConfig,
    member_ids: &[String],
    processes: &[String],
) -> Result<Taken, Error> {
    let takes = matches!(name, "scale-in" | "crash");
    let verb = if name == "crash" {
        "crashed"
    } else {
        "removed"
    };
    let ids: Vec<&str> = member_ids.iter().map(String::as_str).collect();
    let of: Vec<&str> = processes.iter().map(String::as_str).collect();
    let too_many = |flag: &str, n: u32, what: &str, exist: &[&str]| {
        let most = match exist.len() {
            0 | 1 => "none".to_string(),
            k => format!("at most {}", k - 1),
        };
        Error::input(format!(
            "{flag} {n} is too many for {name}: the group has {} {what}{} ({}) and at least one \
             keeps running, so {most} can be {verb}",
            exist.len(),
            if exist.len() == 1 { "" } else { "s" },
            select::listing(exist),
        ))
    };
    let mut out = Taken {
        count: 2,
        instances: None,
        named: None,
    };
    match size {
        StepSize::Default => {}
        StepSize::Members(n) if takes && *n as usize >= ids.len() => {
            return Err(too_many("--count", *n, "member", &ids))
        }
        StepSize::Members(n) => out.count = *n,
        StepSize::Instances(n) => {
            let distinct = select::IdIndex::new(select::Kind::Process, of.iter().copied());
            if takes && *n as usize >= distinct.in_order().len() {
                return Err(too_many("--instances", *n, "instance", distinct.in_order()));
            }
            check_added_instances(name, *n, cfg)?;
            out.instances = Some(*n);
        }
        StepSize::Named(names) => {
            let origins = select::Origins {
                members: " in --member",
                processes: " in --process",
            };
            let named = select::named_members(&names.members, &names.processes, &ids, &of, origins)
                .map_err(Error::Input)?;
            if takes && named.len() >= ids.len() {
                return Err(Error::input(format!(
                    "--process and --member name every member of the group ({}) for {name}: \
                     at least one keeps running",
                    select::listing(&ids)
                )));
            }
            out.named = Some(named);
        }
    }
    Ok(out)
}

/// Instances scale-out adds stay within the most members a run may have.
fn check_added_instances(name: &str, n: u32, cfg: &SimConfig) -> Result<(), Error> {
    let added = u64::from(n) * u64::from(cfg.threads_per_process.max(1));
    if name == "scale-out" && added + u64::from(cfg.members) > scenario::MAX_MEMBERS {
        return Err(Error::input(format!(
            "--instances {n} of {} thread(s) each would make more than {} members: \
             add fewer instances",
            cfg.threads_per_process,
            scenario::MAX_MEMBERS
        )));
    }
    Ok(())
}

/// Run a simulation, `samples` times when members join (`None`: as many as fit the default
/// budget), with input errors as the command reports them.
pub fn run(
    cfg: &SimConfig,
    scenario: &Scenario,
    samples: Option<u32>,
    progress: &mut dyn FnMut(simulate::samples::Progress),
) -> Result<SimulationReport, Error> {
    simulate::samples::run(cfg, scenario, samples, progress).map_err(|e| Error::Input(e.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::group::{DescribedTopology, MemberDescription};
    use model::{Assignment, TaskSet};

    fn member(id: &str, process: &str, standby: &[(&str, i32)]) -> MemberDescription {
        MemberDescription {
            member_id: id.into(),
            member_epoch: 1,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            topology_epoch: 0,
            process_id: process.into(),
            user_endpoint: None,
            client_tags: Default::default(),
            task_offsets: Default::default(),
            task_end_offsets: Default::default(),
            assignment: Assignment::default(),
            target_assignment: Assignment {
                standby: standby.iter().copied().collect::<TaskSet>(),
                ..Assignment::default()
            },
            is_classic: false,
            endpoint_partitions: None,
        }
    }

    fn group(members: Vec<MemberDescription>) -> GroupDescription {
        GroupDescription {
            member_order: Vec::new(),
            group_id: "g".into(),
            state: "Stable".into(),
            group_epoch: 1,
            target_assignment_epoch: 1,
            coordinator: None,
            topology: DescribedTopology {
                epoch: 0,
                subtopologies: None,
            },
            members,
            offsets: vec![],
            assignor: None,
            configs: None,
        }
    }

    #[test]
    fn shape_of_a_group() {
        let g = group(vec![
            member("a", "p1", &[("0", 1)]),
            member("b", "p1", &[]),
            member("c", "p1", &[("0", 1)]),
            member("d", "p2", &[("0", 2)]),
        ]);
        assert_eq!(
            group_shape(&g),
            GroupShape {
                members: 4,
                threads_per_process: 3,
                num_standby_replicas: 2
            }
        );
        let empty = group(vec![]);
        assert_eq!(group_shape(&empty).threads_per_process, 1);
        assert_eq!(group_shape(&empty).num_standby_replicas, 0);
    }

    fn plan() -> Plan {
        Plan {
            kafka_version: KafkaVersion::NEWEST,
            assignor: None,
            members: Members::default(),
            topics: TopicCounts {
                partitions: 8,
                overrides: vec![],
            },
            group: GroupSettings::default(),
            run: RunSettings::default(),
        }
    }

    #[test]
    fn a_new_group_on_the_example() {
        let mut p = plan();
        p.members.members = Some(5);
        p.members.processes = Some(2);
        p.topics.overrides = vec![("orders".into(), 3), ("customers".into(), 0)];
        let c = config(
            &p,
            Start::New {
                topology: None,
                application_id: None,
            },
        )
        .unwrap();
        assert_eq!((c.members, c.threads_per_process), (5, 3));
        assert_eq!(c.metadata.get("orders"), Some(&3));
        assert_eq!(c.metadata.get("customers"), None, "0 is a missing topic");
        assert_eq!(c.assignor, "sticky");
        p.members.processes = Some(6);
        assert!(config(
            &p,
            Start::New {
                topology: None,
                application_id: None
            }
        )
        .is_err());
    }

    #[test]
    fn groups_without_members_or_topology_do_not_start() {
        let g = group(vec![]);
        let e = config(&plan(), Start::Restore(g.clone())).unwrap_err();
        assert!(e.to_string().contains("no members to start from"), "{e}");
        let like = Start::LikeGroup {
            group: g,
            label: "s.json".into(),
        };
        let e = config(&plan(), like).unwrap_err();
        assert!(e.to_string().contains("shows no topology"), "{e}");
    }

    fn two_by_two() -> SimConfig {
        let mut p = plan();
        p.members.members = Some(4);
        p.members.threads_per_process = Some(2);
        let start = Start::New {
            topology: None,
            application_id: None,
        };
        config(&p, start).unwrap()
    }

    fn step_of(name: &str, size: StepSize) -> Result<scenario::Action, String> {
        scenario(name, &size, false, &mut two_by_two())
            .map(|s| s.steps[0].action.clone())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn scale_in_and_crash_leave_a_member_running_or_say_so() {
        let e = step_of("scale-in", StepSize::Instances(2)).unwrap_err();
        assert_eq!(
            e,
            "--instances 2 is too many for scale-in: the group has 2 instances (p1, p2) and at \
             least one keeps running, so at most 1 can be removed"
        );
        let e = step_of("crash", StepSize::Members(5)).unwrap_err();
        assert!(e.starts_with("--count 5 is too many for crash: the group has 4 members (p1-t1, p1-t2, p2-t1, p2-t2)"), "{e}");
        assert!(e.ends_with("so at most 3 can be crashed"), "{e}");
        // Left out, the count is 2 and shrinks to what the group can lose, as before.
        let mut one = two_by_two();
        one.members = 2;
        one.threads_per_process = 1;
        let s = scenario("scale-in", &StepSize::Default, false, &mut one).unwrap();
        assert_eq!(s.steps[0].action.label(), "remove p2-t1");
        // Scale-out adds as many as asked.
        assert_eq!(
            step_of("scale-out", StepSize::Instances(3))
                .unwrap()
                .label(),
            "add 3 instances × 2 threads"
        );
    }

    #[test]
    fn named_processes_and_members() {
        let named = |processes: &[&str], members: &[&str]| {
            StepSize::Named(Names {
                processes: processes.iter().map(|s| s.to_string()).collect(),
                members: members.iter().map(|s| s.to_string()).collect(),
            })
        };
        let a = step_of("crash", named(&["p2"], &[])).unwrap();
        assert_eq!(a.label(), "crash p2-t1, p2-t2");
        let a = step_of("rolling-bounce", named(&[], &["p2-t2", "p1-t1"])).unwrap();
        assert_eq!(a.label(), "restart p2-t2, p1-t1");
        let e = step_of("scale-in", named(&["p1", "p2"], &[])).unwrap_err();
        assert!(e.contains("name every member of the group"), "{e}");
        let e = step_of("scale-in", named(&["p3"], &[])).unwrap_err();
        assert_eq!(
            e,
            "unknown process `p3` in --process; running processes are: p1, p2"
        );
        let e = step_of("crash", named(&[], &["p1"])).unwrap_err();
        assert!(
            e.starts_with("ambiguous member `p1` in --member: 2 running members"),
            "{e}"
        );
        for other in ["scale-out", "start", "deploy", "create-topics"] {
            let e = step_of(other, named(&["p1"], &[])).unwrap_err();
            assert!(e.contains(&format!("not `{other}`")), "{e}");
        }
    }
}
