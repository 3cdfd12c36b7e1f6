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
    let mut out = AssignmentMetrics {
        members: spec.members.len(),
        ..Default::default()
    };
    let procs: BTreeSet<&str> = spec.members.iter().map(|m| m.process_id.as_str()).collect();
    out.processes = procs.len();
    let process_of: BTreeMap<&str, &str> = spec
        .members
        .iter()
        .map(|m| (m.member_id.as_str(), m.process_id.as_str()))
        .collect();
    let subs: BTreeMap<&str, (i32, bool)> = spec
        .subtopologies
        .iter()
        .map(|s| (s.id.as_str(), (s.num_tasks.max(0), s.stateful)))
        .collect();
    out.tasks = subs.values().map(|(n, _)| *n as usize).sum();
    out.stateful_tasks = subs
        .values()
        .filter(|(_, st)| *st)
        .map(|(n, _)| *n as usize)
        .sum();
    let replicas = (spec.configs.num_standby_replicas as usize).min(procs.len().saturating_sub(1));
    out.standby_expected = out.stateful_tasks * replicas;

    for m in &spec.members {
        if !assignment.contains_key(&m.member_id) {
            out.violations.push(format!(
                "member {} missing from the assignment",
                m.member_id
            ));
        }
    }
    // task -> (active owners, processes holding any copy, standby count)
    let mut active_owner: BTreeMap<(&str, i32), Vec<&str>> = BTreeMap::new();
    let mut copies: BTreeMap<(&str, i32), Vec<&str>> = BTreeMap::new();
    let mut standbys: BTreeMap<(&str, i32), usize> = BTreeMap::new();
    let mut per_member_active = Vec::new();
    let mut per_member_stateful = Vec::new();
    let mut per_member_total = Vec::new();
    for (member, a) in assignment {
        let Some(&process) = process_of.get(member.as_str()) else {
            out.violations
                .push(format!("unknown member {member} in the assignment"));
            continue;
        };
        let mut stateful_active = 0;
        for (s, p) in a.active.iter() {
            match subs.get(s) {
                Some((n, st)) if p >= 0 && p < *n => {
                    if *st {
                        stateful_active += 1;
                    }
                    active_owner.entry((s, p)).or_default().push(member);
                    copies.entry((s, p)).or_default().push(process);
                }
                _ => out.violations.push(format!("unknown active task {s}_{p}")),
            }
        }
        for (s, p) in a.standby.iter() {
            match subs.get(s) {
                Some((n, st)) if p >= 0 && p < *n => {
                    if !*st {
                        out.violations
                            .push(format!("standby of stateless task {s}_{p} on {member}"));
                    }
                    *standbys.entry((s, p)).or_default() += 1;
                    copies.entry((s, p)).or_default().push(process);
                }
                _ => out.violations.push(format!("unknown standby task {s}_{p}")),
            }
        }
        out.active_assigned += a.active.len();
        out.standby_assigned += a.standby.len();
        per_member_active.push(a.active.len());
        per_member_stateful.push(stateful_active);
        per_member_total.push(a.active.len() + a.standby.len());
    }
    out.active_spread = spread(per_member_active.into_iter());
    out.stateful_active_spread = spread(per_member_stateful.into_iter());
    out.total_spread = spread(per_member_total.into_iter());

    for (s, (n, st)) in &subs {
        for p in 0..*n {
            let key = (*s, p);
            match active_owner.get(&key).map(Vec::len).unwrap_or(0) {
                1 => {}
                k => out
                    .violations
                    .push(format!("task {s}_{p} is active on {k} members")),
            }
            if let Some(c) = copies.get(&key) {
                let distinct: BTreeSet<&&str> = c.iter().collect();
                if distinct.len() != c.len() {
                    out.violations
                        .push(format!("task {s}_{p} has two copies on one process"));
                }
            }
            let sb = standbys.get(&key).copied().unwrap_or(0);
            if *st && sb < replicas {
                out.violations.push(format!(
                    "task {s}_{p} has {sb} standbys, expected {replicas}"
                ));
            }
        }
    }

    // Movement against the current assignment.
    let mut prev_owner: BTreeMap<(&str, i32), &str> = BTreeMap::new();
    let mut prev_holders: BTreeMap<(&str, i32), BTreeSet<&str>> = BTreeMap::new();
    let mut members_sorted: Vec<_> = spec.members.iter().collect();
    members_sorted.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    for m in members_sorted {
        for (s, p) in m.current.active.iter() {
            prev_owner.entry((s, p)).or_insert(m.member_id.as_str());
            prev_holders
                .entry((s, p))
                .or_default()
                .insert(m.member_id.as_str());
        }
        for (s, p) in m.current.standby.iter().chain(m.current.warmup.iter()) {
            prev_holders
                .entry((s, p))
                .or_default()
                .insert(m.member_id.as_str());
        }
    }
    for (key, owners) in &active_owner {
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
    out
}
