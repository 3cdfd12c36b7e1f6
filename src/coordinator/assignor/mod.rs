//! STUB (replaced by the assignor branch)
use crate::model::{Assignment, TaskId, TaskSet};
use std::collections::BTreeMap;
#[derive(Clone, Debug, Default)]
pub struct AssignmentConfigs {
    pub num_standby_replicas: u32,
    pub rack_aware_assignment_tags: Vec<String>,
}
#[derive(Clone, Debug)]
pub struct SubtopologySpec {
    pub id: String,
    pub num_tasks: i32,
    pub stateful: bool,
}
#[derive(Clone, Debug)]
pub struct MemberSpec {
    pub member_id: String,
    pub process_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_tags: BTreeMap<String, String>,
    pub current: Assignment,
    pub task_offsets: BTreeMap<TaskId, i64>,
    pub task_end_offsets: BTreeMap<TaskId, i64>,
}
#[derive(Clone, Debug)]
pub struct GroupSpec {
    pub members: Vec<MemberSpec>,
    pub subtopologies: Vec<SubtopologySpec>,
    pub configs: AssignmentConfigs,
}
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemberAssignment {
    pub active: TaskSet,
    pub standby: TaskSet,
}
pub type GroupAssignment = BTreeMap<String, MemberAssignment>;
#[derive(Debug)]
pub struct AssignorError {
    pub message: String,
}
impl std::fmt::Display for AssignorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for AssignorError {}
pub trait TaskAssignor {
    fn name(&self) -> &'static str;
    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError>;
}
pub struct StickyAssignor;
impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }
    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError> {
        let mut members: Vec<&MemberSpec> = spec.members.iter().collect();
        members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        let mut out: GroupAssignment = members
            .iter()
            .map(|m| (m.member_id.clone(), MemberAssignment::default()))
            .collect();
        if members.is_empty() {
            return Ok(out);
        }
        let mut i = 0;
        for s in &spec.subtopologies {
            for p in 0..s.num_tasks {
                let owner = members
                    .iter()
                    .find(|m| m.current.active.contains(&s.id, p))
                    .map(|m| m.member_id.clone())
                    .unwrap_or_else(|| {
                        i += 1;
                        members[i % members.len()].member_id.clone()
                    });
                out.get_mut(&owner).unwrap().active.insert(&s.id, p);
            }
        }
        Ok(out)
    }
}
