//! The balanced sticky task assignor ("balanced-sticky"): this project's own variant of the
//! sticky assignor, not what any Apache release computes (that is [`super::StickyAssignor`]).
//!
//! 1. Stateful actives, then stateless actives, each in three passes: keep the previous active
//!    owner (under the per-member quota), else the best-ranked holder of state (previous standby
//!    or warm-up, then reported offsets) under the quota, else the least-loaded process
//!    (load = tasks / members of the process) and its member with the fewest tasks.
//! 2. Standbys for stateful tasks only, `min(num_standby_replicas, processes - 1)` per task,
//!    never on a process that already holds the task: rack/client-tag aware first (when tags are
//!    configured), then sticky (previous active owner, then previous standby or warm-up
//!    holders, then members that reported offsets) under the total ceiling, then least-loaded.
//!
//! Ties are broken by process id, then member id; tasks are processed in documented orders.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::process_state::{State, NONE};
use super::rack::RackState;
use super::{AssignorError, GroupAssignment, GroupSpec, MemberAssignment, TaskAssignor};
use model::TaskSet;

/// The balanced sticky assignor. Stateless: one value can serve any number of calls and threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct BalancedStickyAssignor;

impl TaskAssignor for BalancedStickyAssignor {
    fn name(&self) -> &'static str {
        "balanced-sticky"
    }

    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError> {
        if spec.members.is_empty() {
            return Ok(GroupAssignment::new());
        }
        let mut state = State::build(spec)?;
        let (stateful, stateless): (Vec<u32>, Vec<u32>) =
            (0..state.num_tasks).partition(|&t| state.is_stateful(t));
        assign_actives(&mut state, &stateful, true)?;
        assign_actives(&mut state, &stateless, false)?;
        let replicas = spec
            .configs
            .num_standby_replicas
            .min(state.num_procs.saturating_sub(1));
        if replicas > 0 {
            let mut rack = if spec.configs.rack_aware_assignment_tags.is_empty() {
                None
            } else {
                Some(RackState::build(spec, &state))
            };
            assign_standbys(&mut state, &stateful, replicas, rack.as_mut());
        }
        Ok(output(&state))
    }
}

/// Sticky candidate of task `t` among its ranked previous-state holders that `allows` accepts:
/// the first one in rank order, replaced by a later one only if both its process load and its
/// own task count are lower. Members that held the task as a standby or warm-up always win over
/// members that only reported offsets for it, so that a kept standby stays where it is. With
/// `skip_holding`, processes that already hold `t` are skipped.
fn least_loaded_prev(
    state: &State,
    t: u32,
    skip_holding: bool,
    allows: impl Fn(&State, u32) -> bool,
) -> Option<u32> {
    let (holders, reporters) = state.candidate_classes(t);
    least_loaded_of(state, holders, t, skip_holding, &allows)
        .or_else(|| least_loaded_of(state, reporters, t, skip_holding, &allows))
}

fn least_loaded_of(
    state: &State,
    candidates: &[u32],
    t: u32,
    skip_holding: bool,
    allows: &impl Fn(&State, u32) -> bool,
) -> Option<u32> {
    let mut best: Option<u32> = None;
    for &c in candidates {
        let p = state.member_proc[c as usize];
        // A holder at its quota is no candidate at all: judged only after the choice, it
        // would hide another holder that may still take the task.
        if (skip_holding && state.holds(p, t)) || !allows(state, c) {
            continue;
        }
        best = match best {
            None => Some(c),
            Some(b) => {
                let bp = state.member_proc[b as usize];
                if state.load(p) < state.load(bp)
                    && state.member_total[c as usize] < state.member_total[b as usize]
                {
                    Some(c)
                } else {
                    Some(b)
                }
            }
        };
    }
    best
}

fn assign_actives(state: &mut State, tasks: &[u32], stateful: bool) -> Result<(), AssignorError> {
    if tasks.is_empty() {
        return Ok(());
    }
    // Sticky passes walk tasks by (partition, subtopology) so that quota cut-offs spread over
    // subtopologies instead of starving the last one.
    let mut order = tasks.to_vec();
    order.sort_unstable_by_key(|&t| (state.partition(t), state.task_sub[t as usize]));
    let allows = |state: &State, m: u32| {
        if stateful {
            state
                .q_stateful
                .allows(state.member_stateful_active[m as usize])
        } else {
            state.q_active.allows(state.member_active[m as usize])
        }
    };
    let mut rest = Vec::new();
    for &t in &order {
        let prev = state.prev_active[t as usize];
        if prev != NONE && allows(state, prev) {
            state.assign_active(prev, t);
            continue;
        }
        if let Some(c) = least_loaded_prev(state, t, false, allows) {
            state.assign_active(c, t);
            continue;
        }
        rest.push(t);
    }
    // Fresh tasks in (subtopology, partition) order: a range-like spread.
    rest.sort_unstable();
    // Key: the process's least task count of a member first (so that members of a process
    // whose tasks stuck unevenly are levelled), then the process load, then the stateless
    // active load, then the process id.
    let key = |state: &mut State, p: u32| {
        let m = state.least_loaded_member(p);
        Reverse((
            state.member_total[m as usize],
            state.load(p),
            state.stateless_load(p),
            p,
        ))
    };
    let mut heap = BinaryHeap::with_capacity(state.num_procs as usize);
    for p in 0..state.num_procs {
        heap.push(key(state, p));
    }
    for t in rest {
        let Some(Reverse((_, _, _, p))) = heap.pop() else {
            return Err(AssignorError::new(
                "no process available for an active task",
            ));
        };
        let m = state.least_loaded_member(p);
        state.assign_active(m, t);
        heap.push(key(state, p));
    }
    Ok(())
}

