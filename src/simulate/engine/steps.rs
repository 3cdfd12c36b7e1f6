//! A scenario step as the engine runs it: planned into units of work when it starts (members
//! and processes looked up among the running clients), each unit applied and run until the
//! group settles or the step's time is up.

use std::collections::BTreeMap;

use model::Topology;

use crate::simulate::report::{self, StepReport};
use crate::simulate::scenario::{Action, Step};
use crate::simulate::{example, select, SimError};

use super::{Engine, Work};

/// A scenario step as units of work: its label, its units.
struct Planned {
    label: String,
    /// The label for a table: long member lists counted.
    short_label: String,
    units: Vec<Work>,
}

impl Engine<'_> {
    /// A step as units of work, planned when it starts: the members and processes it names
    /// are looked up among the running clients (by id or unique prefix), an added instance
    /// gets the run's threads per process unless the step says, and restarts and deploys
    /// become one restart per member.
    fn plan(&self, step: &Step) -> Result<Planned, SimError> {
        let action = self.resolve(&step.action)?;
        let restart =
            |member: String, topology: Option<Topology>| Work::RestartOne { member, topology };
        let units = match &action {
            Action::Restart { members, .. } => {
                members.iter().map(|m| restart(m.clone(), None)).collect()
            }
            Action::Deploy {
                topology,
                topology_epoch,
            } => {
                let mut t = topology
                    .clone()
                    .unwrap_or_else(|| example::next_topology(*topology_epoch));
                t.epoch = *topology_epoch;
                let (running, _) = self.running_ids();
                running
                    .into_iter()
                    .map(|m| restart(m.to_string(), Some(t.clone())))
                    .collect()
            }
            other => vec![Work::Action(other.clone())],
        };
        // Members added with several threads per process come in new processes.
        let t = self.cfg.threads_per_process.max(1);
        let processes = match &action {
            Action::AddMembers { count } if t > 1 => {
                format!(" in {} new process(es)", count.div_ceil(t))
            }
            _ => String::new(),
        };
        Ok(Planned {
            label: action.label() + &processes,
            short_label: action.short_label() + &processes,
            units,
        })
    }

    /// The action with the members and processes it names resolved to running members' ids
    /// (`processes` left empty), and an added instance's threads filled in.
    fn resolve(&self, action: &Action) -> Result<Action, SimError> {
        let named = |members: &[String], processes: &[String]| {
            let (ids, of) = self.running_ids();
            let origins = select::Origins {
                members: " in the scenario",
                processes: " in the scenario",
            };
            select::named_members(members, processes, &ids, &of, origins).map_err(SimError)
        };
        Ok(match action {
            Action::RemoveMembers { members, processes } => Action::RemoveMembers {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::Crash { members, processes } => Action::Crash {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::Restart { members, processes } => Action::Restart {
                members: named(members, processes)?,
                processes: vec![],
            },
            Action::AddInstances { count, threads } => Action::AddInstances {
                count: *count,
                threads: Some(threads.unwrap_or(self.cfg.threads_per_process).max(1)),
            },
            other => other.clone(),
        })
    }

    /// Run one step: wait for its time if it has one, plan it, apply its units (each waiting
    /// for the group to settle, as a rolling restart does), and report it. Also says whether
    /// the group settled; a member dying ends the step.
    pub(super) fn run_step(
        &mut self,
        step: &Step,
        progress: &mut dyn FnMut(i64, i64),
    ) -> Result<(StepReport, bool), SimError> {
        let limit = self.cfg.run.max_time_ms;
        if let Some(at) = step.at_ms {
            self.run_until(at.min(limit), progress, |e| e.now >= at);
        }
        let step = self.plan(step)?;
        let started = self.now;
        let epoch_before = self.group_epoch();
        let before = self.current_assignments();
        if self.before_first_step.is_none() {
            self.before_first_step = Some(before.clone());
        }
        self.step_statuses.clear();
        let mut settled = true;
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        for unit in &step.units {
            settled = self.run_unit(unit, &mut renames, progress)?;
            if !settled || self.died_in_unit {
                break;
            }
        }
        let after = self.current_assignments();
        let d = model::movement::diff_owners(&before, &after);
        let report = StepReport {
            step: step.label,
            short_label: step.short_label,
            started_at_ms: started,
            stable_at_ms: settled.then_some(self.now),
            time_to_stable_ms: settled.then_some(self.now - started),
            group_epoch_before: epoch_before,
            group_epoch_after: self.group_epoch(),
            moved_active: d.moved_active,
            moved_standby: d.moved_standby,
            statuses_seen: report::by_name(self.step_statuses.iter().copied()),
            moves: d.moves,
            diff: d.owners,
        };
        Ok((report, settled))
    }

    /// Apply one unit of work and wait for the group to settle; whether it did.
    fn run_unit(
        &mut self,
        unit: &Work,
        renames: &mut BTreeMap<String, String>,
        progress: &mut dyn FnMut(i64, i64),
    ) -> Result<bool, SimError> {
        let limit = self.cfg.run.max_time_ms;
        self.died_in_unit = false;
        // A restarted member may have been renamed by an earlier unit of this step.
        let unit = match unit {
            Work::RestartOne { member, topology } => Work::RestartOne {
                member: renames
                    .get(member)
                    .cloned()
                    .unwrap_or_else(|| member.clone()),
                topology: topology.clone(),
            },
            u => u.clone(),
        };
        let count_before = self.clients.len();
        self.apply(&unit)?;
        if let (Work::RestartOne { member, .. }, true) = (&unit, self.clients.len() > count_before)
        {
            let renamed = self.clients[self.clients.len() - 1].label.clone();
            renames.insert(member.clone(), renamed);
        }
        if let Work::Action(Action::Wait { ms }) = unit {
            let until = self.now + ms;
            self.run_until(until.min(limit), progress, |e| e.now >= until);
        }
        let failures = self.failures.len();
        let settled = self.run_until(limit, progress, |e| {
            e.settled() || e.failures.len() > failures
        });
        if self.failures.len() > failures {
            // A member died: an operator stops the rollout here, and so does the run.
            self.died_in_unit = true;
            return Ok(self.run_until(limit, progress, |e| e.settled()));
        }
        Ok(settled)
    }

    pub(super) fn group_epoch(&self) -> i32 {
        self.coordinator
            .group(&self.cfg.group_id)
            .map_or(0, |g| g.group_epoch())
    }
}
