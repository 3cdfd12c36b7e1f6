//! What a run ended with: the report (members by process, balance, moves, advice) and the
//! outcome by label that the samples compare.

use std::collections::BTreeMap;

use coordinator::GroupState;
use model::natural;
use model::{Assignment, ErrorCode, GroupStateName};

use crate::simulate::client::Liveness;
use crate::simulate::report::{
    self, Balance, MemberFailure, MemberReport, SimulationReport, StepReport, StopReason,
};
use crate::simulate::scenario::{Action, Scenario};
use crate::simulate::SimConfig;

use super::Engine;

/// One run as the samples compare it, by label.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Members that joined with ids drawn for them.
    pub joiners: u32,
    /// Each member's tasks when the first step started (none: the scenario has no step).
    pub before: Option<BTreeMap<String, Assignment>>,
    /// Each member's tasks at the end, with its process's label.
    pub after: BTreeMap<String, (String, Assignment)>,
    /// The members at the end as the report shows them, by label: what a list of distinct
    /// outcomes shows.
    pub members: Vec<MemberReport>,
    pub moved_active: u64,
    pub moved_standby: u64,
    pub time_to_stable_ms: Option<i64>,
    pub heartbeats: u64,
    pub invariant_violations: usize,
}

impl Engine<'_> {
    /// The run as samples compare it: by label.
    pub(super) fn outcome(&self, report: &SimulationReport) -> Outcome {
        let mut members: Vec<MemberReport> =
            self.coordinator
                .group(&self.cfg.group_id)
                .map(|g| {
                    g.members()
                        .iter()
                        .map(|(id, m)| {
                            let process = self.by_id.get(id).map_or(&m.identity.process_id, |&i| {
                                &self.clients[i].process_label
                            });
                            MemberReport {
                                member_id: self.label_of(id).to_string(),
                                process_id: process.clone(),
                                member_epoch: m.member_epoch,
                                topology_epoch: m.topology_epoch,
                                assignment: m.assigned.clone(),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
        sort_by_process(&mut members);
        let after = members
            .iter()
            .map(|m| {
                let at_end = (m.process_id.clone(), m.assignment.clone());
                (m.member_id.clone(), at_end)
            })
            .collect();
        Outcome {
            joiners: self.joiners,
            before: self.before_first_step.clone(),
            after,
            members,
            moved_active: report.steps.iter().map(|s| s.moved_active).sum(),
            moved_standby: report.steps.iter().map(|s| s.moved_standby).sum(),
            time_to_stable_ms: report.virtual_time_to_stable_ms,
            heartbeats: self.heartbeats,
            invariant_violations: self.invariants.violations.len(),
        }
    }
}

/// Members grouped by process, as the table's first column reads, each in natural order.
fn sort_by_process(members: &mut [MemberReport]) {
    members.sort_by(|a, b| {
        natural::cmp(&a.process_id, &b.process_id)
            .then_with(|| natural::cmp(&a.member_id, &b.member_id))
    });
}

pub(super) fn build_report(
    e: &Engine<'_>,
    scenario: &Scenario,
    tts: Option<i64>,
    steps: Vec<StepReport>,
) -> SimulationReport {
    debug_assert_eq!(
        e.running,
        e.clients
            .iter()
            .filter(|c| c.liveness == Liveness::Running)
            .count(),
        "the running count follows every change of liveness"
    );
    let cfg = e.cfg;
    let group = e.coordinator.group(&cfg.group_id);
    let members: Vec<MemberReport> = group
        .map(|g| {
            g.members()
                .values()
                .map(|m| MemberReport {
                    member_id: m.member_id.clone(),
                    process_id: m.identity.process_id.clone(),
                    member_epoch: m.member_epoch,
                    topology_epoch: m.topology_epoch,
                    assignment: m.assigned.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut members = members;
    sort_by_process(&mut members);
    let total_tasks = group
        .and_then(|g| g.configuration())
        .filter(|c| c.is_ready())
        .map_or(0, |c| {
            c.subtopologies
                .iter()
                .map(|s| s.num_tasks.max(0) as u64)
                .sum()
        });
    SimulationReport {
        kafka_version: cfg.kafka_version.release().to_string(),
        assignor: e.coordinator.assignor_name().to_string(),
        scenario: if scenario.name.is_empty() {
            "custom".into()
        } else {
            scenario.name.clone()
        },
        seed: cfg.run.seed,
        samples: report::Samples::default(),
        stop_reason: StopReason::Completed,
        max_time_ms: cfg.run.max_time_ms,
        final_state: e.group_state().map_or(GroupStateName::Dead, state_name),
        group_epoch: group.map_or(0, |g| g.group_epoch()),
        target_assignment_epoch: group.map_or(0, |g| g.target_assignment_epoch()),
        topology_epoch: group.and_then(|g| g.topology()).map_or(-1, |t| t.epoch),
        virtual_time_to_stable_ms: tts,
        stable_from_first_step: false,
        virtual_time_end_ms: e.now,
        heartbeats: e.heartbeats,
        rebalances: e.rebalances,
        tasks_moved: steps.iter().map(|s| s.moved_active + s.moved_standby).sum(),
        total_tasks,
        balance: balance(&members),
        statuses_seen: report::by_name(e.statuses_seen.iter().copied()),
        errors_seen: e.errors_seen.clone(),
        invariant_violations: e.invariants.violations.clone(),
        failed_members: e.failures.clone(),
        assignor_warnings: e.assignor_warnings.clone(),
        advice: advice(cfg, scenario, &e.failures),
        steps,
        members,
        partitions_by_user_endpoint: group
            .map_or_else(Vec::new, |g| g.current_endpoint_map(&e.metadata)),
        trace: e.trace.clone(),
    }
}

/// The fewest and most tasks per member (all, and active) and per process.
fn balance(members: &[MemberReport]) -> Balance {
    let tasks = |m: &MemberReport| m.assignment.active.len() + m.assignment.standby.len();
    let mut per_process: BTreeMap<&str, usize> = BTreeMap::new();
    for m in members {
        *per_process.entry(&m.process_id).or_default() += tasks(m);
    }
    let min_max = |v: &mut dyn Iterator<Item = usize>| -> (usize, usize) {
        v.fold(None, |acc: Option<(usize, usize)>, x| match acc {
            None => Some((x, x)),
            Some((a, b)) => Some((a.min(x), b.max(x))),
        })
        .unwrap_or((0, 0))
    };
    let (min_m, max_m) = min_max(&mut members.iter().map(tasks));
    let (min_a, max_a) = min_max(&mut members.iter().map(|m| m.assignment.active.len()));
    let (min_p, max_p) = min_max(&mut per_process.values().copied());
    Balance {
        min_tasks_per_member: min_m,
        max_tasks_per_member: max_m,
        min_active_per_member: min_a,
        max_active_per_member: max_a,
        min_tasks_per_process: min_p,
        max_tasks_per_process: max_p,
    }
}

/// The coordinator's state as reports name it.
fn state_name(s: GroupState) -> GroupStateName {
    match s {
        GroupState::Empty => GroupStateName::Empty,
        GroupState::NotReady => GroupStateName::NotReady,
        GroupState::Assigning => GroupStateName::Assigning,
        GroupState::Reconciling => GroupStateName::Reconciling,
        GroupState::Stable => GroupStateName::Stable,
    }
}

/// How to get where the run could not: a topology change on a release that refuses them.
fn advice(cfg: &SimConfig, scenario: &Scenario, failures: &[MemberFailure]) -> Option<String> {
    let deploys = scenario
        .steps
        .iter()
        .any(|s| matches!(s.action, Action::Deploy { .. }));
    let refused = failures
        .iter()
        .any(|f| f.error == ErrorCode::InvalidRequest);
    (deploys && refused && cfg.kafka_version.is_release()).then(|| {
        format!(
            "Kafka {} brokers refuse topology changes (\"Topology updates are not supported yet.\"): \
             deploy the new topology under a new application.id, or stop every instance, delete the \
             group (kafka-streams-groups.sh --bootstrap-server <broker> --delete --group {}) and start \
             the new version; --kafka-version kip shows the KIP-1071 epoch-bump upgrade",
            cfg.kafka_version, cfg.group_id
        )
    })
}
