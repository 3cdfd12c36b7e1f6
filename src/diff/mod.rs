//! The diff policy: what `diff topology` and `diff assignment` compare, and how.
//!
//! * Topologies: a described topology (from a snapshot or a live group) is made comparable with
//!   one as members send it (the coordinator's partition decisions are forgotten where the other
//!   side leaves them to the coordinator), and the groups' topics give partition counts.
//! * Assignments are compared per member when both sides have the same member ids, else per
//!   process (snapshots across restarts, or a snapshot against a simulation).

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::simulate::scenario::Scenario;
use crate::simulate::setup::{self, Plan, Start};
use crate::source::SourcedGroup;
use crate::topology::diff::{diff_with_metadata, TopologyDiff};
use crate::topology::ResolvedTopology;
use coordinator::topics::TopicMetadata;
use model::group::GroupDescription;
pub use model::movement::{diff_owners, AssignmentDiff, OwnerDiff, TaskMove};
use model::{Assignment, TaskRole, Topology};

/// Whether two things compared are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "Verdict")]
pub enum DiffVerdict {
    Identical,
    Different,
}

impl DiffVerdict {
    pub fn of(identical: bool) -> Self {
        if identical {
            DiffVerdict::Identical
        } else {
            DiffVerdict::Different
        }
    }
}

/// The `diff topology` report.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TopologyDiffReport {
    pub old: String,
    pub new: String,
    pub verdict: DiffVerdict,
    pub identical: bool,
    /// True when a hazard was found.
    pub hazardous: bool,
    #[serde(flatten)]
    pub diff: TopologyDiff,
    /// The two topologies as compared, for the human rendering.
    #[serde(skip)]
    pub topologies: (Topology, Topology),
}

/// Compare two topologies.
pub fn topologies(mut old: ResolvedTopology, mut new: ResolvedTopology) -> TopologyDiffReport {
    align(&mut old, &new);
    align(&mut new, &old);
    let mut metadata = TopicMetadata::new();
    for g in [&old.group, &new.group].into_iter().flatten() {
        metadata.extend(
            crate::topology::topic_counts::topic_metadata(g, 0)
                .into_iter()
                .filter(|(_, n)| *n > 0),
        );
    }
    let d = diff_with_metadata(&old.topology, &new.topology, &metadata);
    let identical = d.is_empty();
    TopologyDiffReport {
        old: old.label,
        new: new.label,
        verdict: DiffVerdict::of(identical),
        identical,
        hazardous: !d.hazards.is_empty(),
        diff: d,
        topologies: (old.topology, new.topology),
    }
}

/// Make a described topology comparable with a topology as members send it.
fn align(a: &mut ResolvedTopology, b: &ResolvedTopology) {
    if a.described && !b.described {
        crate::topology::described::align_decided_counts(&mut a.topology, &b.topology);
    }
}

/// Who owns tasks in an assignment diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ComparedBy {
    Member,
    Process,
}

impl std::fmt::Display for ComparedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ComparedBy::Member => "member",
            ComparedBy::Process => "process",
        })
    }
}

/// The `diff assignment` report.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AssignmentDiffReport {
    pub group_id: String,
    pub before: String,
    pub after: String,
    pub compared_by: ComparedBy,
    pub notes: Vec<String>,
    pub verdict: DiffVerdict,
    pub identical: bool,
    /// Active tasks that went from one owner to another.
    pub moved_active: u64,
    /// Standby replicas that went from one owner to another.
    pub moved_standby: u64,
    pub moves: Vec<TaskMove>,
    /// Owners whose tasks changed.
    pub owners: Vec<OwnerDiff>,
}

struct Sides<'a> {
    group_id: &'a str,
    before: String,
    after: String,
    compared_by: ComparedBy,
    notes: Vec<String>,
}

fn report(
    s: Sides<'_>,
    b: &BTreeMap<String, Assignment>,
    a: &BTreeMap<String, Assignment>,
) -> AssignmentDiffReport {
    let AssignmentDiff {
        moves,
        owners,
        moved_active,
        moved_standby,
    } = diff_owners(b, a);
    let identical = owners.is_empty();
    AssignmentDiffReport {
        group_id: s.group_id.to_string(),
        before: s.before,
        after: s.after,
        compared_by: s.compared_by,
        notes: s.notes,
        verdict: DiffVerdict::of(identical),
        identical,
        moved_active,
        moved_standby,
        moves,
        owners,
    }
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

fn by_process<'a>(
    members: impl Iterator<Item = (&'a String, &'a Assignment)>,
) -> BTreeMap<String, Assignment> {
    let mut out: BTreeMap<String, Assignment> = BTreeMap::new();
    for (p, a) in members {
        let e = out.entry(p.clone()).or_default();
        *e = e.union(a);
    }
    out
}

fn current_by_process(g: &GroupDescription) -> BTreeMap<String, Assignment> {
    by_process(g.members.iter().map(|m| (&m.process_id, &m.assignment)))
}

