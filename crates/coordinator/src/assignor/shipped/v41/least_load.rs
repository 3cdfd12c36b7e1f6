//! 4.1's `findMemberWithLeastLoad` and `memberWithLeastLoad`.

use super::objects::{hash_set_order, MemberObject};
use super::V41;

/// Whom `findMemberWithLeastLoad(members, task, returnSameMember)` picks, `members` being a
/// set's objects in iteration order.
///
/// The members whose process would form a new task pair with `t` are collected into a new
/// `HashSet` (or, if there are none, the given set is used as it is); the first process of
/// least load in that set's order wins. Then, with `same_member`, the first of the task's
/// previous standbys on that process; otherwise that process's least-loaded member.
pub(super) fn find_member_with_least_load(
    v: &V41,
    members: &[MemberObject],
    t: u32,
    same_member: bool,
) -> Option<u32> {
    if members.is_empty() {
        return None;
    }
    let pairing: Vec<MemberObject> = members
        .iter()
        .copied()
        .filter(|o| v.has_new_pair(t, v.proc_of(o.member)))
        .collect();
    let candidates = if pairing.is_empty() {
        members.to_vec()
    } else {
        hash_set_order(&pairing)
    };
    // Stream.min keeps the first of equal loads.
    let mut best: Option<(u32, f64)> = None;
    for o in &candidates {
        let p = v.proc_of(o.member);
        let load = v.st.proc_load[p as usize];
        if best.is_none_or(|(_, l)| load.total_cmp(&l).is_lt()) {
            best = Some((p, load));
        }
    }
    let (p, _) = best?;
    if same_member {
        if let Some(o) = v.prev_standby_sets[t as usize]
            .iter()
            .find(|o| v.proc_of(o.member) == p)
        {
            return Some(o.member);
        }
    }
    member_with_least_load(v, p)
}

/// `memberWithLeastLoad`: the process's first member (in `memberToTaskCounts` order) with the
/// fewest tasks.
pub(super) fn member_with_least_load(v: &V41, p: u32) -> Option<u32> {
    let mut best: Option<u32> = None;
    for &m in &v.st.proc_members[p as usize] {
        if best.is_none_or(|b| v.st.member_count[m as usize] < v.st.member_count[b as usize]) {
            best = Some(m);
        }
    }
    best
}
