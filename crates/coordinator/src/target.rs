//! The target assignment: where every task should end up, for one group epoch.
//!
//! Two steps, kept apart on purpose: the assignor decides where active and standby tasks go;
//! a warm-up refiner then decides how to get there (a stateful task whose new owner has no
//! caught-up state can stay where it is while the new owner warms up). The refiner shipped with
//! this build places no warm-ups, which is also what Apache Kafka's brokers do by default.

use crate::profile::Profile;
use std::collections::BTreeMap;

use crate::topics::Configuration;
use model::{Assignment, TaskSet};

use super::assignor::{
    AssignmentConfigs, AssignorError, GroupSpec, MemberSpec, SubtopologySpec, TaskAssignor,
};
use super::config::GroupConfig;
use super::member::Member;
use model::KafkaVersion;

/// The per-member target assignment.
pub type TargetAssignment = BTreeMap<String, Assignment>;

/// Turns the assignor's target into the one members reconcile towards, possibly with warm-ups.
pub trait WarmupRefiner {
    fn refine(
        &self,
        target: TargetAssignment,
        members: &BTreeMap<String, Member>,
        config: &GroupConfig,
    ) -> TargetAssignment;
}

/// Places no warm-up tasks: members go straight to the assignor's target.
pub struct NoWarmups;

impl WarmupRefiner for NoWarmups {
    fn refine(
        &self,
        target: TargetAssignment,
        _members: &BTreeMap<String, Member>,
        _config: &GroupConfig,
    ) -> TargetAssignment {
        target
    }
}

/// What a target computation starts from: the group as the broker hands it to the assignor.
pub struct TargetInputs<'a> {
    pub members: &'a BTreeMap<String, Member>,
    /// The member ids in the order the broker walks them (see `member_order`): the spec's
    /// members come in that order, which decides the assignor's ties.
    pub order: &'a [&'a str],
    pub previous_target: &'a TargetAssignment,
    pub configuration: Option<&'a Configuration>,
    pub config: &'a GroupConfig,
    pub version: KafkaVersion,
}

/// The assignor's view of the group, as the release builds it (`TargetAssignmentBuilder`):
/// 4.4 gives the assignor each member's current tasks and reported task offsets; 4.2 and 4.3
/// give it each member's previous target, and no offsets.
pub fn group_spec(inputs: &TargetInputs<'_>, configuration: &Configuration) -> GroupSpec {
    let current = inputs.version.assignor_sees_current_assignment();
    let config = inputs.config;
    GroupSpec {
        members: inputs
            .order
            .iter()
            .filter_map(|id| inputs.members.get(*id))
            .map(|m| MemberSpec {
                member_id: m.member_id.clone(),
                process_id: m.identity.process_id.clone(),
                instance_id: m.identity.instance_id.clone(),
                rack_id: m.identity.rack_id.clone(),
                client_tags: m.identity.client_tags.clone(),
                current: if current {
                    m.assigned.clone()
                } else {
                    inputs
                        .previous_target
                        .get(&m.member_id)
                        .cloned()
                        .unwrap_or_default()
                },
                task_offsets: if current {
                    m.task_offsets.clone()
                } else {
                    BTreeMap::new()
                },
                task_end_offsets: if current {
                    m.task_end_offsets.clone()
                } else {
                    BTreeMap::new()
                },
            })
            .collect(),
        subtopologies: configuration
            .subtopologies
            .iter()
            .map(|s| SubtopologySpec {
                id: s.id.clone(),
                num_tasks: s.num_tasks,
                stateful: s.stateful,
            })
            .collect(),
        configs: AssignmentConfigs {
            num_standby_replicas: config.num_standby_replicas,
            rack_aware_assignment_tags: config.rack_aware_assignment_tags.clone(),
        },
    }
}

/// Compute the target for every member, with the warnings the assignor logged (Apache logs them
/// at WARN, e.g. too few processes for the standbys asked for). A topology that is not ready
/// gives everyone nothing.
pub fn compute(
    assignor: &dyn TaskAssignor,
    refiner: &dyn WarmupRefiner,
    inputs: &TargetInputs<'_>,
) -> Result<(TargetAssignment, Vec<String>), AssignorError> {
    let members = inputs.members;
    let Some(configuration) = inputs.configuration.filter(|c| c.is_ready()) else {
        let empty = members
            .keys()
            .map(|id| (id.clone(), Assignment::default()))
            .collect();
        return Ok((empty, Vec::new()));
    };
    let spec = group_spec(inputs, configuration);
    let outcome = assignor.assign_with_warnings(&spec)?;
    let assigned = outcome.assignment;
    let mut target: TargetAssignment = members
        .keys()
        .map(|id| (id.clone(), Assignment::default()))
        .collect();
    for (id, a) in assigned {
        if let Some(t) = target.get_mut(&id) {
            t.active = a.active;
            t.standby = a.standby;
            t.warmup = TaskSet::new();
        }
    }
    Ok((
        refiner.refine(target, members, inputs.config),
        outcome.warnings,
    ))
}
