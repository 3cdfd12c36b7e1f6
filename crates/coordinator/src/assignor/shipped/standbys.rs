//! `assignStandby`: `num_standby_replicas` standbys for each task of a stateful subtopology.

use super::candidates::find_prev_member_with_least_load;
use super::state::{dequeue, ProcessQueue, State, NONE};

pub(super) fn assign_standby(st: &mut State) {
    // (partition, subtopology), descending.
    let tasks = st.partition_major_order(|s| st.sub_stateful[s as usize]);
    let replicas = st.num_standby_replicas;
    // Standbys still to place per task, after the sticky pass.
    let mut deferred: Vec<i32> = vec![0; st.num_tasks() as usize];
    for &t in tasks.iter().rev() {
        for i in 0..replicas {
            if !sticky_standby(st, t) {
                deferred[t as usize] = replicas - i;
                break;
            }
        }
    }
    let mut queue = st.process_queue();
    let mut polled = Vec::new();
    // (subtopology, partition), descending: task index order reversed.
    for t in (0..st.num_tasks()).rev() {
        let remaining = deferred[t as usize];
        for i in 0..remaining {
            if !least_loaded(st, &mut queue, &mut polled, t) {
                st.warnings.push(format!(
                    "Unable to assign {} of {} standby tasks for task [{}]. There is not enough \
                     available capacity. You should increase the number of threads and/or \
                     application instances to maintain the requested number of standby replicas.",
                    replicas - i,
                    replicas,
                    st.task_name(t)
                ));
                break;
            }
        }
    }
}

fn place(st: &mut State, m: u32, t: u32) {
    let c = st.add_task(m, t, false);
    st.maybe_update_total_quota(c);
}

/// One standby of `t` on its previous active owner's member (if that process lacks `t` and the
/// member is under the total quota), else on a previous standby; false defers the rest.
fn sticky_standby(st: &mut State, t: u32) -> bool {
    let m = st.prev_active[t as usize];
    if m != NONE
        && !st.holds(st.member_proc[m as usize], t)
        && st.member_count[m as usize] < st.total_tasks_per_member
    {
        place(st, m, t);
        return true;
    }
    let chosen = find_prev_member_with_least_load(st, st.prev_standby(t), Some(t));
    match chosen {
        Some(m) if st.member_count[m as usize] < st.total_tasks_per_member => {
            place(st, m, t);
            true
        }
        _ => false,
    }
}

/// `assignStandbyToMemberWithLeastLoad`, unrolled: poll processes by load until one lacks `t`
/// (its least-loaded member gets it), then put every polled process back, last polled first,
/// as the recursion's unwinding does.
fn least_loaded(st: &mut State, queue: &mut ProcessQueue, polled: &mut Vec<u32>, t: u32) -> bool {
    polled.clear();
    let mut found = false;
    while let Some(p) = dequeue(queue) {
        polled.push(p);
        if !st.holds(p, t) {
            let c = st.add_task_to_least_loaded_member(p, t, false);
            if c != -1 {
                found = true;
                st.maybe_update_total_quota(c);
            }
            break;
        }
        if queue.is_empty() {
            break;
        }
    }
    for &p in polled.iter().rev() {
        st.enqueue(queue, p);
    }
    found
}
