//! Indexed state of one assignment run: interned subtopologies, tasks as `u32`, members sorted
//! by (process id, member id), per-process and per-member loads, and the dynamic quotas.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BinaryHeap};

use super::{AssignorError, GroupSpec};
use model::TaskSet;

/// "No member" / "no value" marker for `u32` indexes.
pub(super) const NONE: u32 = u32::MAX;

/// Upper bound on the number of tasks of one run (keeps every index in `u32` and memory sane).
const MAX_TASKS: u64 = 50_000_000;

/// A load `num / den` compared exactly (cross-multiplication, no floating point).
#[derive(Clone, Copy, Debug)]
pub(super) struct Load {
    num: u64,
    den: u64,
}

impl Load {
    pub(super) fn new(num: u32, den: u32) -> Load {
        Load {
            num: u64::from(num),
            den: u64::from(den.max(1)),
        }
    }
}

impl PartialEq for Load {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Load {}
impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        // Both factors are < 2^32, so the products fit in u64.
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

/// A per-member quota with a dynamic ceiling: `ceil(tasks / members)`; a member whose count
/// reaches the quota exactly leaves the pool and the quota is recomputed over the rest, so at
/// most `tasks mod members` members end up at the ceiling. The quota never increases.
pub(super) struct Quota {
    remaining_tasks: u64,
    remaining_members: u64,
    pub(super) quota: u64,
    left: Vec<bool>,
}

impl Quota {
    pub(super) fn new(tasks: u64, members: usize) -> Quota {
        let m = members as u64;
        Quota {
            remaining_tasks: tasks,
            remaining_members: m,
            quota: if m == 0 { 0 } else { tasks.div_ceil(m) },
            left: vec![false; members],
        }
    }

    /// Whether a member with `count` tasks may take one more sticky task.
    pub(super) fn allows(&self, count: u32) -> bool {
        u64::from(count) < self.quota
    }

    /// Record that member `m` now has `count` tasks for this quota.
    pub(super) fn update(&mut self, m: u32, count: u32) {
        let Some(left) = self.left.get_mut(m as usize) else {
            return;
        };
        if *left || u64::from(count) != self.quota {
            return;
        }
        *left = true;
        self.remaining_tasks = self.remaining_tasks.saturating_sub(self.quota);
        self.remaining_members = self.remaining_members.saturating_sub(1);
        let next = if self.remaining_members == 0 {
            0
        } else {
            self.remaining_tasks.div_ceil(self.remaining_members)
        };
        self.quota = self.quota.min(next);
    }
}

/// Interned input plus the mutable placement state.
pub(super) struct State {
    // ---- topology ----
    pub(super) sub_ids: Vec<String>,
    pub(super) sub_base: Vec<u32>,
    pub(super) sub_stateful: Vec<bool>,
    pub(super) task_sub: Vec<u32>,
    pub(super) num_tasks: u32,
    // ---- members and processes (members sorted by process id, then member id) ----
    pub(super) member_ids: Vec<String>,
    pub(super) member_proc: Vec<u32>,
    /// Members of process `p` are `proc_start[p]..proc_start[p + 1]`.
    pub(super) proc_start: Vec<u32>,
    pub(super) num_procs: u32,
    // ---- previous state ----
    pub(super) prev_active: Vec<u32>,
    /// Ranked previous-state candidates of task `t`: `cand_members[cand_start[t]..cand_start[t+1]]`.
    pub(super) cand_start: Vec<u32>,
    pub(super) cand_members: Vec<u32>,
    /// How many of task `t`'s candidates held it as a standby or warm-up (they come first; the
    /// rest only reported offsets).
    pub(super) cand_holders: Vec<u32>,
    // ---- placement ----
    pub(super) active_owner: Vec<u32>,
    pub(super) standby_holders: Vec<Vec<u32>>,
    pub(super) member_total: Vec<u32>,
    pub(super) member_active: Vec<u32>,
    pub(super) member_stateful_active: Vec<u32>,
    pub(super) proc_total: Vec<u32>,
    pub(super) proc_stateless_active: Vec<u32>,
    /// Bumped whenever the process's load changes (for lazy heaps).
    pub(super) proc_version: Vec<u32>,
    /// Lazy min-heaps of (task count, member) per process with more than one member.
    member_heaps: Vec<BinaryHeap<Reverse<(u32, u32)>>>,
    // ---- quotas ----
    pub(super) q_stateful: Quota,
    pub(super) q_active: Quota,
    pub(super) q_total: Quota,
}

impl State {
    pub(super) fn build(spec: &GroupSpec) -> Result<State, AssignorError> {
        let tasks = TaskIndex::of(spec)?;
        let members = MemberOrder::of(spec)?;
        let previous = Previous::of(spec, &members.order, &tasks);
        let num_tasks = tasks.num_tasks;
        let num_members = members.ids.len();
        let num_procs = members.num_procs();
        let proc_start = members.proc_start;
        let member_heaps = (0..num_procs as usize)
            .map(|p| {
                let (lo, hi) = (proc_start[p], proc_start[p + 1]);
                if hi - lo > 1 {
                    (lo..hi).map(|m| Reverse((0, m))).collect()
                } else {
                    BinaryHeap::new()
                }
            })
            .collect();
        let stateful_tasks = tasks.stateful_tasks();
        let all_tasks = u64::from(num_tasks);
        // Standbys that can actually be placed: at most one copy of a task per process.
        let replicas = spec
            .configs
            .num_standby_replicas
            .min(num_procs.saturating_sub(1));
        let standby_total = stateful_tasks.saturating_mul(u64::from(replicas));
        Ok(State {
            sub_ids: tasks.sub_ids,
            sub_base: tasks.sub_base,
            sub_stateful: tasks.sub_stateful,
            task_sub: tasks.task_sub,
            num_tasks,
            member_ids: members.ids,
            member_proc: members.proc,
            proc_start,
            num_procs,
            prev_active: previous.active,
            cand_start: previous.cand_start,
            cand_members: previous.cand_members,
            cand_holders: previous.cand_holders,
            active_owner: vec![NONE; num_tasks as usize],
            standby_holders: vec![Vec::new(); num_tasks as usize],
            member_total: vec![0; num_members],
            member_active: vec![0; num_members],
            member_stateful_active: vec![0; num_members],
            proc_total: vec![0; num_procs as usize],
            proc_stateless_active: vec![0; num_procs as usize],
            proc_version: vec![0; num_procs as usize],
            member_heaps,
            q_stateful: Quota::new(stateful_tasks, num_members),
            q_active: Quota::new(all_tasks, num_members),
            q_total: Quota::new(all_tasks.saturating_add(standby_total), num_members),
        })
    }

