//! Safety invariants, checked on what the simulated clients actually run, at every change:
//! never two active owners of a task at the same instant, never two copies of a task in one
//! process.

use std::collections::HashMap;

use crate::model::{Assignment, TaskRole};

/// A running copy of a task: (member, process, role).
type Copy = (String, String, TaskRole);

#[derive(Default)]
pub struct Invariants {
    /// (subtopology, partition) → every running copy.
    copies: HashMap<(String, i32), Vec<Copy>>,
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
                if let Some(list) = self.copies.get_mut(&(s.to_string(), p)) {
                    list.retain(|(m, _, r)| !(m == member && *r == role));
                }
            }
        }
        for role in TaskRole::ALL {
            for (s, p) in after.get(role).difference(before.get(role)).iter() {
                let list = self.copies.entry((s.to_string(), p)).or_default();
                if role == TaskRole::Active {
                    if let Some((other, _, _)) = list
                        .iter()
                        .find(|(m, _, r)| *r == TaskRole::Active && m != member)
                    {
                        self.violations.push(format!(
                            "t={now_ms}ms: task {s}_{p} active on {member} while {other} still runs it"
                        ));
                    }
                }
                if let Some((other, _, r)) =
                    list.iter().find(|(m, pr, _)| pr == process && m != member)
                {
                    self.violations.push(format!(
                        "t={now_ms}ms: process {process} holds task {s}_{p} twice ({member} as {role}, {other} as {r})"
                    ));
                }
                list.push((member.to_string(), process.to_string(), role));
            }
        }
    }
}
