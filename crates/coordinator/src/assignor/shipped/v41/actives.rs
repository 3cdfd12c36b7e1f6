//! 4.1's `assignActive`: three passes over the `HashSet` of all tasks, in its order.

use super::least_load::find_member_with_least_load;
use super::objects::hash_set_order;
use super::{AssignorError, V41};
use crate::assignor::shipped::state::NONE;

pub(super) fn assign_active(v: &mut V41) -> Result<(), AssignorError> {
    let mut tasks = v.task_set_order(|_| true);
    tasks.retain(|&t| !keep_previous_active(v, t));
    tasks.retain(|&t| !take_previous_standby(v, t));
    for t in tasks {
        least_loaded(v, t)?;
    }
    Ok(())
}

/// Pass 1: the previous active owner keeps the task while under the quota.
fn keep_previous_active(v: &mut V41, t: u32) -> bool {
    let m = v.st.prev_active[t as usize];
    if m == NONE || !v.under_quota(m) {
        return false;
    }
    v.place(m, t, true);
    true
}

/// Pass 2: a previous standby, chosen among the task's previous standbys, takes it while under
/// the quota.
fn take_previous_standby(v: &mut V41, t: u32) -> bool {
    let set = &v.prev_standby_sets[t as usize];
    match find_member_with_least_load(v, set, t, true) {
        Some(m) if v.under_quota(m) => {
            v.place(m, t, true);
            true
        }
        _ => false,
    }
}

/// Pass 3: the task goes to the least-loaded choice among fresh objects of every member
/// (processes in `processIdToState` order, each process's members in its map's order), with
/// no quota.
fn least_loaded(v: &mut V41, t: u32) -> Result<(), AssignorError> {
    let mut fresh = Vec::with_capacity(v.st.members.len());
    for p in 0..v.st.proc_members.len() {
        for i in 0..v.st.proc_members[p].len() {
            let m = v.st.proc_members[p][i];
            fresh.push(v.objects.fresh(m));
        }
    }
    let all = hash_set_order(&fresh);
    let Some(m) = find_member_with_least_load(v, &all, t, false) else {
        // Apache's message, placeholder and all.
        return Err(AssignorError::new(format!(
            "No member available to assign active task {{}}.{}",
            v.task_name(t)
        )));
    };
    v.place(m, t, true);
    Ok(())
}
