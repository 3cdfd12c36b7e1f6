//! Invariant checks and quality metrics of an assignment, independent of the assignor that
//! produced it (used by the tests, the benchmark comparison with Apache's assignor, and reports).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{GroupAssignment, GroupSpec};

/// Quality figures of one assignment against its spec.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AssignmentMetrics {
    pub members: usize,
    pub processes: usize,
    pub tasks: usize,
    pub stateful_tasks: usize,
    pub active_assigned: usize,
    pub standby_assigned: usize,
    /// Standbys expected: stateful tasks x min(num_standby_replicas, processes - 1).
    pub standby_expected: usize,
    /// max - min of active tasks per member.
    pub active_spread: usize,
    /// max - min of stateful active tasks per member.
    pub stateful_active_spread: usize,
    /// max - min of active + standby tasks per member.
    pub total_spread: usize,
    /// Active tasks whose owner differs from the member that currently has them active
    /// (tasks with no current owner are not counted).
    pub active_moved: usize,
    /// Active tasks that had a current owner.
    pub active_previously_owned: usize,
    /// Standbys placed on a member that held neither the active nor a standby/warm-up of the task.
    pub standby_new: usize,
    /// Invariant violations (empty when the assignment is valid).
    pub violations: Vec<String>,
}

fn spread(values: impl Iterator<Item = usize>) -> usize {
    let mut lo = usize::MAX;
    let mut hi = 0;
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    hi.saturating_sub(lo)
}

/// Checks the invariants every assignor must keep and measures balance and movement:
/// * every member of the spec is present and no unknown member is;
/// * every task is active on exactly one member; no unknown task is assigned;
/// * standbys only for stateful tasks; at most one copy of a task per process;
/// * the number of standbys per stateful task (a shortfall is a violation).
pub fn evaluate(spec: &GroupSpec, assignment: &GroupAssignment) -> AssignmentMetrics {
    let shape = Shape::of(spec);
    let mut out = AssignmentMetrics {
        members: spec.members.len(),
        processes: shape.processes,
        tasks: shape.subs.values().map(|(n, _)| *n as usize).sum(),
        stateful_tasks: shape
            .subs
            .values()
            .filter(|(_, st)| *st)
            .map(|(n, _)| *n as usize)
            .sum(),
        ..Default::default()
    };
    out.standby_expected = out.stateful_tasks * shape.replicas;
    for m in &spec.members {
        if !assignment.contains_key(&m.member_id) {
            out.violations.push(format!(
                "member {} missing from the assignment",
                m.member_id
            ));
        }
    }
    let placement = Placement::of(&shape, assignment, &mut out);
    placement.check_tasks(&shape, &mut out.violations);
    count_movement(spec, assignment, &placement, &mut out);
    out
}

/// What the spec says the assignment must cover.
struct Shape<'a> {
    processes: usize,
    process_of: BTreeMap<&'a str, &'a str>,
    /// Subtopology id -> (task count, stateful).
    subs: BTreeMap<&'a str, (i32, bool)>,
    /// Standbys each stateful task must have: at most one copy per process.
    replicas: usize,
}

