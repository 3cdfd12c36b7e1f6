//! Synthetic group specs for benchmarks, comparisons and tests.

use super::{AssignmentConfigs, GroupAssignment, GroupSpec, MemberSpec, SubtopologySpec};
use model::{Assignment, TaskSet};

/// A group of `members` members, `members_per_process` per process, and `tasks` tasks spread
/// over subtopologies of `partitions` tasks each (the last one smaller if needed); every other
/// subtopology (even index) is stateful. No current assignment.
pub fn synthetic_spec(
    members: usize,
    members_per_process: usize,
    tasks: usize,
    partitions: usize,
    num_standby_replicas: u32,
) -> GroupSpec {
    let per = members_per_process.max(1);
    let partitions = partitions.max(1);
    let members = (0..members)
        .map(|i| MemberSpec {
            member_id: format!("member-{i:06}"),
            process_id: format!("process-{:06}", i / per),
            ..Default::default()
        })
        .collect();
    let mut subtopologies = Vec::new();
    let mut left = tasks;
    let mut i = 0;
    while left > 0 {
        let n = left.min(partitions);
        subtopologies.push(SubtopologySpec {
            id: format!("{i}"),
            num_tasks: i32::try_from(n).unwrap_or(i32::MAX),
            stateful: i % 2 == 0,
        });
        left -= n;
        i += 1;
    }
    GroupSpec {
        members,
        subtopologies,
        configs: AssignmentConfigs {
            num_standby_replicas,
            rack_aware_assignment_tags: Vec::new(),
        },
    }
}

impl GroupSpec {
    /// The same spec with each member's current assignment replaced by its tasks in
    /// `assignment` (members absent from it get an empty current assignment).
    pub fn with_current_assignment(&self, assignment: &GroupAssignment) -> GroupSpec {
        let mut out = self.clone();
        for m in &mut out.members {
            let a = assignment.get(&m.member_id).cloned().unwrap_or_default();
            m.current = Assignment {
                active: a.active,
                standby: a.standby,
                warmup: TaskSet::new(),
            };
        }
        out
    }
}