fn assign_standbys(
    state: &mut State,
    stateful: &[u32],
    replicas: u32,
    mut rack: Option<&mut RackState>,
) {
    let mut order = stateful.to_vec();
    order.sort_unstable_by_key(|&t| Reverse((state.partition(t), state.task_sub[t as usize])));
    let mut deferred: Vec<(u32, u32)> = Vec::new();
    for &t in &order {
        let placed = match rack.as_deref_mut() {
            Some(r) => r.place_standbys(state, t, replicas),
            None => 0,
        };
        for i in placed..replicas {
            let prev = state.prev_active[t as usize];
            let target = if prev != NONE
                && !state.holds(state.member_proc[prev as usize], t)
                && state.q_total.allows(state.member_total[prev as usize])
            {
                Some(prev)
            } else {
                least_loaded_prev(state, t, true, |state, c| {
                    state.q_total.allows(state.member_total[c as usize])
                })
            };
            match target {
                Some(m) => {
                    state.assign_standby(m, t);
                    if let Some(r) = rack.as_deref_mut() {
                        r.touch(state, state.member_proc[m as usize]);
                    }
                }
                None => {
                    deferred.push((t, replicas - i));
                    break;
                }
            }
        }
    }
    if deferred.is_empty() {
        return;
    }
    deferred.sort_unstable_by_key(|&(t, _)| Reverse(t));
    let key = |state: &mut State, p: u32| {
        let m = state.least_loaded_member(p);
        Reverse((state.member_total[m as usize], state.load(p), p))
    };
    let mut heap = BinaryHeap::with_capacity(state.num_procs as usize);
    for p in 0..state.num_procs {
        heap.push(key(state, p));
    }
    let mut aside = Vec::new();
    for (t, count) in deferred {
        for _ in 0..count {
            let mut found = None;
            while let Some(entry) = heap.pop() {
                let p = (entry.0).2;
                if state.holds(p, t) {
                    aside.push(entry);
                } else {
                    found = Some(p);
                    break;
                }
            }
            heap.extend(aside.drain(..));
            // None: every process already holds the task (cannot happen with
            // replicas <= processes - 1); leave the task short.
            let Some(p) = found else { break };
            let m = member_for_standby(state, p, t);
            state.assign_standby(m, t);
            heap.push(key(state, p));
        }
    }
}

/// The member of process `p` that gets a least-loaded standby of `t`: a member of `p` that held
/// the task before (previous active first, then ranked state holders) if its task count is at
/// most one above the process's least-loaded member, else the least-loaded member.
fn member_for_standby(state: &mut State, p: u32, t: u32) -> u32 {
    let least = state.least_loaded_member(p);
    let limit = state.member_total[least as usize].saturating_add(1);
    let prev = state.prev_active[t as usize];
    std::iter::once(prev)
        .chain(state.candidates(t).iter().copied())
        .find(|&m| {
            m != NONE
                && state.member_proc[m as usize] == p
                && state.member_total[m as usize] <= limit
        })
        .unwrap_or(least)
}

fn output(state: &State) -> GroupAssignment {
    let n = state.num_members();
    let mut active: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut standby: Vec<Vec<u32>> = vec![Vec::new(); n];
    for t in 0..state.num_tasks {
        let owner = state.active_owner[t as usize];
        if owner != NONE {
            active[owner as usize].push(t);
        }
        for &m in &state.standby_holders[t as usize] {
            standby[m as usize].push(t);
        }
    }
    let to_set = |tasks: &[u32]| -> TaskSet {
        tasks
            .iter()
            .map(|&t| {
                (
                    state.sub_ids[state.task_sub[t as usize] as usize].as_str(),
                    state.partition(t) as i32,
                )
            })
            .collect()
    };
    (0..n)
        .map(|m| {
            (
                state.member_ids[m].clone(),
                MemberAssignment {
                    active: to_set(&active[m]),
                    standby: to_set(&standby[m]),
                },
            )
        })
        .collect()
}
