//! `diff topology OLD NEW` and `diff assignment ...`: compare two topologies or two assignments.
//!
//! Also home of the topology source resolver shared with `check-epoch`: an argument is a
//! topology file (JSON or `Topology#describe()` text), a snapshot (`describe --output json`,
//! recognised by its top-level `schema_version`), or `group:ID` for a live group.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use serde::Serialize;

pub use crate::assignment_diff::{diff_owners, OwnerDiff, TaskMove};
use crate::cli::{GlobalArgs, OutputFormat};
use crate::coordinator::GroupConfig;
use crate::error::Failure;
use crate::exit;
use crate::model::group::GroupDescription;
use crate::model::{Assignment, KafkaVersion, TaskRole, Topology};
use crate::render;
use crate::sim::{self, scenario::Scenario, SimConfig};
use crate::snapshot;
use crate::topology::configure::TopicMetadata;
use crate::topology::diff::{diff_with_metadata, TopologyDiff};

const AFTER_HELP: &str = "\
Examples:
  streams-group diff topology old.txt new.txt --application-id my-app
  streams-group diff topology group.json new.txt --application-id my-app --exit-code
  streams-group diff assignment before.json after.json
  streams-group diff assignment group.json --simulate --members 6
  streams-group diff assignment --group my-app --bootstrap-server localhost:9092

