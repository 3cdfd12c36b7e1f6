//! Assignment diffs: which tasks changed owner between two assignments, in which role, from
//! whom to whom. Used by `diff assignment` and by the simulator's per-step report.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::{natural, Assignment, TaskRole, TaskSet};

/// One task whose owners changed in one role.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TaskMove {
    /// `<subtopology>_<partition>`.
    pub task: String,
    pub role: TaskRole,
    /// Owners that lost it.
    pub from: Vec<String>,
    /// Owners that gained it.
    pub to: Vec<String>,
}

/// How one owner's (member's or process's) tasks changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OwnerDiff {
    pub owner: String,
    pub tasks_before: usize,
    pub tasks_after: usize,
    pub gained_active: TaskSet,
    pub lost_active: TaskSet,
    pub gained_standby: TaskSet,
    pub lost_standby: TaskSet,
    pub gained_warmup: TaskSet,
    pub lost_warmup: TaskSet,
}

impl OwnerDiff {
    pub fn is_empty(&self) -> bool {
        [
            &self.gained_active,
            &self.lost_active,
            &self.gained_standby,
            &self.lost_standby,
            &self.gained_warmup,
            &self.lost_warmup,
        ]
        .iter()
        .all(|s| s.is_empty())
    }
}

/// What changed between two assignments keyed by owner (member or process id).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AssignmentDiff {
    pub moves: Vec<TaskMove>,
    pub owners: Vec<OwnerDiff>,
    /// Active tasks that went from one owner to another.
    pub moved_active: u64,
    /// Standby replicas that went from one owner to another.
    pub moved_standby: u64,
}

impl AssignmentDiff {
    pub fn is_empty(&self) -> bool {
        self.owners.is_empty()
    }
}

/// Compare two assignments keyed by owner. A task counts as moved when one owner lost it and
/// another gained it in the same role (for standbys, each such pair counts once).
pub fn diff_owners(
    before: &BTreeMap<String, Assignment>,
    after: &BTreeMap<String, Assignment>,
) -> AssignmentDiff {
    let owners = owner_diffs(before, after);
    let (moves, moved_active, moved_standby) = moves_of(&owners);
    AssignmentDiff {
        moves,
        owners,
        moved_active,
        moved_standby,
    }
}

/// What each owner gained and lost, owners in natural order; unchanged owners left out.
fn owner_diffs(
    before: &BTreeMap<String, Assignment>,
    after: &BTreeMap<String, Assignment>,
) -> Vec<OwnerDiff> {
    let empty = Assignment::default();
    let ids: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let mut ids: Vec<&String> = ids.into_iter().collect();
    natural::sort(&mut ids);
    ids.into_iter()
        .map(|id| {
            let b = before.get(id).unwrap_or(&empty);
            let a = after.get(id).unwrap_or(&empty);
            OwnerDiff {
                owner: id.clone(),
                tasks_before: b.len(),
                tasks_after: a.len(),
                gained_active: a.active.difference(&b.active),
                lost_active: b.active.difference(&a.active),
                gained_standby: a.standby.difference(&b.standby),
                lost_standby: b.standby.difference(&a.standby),
                gained_warmup: a.warmup.difference(&b.warmup),
                lost_warmup: b.warmup.difference(&a.warmup),
            }
        })
        .filter(|d| !d.is_empty())
        .collect()
}

/// Per role and task, who lost it and who gained it (tasks in numeric order, then role), and
/// the active and standby moves counted.
fn moves_of(owners: &[OwnerDiff]) -> (Vec<TaskMove>, u64, u64) {
    let mut changes: BTreeMap<(TaskRole, crate::TaskId), (Vec<String>, Vec<String>)> =
        BTreeMap::new();
    for d in owners {
        for (role, gained, lost) in [
            (TaskRole::Active, &d.gained_active, &d.lost_active),
            (TaskRole::Standby, &d.gained_standby, &d.lost_standby),
            (TaskRole::Warmup, &d.gained_warmup, &d.lost_warmup),
        ] {
            for t in lost.tasks() {
                let entry = changes.entry((role, t)).or_default();
                entry.0.push(d.owner.clone());
            }
            for t in gained.tasks() {
                let entry = changes.entry((role, t)).or_default();
                entry.1.push(d.owner.clone());
            }
        }
    }
    let (mut moved_active, mut moved_standby) = (0u64, 0u64);
    let mut moves = Vec::new();
    for ((role, task), (from, to)) in changes {
        let n = from.len().min(to.len()) as u64;
        match role {
            TaskRole::Active => moved_active += n,
            TaskRole::Standby => moved_standby += n,
            TaskRole::Warmup => {}
        }
        moves.push(TaskMove {
            task: task.to_string(),
            role,
            from,
            to,
        });
    }
    moves.sort_by(|a, b| {
        task_key(&a.task)
            .cmp(&task_key(&b.task))
            .then(a.role.cmp(&b.role))
    });
    (moves, moved_active, moved_standby)
}

/// What a sequence of moves of one task in one role amounts to: the owners that lost it and
/// those that gained it, overall.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetChange {
    pub lost: BTreeSet<String>,
    pub gained: BTreeSet<String>,
}

/// Moves applied one after the other, per task and role: an owner that gains a task and later
/// loses it again (or the other way round) cancels out, so `A -> B` then `B -> C` is `A -> C`.
/// Tasks whose owners end as they began are left out. The moves of one [`diff_owners`] compose
/// to themselves, which makes `compose` the yardstick for moves reported step by step (a
/// watch's, a timeline's, history's) against the diff of the first and the last step.
pub fn compose<'a>(
    moves: impl IntoIterator<Item = &'a TaskMove>,
) -> BTreeMap<(String, TaskRole), NetChange> {
    let mut net: BTreeMap<(String, TaskRole), NetChange> = BTreeMap::new();
    for m in moves {
        let n = net.entry((m.task.clone(), m.role)).or_default();
        for owner in &m.from {
            if !n.gained.remove(owner) {
                n.lost.insert(owner.clone());
            }
        }
        for owner in &m.to {
            if !n.lost.remove(owner) {
                n.gained.insert(owner.clone());
            }
        }
    }
    net.retain(|_, n| !n.lost.is_empty() || !n.gained.is_empty());
    net
}

fn task_key(t: &str) -> (String, i64) {
    match t.rsplit_once('_') {
        Some((s, p)) => (s.to_string(), p.parse().unwrap_or(-1)),
        None => (t.to_string(), -1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(task: &str, from: &[&str], to: &[&str]) -> TaskMove {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect();
        TaskMove {
            task: task.into(),
            role: TaskRole::Standby,
            from: v(from),
            to: v(to),
        }
    }

    #[test]
    fn moves_compose_as_owners_change() {
        let set = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<BTreeSet<_>>();
        let net = compose(&[
            mv("0_0", &["a"], &["b"]),
            mv("0_0", &["b"], &["c"]),
            mv("0_1", &["a"], &["b"]),
            mv("0_1", &["b"], &["a"]),
            mv("0_2", &[], &["d"]),
            mv("0_2", &["e"], &[]),
        ]);
        let key = |t: &str| (t.to_string(), TaskRole::Standby);
        assert_eq!(net.len(), 2, "{net:?}");
        assert_eq!(net[&key("0_0")].lost, set(&["a"]));
        assert_eq!(net[&key("0_0")].gained, set(&["c"]));
        assert_eq!(net[&key("0_2")].lost, set(&["e"]));
        assert_eq!(net[&key("0_2")].gained, set(&["d"]));
    }
}