    pub(super) fn num_members(&self) -> usize {
        self.member_ids.len()
    }

    pub(super) fn is_stateful(&self, t: u32) -> bool {
        self.sub_stateful[self.task_sub[t as usize] as usize]
    }

    pub(super) fn partition(&self, t: u32) -> u32 {
        t - self.sub_base[self.task_sub[t as usize] as usize]
    }

    pub(super) fn capacity(&self, p: u32) -> u32 {
        self.proc_start[p as usize + 1] - self.proc_start[p as usize]
    }

    pub(super) fn load(&self, p: u32) -> Load {
        Load::new(self.proc_total[p as usize], self.capacity(p))
    }

    pub(super) fn stateless_load(&self, p: u32) -> Load {
        Load::new(self.proc_stateless_active[p as usize], self.capacity(p))
    }

    /// The candidates of task `t` that held it as a standby or warm-up, then those that only
    /// reported offsets for it.
    pub(super) fn candidate_classes(&self, t: u32) -> (&[u32], &[u32]) {
        self.candidates(t)
            .split_at(self.cand_holders[t as usize] as usize)
    }

    pub(super) fn candidates(&self, t: u32) -> &[u32] {
        let (lo, hi) = (
            self.cand_start[t as usize] as usize,
            self.cand_start[t as usize + 1] as usize,
        );
        &self.cand_members[lo..hi]
    }

    /// Whether process `p` holds task `t` in any role.
    pub(super) fn holds(&self, p: u32, t: u32) -> bool {
        let owner = self.active_owner[t as usize];
        (owner != NONE && self.member_proc[owner as usize] == p)
            || self.standby_holders[t as usize]
                .iter()
                .any(|&m| self.member_proc[m as usize] == p)
    }

    /// The member of process `p` with the fewest tasks (ties: member id order).
    pub(super) fn least_loaded_member(&mut self, p: u32) -> u32 {
        let lo = self.proc_start[p as usize];
        if self.capacity(p) <= 1 {
            return lo;
        }
        let heap = &mut self.member_heaps[p as usize];
        while let Some(&Reverse((count, m))) = heap.peek() {
            if self.member_total[m as usize] == count {
                return m;
            }
            heap.pop();
        }
        // Unreachable in practice (every member always has a fresh entry); stay total.
        lo
    }

