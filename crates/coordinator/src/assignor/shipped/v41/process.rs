//! The iteration order of 4.1's `ProcessState.assignedTasks()`, which `addPairs` walks.
//!
//! That set is built anew on each call: the process's active tasks (a `Collectors.toSet()` over
//! its member → tasks map, members in that map's order, each member's `HashSet` in its own
//! order), likewise its standby tasks, and their union in a `new HashSet<>(actives +
//! standbys)`, actives first. The order matters only because it is the order in which new
//! pairs enter the pair set (see [`super::pairs`]).

use super::TaskKey;
use crate::java::JavaHashMap;

/// One process's `assignedActiveTasks` and `assignedStandbyTasks` maps.
#[derive(Default)]
pub(super) struct ProcessTasks<'a> {
    active: RoleMap<'a>,
    standby: RoleMap<'a>,
}

/// memberId → `HashSet<TaskId>`, a `new HashMap<>()` filled by `putIfAbsent` at a member's
/// first task of the role.
#[derive(Default)]
struct RoleMap<'a> {
    members: JavaHashMap<&'a str>,
    /// Each member's task set, by the member's entry in `members`.
    tasks: Vec<JavaHashMap<TaskKey<'a>>>,
}

impl<'a> RoleMap<'a> {
    fn add(&mut self, member_id: &'a str, task: TaskKey<'a>) {
        let e = self.members.put(member_id);
        if e == self.tasks.len() {
            self.tasks.push(JavaHashMap::new());
        }
        self.tasks[e].put(task);
    }

    /// `values().stream().flatMap(Set::stream).collect(Collectors.toSet())`.
    fn collected(&self) -> JavaHashMap<TaskKey<'a>> {
        let mut out = JavaHashMap::new();
        for e in self.members.order() {
            let set = &self.tasks[e];
            for t in set.order() {
                out.put(*set.key(t));
            }
        }
        out
    }
}

impl<'a> ProcessTasks<'a> {
    /// `addTask(memberId, task, isActive)`.
    pub fn add(&mut self, member_id: &'a str, task: TaskKey<'a>, active: bool) {
        if active {
            self.active.add(member_id, task);
        } else {
            self.standby.add(member_id, task);
        }
    }

    /// `assignedTasks()`, as task indices in iteration order.
    pub fn assigned_tasks(&self) -> Vec<u32> {
        let (active, standby) = (self.active.collected(), self.standby.collected());
        let mut union = JavaHashMap::with_capacity(active.len() + standby.len());
        for set in [&active, &standby] {
            for e in set.order() {
                union.put(*set.key(e));
            }
        }
        union
            .order()
            .into_iter()
            .map(|e| union.key(e).task)
            .collect()
    }
}
