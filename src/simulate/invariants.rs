//! Safety invariants, checked on what the simulated clients actually run, at every change:
//! never two active owners of a task at the same instant, never two copies of a task in one
//! process.

use std::collections::HashMap;
use std::sync::Arc;

use model::{Assignment, TaskRole};

/// A running copy of a task: (member, process, role); the ids shared by a member's copies.
type Copy = (Arc<str>, Arc<str>, TaskRole);

#[derive(Default)]
pub struct Invariants {
    /// (subtopology, partition) → every running copy.
    copies: HashMap<String, HashMap<i32, Vec<Copy>>>,
    pub violations: Vec<String>,
}

impl Invariants {
    /// A client's running tasks changed from `before` to `after`.
    pub fn update(
        &mut self,
        member: &str,
        process: &str,
        before: &Assignment,
        after: &Assignment,
        now_ms: i64,
    ) {
        if before == after {
            // Most heartbeats change nothing.
            return;
        }
        for role in TaskRole::ALL {
            for (s, p) in before.get(role).difference(after.get(role)).iter() {
                if let Some(list) = self.copies.get_mut(s).and_then(|parts| parts.get_mut(&p)) {
                    list.retain(|(m, _, r)| !(&**m == member && *r == role));
                }
            }
        }
        let (member_id, process_id): (Arc<str>, Arc<str>) = (member.into(), process.into());
        for role in TaskRole::ALL {
            for (s, p) in after.get(role).difference(before.get(role)).iter() {
                if !self.copies.contains_key(s) {
                    self.copies.insert(s.to_string(), HashMap::new());
                }
                let parts = self.copies.get_mut(s).expect("inserted above");
                let list = parts.entry(p).or_default();
                if role == TaskRole::Active {
                    if let Some((other, _, _)) = list
                        .iter()
                        .find(|(m, _, r)| *r == TaskRole::Active && &**m != member)
                    {
                        self.violations.push(format!(
                            "t={now_ms}ms: task {s}_{p} active on {member} while {other} still runs it"
                        ));
                    }
                }
                if let Some((other, _, r)) = list
                    .iter()
                    .find(|(m, pr, _)| &**pr == process && &**m != member)
                {
                    self.violations.push(format!(
                        "t={now_ms}ms: process {process} holds task {s}_{p} twice ({member} as {role}, {other} as {r})"
                    ));
                }
                list.push((Arc::clone(&member_id), Arc::clone(&process_id), role));
            }
        }
    }
}
