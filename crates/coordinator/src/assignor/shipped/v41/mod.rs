//! Kafka 4.1's `StickyTaskAssignor` (checked against 4.1.2): the algorithm before 4.2 rewrote
//! it around priority queues. Same class name, same inputs, different decisions:
//!
//! - **One quota.** `ceil(tasks / members)` for actives only; standbys have none. A member
//!   leaves the pool when its *process's* active count (not its own) equals the quota.
//! - **Task order.** Tasks are walked in `HashSet<TaskId>` order (record hash
//!   `subtopology.hashCode() * 31 + partition`), not sorted.
//! - **Task pairs.** The assignor remembers every pair of tasks that has shared a process; a
//!   process is preferred for a task if it would form a pair not seen yet
//!   ([`pairs::TaskPairs::has_new_pair`]).
//! - **Least load by scan.** `findMemberWithLeastLoad` takes the *first* process of least load
//!   in the iteration order of a `HashSet<Member>`; there is no priority queue.
//! - **Standbys** go to the previous active owner, else a previous standby, else the least
//!   loaded process lacking the task, each time only if "load balanced" (the process has a free
//!   member slot or no process is less loaded).
//!
//! `Member` (processId, memberId) overrides neither `equals` nor `hashCode`, so those
//! `HashSet<Member>` orders come from HotSpot identity hash codes, and ties between equally
//! loaded processes are settled by them. A 4.1 broker's result therefore depends on how many
//! identity hashes its coordinator thread drew before, not on the group alone; the emulation
//! draws them from an explicit [`IdentityHashes`] generator ([`objects`]), which the oracle test
//! seeds with the JVM thread's own state.

mod actives;
mod least_load;
mod objects;
mod pairs;
mod process;
mod standbys;

use super::state::State;
use super::AssignorError;
use crate::java::{java_string_cmp, java_string_hash, IdentityHashes, JavaHash, JavaHashMap};
use objects::{MemberObject, Objects};
use pairs::TaskPairs;
use process::ProcessTasks;

/// Runs 4.1's `assign` on a built [`State`], drawing identity hashes from `hashes`.
pub(super) fn assign(st: &mut State, hashes: IdentityHashes) -> Result<(), AssignorError> {
    let mut v = V41::new(st, hashes)?;
    actives::assign_active(&mut v)?;
    if v.st.num_standby_replicas > 0 {
        standbys::assign_standby(&mut v);
    }
    Ok(())
}

/// 4.1's `LocalState` beside the shared [`State`] (members, processes, loads, output).
struct V41<'s, 'a> {
    st: &'s mut State<'a>,
    /// `allTasks`, `totalCapacity`, `tasksPerMember`: the active quota, Java `int`s.
    all_tasks: i32,
    total_capacity: i32,
    tasks_per_member: i32,
    pairs: TaskPairs,
    /// Each task's `TaskId.hashCode()`.
    task_hash: Vec<i32>,
    /// Each process's tasks (active and standby), in assignment order.
    proc_tasks: Vec<Vec<u32>>,
    /// Each process's task maps, for the order of `assignedTasks()`.
    proc_sets: Vec<ProcessTasks<'a>>,
    /// `assignedActiveTasks().size()` of each process.
    proc_active: Vec<i32>,
    objects: Objects,
    /// `standbyTaskToPrevMember`: each task's set of previous standbys, in iteration order
    /// (entries leave it, in place, when `assignStandby` filters it).
    prev_standby_sets: Vec<Vec<MemberObject>>,
}

impl<'s, 'a> V41<'s, 'a> {
    /// `initialize`.
    fn new(st: &'s mut State<'a>, hashes: IdentityHashes) -> Result<V41<'s, 'a>, AssignorError> {
        // Every subtopology's partition count, negative ones included (Java int sums): the
        // shared state's initial active total.
        let all_tasks = st.total_active_tasks;
        let total_capacity = st.members.len() as i32;
        let pairs = TaskPairs::new(all_tasks)?;
        let np = st.proc_members.len();
        let task_hash = (0..st.num_tasks())
            .map(|t| task_key(st, t).java_hash_code())
            .collect();
        let mut v = V41 {
            all_tasks,
            total_capacity,
            tasks_per_member: super::state::tasks_per_member(all_tasks, total_capacity),
            pairs,
            task_hash,
            proc_tasks: vec![Vec::new(); np],
            proc_sets: (0..np).map(|_| ProcessTasks::default()).collect(),
            proc_active: vec![0; np],
            objects: Objects::new(hashes, st.members.len()),
            prev_standby_sets: Vec::new(),
            st,
        };
        v.build_prev_standby_sets();
        Ok(v)
    }

