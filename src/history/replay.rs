//! Replaying a group's records into its state, one coordinator write at a time (`split` cut
//! them out of their record batches), and saying what each changed.
//!
//! The rules are the coordinator's own (`GroupMetadataManager.replay`): any record but a
//! tombstone creates the group, a tombstone of something unknown is ignored, and the group's
//! state is derived, not stored (Empty, NotReady, Assigning, Reconciling, Stable: 4.2+'s
//! `maybeUpdateGroupState`; 4.1 derived NotReady from topic metadata the log does not hold).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use coordinator::member_order::MemberOrder;
use model::group::{DescribedTopology, GroupDescription, MemberDescription, PartitionOffsets};
use model::movement::{diff_owners, TaskMove};
use model::{Assignment, Topology};

use super::records::{CoordinatorRecord, CurrentMemberAssignmentValue, MemberMetadataValue};

#[cfg(test)]
thread_local! {
    /// Records applied on this thread: the tests count replays with it.
    pub static APPLIED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `MemberState.STABLE`'s code in record 22.
const STABLE: i8 = 1;

/// The group as its records have built it so far.
#[derive(Clone, Debug, Default)]
pub struct ReplayedGroup {
    /// Some record created the group and no deletion followed.
    pub exists: bool,
    pub group_epoch: i32,
    pub validated_topology_epoch: i32,
    /// The assignment configs of the last epoch bump (`num.standby.replicas`, ...: 4.2+).
    pub assignment_configs: BTreeMap<String, String>,
    pub assignment_epoch: i32,
    /// When the coordinator finished computing the target (4.3+; 0 before).
    pub assignment_timestamp_ms: i64,
    pub topology: Option<Topology>,
    pub members: BTreeMap<String, MemberMetadataValue>,
    pub targets: BTreeMap<String, Assignment>,
    pub current: BTreeMap<String, CurrentMemberAssignmentValue>,
    /// Offsets committed, by topic and partition: (offset, commit time).
    pub offsets: BTreeMap<(String, i32), (i64, i64)>,
    /// The targets as the last target assignment (record 20) left them: the next one is
    /// compared with these, so a member that left in between still shows what it gave up.
    last_targets: BTreeMap<String, Assignment>,
    /// The group epoch each member joined at: a member that joined after the last target was
    /// computed (4.3+'s assignment interval defers it) waits for its first target.
    joined_epoch: BTreeMap<String, i32>,
    /// The coordinator's member table, put and removed as its replay does (records 19 and 22
    /// put a member, a 19 tombstone removes it): its order decides the assignor's ties.
    order: MemberOrder,
}

/// One thing a coordinator write did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schemars(rename = "Change")]
pub enum Decision {
    GroupCreated,
    GroupEpoch {
        from: i32,
        to: i32,
    },
    MemberJoined {
        member_id: String,
        process_id: String,
        client_id: String,
        client_host: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance_id: Option<String>,
    },
    MemberLeft {
        member_id: String,
        process_id: String,
    },
    /// A new target assignment: the tasks it gives to another member than the last one did.
    TargetAssignment {
        epoch: i32,
        moved_active: u64,
        moved_standby: u64,
        moves: Vec<TaskMove>,
    },
    /// A member joined after the current target was computed (4.3+ compute at most one per
    /// assignment interval): it has no target yet, and owns nothing.
    MemberWaitingForFirstTarget {
        member_id: String,
        group_epoch: i32,
        target_epoch: i32,
    },
    /// A member is at the target epoch, owning its target and nothing else.
    MemberReachedTarget {
        member_id: String,
        epoch: i32,
    },
    /// The derived state changed.
    State {
        from: String,
        to: String,
    },
    TopologySet {
        epoch: i32,
        subtopologies: usize,
    },
    TopologyCleared,
    GroupDeleted,
}

impl ReplayedGroup {
    /// Apply one record; a description of what did not fit the coordinator's rules, if any (the
    /// replay goes on).
    pub fn apply(&mut self, record: &CoordinatorRecord) -> Option<String> {
        use CoordinatorRecord as R;
        let creates = !record.is_tombstone() && !matches!(record, R::Unknown { .. });
        if creates {
            self.exists = true;
        }
        match record {
            R::StreamsGroupMetadata { value: Some(v), .. } => {
                self.group_epoch = v.epoch;
                self.validated_topology_epoch = v.validated_topology_epoch;
                self.assignment_configs = v.last_assignment_configs.clone().unwrap_or_default();
            }
            R::StreamsGroupMetadata { value: None, .. } => {
                let left = self.members.len();
                *self = ReplayedGroup::default();
                if left > 0 {
                    return Some(format!("group deleted with {left} member(s) left"));
                }
            }
            R::MemberMetadata {
                member_id, value, ..
            } => match value {
                Some(v) => {
                    self.order.put(member_id);
                    self.members.insert(member_id.clone(), v.clone());
                }
                None => {
                    self.order.remove(member_id);
                    self.members.remove(member_id);
                }
            },
            R::TargetAssignmentMetadata { value, .. } => {
                (self.assignment_epoch, self.assignment_timestamp_ms) = value
                    .as_ref()
                    .map_or((-1, 0), |v| (v.assignment_epoch, v.assignment_timestamp_ms));
            }
            R::TargetAssignmentMember {
                member_id, value, ..
            } => match value {
                Some(v) => {
                    self.targets.insert(member_id.clone(), v.clone());
                }
                None => {
                    self.targets.remove(member_id);
                }
            },
            R::CurrentMemberAssignment {
                member_id, value, ..
            } => match value {
                Some(v) => {
                    self.order.put(member_id);
                    self.current.insert(member_id.clone(), v.clone());
                }
                None => {
                    self.current.remove(member_id);
                }
            },
            R::Topology { value, .. } => self.topology = value.clone(),
            R::OffsetCommit {
                topic,
                partition,
                value,
                ..
            } => match value {
                Some(v) => {
                    self.offsets.insert(
                        (topic.clone(), *partition),
                        (v.offset, v.commit_timestamp_ms),
                    );
                }
                None => {
                    self.offsets.remove(&(topic.clone(), *partition));
                }
            },
            R::Unknown { .. } => {}
        }
        None
    }

    /// The state the coordinator derives (4.2+'s rules).
    pub fn state(&self) -> &'static str {
        if !self.exists {
            return "Dead";
        }
        if self.members.is_empty() {
            return "Empty";
        }
        match &self.topology {
            Some(t) if t.epoch == self.validated_topology_epoch => {}
            _ => return "NotReady",
        }
        if self.group_epoch > self.assignment_epoch {
            return "Assigning";
        }
        let reconciled = self.members.keys().all(|id| self.reached_target(id));
        if reconciled {
            "Stable"
        } else {
            "Reconciling"
        }
    }

    /// The group in the form `describe --output json` records it (no lag: the log has no end
    /// offsets of the group's input topics).
    pub fn describe(&self, group_id: &str) -> GroupDescription {
        let members = self
            .members
            .iter()
            .map(|(id, m)| {
                let current = self.current.get(id);
                MemberDescription {
                    assignment: current.map(|c| c.assigned.clone()).unwrap_or_default(),
                    target_assignment: self.targets.get(id).cloned().unwrap_or_default(),
                    ..MemberDescription::new(
                        id,
                        current.map_or(0, |c| c.member_epoch),
                        m.identity.clone(),
                        m.topology_epoch,
                    )
                }
            })
            .collect();
        GroupDescription {
            group_id: group_id.to_string(),
            state: self.state().to_string(),
            group_epoch: self.group_epoch,
            target_assignment_epoch: self.assignment_epoch,
            coordinator: None,
            topology: DescribedTopology {
                epoch: self.topology.as_ref().map_or(-1, |t| t.epoch),
                subtopologies: self.topology.as_ref().map(|t| t.subtopologies.clone()),
            },
            members,
            member_order: self.member_order().map(String::from).collect(),
            offsets: self
                .offsets
                .iter()
                .map(|((topic, partition), (offset, _))| PartitionOffsets {
                    topic: topic.clone(),
                    partition: *partition,
                    committed: Some(*offset),
                    leader_epoch: None,
                    end: None,
                    lag: None,
                })
                .collect(),
            assignor: None,
            configs: None,
        }
    }

    /// The member ids in the coordinator's table order (the order its assignor sees them in).
    pub fn member_order(&self) -> impl Iterator<Item = &str> {
        self.order.iter()
    }

    /// The topics the topology names.
    pub fn topics(&self) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        for s in self.topology.iter().flat_map(|t| &t.subtopologies) {
            out.extend(s.source_topics.iter().cloned());
            out.extend(s.repartition_sink_topics.iter().cloned());
            let internal = s
                .repartition_source_topics
                .iter()
                .chain(&s.state_changelog_topics);
            out.extend(internal.map(|t| t.name.clone()));
        }
        out
    }

    /// Give the internal topics the topology records leave unsized (0: "not enforced") the
    /// partition counts `counts` says, as the coordinator's configured topology has them.
    pub fn size_internal_topics(&mut self, counts: &BTreeMap<String, i32>) {
        let Some(t) = &mut self.topology else { return };
        for s in &mut t.subtopologies {
            let internal = s
                .repartition_source_topics
                .iter_mut()
                .chain(s.state_changelog_topics.iter_mut());
            for topic in internal.filter(|t| t.partitions == 0) {
                if let Some(n) = counts.get(&topic.name) {
                    topic.partitions = *n;
                }
            }
        }
    }

    /// The member is STABLE at the assignment epoch.
    fn reconciled(&self, id: &str) -> bool {
        self.current
            .get(id)
            .is_some_and(|c| c.state == STABLE && c.member_epoch == self.assignment_epoch)
    }

    /// The member joined after the target the group has was computed.
    pub fn waits_for_first_target(&self, id: &str) -> bool {
        self.joined_epoch
            .get(id)
            .is_some_and(|e| *e > self.assignment_epoch)
    }

    /// Reconciled, and owning exactly its target (one computed with it).
    fn reached_target(&self, id: &str) -> bool {
        if self.waits_for_first_target(id) {
            return false;
        }
        let empty = Assignment::default();
        let target = self.targets.get(id).unwrap_or(&empty);
        self.reconciled(id)
            && self.current.get(id).is_some_and(|c| {
                c.assigned.active == target.active
                    && c.assigned.standby == target.standby
                    && c.assigned.warmup == target.warmup
            })
    }

    /// Apply one coordinator write (its records of this group) and say what changed.
    /// `each` is shown every record with the group just before it is applied (`false`) and just
    /// after (`true`).
    pub fn apply_write<'r>(
        &mut self,
        records: impl IntoIterator<Item = &'r CoordinatorRecord>,
        anomalies: &mut Vec<String>,
        mut each: impl FnMut(&ReplayedGroup, &CoordinatorRecord, bool),
    ) -> Vec<Decision> {
        let before = self.clone();
        let mut target_written = false;
        // Should a cut between two writes be missed (`split` infers cuts within a millisecond), a
        // member still joins at the group epoch the first epoch record after its member record
        // bumps to, not at the write's last.
        let mut joining: Vec<String> = Vec::new();
        for r in records {
            target_written |= matches!(
                r,
                CoordinatorRecord::TargetAssignmentMetadata { value: Some(_), .. }
            );
            each(self, r, false);
            #[cfg(test)]
            APPLIED.with(|c| c.set(c.get() + 1));
            if let Some(a) = self.apply(r) {
                anomalies.push(a);
            }
            match r {
                CoordinatorRecord::MemberMetadata {
                    member_id,
                    value: Some(_),
                    ..
                } if !before.members.contains_key(member_id) && !joining.contains(member_id) => {
                    joining.push(member_id.clone());
                }
                CoordinatorRecord::StreamsGroupMetadata { value: Some(_), .. } => {
                    for id in joining.drain(..) {
                        self.joined_epoch.entry(id).or_insert(self.group_epoch);
                    }
                }
                _ => {}
            }
            each(self, r, true);
        }
        self.decisions(&before, target_written)
    }

    /// What a write changed, once its records are applied: joins (and who waits for a first
    /// target), the target, members reaching it, the state.
    fn decisions(&mut self, before: &ReplayedGroup, target_written: bool) -> Vec<Decision> {
        self.joined_epoch
            .retain(|id, _| self.members.contains_key(id));
        let mut out = self.membership_changes(before);
        for id in self.members.keys() {
            if before.members.contains_key(id) {
                continue;
            }
            let group_epoch = self.group_epoch;
            self.joined_epoch.entry(id.clone()).or_insert(group_epoch);
            if self.waits_for_first_target(id) {
                out.push(Decision::MemberWaitingForFirstTarget {
                    member_id: id.clone(),
                    group_epoch: self.joined_epoch[id],
                    target_epoch: self.assignment_epoch,
                });
            }
        }
        if target_written && self.assignment_epoch != before.assignment_epoch {
            let d = diff_owners(&self.last_targets, &self.targets);
            out.push(Decision::TargetAssignment {
                epoch: self.assignment_epoch,
                moved_active: d.moved_active,
                moved_standby: d.moved_standby,
                moves: d.moves,
            });
            self.last_targets = self.targets.clone();
        }
        // Reaching a new target counts, also for a member that owned the last one before the
        // write (the target and its acknowledgement can share one).
        let new_target = self.assignment_epoch != before.assignment_epoch;
        for id in self.members.keys() {
            if self.reached_target(id) && (new_target || !before.reached_target(id)) {
                out.push(Decision::MemberReachedTarget {
                    member_id: id.clone(),
                    epoch: self.assignment_epoch,
                });
            }
        }
        let (from, to) = (before.state(), self.state());
        if from != to {
            out.push(Decision::State {
                from: from.into(),
                to: to.into(),
            });
        }
        out
    }

    /// Creation, deletion, epochs, members and topology: what changed since `before`.
    fn membership_changes(&self, before: &ReplayedGroup) -> Vec<Decision> {
        let mut out = Vec::new();
        if self.exists && !before.exists {
            out.push(Decision::GroupCreated);
        }
        if before.exists && !self.exists {
            out.push(Decision::GroupDeleted);
            return out;
        }
        if self.group_epoch != before.group_epoch {
            out.push(Decision::GroupEpoch {
                from: before.group_epoch,
                to: self.group_epoch,
            });
        }
        for (id, m) in &self.members {
            if !before.members.contains_key(id) {
                out.push(Decision::MemberJoined {
                    member_id: id.clone(),
                    process_id: m.identity.process_id.clone(),
                    client_id: m.identity.client_id.clone(),
                    client_host: m.identity.client_host.clone(),
                    instance_id: m.identity.instance_id.clone(),
                });
            }
        }
        for (id, m) in &before.members {
            if !self.members.contains_key(id) {
                out.push(Decision::MemberLeft {
                    member_id: id.clone(),
                    process_id: m.identity.process_id.clone(),
                });
            }
        }
        match (&before.topology, &self.topology) {
            (None, Some(t)) => out.push(Decision::TopologySet {
                epoch: t.epoch,
                subtopologies: t.subtopologies.len(),
            }),
            (Some(_), None) => out.push(Decision::TopologyCleared),
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::records::{StreamsGroupMetadataValue, TargetAssignmentMetadataValue};
    use model::{MemberIdentity, Subtopology};

    const G: &str = "app";

    fn epoch(e: i32) -> CoordinatorRecord {
        let mut v = StreamsGroupMetadataValue::new(e, 7);
        v.validated_topology_epoch = 0;
        CoordinatorRecord::StreamsGroupMetadata {
            group_id: G.into(),
            value: Some(v),
        }
    }

    fn member(id: &str, process: &str, joined: bool) -> CoordinatorRecord {
        CoordinatorRecord::MemberMetadata {
            group_id: G.into(),
            member_id: id.into(),
            value: joined.then(|| MemberMetadataValue {
                identity: MemberIdentity {
                    instance_id: None,
                    rack_id: None,
                    client_id: format!("{id}-client"),
                    client_host: "/10.0.0.1".into(),
                    process_id: process.into(),
                    user_endpoint: None,
                    client_tags: BTreeMap::new(),
                },
                rebalance_timeout_ms: 300_000,
                topology_epoch: 0,
            }),
        }
    }

    fn tasks(active: &[i32]) -> Assignment {
        Assignment {
            active: active.iter().map(|p| ("0", *p)).collect(),
            ..Assignment::default()
        }
    }

    fn target(e: i32, of: &[(&str, &[i32])]) -> Vec<CoordinatorRecord> {
        let mut out: Vec<CoordinatorRecord> = of
            .iter()
            .map(|(id, ps)| CoordinatorRecord::TargetAssignmentMember {
                group_id: G.into(),
                member_id: id.to_string(),
                value: Some(tasks(ps)),
            })
            .collect();
        out.push(CoordinatorRecord::TargetAssignmentMetadata {
            group_id: G.into(),
            value: Some(TargetAssignmentMetadataValue {
                assignment_epoch: e,
                assignment_timestamp_ms: 0,
            }),
        });
        out
    }

    fn current(id: &str, e: i32, ps: &[i32]) -> CoordinatorRecord {
        CoordinatorRecord::CurrentMemberAssignment {
            group_id: G.into(),
            member_id: id.into(),
            value: Some(CurrentMemberAssignmentValue {
                member_epoch: e,
                previous_member_epoch: e - 1,
                state: STABLE,
                assigned: tasks(ps),
                active_task_epochs: BTreeMap::new(),
                pending_revocation: Assignment::default(),
            }),
        }
    }

    /// The group's first write: member a joins a one-subtopology topology and owns tasks 0, 1.
    fn first_member() -> Vec<CoordinatorRecord> {
        let topology = CoordinatorRecord::Topology {
            group_id: G.into(),
            value: Some(Topology {
                epoch: 0,
                subtopologies: vec![Subtopology {
                    id: "0".into(),
                    ..Subtopology::default()
                }],
            }),
        };
        let mut first = vec![member("a", "p1", true), topology, epoch(1)];
        first.extend(target(1, &[("a", &[0, 1])]));
        first.push(current("a", 1, &[0, 1]));
        first
    }

    #[test]
    fn writes_tell_joins_targets_leaves_and_the_state() {
        let mut g = ReplayedGroup::default();
        let mut problems = Vec::new();
        let first = first_member();
        let changes = g.apply_write(&first, &mut problems, |_, _, _| {});
        assert!(changes.contains(&Decision::GroupCreated));
        assert!(changes.contains(&Decision::MemberReachedTarget {
            member_id: "a".into(),
            epoch: 1
        }));
        assert_eq!(g.state(), "Stable");
        let mut second = vec![member("b", "p2", true), epoch(2)];
        second.extend(target(2, &[("a", &[0]), ("b", &[1])]));
        let changes = g.apply_write(&second, &mut problems, |_, _, _| {});
        let moved = changes.iter().find_map(|c| match c {
            Decision::TargetAssignment { moves, .. } => Some(moves.clone()),
            _ => None,
        });
        let moved = moved.expect("a target");
        assert_eq!(
            (moved[0].from.as_slice(), moved[0].to.as_slice()),
            (&["a".to_string()][..], &["b".to_string()][..])
        );
        assert_eq!(g.state(), "Reconciling");
        // b leaves before reconciling; the next target gives its task back to a.
        let leave = vec![
            CoordinatorRecord::CurrentMemberAssignment {
                group_id: G.into(),
                member_id: "b".into(),
                value: None,
            },
            CoordinatorRecord::TargetAssignmentMember {
                group_id: G.into(),
                member_id: "b".into(),
                value: None,
            },
            member("b", "p2", false),
            epoch(3),
        ];
        let changes = g.apply_write(&leave, &mut problems, |_, _, _| {});
        assert!(changes.contains(&Decision::MemberLeft {
            member_id: "b".into(),
            process_id: "p2".into()
        }));
        assert_eq!(g.state(), "Assigning");
        let mut back = target(3, &[("a", &[0, 1])]);
        back.push(current("a", 3, &[0, 1]));
        let changes = g.apply_write(&back, &mut problems, |_, _, _| {});
        assert!(changes.contains(&Decision::State {
            from: "Assigning".into(),
            to: "Stable".into()
        }));
        assert!(problems.is_empty(), "{problems:?}");
        // Deleting the group with a member left is what the coordinator would refuse.
        let gone = CoordinatorRecord::StreamsGroupMetadata {
            group_id: G.into(),
            value: None,
        };
        let changes = g.apply_write(&[gone], &mut problems, |_, _, _| {});
        assert_eq!(
            changes,
            [
                Decision::GroupDeleted,
                Decision::State {
                    from: "Stable".into(),
                    to: "Dead".into()
                }
            ]
        );
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn a_member_that_joins_after_the_target_waits_for_its_first() {
        let mut g = ReplayedGroup::default();
        let mut problems = Vec::new();
        let first = first_member();
        g.apply_write(&first, &mut problems, |_, _, _| {});
        // b joins inside the assignment interval: epoch 2, no target computed with it; the
        // coordinator puts it STABLE at the old target's epoch, owning nothing.
        let join = vec![member("b", "p2", true), epoch(2), current("b", 1, &[])];
        let changes = g.apply_write(&join, &mut problems, |_, _, _| {});
        assert!(changes.contains(&Decision::MemberWaitingForFirstTarget {
            member_id: "b".into(),
            group_epoch: 2,
            target_epoch: 1
        }));
        assert!(
            !changes
                .iter()
                .any(|c| matches!(c, Decision::MemberReachedTarget { .. })),
            "{changes:?}"
        );
        assert_eq!(g.state(), "Assigning");
        // The next target includes b; once it owns it, it has reached it.
        let mut next = target(2, &[("a", &[0]), ("b", &[1])]);
        next.extend([current("a", 2, &[0]), current("b", 2, &[1])]);
        let changes = g.apply_write(&next, &mut problems, |_, _, _| {});
        assert!(changes.contains(&Decision::MemberReachedTarget {
            member_id: "b".into(),
            epoch: 2
        }));
        assert_eq!(g.state(), "Stable");
    }

    /// Issue #33's batch from a 4.4.0 broker: the target of epoch 2 and a member's
    /// acknowledgement of it share one batch. The member owned the last target before; it
    /// reaches the new one in that batch, and the story says so.
    #[test]
    fn a_target_and_its_acknowledgement_in_one_batch_are_a_member_reaching_it() {
        let mut g = ReplayedGroup::default();
        let mut problems = Vec::new();
        g.apply_write(&first_member(), &mut problems, |_, _, _| {});
        let mut batch = vec![epoch(2)];
        batch.extend(target(2, &[("a", &[0, 1])]));
        batch.push(current("a", 2, &[0, 1]));
        let changes = g.apply_write(&batch, &mut problems, |_, _, _| {});
        assert!(
            changes.contains(&Decision::MemberReachedTarget {
                member_id: "a".into(),
                epoch: 2
            }),
            "{changes:?}"
        );
        assert!(problems.is_empty(), "{problems:?}");
    }

    /// Issue #33's second batch: b joins at epoch 2 and target 2 gives it a task, then c joins
    /// at epoch 3, all in one batch. b joined at 2 and reached target 2; c waits for its first.
    #[test]
    fn two_joins_in_one_batch_join_at_their_own_epochs() {
        let mut g = ReplayedGroup::default();
        let mut problems = Vec::new();
        g.apply_write(&first_member(), &mut problems, |_, _, _| {});
        let mut batch = vec![member("b", "p2", true), epoch(2)];
        batch.extend(target(2, &[("a", &[0]), ("b", &[1])]));
        batch.push(current("b", 2, &[]));
        batch.extend([member("c", "p3", true), epoch(3), current("c", 2, &[])]);
        let changes = g.apply_write(&batch, &mut problems, |_, _, _| {});
        let waits: Vec<&Decision> = changes
            .iter()
            .filter(|c| matches!(c, Decision::MemberWaitingForFirstTarget { .. }))
            .collect();
        assert_eq!(
            waits,
            [&Decision::MemberWaitingForFirstTarget {
                member_id: "c".into(),
                group_epoch: 3,
                target_epoch: 2
            }],
            "{changes:?}"
        );
        // b owns its target once a revokes task 1: a later write.
        let changes = g.apply_write(
            &[current("a", 2, &[0]), current("b", 2, &[1])],
            &mut problems,
            |_, _, _| {},
        );
        assert!(
            changes.contains(&Decision::MemberReachedTarget {
                member_id: "b".into(),
                epoch: 2
            }),
            "{changes:?}"
        );
    }

    /// The moves history tells target by target add up to the diff of the targets at the
    /// window's ends (`movement::compose`), also when members leave in between: what `diff
    /// assignment` of `history --at` two times says.
    #[test]
    fn target_moves_compose_to_the_diff_of_the_targets_at_two_times() {
        use model::movement::{compose, diff_owners};
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let ids = ["a", "b", "c", "d"];
        for _ in 0..300 {
            let mut g = ReplayedGroup::default();
            let mut problems = Vec::new();
            // After each write: the targets, the moves it told, whether it wrote a target.
            let mut steps = vec![(BTreeMap::new(), Vec::new(), true)];
            for e in 1..=rng.gen_range(2..9) {
                let mut write = Vec::new();
                let mut present: Vec<&str> = Vec::new();
                for id in ids {
                    let here = g.members.contains_key(id);
                    let flip = rng.gen_bool(0.3);
                    if flip && here {
                        // A leave: its target is tombstoned first.
                        write.push(CoordinatorRecord::TargetAssignmentMember {
                            group_id: G.into(),
                            member_id: id.into(),
                            value: None,
                        });
                    }
                    if flip {
                        write.push(member(id, &format!("p-{id}"), !here));
                    }
                    if here != flip {
                        present.push(id);
                    }
                }
                write.push(epoch(e));
                let mut of: BTreeMap<&str, Vec<i32>> =
                    present.iter().map(|id| (*id, Vec::new())).collect();
                for p in 0..6 {
                    if !present.is_empty() {
                        let owner = present[rng.gen_range(0..present.len())];
                        of.entry(owner).or_default().push(p);
                    }
                }
                let of: Vec<(&str, &[i32])> = of.iter().map(|(id, ps)| (*id, &ps[..])).collect();
                // Some writes only change members (a leave, a join during the interval).
                let targeted = rng.gen_bool(0.7);
                if targeted {
                    write.extend(target(e, &of));
                }
                let mut told = Vec::new();
                for c in g.apply_write(&write, &mut problems, |_, _, _| {}) {
                    if let Decision::TargetAssignment { moves, .. } = c {
                        told.extend(moves);
                    }
                }
                steps.push((g.targets.clone(), told, targeted));
            }
            // Two writes of a target (the first: before the group).
            let at: Vec<usize> = (0..steps.len()).filter(|k| steps[*k].2).collect();
            let j = at[rng.gen_range(0..at.len())];
            let i = at[rng.gen_range(0..at.len())].min(j);
            let told: Vec<TaskMove> = steps[i + 1..=j]
                .iter()
                .flat_map(|(_, m, _)| m.iter().cloned())
                .collect();
            let expected = compose(&diff_owners(&steps[i].0, &steps[j].0).moves);
            assert_eq!(compose(&told), expected, "writes {i}..{j}");
        }
    }
}
