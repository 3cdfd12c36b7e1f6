//! Who holds which task right now, by process and role.
//!
//! Reconciliation asks these questions for every task it wants to grant, so they are answered
//! from an index kept up to date as members change, not by scanning the group.
//! A member "holds" a task while it is assigned to it or pending revocation from it.

use std::collections::HashMap;
use std::sync::Arc;

use model::{Assignment, TaskRole};

/// The ids are shared by every task a member holds: a group of 10,000 members holds 200,000
/// copies, and two strings per copy made the index the largest allocation of a simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Holder {
    member_id: Arc<str>,
    process_id: Arc<str>,
    role: TaskRole,
}

/// Task → holders. Keyed by (subtopology, partition) without allocating a `TaskId` per lookup.
#[derive(Clone, Debug, Default)]
pub struct Ownership {
    holders: HashMap<String, HashMap<i32, Vec<Holder>>>,
}

impl Ownership {
    /// Record that `member` holds every task of `tasks` (its assigned and pending tasks).
    pub fn add(&mut self, member_id: &str, process_id: &str, tasks: &Assignment) {
        let (member, process): (Arc<str>, Arc<str>) = (member_id.into(), process_id.into());
        for role in TaskRole::ALL {
            for (s, p) in tasks.get(role).iter() {
                if !self.holders.contains_key(s) {
                    self.holders.insert(s.to_string(), HashMap::new());
                }
                let parts = self.holders.get_mut(s).expect("inserted above");
                let list = parts.entry(p).or_default();
                if !list
                    .iter()
                    .any(|h| &*h.member_id == member_id && h.role == role)
                {
                    list.push(Holder {
                        member_id: Arc::clone(&member),
                        process_id: Arc::clone(&process),
                        role,
                    });
                }
            }
        }
    }

    /// Forget every task of `tasks` held by `member`.
    pub fn remove(&mut self, member_id: &str, tasks: &Assignment) {
        for role in TaskRole::ALL {
            for (s, p) in tasks.get(role).iter() {
                let Some(parts) = self.holders.get_mut(s) else {
                    continue;
                };
                if let Some(list) = parts.get_mut(&p) {
                    list.retain(|h| !(&*h.member_id == member_id && h.role == role));
                    if list.is_empty() {
                        parts.remove(&p);
                    }
                }
                if parts.is_empty() {
                    self.holders.remove(s);
                }
            }
        }
    }

    fn holders(&self, s: &str, p: i32) -> &[Holder] {
        self.holders
            .get(s)
            .and_then(|m| m.get(&p))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Members holding the task as active (there should be at most one).
    pub fn active_holders(&self, s: &str, p: i32) -> Vec<&str> {
        self.holders(s, p)
            .iter()
            .filter(|h| h.role == TaskRole::Active)
            .map(|h| &*h.member_id)
            .collect()
    }

    /// Whether a task in `role` may not be granted yet to a member of `process` that is assigned
    /// `assigned`, because a copy is still held where a new one would collide; Kafka 4.4's
    /// `CurrentAssignmentBuilder.isUnreleased*Task`. Apache's index is by process: a copy at the
    /// process counts unless the member is assigned it in that role, so the member's own copy
    /// pending revocation blocks too, until the record of this heartbeat drops it (a task
    /// revoked from a member and targeted to it again is granted at its next heartbeat).
    pub fn is_unreleased(
        &self,
        role: TaskRole,
        s: &str,
        p: i32,
        assigned: &Assignment,
        process: &str,
    ) -> bool {
        let holders = self.holders(s, p);
        let at_process = |r: TaskRole| {
            holders
                .iter()
                .any(|h| h.role == r && &*h.process_id == process)
        };
        let elsewhere_in_process = |r: TaskRole| at_process(r) && !assigned.get(r).contains(s, p);
        match role {
            // One active owner in the whole group; and no copy in another member of the process.
            TaskRole::Active => {
                holders.iter().any(|h| h.role == TaskRole::Active)
                    || elsewhere_in_process(TaskRole::Standby)
                    || elsewhere_in_process(TaskRole::Warmup)
            }
            TaskRole::Standby => {
                elsewhere_in_process(TaskRole::Active)
                    || at_process(TaskRole::Standby)
                    || elsewhere_in_process(TaskRole::Warmup)
            }
            TaskRole::Warmup => {
                at_process(TaskRole::Active)
                    || elsewhere_in_process(TaskRole::Standby)
                    || at_process(TaskRole::Warmup)
            }
        }
    }

    /// The same question as Kafka 4.2 and 4.3 ask it: by process only, the member's own copies
    /// included, so a role change inside one member waits for its own release.
    pub fn is_unreleased_by_process(&self, role: TaskRole, s: &str, p: i32, process: &str) -> bool {
        let holders = self.holders(s, p);
        let in_process = |r: TaskRole| {
            holders
                .iter()
                .any(|h| h.role == r && &*h.process_id == process)
        };
        match role {
            TaskRole::Active => {
                holders.iter().any(|h| h.role == TaskRole::Active)
                    || in_process(TaskRole::Standby)
                    || in_process(TaskRole::Warmup)
            }
            TaskRole::Standby | TaskRole::Warmup => {
                in_process(TaskRole::Active)
                    || in_process(TaskRole::Standby)
                    || in_process(TaskRole::Warmup)
            }
        }
    }

    /// Every (task, role, member) triple, sorted; for invariant checks.
    pub fn snapshot(&self) -> Vec<(String, i32, TaskRole, String, String)> {
        let mut out = Vec::new();
        for (s, parts) in &self.holders {
            for (p, list) in parts {
                for h in list {
                    out.push((
                        s.clone(),
                        *p,
                        h.role,
                        h.member_id.to_string(),
                        h.process_id.to_string(),
                    ));
                }
            }
        }
        out.sort();
        out
    }
}
