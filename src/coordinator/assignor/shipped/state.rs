//! The assignor's working state: Apache's `LocalState` and `ProcessState`, indexed.
//!
//! Members are numbered in the iteration order of the broker's member map, processes in the
//! iteration order of `processIdToState`, and each process lists its members in the iteration
//! order of its `memberToTaskCounts`: those three orders are where Apache's ties come from.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::super::java::{java_string_cmp, JavaHashMap, JavaPriorityQueue};
use super::super::{GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, ShippedVersion};

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
    /// Processes whose `assignedTasks` contain the task.
    pub task_procs: Vec<Vec<u32>>,
    pub active_owner: Vec<u32>,
    pub standby_members: Vec<Vec<u32>>,

    /// `activeTaskToPrevMember`.
    pub prev_active: Vec<u32>,
    /// `standbyTaskToPrevMember`: members in Apache's list order (4.4: ranked).
    pub prev_standby: Vec<Vec<u32>>,

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
            task_procs: Vec::new(),
            active_owner: Vec::new(),
            standby_members: Vec::new(),
            prev_active: Vec::new(),
            prev_standby: Vec::new(),
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
        self.task_procs = vec![Vec::new(); t];
        self.active_owner = vec![NONE; t];
        self.standby_members = vec![Vec::new(); t];
        self.prev_active = vec![NONE; t];
        self.prev_standby = vec![Vec::new(); t];
    }

    /// `processIdToState = new HashMap<>(members)`, filled in member order: 4.2/4.3 with
    /// `putIfAbsent` (tail insertion, eager resize), 4.4 with `computeIfAbsent` (head insertion,
    /// lazy resize). Each process's `memberToTaskCounts` is a `new HashMap<>()`.
    fn build_processes(&mut self) {
        let n = self.members.len();
        let mut procs: JavaHashMap<&str> = JavaHashMap::with_capacity(n);
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
        let mut member_maps: Vec<JavaHashMap<&str>> = (0..np).map(|_| JavaHashMap::new()).collect();
        let mut by_entry: Vec<Vec<u32>> = vec![Vec::new(); np];
        for (m, &e) in member_entry.iter().enumerate() {
            let p = rank[e];
            self.member_proc[m] = p;
            member_maps[p as usize].put(self.members[m].member_id.as_str());
            by_entry[p as usize].push(m as u32);
        }
        // Entry i of a process's member map is its i-th member in member order.
        self.proc_members = member_maps
            .iter()
            .zip(&by_entry)
            .map(|(map, ms)| map.order().into_iter().map(|e| ms[e]).collect())
            .collect();
        self.proc_task_count = vec![0; np];
        self.proc_load = vec![0.0; np];
        self.proc_heap = vec![None; np];
    }

    fn task_index(&self, subs: &HashMap<&str, u32>, sub: &str, partition: i32) -> Option<u32> {
        let s = *subs.get(sub)? as usize;
        let start = self.sub_start[s];
        let end = self
            .sub_start
            .get(s + 1)
            .copied()
            .unwrap_or(self.task_sub.len() as u32);
        (partition >= 0 && (partition as u32) < end - start).then(|| start + partition as u32)
    }

    /// Who held each task: the last member (in member order) with it as active, and the
    /// members with it as standby (4.4: also those reporting offsets for it, ranked).
    fn build_previous(&mut self) {
        let subs: HashMap<&str, u32> = self
            .sub_ids
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i as u32))
            .collect();
        // 4.4 candidates: (member, is previous standby, offset sum).
        let mut ranked: Vec<Vec<(u32, bool, i64)>> = Vec::new();
        let v44 = self.version == ShippedVersion::V4_4;
        if v44 {
            ranked = vec![Vec::new(); self.task_sub.len()];
        }
        for m in 0..self.members.len() {
            let spec = self.members[m];
            for (sub, p) in spec.current.active.iter() {
                if let Some(t) = self.task_index(&subs, sub, p) {
                    self.prev_active[t as usize] = m as u32;
                }
            }
            for (sub, p) in spec.current.standby.iter() {
                if let Some(t) = self.task_index(&subs, sub, p) {
                    if v44 {
                        let offset = spec
                            .task_offsets
                            .get(&crate::model::TaskId::new(sub, p))
                            .copied()
                            .unwrap_or(0);
                        ranked[t as usize].push((m as u32, true, offset));
                    } else {
                        self.prev_standby[t as usize].push(m as u32);
                    }
                }
            }
            if v44 {
                for (task, &offset) in &spec.task_offsets {
                    if spec.current.standby.contains_task(task) {
                        continue;
                    }
                    if let Some(t) = self.task_index(&subs, &task.subtopology, task.partition) {
                        ranked[t as usize].push((m as u32, false, offset));
                    }
                }
            }
        }
        if v44 {
            for (t, mut c) in ranked.into_iter().enumerate() {
                // STANDBY_CANDIDATE_ORDER: previous standbys first, then offset sum
                // descending; a stable sort (List.sort) keeps member order on ties.
                c.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)));
                self.prev_standby[t] = c.into_iter().map(|e| e.0).collect();
            }
        }
    }

    pub fn num_tasks(&self) -> u32 {
        self.task_sub.len() as u32
    }

    pub fn holds(&self, p: u32, t: u32) -> bool {
        self.task_procs[t as usize].contains(&p)
    }

    /// `TaskId.toString()`: `subtopology_partition`.
    pub fn task_name(&self, t: u32) -> String {
        format!(
            "{}_{}",
            self.sub_ids[self.task_sub[t as usize] as usize], self.task_partition[t as usize]
        )
    }

    /// `(partition, subtopology)`, as a sortable key (subtopologies are numbered in id order).
    pub fn partition_major(&self, t: u32) -> (i32, u32) {
        (self.task_partition[t as usize], self.task_sub[t as usize])
    }

    /// `ProcessState.addTaskInternal`: returns the member's new task count.
    fn add_task_internal(&mut self, m: u32, t: u32, active: bool) -> i32 {
        let p = self.member_proc[m as usize];
        self.proc_task_count[p as usize] += 1;
        let procs = &mut self.task_procs[t as usize];
        if !procs.contains(&p) {
            procs.push(p);
        }
        if active {
            self.active_owner[t as usize] = m;
        } else {
            self.standby_members[t as usize].push(m);
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

    /// `Comparator.comparingDouble(ProcessState::load)` (`Double.compare`).
    pub fn by_load(&self) -> impl Fn(&u32, &u32) -> Ordering + '_ {
        move |a, b| self.proc_load[*a as usize].total_cmp(&self.proc_load[*b as usize])
    }

    /// A queue of all processes by load, filled in `processIdToState.values()` order.
    pub fn process_queue(&self) -> JavaPriorityQueue<u32> {
        let mut q = JavaPriorityQueue::with_capacity(self.proc_members.len());
        for p in 0..self.proc_members.len() as u32 {
            q.offer(p, self.by_load());
        }
        q
    }

    /// Every member of the spec, with its tasks (possibly none).
    pub fn output(&self) -> GroupAssignment {
        let n = self.members.len();
        let mut out: Vec<MemberAssignment> = vec![MemberAssignment::default(); n];
        for t in 0..self.num_tasks() {
            let sub = self.sub_ids[self.task_sub[t as usize] as usize];
            let p = self.task_partition[t as usize];
            let owner = self.active_owner[t as usize];
            if owner != NONE {
                out[owner as usize].active.insert(sub, p);
            }
            for &m in &self.standby_members[t as usize] {
                out[m as usize].standby.insert(sub, p);
            }
        }
        self.members
            .iter()
            .zip(out)
            .map(|(m, a)| (m.member_id.clone(), a))
            .collect()
    }
}
