//! `findPrevMemberWithLeastLoad`: which previous standby (4.4: ranked candidate) gets a task.
//!
//! All versions start from the list's order and replace the candidate only by a member whose
//! process load *and* own task count are both strictly lower. They differ in how a process
//! that already holds the task (only asked about during standby assignment) is treated.

use super::state::{State, NONE};
use super::ShippedVersion;

/// The chosen previous holder of `t`, or `None`. `standby` is `Some(t)` when placing a standby
/// of `t` (then holders of `t` are excluded), `None` when placing the active.
pub(super) fn find_prev_member_with_least_load(
    st: &State,
    members: &[u32],
    standby: Option<u32>,
) -> Option<u32> {
    if members.is_empty() {
        return None;
    }
    match st.version {
        ShippedVersion::V4_2_1 | ShippedVersion::V4_3_1 => {
            first_candidate_quirk(st, members, standby)
        }
        _ => skip_holders(st, members, standby),
    }
}

fn holds(st: &State, m: u32, standby: Option<u32>) -> bool {
    standby.is_some_and(|t| st.holds(st.member_proc[m as usize], t))
}

/// 4.2.2, 4.3.2 and 4.4.0: members whose process holds the task are skipped; the first other member
/// is the candidate, replaced by a later one with strictly lower process load and task count.
fn skip_holders(st: &State, members: &[u32], standby: Option<u32>) -> Option<u32> {
    let mut candidate = NONE;
    let (mut process_load, mut member_load) = (f64::MAX, f64::MAX);
    for &m in members {
        if holds(st, m, standby) {
            continue;
        }
        let new_process_load = st.proc_load[st.member_proc[m as usize] as usize];
        let new_member_load = f64::from(st.member_count[m as usize]);
        if candidate != NONE && !(new_process_load < process_load && new_member_load < member_load)
        {
            continue;
        }
        candidate = m;
        process_load = new_process_load;
        member_load = new_member_load;
    }
    (candidate != NONE).then_some(candidate)
}

/// 4.3.1: the first member is the candidate even if its process holds the task; later
/// non-holders with strictly lower loads replace it; but the final check asks whether the
/// *first* member's process holds the task, so a good later candidate is dropped (and the
/// task deferred) whenever the list's first member sits on a process that has it.
fn first_candidate_quirk(st: &State, members: &[u32], standby: Option<u32>) -> Option<u32> {
    let first = members[0];
    let mut candidate = first;
    let mut process_load = st.proc_load[st.member_proc[first as usize] as usize];
    let mut member_load = f64::from(st.member_count[first as usize]);
    for &m in &members[1..] {
        let new_process_load = st.proc_load[st.member_proc[m as usize] as usize];
        if new_process_load < process_load && !holds(st, m, standby) {
            let new_member_load = f64::from(st.member_count[m as usize]);
            if new_member_load < member_load {
                process_load = new_process_load;
                member_load = new_member_load;
                candidate = m;
            }
        }
    }
    (!holds(st, first, standby)).then_some(candidate)
}