    fn bump(&mut self, m: u32) {
        let p = self.member_proc[m as usize];
        self.member_total[m as usize] += 1;
        self.proc_total[p as usize] += 1;
        self.proc_version[p as usize] = self.proc_version[p as usize].wrapping_add(1);
        if self.capacity(p) > 1 {
            let count = self.member_total[m as usize];
            self.member_heaps[p as usize].push(Reverse((count, m)));
        }
        // The total quota stays at its ceiling: when the no-two-copies-on-one-process rule
        // forces more members to the ceiling than `copies mod members`, a shrinking quota would
        // move sticky standbys between equally loaded members on every run.
    }

    pub(super) fn assign_active(&mut self, m: u32, t: u32) {
        self.active_owner[t as usize] = m;
        self.member_active[m as usize] += 1;
        if self.is_stateful(t) {
            self.member_stateful_active[m as usize] += 1;
            self.q_stateful
                .update(m, self.member_stateful_active[m as usize]);
        } else {
            let p = self.member_proc[m as usize];
            self.proc_stateless_active[p as usize] += 1;
        }
        self.q_active.update(m, self.member_active[m as usize]);
        self.bump(m);
    }

    pub(super) fn assign_standby(&mut self, m: u32, t: u32) {
        self.standby_holders[t as usize].push(m);
        self.bump(m);
    }
}

/// Tasks numbered densely: subtopologies sorted by id, each one's partitions in a run.
/// Duplicate subtopologies merge (largest task count, stateful if any).
struct TaskIndex<'a> {
    index: BTreeMap<&'a str, u32>,
    sub_ids: Vec<String>,
    sub_base: Vec<u32>,
    sub_stateful: Vec<bool>,
    task_sub: Vec<u32>,
    num_tasks: u32,
}

impl<'a> TaskIndex<'a> {
    fn of(spec: &'a GroupSpec) -> Result<TaskIndex<'a>, AssignorError> {
        let mut subs: BTreeMap<&str, (i32, bool)> = BTreeMap::new();
        for s in &spec.subtopologies {
            let e = subs.entry(s.id.as_str()).or_insert((0, false));
            e.0 = e.0.max(s.num_tasks);
            e.1 |= s.stateful;
        }
        let total: u64 = subs.values().map(|(n, _)| (*n).max(0) as u64).sum();
        if total > MAX_TASKS {
            return Err(AssignorError::new(format!(
                "{total} tasks exceed the supported maximum of {MAX_TASKS}"
            )));
        }
        let mut t = TaskIndex {
            index: BTreeMap::new(),
            sub_ids: Vec::with_capacity(subs.len()),
            sub_base: Vec::with_capacity(subs.len() + 1),
            sub_stateful: Vec::with_capacity(subs.len()),
            task_sub: Vec::with_capacity(total as usize),
            num_tasks: total as u32,
        };
        let mut base = 0u32;
        for (i, (id, (n, stateful))) in subs.into_iter().enumerate() {
            let n = n.max(0) as u32;
            t.index.insert(id, i as u32);
            t.sub_ids.push(id.to_string());
            t.sub_base.push(base);
            t.sub_stateful.push(stateful);
            t.task_sub.extend(std::iter::repeat_n(i as u32, n as usize));
            base += n;
        }
        t.sub_base.push(base);
        Ok(t)
    }

    /// The task number of a partition of a subtopology, if the topology has it.
    fn task(&self, sub: &str, partition: i32) -> Option<u32> {
        let s = *self.index.get(sub)? as usize;
        let len = self.sub_base[s + 1] - self.sub_base[s];
        if partition < 0 || partition as u32 >= len {
            return None;
        }
        Some(self.sub_base[s] + partition as u32)
    }

    /// Append the numbers of the tasks of `set` the topology has.
    fn tasks(&self, set: &TaskSet, out: &mut Vec<u32>) {
        for (sub, parts) in set.subtopologies() {
            let Some(&s) = self.index.get(sub) else {
                continue;
            };
            let (lo, hi) = (self.sub_base[s as usize], self.sub_base[s as usize + 1]);
            for p in parts.iter() {
                if p >= 0 && (p as u32) < hi - lo {
                    out.push(lo + p as u32);
                }
            }
        }
    }

    fn stateful_tasks(&self) -> u64 {
        (0..self.sub_ids.len())
            .filter(|&s| self.sub_stateful[s])
            .map(|s| u64::from(self.sub_base[s + 1] - self.sub_base[s]))
            .sum()
    }
}

/// Members sorted by (process id, member id), with their processes numbered in that order.
struct MemberOrder {
    /// Indexes into the spec's members, in this order.
    order: Vec<usize>,
    ids: Vec<String>,
    proc: Vec<u32>,
    /// Members of process `p` are `proc_start[p]..proc_start[p + 1]`.
    proc_start: Vec<u32>,
}

impl MemberOrder {
    fn of(spec: &GroupSpec) -> Result<MemberOrder, AssignorError> {
        let mut ids: Vec<&str> = spec.members.iter().map(|m| m.member_id.as_str()).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(AssignorError::new(format!(
                "member id '{}' appears more than once in the group spec",
                w[0]
            )));
        }
        if spec.members.len() >= NONE as usize {
            return Err(AssignorError::new("too many members"));
        }
        let mut order: Vec<usize> = (0..spec.members.len()).collect();
        order.sort_by_key(|&i| {
            let m = &spec.members[i];
            (m.process_id.as_str(), m.member_id.as_str())
        });
        let mut o = MemberOrder {
            ids: Vec::with_capacity(order.len()),
            proc: Vec::with_capacity(order.len()),
            proc_start: Vec::new(),
            order: Vec::new(),
        };
        let mut last_proc: Option<&str> = None;
        for (i, &src) in order.iter().enumerate() {
            let m = &spec.members[src];
            if last_proc != Some(m.process_id.as_str()) {
                o.proc_start.push(i as u32);
                last_proc = Some(m.process_id.as_str());
            }
            o.ids.push(m.member_id.clone());
            o.proc.push((o.proc_start.len() - 1) as u32);
        }
        o.proc_start.push(order.len() as u32);
        o.order = order;
        Ok(o)
    }