    /// The members' own `Member` objects draw their identity hash when first added to a
    /// previous-standby set: in member order, one draw per member with any standby task (even
    /// one outside the topology). Each task's set gets its members in member order.
    fn build_prev_standby_sets(&mut self) {
        for m in 0..self.st.members.len() {
            if !self.st.members[m].current.standby.is_empty() {
                self.objects.hash_member(m as u32);
            }
        }
        self.prev_standby_sets = (0..self.st.num_tasks())
            .map(|t| {
                let members = self.st.prev_standby(t);
                let objs: Vec<MemberObject> =
                    members.iter().map(|&m| self.objects.member(m)).collect();
                objects::hash_set_order(&objs)
            })
            .collect();
    }

    fn proc_of(&self, m: u32) -> u32 {
        self.st.member_proc[m as usize]
    }

    /// `ProcessState.addTask` then `updateHelpers`: the pairs, and for an active the quota.
    fn place(&mut self, m: u32, t: u32, active: bool) {
        let p = self.proc_of(m) as usize;
        self.st.add_task(m, t, active);
        self.proc_tasks[p].push(t);
        let member_id = self.st.members[m as usize].member_id.as_str();
        self.proc_sets[p].add(member_id, task_key(self.st, t), active);
        let assigned = self.proc_sets[p].assigned_tasks();
        self.pairs
            .add_pairs(t, &assigned, &self.task_hash, &mut self.objects);
        if active {
            self.proc_active[p] += 1;
            self.maybe_update_tasks_per_member(self.proc_active[p]);
        }
    }

    /// `maybeUpdateTasksPerMember`, given the process's active count.
    fn maybe_update_tasks_per_member(&mut self, active_tasks: i32) {
        if active_tasks == self.tasks_per_member {
            self.total_capacity -= 1;
            self.all_tasks = self.all_tasks.wrapping_sub(active_tasks);
            self.tasks_per_member =
                super::state::tasks_per_member(self.all_tasks, self.total_capacity);
        }
    }

    /// `hasUnfulfilledQuota`: the member's own task count is under the quota.
    fn under_quota(&self, m: u32) -> bool {
        self.st.member_count[m as usize] < self.tasks_per_member
    }

    /// `TaskPairs.hasNewPair(task, process.assignedTasks())`.
    fn has_new_pair(&self, t: u32, p: u32) -> bool {
        self.pairs.has_new_pair(t, &self.proc_tasks[p as usize])
    }

    /// `TaskId.toString()` of 4.1's record: `TaskId[subtopologyId=S, partition=P]`.
    fn task_name(&self, t: u32) -> String {
        format!(
            "TaskId[subtopologyId={}, partition={}]",
            self.st.sub_ids[self.st.task_sub[t as usize] as usize],
            self.st.task_partition[t as usize]
        )
    }

    /// The iteration order of a `new HashSet<TaskId>()` holding the tasks of the subtopologies
    /// `keep` selects, added by subtopology (sorted ids) and partition.
    fn task_set_order(&self, keep: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut set: JavaHashMap<TaskKey> = JavaHashMap::new();
        for t in 0..self.st.num_tasks() {
            if keep(self.st.task_sub[t as usize]) {
                set.put(task_key(self.st, t));
            }
        }
        set.order().into_iter().map(|e| set.key(e).task).collect()
    }
}

/// Task `t` as a `TaskId` key.
fn task_key<'a>(st: &State<'a>, t: u32) -> TaskKey<'a> {
    TaskKey {
        subtopology: st.sub_ids[st.task_sub[t as usize] as usize],
        partition: st.task_partition[t as usize],
        task: t,
    }
}

/// A `TaskId` record as a `HashSet` key.
#[derive(Clone, Copy, Debug)]
struct TaskKey<'a> {
    subtopology: &'a str,
    partition: i32,
    task: u32,
}

impl PartialEq for TaskKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.task == other.task
    }
}

impl JavaHash for TaskKey<'_> {
    /// A record's `hashCode`: `31 * subtopologyId.hashCode() + partition`.
    fn java_hash_code(&self) -> i32 {
        java_string_hash(self.subtopology)
            .wrapping_mul(31)
            .wrapping_add(self.partition)
    }

    /// `TaskId.compareTo`: subtopology id, then partition.
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(
            java_string_cmp(self.subtopology, other.subtopology)
                .then(self.partition.cmp(&other.partition)),
        )
    }
}