A topology argument is a topology file (JSON or Topology#describe() text), a snapshot written by
`describe --output json`, or group:ID for a live group.
Exit status: 0, or 1 with --exit-code when there are differences; 2 on bad input.";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(Debug, Subcommand)]
pub enum What {
    /// Compare two topologies: subtopologies, topics, copartition groups, and rollout hazards
    Topology(TopologyArgs),
    /// Compare assignments: current vs target, two snapshots, or a snapshot vs a simulation
    Assignment(AssignmentArgs),
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct TopologyArgs {
    /// The old topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(value_name = "OLD")]
    pub old: String,

    /// The new topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(value_name = "NEW")]
    pub new: String,

    /// Application id (needed for Topology#describe() text)
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// The group to take from a snapshot with several groups
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Exit with status 1 when the topologies differ
    #[arg(long)]
    pub exit_code: bool,
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct AssignmentArgs {
    /// Snapshot files: one (current vs target, or vs --simulate) or two (old vs new)
    #[arg(value_name = "SNAPSHOT", num_args = 0..=2)]
    pub snapshots: Vec<PathBuf>,

    /// The group: live with no snapshot file, or the group to take from the snapshots
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Compare the snapshot's current assignment with a simulated one (same topology)
    #[arg(long)]
    pub simulate: bool,

    /// Members in the simulation (default: the snapshot's member count)
    #[arg(long, value_name = "N", requires = "simulate")]
    pub members: Option<u32>,

    /// With --simulate: the Kafka release whose coordinator simulates (4.2, 4.3, 4.4, kip).
    /// Default: the version the snapshot records, else 4.4
    #[arg(long, value_name = "VERSION", requires = "simulate", value_parser = super::profile::parse)]
    pub kafka_version: Option<KafkaVersion>,

    /// With --simulate: the task assignor (sticky or balanced-sticky). Default: the group's,
    /// else sticky
    #[arg(long, value_name = "NAME", requires = "simulate")]
    pub assignor: Option<String>,

    /// Partitions of source topics whose count the snapshot does not show
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub partitions: i32,

    /// Exit with status 1 when the assignments differ
    #[arg(long)]
    pub exit_code: bool,
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    match &args.what {
        What::Topology(a) => run_topology(global, a),
        What::Assignment(a) => run_assignment(global, a),
    }
}

// ---------------------------------------------------------------------------------------------
// Topology sources

/// A topology read from a file, a snapshot or a live group.
#[derive(Clone, Debug)]
pub struct ResolvedTopology {
    pub topology: Topology,
    /// What the user gave (file path or `group:ID`).
    pub label: String,
    /// The group, when the topology came from a snapshot or a live group.
    pub group: Option<GroupDescription>,
}

/// Resolve a topology argument (see the module documentation). `group` picks a group in a
/// snapshot with several.
pub fn resolve_topology(
    global: &GlobalArgs,
    arg: &str,
    application_id: Option<&str>,
    group: Option<&str>,
) -> anyhow::Result<ResolvedTopology> {
    if let Some(id) = arg.strip_prefix("group:") {
        if id.is_empty() {
            return Err(Failure::usage("group: needs a group id, as in group:my-app").into());
        }
        let g = super::live::describe_group(global, id)?;
        return group_topology(g, arg);
    }
    let path = Path::new(arg);
    let text = crate::input::read_document(path)
        .map_err(|e| Failure::usage(format!("{arg}: cannot read the file: {e}")))?;
    if snapshot::looks_like_snapshot(&text) {
        let s = snapshot::parse_snapshot(&text, arg).map_err(|e| Failure::usage(e.to_string()))?;
        let g = snapshot::find_group(&s, group)
            .map_err(|e| Failure::usage(format!("{arg}: {e}")))?
            .clone();
        return group_topology(g, arg);
    }
    let topology = crate::topology::parse_topology(&text, application_id)
        .map_err(|e| Failure::usage(e.in_file(arg).to_string()))?;
    Ok(ResolvedTopology {
        topology,
        label: arg.to_string(),
        group: None,
    })
}

fn group_topology(g: GroupDescription, label: &str) -> anyhow::Result<ResolvedTopology> {
    let topology = snapshot::topology_of(&g).ok_or_else(|| {
        Failure::usage(format!(
            "{label}: group {} shows no topology (subtopologies are null: the group is not \
             initialised, or its topics are missing)",
            g.group_id
        ))
    })?;
    Ok(ResolvedTopology {
        topology,
        label: label.to_string(),
        group: Some(g),
    })
}

/// Make a described topology comparable with a topology as members send it.
fn align(a: &mut ResolvedTopology, b: &ResolvedTopology) {
    if a.group.is_some() && b.group.is_none() {
        snapshot::align_decided_counts(&mut a.topology, &b.topology);
    }
}

// ---------------------------------------------------------------------------------------------
// diff topology

/// The `diff topology` report.
#[derive(Clone, Debug, Serialize)]
pub struct TopologyDiffReport {
    pub old: String,
    pub new: String,
    /// `identical` or `different`.
    pub verdict: &'static str,
    pub identical: bool,
    /// True when a hazard was found.
    pub hazardous: bool,
    #[serde(flatten)]
    pub diff: TopologyDiff,
}

fn run_topology(global: &GlobalArgs, args: &TopologyArgs) -> anyhow::Result<i32> {
    let app = args.application_id.as_deref();
    let group = args.group.as_deref();
    let mut old = resolve_topology(global, &args.old, app, group)?;
    let mut new = resolve_topology(global, &args.new, app, group)?;
    align(&mut old, &new);
    align(&mut new, &old);
    let mut metadata = TopicMetadata::new();
    for g in [&old.group, &new.group].into_iter().flatten() {
        metadata.extend(
            snapshot::topic_metadata(g, 0)
                .into_iter()
                .filter(|(_, n)| *n > 0),
        );
    }
    let d = diff_with_metadata(&old.topology, &new.topology, &metadata);
    let identical = d.is_empty();
    let report = TopologyDiffReport {
        old: old.label.clone(),
        new: new.label.clone(),
        verdict: if identical { "identical" } else { "different" },
        identical,
        hazardous: !d.hazards.is_empty(),
        diff: d,
    };
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => crate::emit!(
            "{}",
            render::diff::topology_report(&report, &old.topology, &new.topology)
        ),
    }
    Ok(if args.exit_code && !identical {
        exit::NEGATIVE
    } else {
        exit::SUCCESS
    })
}

// ---------------------------------------------------------------------------------------------
// diff assignment

/// The `diff assignment` report.
#[derive(Clone, Debug, Serialize)]
pub struct AssignmentDiffReport {
    pub group_id: String,
    pub before: String,
    pub after: String,
    /// `member` or `process`.
    pub compared_by: &'static str,
    pub notes: Vec<String>,
    /// `identical` or `different`.
    pub verdict: &'static str,
    pub identical: bool,
    /// Active tasks that went from one owner to another.
    pub moved_active: u64,
    /// Standby replicas that went from one owner to another.
    pub moved_standby: u64,
    pub moves: Vec<TaskMove>,
    /// Owners whose tasks changed.
    pub owners: Vec<OwnerDiff>,
}

fn by_member(g: &GroupDescription, target: bool) -> BTreeMap<String, Assignment> {
    g.members
        .iter()
        .map(|m| {
            let a = if target {
                &m.target_assignment
            } else {
                &m.assignment
            };
            (m.member_id.clone(), a.clone())
        })
        .collect()
}

fn by_process(members: impl Iterator<Item = (String, Assignment)>) -> BTreeMap<String, Assignment> {
    let mut out: BTreeMap<String, Assignment> = BTreeMap::new();
    for (p, a) in members {
        let e = out.entry(p).or_default();
        *e = e.union(&a);
    }
    out
}

fn load_group(path: &Path, group: Option<&str>) -> anyhow::Result<GroupDescription> {
    Ok(load_group_versioned(path, group)?.0)
}

fn load_group_versioned(
    path: &Path,
    group: Option<&str>,
) -> anyhow::Result<(GroupDescription, Option<KafkaVersion>)> {
    let s = snapshot::load_snapshot(path).map_err(|e| Failure::usage(e.to_string()))?;
    let g = snapshot::find_group(&s, group)
        .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    Ok((g.clone(), s.kafka_version))
}

fn run_assignment(global: &GlobalArgs, args: &AssignmentArgs) -> anyhow::Result<i32> {
    let group = args.group.as_deref();
    let report = match (args.snapshots.as_slice(), args.simulate) {
        ([], true) => {
            return Err(Failure::usage("--simulate needs a snapshot file").into());
        }
        ([], false) => {
            let Some(id) = group else {
                return Err(Failure::usage(
                    "diff assignment needs --group GROUP (live), or one or two snapshot files",
                )
                .into());
            };
            let g = super::live::describe_group(global, id)?;
            current_vs_target(&g, &format!("group:{id}"))
        }
        ([one], false) => {
            let g = load_group(one, group)?;
            current_vs_target(&g, &one.display().to_string())
        }
        ([one], true) => {
            let (g, recorded) = load_group_versioned(one, group)?;
            let file = one.display().to_string();
            let version = super::profile::choose(
                args.kafka_version,
                &super::profile::GroupOrigin::Snapshot {
                    file: &file,
                    recorded,
                },
            );
            vs_simulation(&g, &file, args, version)?
        }
        ([a, b], false) => {
            let ga = load_group(a, group)?;
            let gb = load_group(b, group)?;
            two_snapshots(&ga, &gb, &a.display().to_string(), &b.display().to_string())?
        }
        (_, true) => {
            return Err(Failure::usage("--simulate takes exactly one snapshot file").into());
        }
        _ => return Err(Failure::usage("diff assignment takes at most two snapshot files").into()),
    };
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => crate::emit!("{}", render::diff::assignment_report(&report)),
    }
    Ok(if args.exit_code && !report.identical {
        exit::NEGATIVE
    } else {
        exit::SUCCESS
    })
}

fn make_report(
    group_id: &str,
    before: String,
    after: String,
    compared_by: &'static str,
    notes: Vec<String>,
    b: &BTreeMap<String, Assignment>,
    a: &BTreeMap<String, Assignment>,
) -> AssignmentDiffReport {
    let crate::assignment_diff::AssignmentDiff {
        moves,
        owners,
        moved_active,
        moved_standby,
    } = diff_owners(b, a);
    let identical = owners.is_empty();
    AssignmentDiffReport {
        group_id: group_id.to_string(),
        before,
        after,
        compared_by,
        notes,
        verdict: if identical { "identical" } else { "different" },
        identical,
        moved_active,
        moved_standby,
        moves,
        owners,
    }
}

/// Each member's current assignment against its target.
pub fn current_vs_target(g: &GroupDescription, label: &str) -> AssignmentDiffReport {
    make_report(
        &g.group_id,
        format!("{label} (current)"),
        format!("{label} (target)"),
        "member",
        Vec::new(),
        &by_member(g, false),
        &by_member(g, true),
    )
}

/// The current assignments of two snapshots of the same group.
pub fn two_snapshots(
    a: &GroupDescription,
    b: &GroupDescription,
    label_a: &str,
    label_b: &str,
) -> anyhow::Result<AssignmentDiffReport> {
    if a.group_id != b.group_id {
        return Err(Failure::usage(format!(
            "the snapshots are of different groups: {} and {}",
            a.group_id, b.group_id
        ))
        .into());
    }
    let ids = |g: &GroupDescription| -> BTreeSet<String> {
        g.members.iter().map(|m| m.member_id.clone()).collect()
    };
    let (compared_by, notes, before, after) = if ids(a) == ids(b) {
        (
            "member",
            Vec::new(),
            by_member(a, false),
            by_member(b, false),
        )
    } else {
        let procs = |g: &GroupDescription| {
            by_process(
                g.members
                    .iter()
                    .map(|m| (m.process_id.clone(), m.assignment.clone())),
            )
        };
        (
            "process",
            vec!["member ids differ between the snapshots: compared per process id".to_string()],
            procs(a),
            procs(b),
        )
    };
    Ok(make_report(
        &a.group_id,
        label_a.to_string(),
        label_b.to_string(),
        compared_by,
        notes,
        &before,
        &after,
    ))
}

/// The snapshot's current assignment per process against a simulated run of the same topology.
fn vs_simulation(
    g: &GroupDescription,
    label: &str,
    args: &AssignmentArgs,
    version: KafkaVersion,
) -> anyhow::Result<AssignmentDiffReport> {
    if args.partitions <= 0 {
        return Err(Failure::usage(format!(
            "--partitions must be at least 1, got {}",
            args.partitions
        ))
        .into());
    }
    let topology = snapshot::topology_of(g).ok_or_else(|| {
        Failure::usage(format!(
            "{label}: group {} shows no topology to simulate (subtopologies are null)",
            g.group_id
        ))
    })?;
    let processes: BTreeSet<&str> = g.members.iter().map(|m| m.process_id.as_str()).collect();
    let snapshot_members = g.members.len() as u32;
    let members = args.members.unwrap_or(snapshot_members);
    if members == 0 && args.members.is_none() {
        return Err(Failure::usage(format!(
            "{label}: group {} has no members: give --members N",
            g.group_id
        ))
        .into());
    }
    if members > 100_000 || args.members == Some(0) {
        return Err(Failure::usage(format!(
            "--members must be between 1 and 100000, got {members}"
        ))
        .into());
    }
    let threads = if processes.is_empty() {
        1
    } else {
        snapshot_members.div_ceil(processes.len() as u32).max(1)
    };
    // Standby replicas: the most standby owners any task has.
    let mut standby_owners: BTreeMap<String, u32> = BTreeMap::new();
    for m in &g.members {
        for t in m.assignment.standby.tasks() {
            *standby_owners.entry(t.to_string()).or_default() += 1;
        }
    }
    let cfg = SimConfig {
        kafka_version: version,
        assignor: super::profile::choose_assignor(args.assignor.as_deref(), g.assignor.as_deref())?,
        group_id: g.group_id.clone(),
        members,
        threads_per_process: threads,
        topology,
        metadata: snapshot::topic_metadata(g, args.partitions),
        group: GroupConfig {
            num_standby_replicas: standby_owners.values().copied().max().unwrap_or(0),
            ..GroupConfig::default()
        },
        seed: 42,
        release_delay_ms: 200,
        restart_delay_ms: 3_000,
        static_members: false,
        max_time_ms: 600_000,
        trace: false,
        racks: 0,
        initial: None,
    };
    let scenario = Scenario {
        name: "start".into(),
        steps: Vec::new(),
    };
    let report = sim::run(&cfg, &scenario, &mut |_, _| {})
        .map_err(|e| Failure::usage(format!("simulation failed: {e}")))?;
    let current = by_process(
        g.members
            .iter()
            .map(|m| (m.process_id.clone(), m.assignment.clone())),
    );
    let simulated = by_process(
        report
            .members
            .iter()
            .map(|m| (m.process_id.clone(), m.assignment.clone())),
    );
    let (simulated, matched) = match_processes(&current, simulated);
    let mut notes = vec![format!(
        "simulated {members} member(s), {threads} per process, seed 42, with the Kafka {} coordinator and the {} assignor, final state {}",
        report.kafka_version, report.assignor, report.final_state
    )];
    notes.push(
        "member ids differ from the simulation's: compared per process, each simulated process \
         matched to the snapshot process it shares the most tasks with"
            .to_string(),
    );
    for (sim_p, snap_p) in &matched {
        notes.push(format!("simulated {sim_p} = {snap_p}"));
    }
    Ok(make_report(
        &g.group_id,
        format!("{label} (current)"),
        "simulation".to_string(),
        "process",
        notes,
        &current,
        &simulated,
    ))
}

/// Rename simulated processes to the snapshot processes they share the most tasks with
/// (greedy, ties broken by name); unmatched ones keep their name with a `simulated-` prefix.
fn match_processes(
    current: &BTreeMap<String, Assignment>,
    simulated: BTreeMap<String, Assignment>,
) -> (BTreeMap<String, Assignment>, Vec<(String, String)>) {
    let overlap = |a: &Assignment, b: &Assignment| -> usize {
        TaskRole::ALL
            .iter()
            .map(|r| a.get(*r).intersection(b.get(*r)).len())
            .sum()
    };
    let mut pairs: Vec<(usize, &String, &String)> = Vec::new();
    for (s, sa) in &simulated {
        for (c, ca) in current {
            pairs.push((overlap(sa, ca), s, c));
        }
    }
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)).then(a.2.cmp(b.2)));
    let mut used_sim = BTreeSet::new();
    let mut used_cur = BTreeSet::new();
    let mut matched = Vec::new();
    for (_, s, c) in pairs {
        if used_sim.contains(s) || used_cur.contains(c) {
            continue;
        }
        used_sim.insert(s.clone());
        used_cur.insert(c.clone());
        matched.push((s.clone(), c.clone()));
    }
    let names: BTreeMap<&String, &String> = matched.iter().map(|(s, c)| (s, c)).collect();
    let mut out = BTreeMap::new();
    for (s, a) in &simulated {
        let name = match names.get(s) {
            Some(c) => (*c).clone(),
            None => format!("simulated-{s}"),
        };
        out.insert(name, a.clone());
    }
    matched.sort();
    (out, matched)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asg(active: &[(&str, i32)], standby: &[(&str, i32)]) -> Assignment {
        Assignment {
            active: active.iter().copied().collect(),
            standby: standby.iter().copied().collect(),
            ..Assignment::default()
        }
    }

    #[test]
    fn moves_are_counted_once_per_pair() {
        let before: BTreeMap<String, Assignment> = [
            ("a".to_string(), asg(&[("0", 0), ("0", 1)], &[("0", 2)])),
            ("b".to_string(), asg(&[("0", 2)], &[("0", 0)])),
        ]
        .into();
        let after: BTreeMap<String, Assignment> = [
            ("a".to_string(), asg(&[("0", 0)], &[("0", 2)])),
            ("b".to_string(), asg(&[("0", 2), ("0", 1)], &[])),
            ("c".to_string(), asg(&[("0", 3)], &[("0", 0)])),
        ]
        .into();
        let crate::assignment_diff::AssignmentDiff {
            moves,
            owners,
            moved_active: ma,
            moved_standby: ms,
        } = diff_owners(&before, &after);
        assert_eq!((ma, ms), (1, 1));
        assert_eq!(owners.len(), 3);
        let m: Vec<(String, TaskRole, Vec<String>, Vec<String>)> = moves
            .into_iter()
            .map(|m| (m.task, m.role, m.from, m.to))
            .collect();
        assert_eq!(
            m,
            vec![
                (
                    "0_0".into(),
                    TaskRole::Standby,
                    vec!["b".into()],
                    vec!["c".into()]
                ),
                (
                    "0_1".into(),
                    TaskRole::Active,
                    vec!["a".into()],
                    vec!["b".into()]
                ),
                ("0_3".into(), TaskRole::Active, vec![], vec!["c".into()]),
            ]
        );
        let crate::assignment_diff::AssignmentDiff {
            moves,
            owners,
            moved_active: ma,
            moved_standby: ms,
        } = diff_owners(&before, &before);
        assert!(moves.is_empty() && owners.is_empty() && ma == 0 && ms == 0);
    }

    #[test]
    fn processes_match_by_overlap() {
        let current: BTreeMap<String, Assignment> = [
            ("uuid-a".to_string(), asg(&[("0", 0), ("0", 1)], &[])),
            ("uuid-b".to_string(), asg(&[("0", 2), ("0", 3)], &[])),
        ]
        .into();
        let sim: BTreeMap<String, Assignment> = [
            ("p1".to_string(), asg(&[("0", 2), ("0", 3)], &[])),
            ("p2".to_string(), asg(&[("0", 0)], &[])),
            ("p3".to_string(), asg(&[("0", 1)], &[])),
        ]
        .into();
        let (out, matched) = match_processes(&current, sim);
        assert_eq!(
            matched,
            vec![
                ("p1".to_string(), "uuid-b".to_string()),
                ("p2".to_string(), "uuid-a".to_string())
            ]
        );
        assert!(out.contains_key("simulated-p3"));
        assert_eq!(out["uuid-b"], asg(&[("0", 2), ("0", 3)], &[]));
    }
}