    fn num_procs(&self) -> u32 {
        (self.proc_start.len() - 1) as u32
    }
}

/// The previous assignment: each task's previous active owner, and its ranked candidates
/// (members that held it as a standby or warm-up first, then those that only reported an
/// offset; by offset, highest first).
struct Previous {
    active: Vec<u32>,
    cand_start: Vec<u32>,
    cand_members: Vec<u32>,
    cand_holders: Vec<u32>,
}

impl Previous {
    fn of(spec: &GroupSpec, order: &[usize], tasks: &TaskIndex) -> Previous {
        let num_tasks = tasks.num_tasks as usize;
        let mut active = vec![NONE; num_tasks];
        // (task, standby-or-warmup first: 0 else 1, offset descending, member)
        let mut cands: Vec<(u32, u8, Reverse<i64>, u32)> = Vec::new();
        let (mut buf, mut held, mut offsets) = (Vec::new(), Vec::new(), Vec::new());
        for (mi, &src) in order.iter().enumerate() {
            let m = &spec.members[src];
            let mi = mi as u32;
            buf.clear();
            tasks.tasks(&m.current.active, &mut buf);
            for &t in &buf {
                let slot = &mut active[t as usize];
                if *slot == NONE {
                    *slot = mi;
                }
            }
            held.clear();
            tasks.tasks(&m.current.standby, &mut held);
            tasks.tasks(&m.current.warmup, &mut held);
            held.sort_unstable();
            held.dedup();
            offsets.clear();
            offsets.extend(m.task_offsets.iter().filter_map(|(task, &offset)| {
                Some((tasks.task(&task.subtopology, task.partition)?, offset))
            }));
            offsets.sort_unstable();
            offsets.dedup_by_key(|e: &mut (u32, i64)| e.0);
            for &t in &held {
                let offset = offsets
                    .binary_search_by_key(&t, |e| e.0)
                    .map_or(0, |i| offsets[i].1);
                cands.push((t, 0, Reverse(offset), mi));
            }
            for &(t, offset) in &offsets {
                if held.binary_search(&t).is_err() {
                    cands.push((t, 1, Reverse(offset), mi));
                }
            }
        }
        cands.sort_unstable();
        let mut cand_start = vec![0u32; num_tasks + 1];
        for c in &cands {
            cand_start[c.0 as usize + 1] += 1;
        }
        for i in 0..num_tasks {
            cand_start[i + 1] += cand_start[i];
        }
        let mut cand_holders = vec![0u32; num_tasks];
        for c in cands.iter().filter(|c| c.1 == 0) {
            cand_holders[c.0 as usize] += 1;
        }
        Previous {
            active,
            cand_start,
            cand_members: cands.iter().map(|c| c.3).collect(),
            cand_holders,
        }
    }
}
