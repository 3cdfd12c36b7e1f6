//! `assignActive`: every task (stateful and stateless together) gets an active owner.

use super::candidates::find_prev_member_with_least_load;
use super::state::{dequeue, State, NONE};
use super::AssignorError;

pub(super) fn assign_active(st: &mut State) -> Result<(), AssignorError> {
    // Sticky passes walk tasks by (partition, subtopology): with range-like previous
    // assignments, quota cut-offs then spread over subtopologies.
    let mut tasks = st.partition_major_order(|_| true);
    tasks.retain(|&t| !keep_previous_active(st, t));
    tasks.retain(|&t| !take_previous_standby(st, t));
    // The rest by (subtopology, partition), which is task index order.
    let rest: Vec<u32> = (0..st.num_tasks())
        .filter(|&t| st.active_owner[t as usize] == NONE)
        .collect();
    least_loaded(st, &rest)
}

fn place(st: &mut State, m: u32, t: u32) {
    let c = st.add_task(m, t, true);
    st.maybe_update_active_quota(c);
    st.maybe_update_total_quota(c);
}

/// Pass 1: the previous active owner keeps the task while under the active quota.
fn keep_previous_active(st: &mut State, t: u32) -> bool {
    let m = st.prev_active[t as usize];
    if m == NONE || st.member_count[m as usize] >= st.active_tasks_per_member {
        return false;
    }
    place(st, m, t);
    true
}

/// Pass 2: a previous standby (4.4: ranked candidate) takes it while under the active quota.
fn take_previous_standby(st: &mut State, t: u32) -> bool {
    let chosen = find_prev_member_with_least_load(st, st.prev_standby(t), None);
    match chosen {
        Some(m) if st.member_count[m as usize] < st.active_tasks_per_member => {
            place(st, m, t);
            true
        }
        _ => false,
    }
}

/// Pass 3: each remaining task goes to the process with the least load (a PriorityQueue by
/// load alone), and there to its member with the fewest tasks.
fn least_loaded(st: &mut State, tasks: &[u32]) -> Result<(), AssignorError> {
    let mut queue = st.process_queue();
    for &t in tasks {
        let Some(p) = dequeue(&mut queue) else {
            return Err(AssignorError::new(format!(
                "No process available to assign active task {}.",
                st.task_name(t)
            )));
        };
        let c = st.add_task_to_least_loaded_member(p, t, true);
        if c == -1 {
            return Err(AssignorError::new(format!(
                "No member available to assign active task {}.",
                st.task_name(t)
            )));
        }
        st.maybe_update_active_quota(c);
        st.maybe_update_total_quota(c);
        st.enqueue(&mut queue, p);
    }
    Ok(())
}