impl<'a> Shape<'a> {
    fn of(spec: &'a GroupSpec) -> Shape<'a> {
        let procs: BTreeSet<&str> = spec.members.iter().map(|m| m.process_id.as_str()).collect();
        Shape {
            processes: procs.len(),
            process_of: spec
                .members
                .iter()
                .map(|m| (m.member_id.as_str(), m.process_id.as_str()))
                .collect(),
            subs: spec
                .subtopologies
                .iter()
                .map(|s| (s.id.as_str(), (s.num_tasks.max(0), s.stateful)))
                .collect(),
            replicas: (spec.configs.num_standby_replicas as usize)
                .min(procs.len().saturating_sub(1)),
        }
    }

    fn task(&self, s: &str, p: i32) -> Option<bool> {
        match self.subs.get(s) {
            Some((n, stateful)) if p >= 0 && p < *n => Some(*stateful),
            _ => None,
        }
    }
}

/// Who holds each task in the assignment.
struct Placement<'a> {
    active_owner: BTreeMap<(&'a str, i32), Vec<&'a str>>,
    /// The processes holding any copy.
    copies: BTreeMap<(&'a str, i32), Vec<&'a str>>,
    standbys: BTreeMap<(&'a str, i32), usize>,
}

impl<'a> Placement<'a> {
    /// Index the assignment, counting tasks and spreads into `out` and flagging unknown members
    /// and tasks and standbys of stateless tasks.
    fn of(
        shape: &Shape<'a>,
        assignment: &'a GroupAssignment,
        out: &mut AssignmentMetrics,
    ) -> Placement<'a> {
        let mut pl = Placement {
            active_owner: BTreeMap::new(),
            copies: BTreeMap::new(),
            standbys: BTreeMap::new(),
        };
        let (mut active, mut stateful, mut total) = (Vec::new(), Vec::new(), Vec::new());
        for (member, a) in assignment {
            let Some(&process) = shape.process_of.get(member.as_str()) else {
                out.violations
                    .push(format!("unknown member {member} in the assignment"));
                continue;
            };
            let mut stateful_active = 0;
            for (s, p) in a.active.iter() {
                let Some(st) = shape.task(s, p) else {
                    out.violations.push(format!("unknown active task {s}_{p}"));
                    continue;
                };
                stateful_active += usize::from(st);
                pl.active_owner.entry((s, p)).or_default().push(member);
                pl.copies.entry((s, p)).or_default().push(process);
            }
            for (s, p) in a.standby.iter() {
                let Some(st) = shape.task(s, p) else {
                    out.violations.push(format!("unknown standby task {s}_{p}"));
                    continue;
                };
                if !st {
                    out.violations
                        .push(format!("standby of stateless task {s}_{p} on {member}"));
                }
                *pl.standbys.entry((s, p)).or_default() += 1;
                pl.copies.entry((s, p)).or_default().push(process);
            }
            out.active_assigned += a.active.len();
            out.standby_assigned += a.standby.len();
            active.push(a.active.len());
            stateful.push(stateful_active);
            total.push(a.active.len() + a.standby.len());
        }
        out.active_spread = spread(active.into_iter());
        out.stateful_active_spread = spread(stateful.into_iter());
        out.total_spread = spread(total.into_iter());
        pl
    }

    /// One active owner per task, one copy per process, enough standbys.
    fn check_tasks(&self, shape: &Shape, violations: &mut Vec<String>) {
        for (s, (n, st)) in &shape.subs {
            for p in 0..*n {
                let key = (*s, p);
                match self.active_owner.get(&key).map(Vec::len).unwrap_or(0) {
                    1 => {}
                    k => violations.push(format!("task {s}_{p} is active on {k} members")),
                }
                if let Some(c) = self.copies.get(&key) {
                    let distinct: BTreeSet<&&str> = c.iter().collect();
                    if distinct.len() != c.len() {
                        violations.push(format!("task {s}_{p} has two copies on one process"));
                    }
                }
                let sb = self.standbys.get(&key).copied().unwrap_or(0);
                if *st && sb < shape.replicas {
                    violations.push(format!(
                        "task {s}_{p} has {sb} standbys, expected {}",
                        shape.replicas
                    ));
                }
            }
        }
    }
}

/// Movement against the current assignment: actives that changed owner, standbys on members
/// that held no copy of the task.
fn count_movement(
    spec: &GroupSpec,
    assignment: &GroupAssignment,
    placement: &Placement,
    out: &mut AssignmentMetrics,
) {
    let mut prev_owner: BTreeMap<(&str, i32), &str> = BTreeMap::new();
    let mut prev_holders: BTreeMap<(&str, i32), BTreeSet<&str>> = BTreeMap::new();
    let mut members_sorted: Vec<_> = spec.members.iter().collect();
    members_sorted.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    for m in members_sorted {
        let id = m.member_id.as_str();
        for (s, p) in m.current.active.iter() {
            prev_owner.entry((s, p)).or_insert(id);
            prev_holders.entry((s, p)).or_default().insert(id);
        }
        for (s, p) in m.current.standby.iter().chain(m.current.warmup.iter()) {
            prev_holders.entry((s, p)).or_default().insert(id);
        }
    }
    for (key, owners) in &placement.active_owner {
        if let Some(prev) = prev_owner.get(key) {
            out.active_previously_owned += 1;
            if owners.first() != Some(prev) {
                out.active_moved += 1;
            }
        }
    }
    for (member, a) in assignment {
        for (s, p) in a.standby.iter() {
            if !prev_holders
                .get(&(s, p))
                .is_some_and(|h| h.contains(member.as_str()))
            {
                out.standby_new += 1;
            }
        }
    }
}
