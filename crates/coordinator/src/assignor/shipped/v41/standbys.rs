//! 4.1's `assignStandby`: each replica of each stateful task, walked in `HashSet` order.

use super::least_load::find_member_with_least_load;
use super::objects::hash_set_order;
use super::V41;
use crate::assignor::shipped::state::NONE;
use crate::java::JavaHashMap;

pub(super) fn assign_standby(v: &mut V41) {
    let replicas = v.st.num_standby_replicas;
    let tasks = v.task_set_order(|s| v.st.sub_stateful[s as usize]);
    for t in tasks {
        for i in 0..replicas {
            // The processes lacking the task, in `processIdToState` order.
            let available: Vec<u32> = (0..v.st.proc_members.len() as u32)
                .filter(|&p| !v.st.holds(p, t))
                .collect();
            let mut is_available = vec![false; v.st.proc_members.len()];
            available
                .iter()
                .for_each(|&p| is_available[p as usize] = true);
            if available.is_empty() {
                let msg = format!(
                    "{} There is not enough available capacity. You should increase the number \
                     of threads and/or application instances to maintain the requested number \
                     of standby replicas.",
                    unable(v, replicas, i, t)
                );
                v.st.warnings.push(msg);
                break;
            }
            let Some(m) = choose(v, t, &available, &is_available) else {
                let msg = format!(
                    "{} Error in standby task assignment!",
                    unable(v, replicas, i, t)
                );
                v.st.warnings.push(msg);
                break;
            };
            v.place(m, t, false);
        }
    }
}

/// `errorMessage`.
fn unable(v: &V41, replicas: i32, i: i32, t: u32) -> String {
    format!(
        "Unable to assign {} of {} standby tasks for task [{}].",
        replicas - i,
        replicas,
        v.task_name(t)
    )
}

/// The previous active owner if its process lacks the task, is load balanced and would pair
/// the task anew; else a previous standby on an available, load-balanced process; else the
/// least-loaded choice among the members of the available processes.
fn choose(v: &mut V41, t: u32, available: &[u32], is_available: &[bool]) -> Option<u32> {
    let m = v.st.prev_active[t as usize];
    if m != NONE {
        let p = v.proc_of(m);
        if is_available[p as usize] && load_balanced(v, p) && v.has_new_pair(t, p) {
            return Some(m);
        }
    }
    if !v.prev_standby_sets[t as usize].is_empty() {
        // `removeIf`: the task's set loses the members of processes that have it, for good.
        let mut set = std::mem::take(&mut v.prev_standby_sets[t as usize]);
        set.retain(|o| is_available[v.proc_of(o.member) as usize]);
        v.prev_standby_sets[t as usize] = set;
        let set = &v.prev_standby_sets[t as usize];
        if let Some(m) = find_member_with_least_load(v, set, t, true) {
            if load_balanced(v, v.proc_of(m)) {
                return Some(m);
            }
        }
    }
    // Fresh objects for the members of the available processes, walked as a `HashSet` of
    // process ids.
    let mut ids: JavaHashMap<&str> = JavaHashMap::new();
    for &p in available {
        let first = v.st.proc_members[p as usize][0];
        ids.put(v.st.members[first as usize].process_id.as_str());
    }
    let mut fresh = Vec::new();
    for e in ids.order() {
        let p = available[e] as usize;
        for i in 0..v.st.proc_members[p].len() {
            let m = v.st.proc_members[p][i];
            fresh.push(v.objects.fresh(m));
        }
    }
    let members = hash_set_order(&fresh);
    find_member_with_least_load(v, &members, t, false)
}

/// `isLoadBalanced`: the process has fewer tasks than members, or no process has less load.
fn load_balanced(v: &V41, p: u32) -> bool {
    let p = p as usize;
    let has_capacity = (v.st.proc_task_count[p] as usize) < v.st.proc_members[p].len();
    let load = v.st.proc_load[p];
    has_capacity || v.st.proc_load.iter().all(|&l| l >= load)
}