/// Each member's current assignment against its target.
pub fn current_vs_target(g: &SourcedGroup) -> AssignmentDiffReport {
    let label = g.origin.label();
    let sides = Sides {
        group_id: &g.group.group_id,
        before: format!("{label} (current)"),
        after: format!("{label} (target)"),
        compared_by: ComparedBy::Member,
        notes: Vec::new(),
    };
    report(
        sides,
        &by_member(&g.group, false),
        &by_member(&g.group, true),
    )
}

/// The current assignments of two descriptions of the same group.
pub fn two_groups(a: &SourcedGroup, b: &SourcedGroup) -> Result<AssignmentDiffReport, Error> {
    let (ga, gb) = (&a.group, &b.group);
    if ga.group_id != gb.group_id {
        return Err(Error::input(format!(
            "the snapshots are of different groups: {} and {}",
            ga.group_id, gb.group_id
        )));
    }
    let by_member_ok = members_kept_their_ids(ga, gb);
    let ids = |g: &GroupDescription| -> BTreeSet<String> {
        g.members.iter().map(|m| m.member_id.clone()).collect()
    };
    let (ids_a, ids_b) = (ids(ga), ids(gb));
    let notes = match (by_member_ok, ids_a == ids_b) {
        (true, true) => Vec::new(),
        (true, false) => vec![format!(
            "members joined or left ({} joined, {} left): compared per member",
            ids_b.difference(&ids_a).count(),
            ids_a.difference(&ids_b).count()
        )],
        (false, _) => vec![
            "member ids differ between the snapshots (instances restarted): compared per process id"
                .to_string(),
        ],
    };
    let sides = Sides {
        group_id: &ga.group_id,
        before: a.origin.label(),
        after: b.origin.label(),
        compared_by: match by_member_ok {
            true => ComparedBy::Member,
            false => ComparedBy::Process,
        },
        notes,
    };
    Ok(if by_member_ok {
        report(sides, &by_member(ga, false), &by_member(gb, false))
    } else {
        report(sides, &current_by_process(ga), &current_by_process(gb))
    })
}

/// Whether the members the two descriptions share kept their ids: every process in both still
/// runs at least one of the same members (members may have joined or left). A restarted
/// instance keeps its process id but rejoins with new member ids: then only processes compare.
fn members_kept_their_ids(a: &GroupDescription, b: &GroupDescription) -> bool {
    let of = |g: &GroupDescription| -> BTreeMap<String, BTreeSet<String>> {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for x in &g.members {
            m.entry(x.process_id.clone())
                .or_default()
                .insert(x.member_id.clone());
        }
        m
    };
    let (pa, pb) = (of(a), of(b));
    let shared: Vec<&String> = pa.keys().filter(|p| pb.contains_key(*p)).collect();
    !shared.is_empty()
        && shared
            .iter()
            .all(|p| pa[*p].intersection(&pb[*p]).next().is_some())
}

/// The group's current assignment per process against a simulated run of the same topology
/// (a new group with as many members, unless `plan` says otherwise).
pub fn vs_simulation(g: &SourcedGroup, plan: &Plan) -> Result<AssignmentDiffReport, Error> {
    let label = g.origin.label();
    let start = Start::LikeGroup {
        group: g.group.clone(),
        label: label.clone(),
    };
    let cfg = setup::config(plan, start)?;
    let scenario = Scenario {
        name: "start".into(),
        steps: Vec::new(),
    };
    let run = setup::run(&cfg, &scenario, Some(1), &mut |_| {})
        .map_err(|e| Error::input(format!("simulation failed: {e}")))?;
    let current = current_by_process(&g.group);
    let simulated = by_process(run.members.iter().map(|m| (&m.process_id, &m.assignment)));
    let (simulated, matched) = match_processes(&current, simulated);
    let mut notes = vec![
        format!(
            "simulated {} member(s), {} per process, seed {}, with the Kafka {} coordinator and \
             the {} assignor, final state {}",
            cfg.members,
            cfg.threads_per_process,
            cfg.run.seed,
            run.kafka_version,
            run.assignor,
            run.final_state
        ),
        "member ids differ from the simulation's: compared per process, each simulated process \
         matched to the snapshot process it shares the most tasks with"
            .to_string(),
    ];
    for (sim_p, snap_p) in &matched {
        notes.push(format!("simulated {sim_p} = {snap_p}"));
    }
    let sides = Sides {
        group_id: &g.group.group_id,
        before: format!("{label} (current)"),
        after: "simulation".to_string(),
        compared_by: ComparedBy::Process,
        notes,
    };
    Ok(report(sides, &current, &simulated))
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
        let AssignmentDiff {
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
        assert!(diff_owners(&before, &before).is_empty());
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

    #[test]
    fn verdicts_serialise_as_before() {
        assert_eq!(
            serde_json::to_value(DiffVerdict::Identical).unwrap(),
            "identical"
        );
        assert_eq!(
            serde_json::to_value(ComparedBy::Process).unwrap(),
            "process"
        );
    }
}
