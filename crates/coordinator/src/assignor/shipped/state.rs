//! The assignor's working state: Apache's `LocalState` and `ProcessState`, indexed.
//!
//! Members are numbered in the iteration order of the broker's member map, processes in the
//! iteration order of `processIdToState`, and each process lists its members in the iteration
//! order of its `memberToTaskCounts`: those three orders are where Apache's ties come from.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::super::{GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, ShippedVersion};
use crate::java::{java_string_cmp, JavaHashMap, JavaPriorityQueue};
use model::TaskSet;

pub(super) const NONE: u32 = u32::MAX;

/// A member-by-load heap entry: `(member, task count when queued)`, Apache's
/// `AbstractMap.SimpleEntry<String, Integer>`.
pub(super) type LoadEntry = (u32, i32);

pub(super) struct State<'a> {
    pub version: ShippedVersion,
    pub num_standby_replicas: i32,

    // Quotas (`LocalState`), Java `int` arithmetic.
    pub total_active_tasks: i32,
    pub total_tasks: i32,
    pub members_with_active_capacity: i32,
    pub members_with_task_capacity: i32,
    pub active_tasks_per_member: i32,
    pub total_tasks_per_member: i32,

    // Members, in member-map iteration order.
    pub members: Vec<&'a MemberSpec>,
    pub member_proc: Vec<u32>,
    /// `memberToTaskCounts`: active plus standby tasks assigned so far.
    pub member_count: Vec<i32>,

    // Processes, numbered in `processIdToState` iteration order.
    pub proc_members: Vec<Vec<u32>>,
    pub proc_task_count: Vec<i32>,
    pub proc_load: Vec<f64>,
    /// `membersByLoad`: built lazily, dropped whenever a task goes to a chosen member.
    pub proc_heap: Vec<Option<JavaPriorityQueue<LoadEntry>>>,

    // Tasks: subtopologies in `TopologyDescriber.subtopologies()` order (sorted ids), task
    // `t` = `sub_start[s] + partition`.
    pub sub_ids: Vec<&'a str>,
    pub sub_stateful: Vec<bool>,
    pub sub_start: Vec<u32>,
    pub task_sub: Vec<u32>,
    pub task_partition: Vec<i32>,
    pub active_owner: Vec<u32>,
    /// Standby holders, `standby_stride` slots per task (a task has at most one standby per
    /// process and at most `num_standby_replicas`); `standby_len` are in use.
    pub standby_slots: Vec<u32>,
    pub standby_len: Vec<u32>,
    pub standby_stride: usize,

    /// `activeTaskToPrevMember`.
    pub prev_active: Vec<u32>,
    /// `standbyTaskToPrevMember`: task `t`'s members, in Apache's list order (4.4: ranked),
    /// are `prev_standby_members[prev_standby_start[t]..prev_standby_start[t + 1]]`.
    pub prev_standby_start: Vec<u32>,
    pub prev_standby_members: Vec<u32>,

    pub warnings: Vec<String>,
}

/// `computeTasksPerMember`: ceil(tasks / members), 0 without members (Java `int` division).
pub(super) fn tasks_per_member(tasks: i32, members: i32) -> i32 {
    if members == 0 {
        return 0;
    }
    let mut per = tasks.wrapping_div(members);
    if tasks.wrapping_rem(members) > 0 {
        per += 1;
    }
    per
}

/// Member order: the member map is a `new HashMap<>()` filled by `put` in Vec order; a
/// repeated id keeps its first place and takes the later spec.
fn member_order(spec: &GroupSpec) -> Vec<&MemberSpec> {
    let mut map: JavaHashMap<&str> = JavaHashMap::new();
    let mut latest: Vec<usize> = Vec::with_capacity(spec.members.len());
    for (i, m) in spec.members.iter().enumerate() {
        let e = map.put(m.member_id.as_str());
        if e == latest.len() {
            latest.push(i);
        } else {
            latest[e] = i;
        }
    }
    map.order()
        .into_iter()
        .map(|e| &spec.members[latest[e]])
        .collect()
}

/// Subtopologies as `TopologyMetadata.subtopologies()` lists them: the keys of a `TreeMap`
/// (a repeated id takes its last entry).
fn subtopologies(spec: &GroupSpec) -> Vec<(&str, i32, bool)> {
    let mut subs: Vec<(&str, i32, bool)> = Vec::new();
    for s in &spec.subtopologies {
        match subs.iter_mut().find(|e| e.0 == s.id) {
            Some(e) => *e = (s.id.as_str(), s.num_tasks, s.stateful),
            None => subs.push((s.id.as_str(), s.num_tasks, s.stateful)),
        }
    }
    subs.sort_by(|a, b| java_string_cmp(a.0, b.0));
    subs
}

impl<'a> State<'a> {
    pub fn build(spec: &'a GroupSpec, version: ShippedVersion) -> State<'a> {
        let members = member_order(spec);
        let subs = subtopologies(spec);
        let n = members.len();
        // 4.2/4.3 parse "num.standby.replicas"; 4.4 reads AssignmentConfigs: the same int.
        let num_standby_replicas = spec.configs.num_standby_replicas as i32;

        let mut st = State {
            version,
            num_standby_replicas,
            total_active_tasks: 0,
            total_tasks: 0,
            members_with_active_capacity: n as i32,
            members_with_task_capacity: n as i32,
            active_tasks_per_member: 0,
            total_tasks_per_member: 0,
            member_proc: vec![NONE; n],
            member_count: vec![0; n],
            members,
            proc_members: Vec::new(),
            proc_task_count: Vec::new(),
            proc_load: Vec::new(),
            proc_heap: Vec::new(),
            sub_ids: Vec::with_capacity(subs.len()),
            sub_stateful: Vec::with_capacity(subs.len()),
            sub_start: Vec::with_capacity(subs.len()),
            task_sub: Vec::new(),
            task_partition: Vec::new(),
            active_owner: Vec::new(),
            standby_slots: Vec::new(),
            standby_len: Vec::new(),
            standby_stride: 0,
            prev_active: Vec::new(),
            prev_standby_start: Vec::new(),
            prev_standby_members: Vec::new(),
            warnings: Vec::new(),
        };
        st.build_tasks(&subs);
        st.active_tasks_per_member =
            tasks_per_member(st.total_active_tasks, st.members_with_active_capacity);
        st.total_tasks_per_member = tasks_per_member(st.total_tasks, st.members_with_task_capacity);
        st.build_processes();
        st.build_previous();
        st
    }

    /// Task numbering and the initial totals (negative partition counts count, as in Java).
    fn build_tasks(&mut self, subs: &[(&'a str, i32, bool)]) {
        for (s, &(id, num, stateful)) in subs.iter().enumerate() {
            self.total_tasks = self.total_tasks.wrapping_add(num);
            self.total_active_tasks = self.total_active_tasks.wrapping_add(num);
            if stateful {
                self.total_tasks = self
                    .total_tasks
                    .wrapping_add(num.wrapping_mul(self.num_standby_replicas));
            }
            self.sub_ids.push(id);
            self.sub_stateful.push(stateful);
            self.sub_start.push(self.task_sub.len() as u32);
            for p in 0..num.max(0) {
                self.task_sub.push(s as u32);
                self.task_partition.push(p);
            }
        }
        let t = self.task_sub.len();
        self.active_owner = vec![NONE; t];
        self.prev_active = vec![NONE; t];
    }

    /// `processIdToState = new HashMap<>(members)`, filled in member order: 4.2/4.3 with
    /// `putIfAbsent` (tail insertion, eager resize), 4.4 with `computeIfAbsent` (head insertion,
    /// lazy resize); 4.1 with `putIfAbsent` into a `new HashMap<>()` (default capacity). Each
    /// process's `memberToTaskCounts` is a `new HashMap<>()`.
    fn build_processes(&mut self) {
        let n = self.members.len();
        let mut procs: JavaHashMap<&str> = match self.version {
            ShippedVersion::V4_1 => JavaHashMap::new(),
            _ => JavaHashMap::with_capacity(n),
        };
        let mut member_entry = Vec::with_capacity(n);
        for m in &self.members {
            let e = match self.version {
                ShippedVersion::V4_4 => procs.compute_if_absent(m.process_id.as_str()),
                _ => procs.put(m.process_id.as_str()),
            };
            member_entry.push(e);
        }
        let order = procs.order();
        let mut rank = vec![0u32; order.len()];
        for (r, &e) in order.iter().enumerate() {
            rank[e] = r as u32;
        }
        let np = order.len();
        let mut by_entry: Vec<Vec<u32>> = vec![Vec::new(); np];
        for (m, &e) in member_entry.iter().enumerate() {
            let p = rank[e];
            self.member_proc[m] = p;
            by_entry[p as usize].push(m as u32);
        }
        // Entry i of a process's member map is its i-th member in member order; a map of one
        // key needs no emulation.
        self.proc_members = by_entry
            .into_iter()
            .map(|ms| {
                if ms.len() < 2 {
                    return ms;
                }
                let mut map: JavaHashMap<&str> = JavaHashMap::new();
                for &m in &ms {
                    map.put(self.members[m as usize].member_id.as_str());
                }
                map.order().into_iter().map(|e| ms[e]).collect()
            })
            .collect();
        self.standby_stride = (self.num_standby_replicas.max(0) as usize).min(np);
        if self.standby_stride > 0 {
            self.standby_slots = vec![NONE; self.task_sub.len() * self.standby_stride];
            self.standby_len = vec![0; self.task_sub.len()];
        }
        self.proc_task_count = vec![0; np];
        self.proc_load = vec![0.0; np];
        self.proc_heap = vec![None; np];
    }

    /// Who held each task: the last member (in member order) with it as active, and the
    /// members with it as standby (4.4: also those reporting offsets for it, ranked).
    fn build_previous(&mut self) {
        let lookup = TaskLookup::new(self);
        let v44 = self.version == ShippedVersion::V4_4;
        // Candidates (task, member, is previous standby, offset sum), in member order.
        let mut candidates: Vec<(u32, u32, bool, i64)> = Vec::new();
        let mut offsets: FastMap<u32, i64> = FastMap::default();
        for m in 0..self.members.len() {
            let spec = self.members[m];
            let m = m as u32;
            for t in lookup.indices(&spec.current.active) {
                self.prev_active[t as usize] = m;
            }
            if !v44 {
                candidates.extend(
                    lookup
                        .indices(&spec.current.standby)
                        .map(|t| (t, m, true, 0)),
                );
                continue;
            }
            // reportedOffsetSum: the member's offset for the task, 0 if none.
            offsets.clear();
            for (task, &offset) in &spec.task_offsets {
                if let Some(t) = lookup.index(&task.subtopology, task.partition) {
                    offsets.insert(t, offset);
                }
            }
            for t in lookup.indices(&spec.current.standby) {
                let offset = offsets.remove(&t).unwrap_or(0);
                candidates.push((t, m, true, offset));
            }
            // The other offset reporters (the map's order is irrelevant: a member adds at
            // most one candidate per task, and members come in order).
            candidates.extend(offsets.iter().map(|(&t, &o)| (t, m, false, o)));
        }
        // Grouped by task, in member order within a task (a stable sort). 4.4 then ranks them
        // by STANDBY_CANDIDATE_ORDER: previous standbys first, then offset sum descending,
        // again stably (List.sort), so ties keep member order.
        if v44 {
            candidates.sort_by(|a, b| a.0.cmp(&b.0).then(b.2.cmp(&a.2)).then(b.3.cmp(&a.3)));
        } else {
            candidates.sort_by_key(|c| c.0);
        }
        let mut start = vec![0u32; self.task_sub.len() + 1];
        for c in &candidates {
            start[c.0 as usize + 1] += 1;
        }
        for t in 0..self.task_sub.len() {
            start[t + 1] += start[t];
        }
        self.prev_standby_start = start;
        self.prev_standby_members = candidates.into_iter().map(|c| c.1).collect();
    }

    /// The previous standbys (4.4: ranked candidates) of `t`.
    pub fn prev_standby(&self, t: u32) -> &[u32] {
        let s = self.prev_standby_start[t as usize] as usize;
        &self.prev_standby_members[s..self.prev_standby_start[t as usize + 1] as usize]
    }

    pub fn num_tasks(&self) -> u32 {
        self.task_sub.len() as u32
    }

    /// `ProcessState.hasTask`: a member of `p` has `t`, active or standby.
    pub fn holds(&self, p: u32, t: u32) -> bool {
        let owner = self.active_owner[t as usize];
        if owner != NONE && self.member_proc[owner as usize] == p {
            return true;
        }
        self.standbys(t)
            .iter()
            .any(|&m| self.member_proc[m as usize] == p)
    }

    /// The members holding a standby of `t`.
    pub fn standbys(&self, t: u32) -> &[u32] {
        if self.standby_stride == 0 {
            return &[];
        }
        let start = t as usize * self.standby_stride;
        &self.standby_slots[start..start + self.standby_len[t as usize] as usize]
    }

    /// `TaskId.toString()`: `subtopology_partition`.
    pub fn task_name(&self, t: u32) -> String {
        format!(
            "{}_{}",
            self.sub_ids[self.task_sub[t as usize] as usize], self.task_partition[t as usize]
        )
    }

    /// The tasks of the subtopologies `keep` selects, ordered by (partition, subtopology):
    /// Apache's sort of task ids by partition first, made without sorting (tasks are numbered
    /// by subtopology, in id order, then partition).
    pub fn partition_major_order(&self, keep: impl Fn(u32) -> bool) -> Vec<u32> {
        let subs = self.sub_ids.len();
        let end = |s: usize| {
            self.sub_start
                .get(s + 1)
                .copied()
                .unwrap_or(self.task_sub.len() as u32)
        };
        let mut open: Vec<(u32, u32)> = (0..subs)
            .filter(|&s| keep(s as u32))
            .map(|s| (self.sub_start[s], end(s) - self.sub_start[s]))
            .filter(|&(_, len)| len > 0)
            .collect();
        let mut out = Vec::with_capacity(open.iter().map(|&(_, len)| len as usize).sum());
        let mut p = 0;
        while !open.is_empty() {
            out.extend(open.iter().map(|&(start, _)| start + p));
            p += 1;
            open.retain(|&(_, len)| len > p);
        }
        out
    }

    /// `ProcessState.addTaskInternal`: returns the member's new task count.
    fn add_task_internal(&mut self, m: u32, t: u32, active: bool) -> i32 {
        let p = self.member_proc[m as usize];
        self.proc_task_count[p as usize] += 1;
        if active {
            self.active_owner[t as usize] = m;
        } else {
            // Callers never place a standby on a process holding the task, so a task has at
            // most one standby per process.
            let len = &mut self.standby_len[t as usize];
            self.standby_slots[t as usize * self.standby_stride + *len as usize] = m;
            *len += 1;
        }
        self.member_count[m as usize] += 1;
        let capacity = self.proc_members[p as usize].len();
        self.proc_load[p as usize] = if capacity == 0 {
            -1.0
        } else {
            f64::from(self.proc_task_count[p as usize]) / capacity as f64
        };
        self.member_count[m as usize]
    }

    /// `ProcessState.addTask`: a chosen member gets the task; the member heap is dropped.
    pub fn add_task(&mut self, m: u32, t: u32, active: bool) -> i32 {
        let c = self.add_task_internal(m, t, active);
        self.proc_heap[self.member_proc[m as usize] as usize] = None;
        c
    }

    /// `ProcessState.addTaskToLeastLoadedMember`: -1 when the process has no member.
    pub fn add_task_to_least_loaded_member(&mut self, p: u32, t: u32, active: bool) -> i32 {
        let members = &self.proc_members[p as usize];
        match members.len() {
            0 => return -1,
            1 => return self.add_task_internal(members[0], t, active),
            _ => {}
        }
        let by_value = |a: &LoadEntry, b: &LoadEntry| a.1.cmp(&b.1);
        let mut heap = match self.proc_heap[p as usize].take() {
            Some(h) => h,
            None => {
                let mut h = JavaPriorityQueue::with_capacity(members.len());
                for &m in members {
                    h.offer((m, self.member_count[m as usize]), by_value);
                }
                h
            }
        };
        let (m, _) = heap.poll(by_value).expect("a process with members");
        let c = self.add_task_internal(m, t, active);
        heap.offer((m, c), by_value);
        self.proc_heap[p as usize] = Some(heap);
        c
    }

    /// `maybeUpdateActiveTasksPerMember`: a member reaching the quota leaves the pool.
    pub fn maybe_update_active_quota(&mut self, count: i32) {
        if count == self.active_tasks_per_member {
            self.members_with_active_capacity -= 1;
            self.total_active_tasks = self.total_active_tasks.wrapping_sub(count);
            self.active_tasks_per_member =
                tasks_per_member(self.total_active_tasks, self.members_with_active_capacity);
        }
    }

    /// `maybeUpdateTotalTasksPerMember`.
    pub fn maybe_update_total_quota(&mut self, count: i32) {
        if count == self.total_tasks_per_member {
            self.members_with_task_capacity -= 1;
            self.total_tasks = self.total_tasks.wrapping_sub(count);
            self.total_tasks_per_member =
                tasks_per_member(self.total_tasks, self.members_with_task_capacity);
        }
    }

    /// A queue of all processes by load, filled in `processIdToState.values()` order.
    pub fn process_queue(&self) -> ProcessQueue {
        let mut q = JavaPriorityQueue::with_capacity(self.proc_members.len());
        for p in 0..self.proc_members.len() as u32 {
            self.enqueue(&mut q, p);
        }
        q
    }

    /// `queue.add(process)`, keyed by the process's load now.
    pub fn enqueue(&self, q: &mut ProcessQueue, p: u32) {
        q.offer((self.proc_load[p as usize], p), by_queued_load);
    }

    /// Every member of the spec, with its tasks (possibly none).
    pub fn output(&self) -> GroupAssignment {
        let active = self.by_member(|t, out| {
            let owner = self.active_owner[t as usize];
            if owner != NONE {
                out(owner);
            }
        });
        let standby = self.by_member(|t, out| self.standbys(t).iter().for_each(|&m| out(m)));
        let ids: Vec<Arc<str>> = self.sub_ids.iter().map(|&s| Arc::from(s)).collect();
        self.members
            .iter()
            .enumerate()
            .map(|(m, spec)| {
                let tasks = MemberAssignment {
                    active: self.task_set(&ids, active.of(m)),
                    standby: self.task_set(&ids, standby.of(m)),
                };
                (spec.member_id.clone(), tasks)
            })
            .collect()
    }

    /// Each member's tasks in task order, as one flat array (a counting sort: no per-member
    /// vectors to grow).
    fn by_member(&self, holders: impl Fn(u32, &mut dyn FnMut(u32))) -> PerMember {
        let n = self.members.len();
        let mut start = vec![0u32; n + 1];
        for t in 0..self.num_tasks() {
            holders(t, &mut |m| start[m as usize + 1] += 1);
        }
        for m in 0..n {
            start[m + 1] += start[m];
        }
        let mut fill = start.clone();
        let mut tasks = vec![0u32; start[n] as usize];
        for t in 0..self.num_tasks() {
            holders(t, &mut |m| {
                tasks[fill[m as usize] as usize] = t;
                fill[m as usize] += 1;
            });
        }
        PerMember { start, tasks }
    }

    /// Tasks in index order (so grouped by subtopology) to a TaskSet, built in bulk.
    fn task_set(&self, ids: &[Arc<str>], tasks: &[u32]) -> TaskSet {
        TaskSet::from_shared(
            tasks
                .iter()
                .map(|&t| {
                    let sub = &ids[self.task_sub[t as usize] as usize];
                    (Arc::clone(sub), self.task_partition[t as usize])
                })
                .collect(),
        )
    }
}

/// Processes by load (`Comparator.comparingDouble(ProcessState::load)`). Each entry carries
/// the load it was queued with: a queued process's load cannot change (Apache polls a process,
/// gives it a task, and adds it back), and a key in the entry saves a lookup per comparison.
pub(super) type ProcessQueue = JavaPriorityQueue<(f64, u32)>;

/// `Double.compare` of the queued loads.
fn by_queued_load(a: &(f64, u32), b: &(f64, u32)) -> Ordering {
    a.0.total_cmp(&b.0)
}

/// `queue.poll()`: the least-loaded process.
pub(super) fn dequeue(q: &mut ProcessQueue) -> Option<u32> {
    q.poll(by_queued_load).map(|(_, p)| p)
}

/// Tasks per member: member `m`'s are `tasks[start[m]..start[m + 1]]`.
struct PerMember {
    start: Vec<u32>,
    tasks: Vec<u32>,
}

impl PerMember {
    fn of(&self, m: usize) -> &[u32] {
        &self.tasks[self.start[m] as usize..self.start[m + 1] as usize]
    }
}

/// Task id to task index, for the tasks of the topology.
struct TaskLookup<'a> {
    subs: FastMap<&'a str, u32>,
    /// `sub_start` plus the task count at the end.
    bounds: Vec<u32>,
}

impl<'a> TaskLookup<'a> {
    fn new(st: &State<'a>) -> TaskLookup<'a> {
        let subs = st
            .sub_ids
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i as u32))
            .collect();
        let mut bounds = st.sub_start.clone();
        bounds.push(st.task_sub.len() as u32);
        TaskLookup { subs, bounds }
    }

    fn range(&self, sub: &str) -> Option<(u32, u32)> {
        let s = *self.subs.get(sub)? as usize;
        Some((self.bounds[s], self.bounds[s + 1] - self.bounds[s]))
    }

    fn index(&self, sub: &str, partition: i32) -> Option<u32> {
        let (start, len) = self.range(sub)?;
        (partition >= 0 && (partition as u32) < len).then(|| start + partition as u32)
    }

    /// The tasks of `set` that are in the topology (one subtopology lookup per group); tasks of
    /// unknown subtopologies or beyond the partition count are dropped.
    fn indices<'s>(&'s self, set: &'s TaskSet) -> impl Iterator<Item = u32> + 's {
        set.subtopologies().flat_map(move |(sub, partitions)| {
            let range = self.range(sub);
            partitions.iter().filter_map(move |p| {
                let (start, len) = range?;
                (p >= 0 && (p as u32) < len).then(|| start + p as u32)
            })
        })
    }
}

/// A HashMap with FNV-1a hashing: the lookups here are by short subtopology ids and task
/// indices, where SipHash's DoS resistance buys nothing and costs most of the build time.
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}
