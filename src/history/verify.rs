//! `history --verify`: every target assignment the broker wrote, recomputed by the local
//! coordinator's assignor from the same members, and compared.
//!
//! The records hold everything the shipped assignors read but one thing: the members, their
//! processes, racks and tags (record 19), the member table's order (the replay keeps it), the
//! previous target (21) and each member's current tasks (22), the topology (23) and the
//! assignment configs of the epoch bump (17, 4.2+). Partition counts of source topics come from
//! the cluster as it is now. What 4.4's assignor also reads, the task offsets members report in
//! heartbeats, is never written: a 4.4 difference in a group with state is therefore reported
//! as possibly caused by them, not as a fault (see [`TargetVerdict`]).
//!
//! The [`Verifier`] listens to the one replay of the writes (`pass`) and keeps each target the
//! broker wrote with what its assignor had; [`Verifier::verify`] then recomputes them with a
//! release's coordinator, once per release tried, without replaying the writes again.

use coordinator::profile::Profile;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::time::rfc3339;
use coordinator::assignor::{assignor_by_name, TaskAssignor};
use coordinator::config::GroupConfig;
use coordinator::member::Member;
use coordinator::target::{self, NoWarmups, TargetInputs};
use coordinator::topics::{configure, TopicMetadata};
use model::{Assignment, KafkaVersion, Topology};

use super::pass::{Listener, RecordStep};
use super::records::CoordinatorRecord;
use super::replay::ReplayedGroup;
use super::Write;

/// What `--verify` found.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Verification {
    /// The release whose assignor recomputed the targets.
    pub kafka_version: String,
    /// Target assignments recomputed and compared.
    pub verified: usize,
    /// Of those, the ones the local coordinator computed differently.
    pub differences: Vec<Difference>,
    /// Target assignments that could not be recomputed, and why (a topology not ready, ...).
    pub skipped: Vec<String>,
    /// What the recomputation took from elsewhere than the records.
    pub assumptions: Vec<String>,
}

/// Whether a difference is a fault of the local coordinator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "Verdict")]
pub enum TargetVerdict {
    /// The records hold every input: the local coordinator is wrong (or the release is).
    Differs,
    /// 4.4's assignor also ranked members by the task offsets they reported in heartbeats,
    /// which are not in the records; the group has state, so they may explain it.
    MayDependOnTaskOffsets,
}

/// One target assignment the local coordinator computed differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Difference {
    pub epoch: i32,
    /// The offset of the write that holds the target, and its time.
    pub offset: i64,
    pub at: String,
    pub verdict: TargetVerdict,
    /// The members whose target differs: the broker's and the local one.
    pub members: Vec<MemberDifference>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MemberDifference {
    pub member_id: String,
    pub broker: Assignment,
    pub computed: Assignment,
}

impl Verification {
    /// The differences the records alone prove.
    pub fn faults(&self) -> impl Iterator<Item = &Difference> {
        self.differences
            .iter()
            .filter(|d| d.verdict == TargetVerdict::Differs)
    }
}

/// The cluster's part of the inputs.
pub struct Context<'a> {
    pub version: KafkaVersion,
    /// Partition counts of the topics the topology names, as the cluster has them now.
    pub partitions: &'a TopicMetadata,
    /// The group's configs now: what a target written by 4.1 (whose records do not hold the
    /// assignment configs) is recomputed with.
    pub fallback: &'a GroupConfig,
}

/// The verifier: listens to the replay and keeps every target assignment the broker wrote at a
/// new epoch for a group with members, with what its assignor had, and what the records show of
/// the release; recomputes them afterwards, with any release.
#[derive(Default)]
pub struct Verifier {
    at: Inputs,
    targets: Vec<WrittenTarget>,
    release: ReleaseSigns,
}

impl Listener for Verifier {
    // One batch may hold several coordinator writes (the runtime lingers a few ms to batch
    // appends): each target is taken at its own record 20, with what came before.
    fn record(&mut self, step: &RecordStep<'_>) {
        let (group, record) = (step.group, step.record);
        if !step.applied {
            self.release.see(record);
            self.at.before(group, record);
            return;
        }
        self.at.after(record);
        let CoordinatorRecord::TargetAssignmentMetadata { value: Some(t), .. } = record else {
            return;
        };
        let new_epoch = t.assignment_epoch != self.at.last_epoch;
        self.at.last_epoch = t.assignment_epoch;
        let previous = std::mem::replace(&mut self.at.previous, group.targets.clone());
        if new_epoch && !group.members.is_empty() {
            let target = WrittenTarget::new(step.write, group, &self.at, previous);
            self.targets.push(target);
        }
    }
}

impl Verifier {
    /// Recompute every target kept with `cx.version`'s coordinator and compare.
    pub fn verify(&self, cx: &Context<'_>) -> Verification {
        let mut out = Verification {
            kafka_version: cx.version.release().to_string(),
            ..Verification::default()
        };
        let assignor = match assignor_by_name("sticky", cx.version.shipped_assignor()) {
            Ok(a) => a,
            Err(e) => {
                out.skipped.push(e.to_string());
                return out;
            }
        };
        for t in &self.targets {
            match recompute(t, assignor.as_ref(), cx) {
                Ok(computed) => {
                    out.verified += 1;
                    out.differences.extend(compare(t, &computed, cx.version));
                }
                Err(why) => out.skipped.push(format!(
                    "target epoch {} (offset {}): {why}",
                    t.epoch, t.offset
                )),
            }
        }
        if self.targets.iter().any(|t| t.assignment_configs.is_empty()) {
            out.assumptions.push(format!(
                "num.standby.replicas={} and rack.aware.assignment.tags={:?} from the group's \
                 configs now: the records of a 4.1 broker do not hold the configs of each target",
                cx.fallback.num_standby_replicas, cx.fallback.rack_aware_assignment_tags
            ));
        }
        out
    }

    /// The verification by `version`'s coordinator, or else by the release the broker (`wire`:
    /// the StreamsGroupDescribe version it serves) and the records show ([`Self::detect`]); when
    /// that one differs and an earlier patch the wire cannot tell apart computes every target
    /// as the broker did, that patch's. With the notes that say which release was taken.
    pub fn verify_release(
        &self,
        version: Option<KafkaVersion>,
        wire: i16,
        partitions: &TopicMetadata,
        fallback: &GroupConfig,
    ) -> (Verification, Vec<String>) {
        let run = |version| {
            self.verify(&Context {
                version,
                partitions,
                fallback,
            })
        };
        if let Some(v) = version {
            return (run(v), Vec::new());
        }
        let (detected, note) = self.detect(wire);
        let mut notes: Vec<String> = note.into_iter().collect();
        let first = run(detected);
        match differing_patch(detected, &first, &run) {
            Some((earlier, v)) => {
                notes.push(format!(
                    "Kafka {} gives {} difference(s) and {} none: this broker runs {}",
                    detected.release(),
                    first.faults().count(),
                    earlier.release(),
                    earlier.release()
                ));
                (v, notes)
            }
            None => (first, notes),
        }
    }

    /// The release whose coordinator wrote the records, from the StreamsGroupDescribe version
    /// the broker serves (`wire`: 1 = 4.4) and, below 4.4, from the tagged fields the records
    /// carry: a target's computation time (4.3+) and the validated topology epoch (4.2+). With
    /// the note that says what was inferred.
    pub fn detect(&self, wire: i16) -> (KafkaVersion, Option<String>) {
        if let Some(v) = KafkaVersion::detect(Some(wire)).filter(|v| *v >= KafkaVersion::V4_4) {
            return (v, None);
        }
        let s = &self.release;
        let (version, why) = match (s.timed, s.validated, s.targets) {
            (true, _, _) => (KafkaVersion::V4_3, "targets record when they were computed"),
            (false, true, true) => (
                KafkaVersion::V4_2,
                "validated topology epochs but no target times",
            ),
            (false, false, true) => (KafkaVersion::V4_1, "no validated topology epochs"),
            _ => (
                KafkaVersion::V4_3,
                "no target assignment to tell the release by",
            ),
        };
        let note = format!(
            "the broker serves StreamsGroupDescribe v0 (Kafka 4.1 to 4.3) and the records show \
             {why}: verifying with Kafka {} (--kafka-version picks another)",
            version.release()
        );
        (version, Some(note))
    }
}

/// A release the wire cannot tell apart from `detected` whose coordinator computes every target
/// as the broker did, when `detected`'s does not.
fn differing_patch(
    detected: KafkaVersion,
    first: &Verification,
    run: &dyn Fn(KafkaVersion) -> Verification,
) -> Option<(KafkaVersion, Verification)> {
    first.faults().next()?;
    detected
        .differing_earlier_patches()
        .iter()
        .map(|v| (*v, run(*v)))
        .find(|(_, v)| v.verified > 0 && v.faults().next().is_none())
}

/// What the records say of the release that wrote them.
#[derive(Default)]
struct ReleaseSigns {
    /// A target assignment was written.
    targets: bool,
    /// One recorded when it was computed (4.3+).
    timed: bool,
    /// An epoch bump recorded a validated topology epoch (4.2+).
    validated: bool,
}

impl ReleaseSigns {
    fn see(&mut self, record: &CoordinatorRecord) {
        match record {
            CoordinatorRecord::TargetAssignmentMetadata { value: Some(t), .. } => {
                self.targets = true;
                self.timed |= t.assignment_timestamp_ms != 0;
            }
            CoordinatorRecord::StreamsGroupMetadata { value: Some(g), .. } => {
                self.validated |= g.validated_topology_epoch != -1;
            }
            _ => {}
        }
    }
}

/// A target assignment the broker wrote, and what its assignor had: the group as of its record
/// 20, the targets before its records 21 and the member table the assignor walked.
struct WrittenTarget {
    epoch: i32,
    /// The write that holds it: its offset and time.
    offset: i64,
    timestamp_ms: i64,
    /// The members, with the tasks they owned before the target (records 22 come after it).
    members: BTreeMap<String, Member>,
    /// The member ids in the order the assignor walked them.
    order: Vec<String>,
    previous: BTreeMap<String, Assignment>,
    /// Every member's target as the broker wrote it.
    written: BTreeMap<String, Assignment>,
    topology: Option<Topology>,
    validated_topology_epoch: i32,
    assignment_configs: BTreeMap<String, String>,
}

impl WrittenTarget {
    fn new(
        w: &Write,
        after: &ReplayedGroup,
        at: &Inputs,
        previous: BTreeMap<String, Assignment>,
    ) -> WrittenTarget {
        let members = after
            .members
            .iter()
            .map(|(id, m)| {
                let mut member = Member::new(id);
                member.identity = m.identity.clone();
                member.topology_epoch = m.topology_epoch;
                if let Some(c) = after.current.get(id) {
                    member.assigned = c.assigned.clone();
                    member.pending_revocation = c.pending_revocation.clone();
                }
                (id.clone(), member)
            })
            .collect();
        WrittenTarget {
            epoch: after.assignment_epoch,
            offset: w.offset,
            timestamp_ms: w.timestamp_ms,
            members,
            order: at.order(after).into_iter().map(String::from).collect(),
            previous,
            written: after.targets.clone(),
            topology: after.topology.clone(),
            validated_topology_epoch: after.validated_topology_epoch,
            assignment_configs: after.assignment_configs.clone(),
        }
    }
}

/// What the assignor saw that the group no longer shows once the target is written: the
/// targets before this target's records 21, and the member table before the heartbeating
/// member (a new one) was put in it, which the coordinator does only after the target.
#[derive(Default)]
struct Inputs {
    last_epoch: i32,
    /// The targets before this target's records 21 (or as the last target left them).
    previous: BTreeMap<String, Assignment>,
    /// The kind of the last record applied.
    last_kind: Kind,
    /// A member new to the group, the table before it, and whether only the records of its
    /// own heartbeat's write (23, 17, 21) followed it.
    joined: Option<(String, Vec<String>, bool)>,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Kind {
    #[default]
    Other,
    TargetMember,
    /// Records 23, 17: between a join and its target.
    Bump,
}

impl Inputs {
    fn before(&mut self, group: &ReplayedGroup, record: &CoordinatorRecord) {
        use CoordinatorRecord as R;
        match record {
            R::TargetAssignmentMember { .. } if self.last_kind != Kind::TargetMember => {
                self.previous = group.targets.clone();
            }
            R::MemberMetadata {
                member_id,
                value: Some(_),
                ..
            } if !group.members.contains_key(member_id) => {
                let table = group.member_order().map(String::from).collect();
                self.joined = Some((member_id.clone(), table, true));
                return;
            }
            _ => {}
        }
        let kind = kind_of(record);
        if let Some(j) = &mut self.joined {
            j.2 &= kind != Kind::Other;
        }
    }

    fn after(&mut self, record: &CoordinatorRecord) {
        self.last_kind = kind_of(record);
    }

    /// The member table the assignor walked: the heartbeating newcomer last.
    fn order<'a>(&'a self, group: &'a ReplayedGroup) -> Vec<&'a str> {
        let present = |id: &&str| group.members.contains_key(*id);
        match &self.joined {
            Some((id, table, true)) if group.members.contains_key(id) => table
                .iter()
                .map(String::as_str)
                .filter(present)
                .chain([id.as_str()])
                .collect(),
            _ => group.member_order().filter(present).collect(),
        }
    }
}

fn kind_of(record: &CoordinatorRecord) -> Kind {
    use CoordinatorRecord as R;
    match record {
        R::TargetAssignmentMember { .. } => Kind::TargetMember,
        R::Topology { .. } | R::StreamsGroupMetadata { .. } => Kind::Bump,
        _ => Kind::Other,
    }
}

/// The target the local assignor computes for the members a written target was computed for,
/// from what they had before it (previous target, current tasks, table order).
fn recompute(
    t: &WrittenTarget,
    assignor: &dyn TaskAssignor,
    cx: &Context<'_>,
) -> Result<target::TargetAssignment, String> {
    let topology = t.topology.as_ref().ok_or("the group has no topology")?;
    // The topics were what the coordinator validated then, not what they are now: 4.2+ records
    // say whether the topology was ready (not: every target empty); 4.1's do not say, and an
    // all-empty target is not compared.
    let ready = cx.version == KafkaVersion::V4_1 || t.validated_topology_epoch == topology.epoch;
    let configuration = match ready {
        true => Some(configure(topology, cx.partitions).map_err(|e| e.to_string())?),
        false => None,
    };
    if cx.version == KafkaVersion::V4_1 && t.written.values().all(Assignment::is_empty) {
        return Err(
            "every member's target is empty: the topology was not ready then, or the \
                    topics were missing (a 4.1 broker does not record which)"
                .into(),
        );
    }
    let order: Vec<&str> = t.order.iter().map(String::as_str).collect();
    let config = assignment_config(&t.assignment_configs, cx.fallback)?;
    let inputs = TargetInputs {
        members: &t.members,
        order: &order,
        previous_target: &t.previous,
        configuration: configuration.as_ref(),
        config: &config,
        version: cx.version,
    };
    let (computed, _) = target::compute(assignor, &NoWarmups, &inputs).map_err(|e| e.message)?;
    Ok(computed)
}

/// The group config the assignor ran with: the write's recorded assignment configs (4.2+), else
/// the group's configs now.
fn assignment_config(
    recorded: &BTreeMap<String, String>,
    fallback: &GroupConfig,
) -> Result<GroupConfig, String> {
    let mut config = fallback.clone();
    if let Some(n) = recorded.get("num.standby.replicas") {
        config.num_standby_replicas = n
            .trim()
            .parse()
            .map_err(|_| format!("num.standby.replicas={n:?} in the records is not a count"))?;
    }
    if let Some(tags) = recorded.get("rack.aware.assignment.tags") {
        config.rack_aware_assignment_tags = tags
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
    }
    Ok(config)
}

/// The members whose written target differs from the computed one, if any.
fn compare(
    t: &WrittenTarget,
    computed: &target::TargetAssignment,
    version: KafkaVersion,
) -> Option<Difference> {
    let empty = Assignment::default();
    let members: Vec<MemberDifference> = t
        .members
        .keys()
        .filter_map(|id| {
            let broker = t.written.get(id).unwrap_or(&empty);
            let local = computed.get(id).unwrap_or(&empty);
            let same = broker.active == local.active
                && broker.standby == local.standby
                && broker.warmup == local.warmup;
            (!same).then(|| MemberDifference {
                member_id: id.clone(),
                broker: broker.clone(),
                computed: local.clone(),
            })
        })
        .collect();
    if members.is_empty() {
        return None;
    }
    let stateful = t
        .topology
        .iter()
        .flat_map(|t| &t.subtopologies)
        .any(|s| !s.state_changelog_topics.is_empty());
    let verdict = match version.assignor_sees_current_assignment() && stateful {
        true => TargetVerdict::MayDependOnTaskOffsets,
        false => TargetVerdict::Differs,
    };
    Some(Difference {
        epoch: t.epoch,
        offset: t.offset,
        at: rfc3339(t.timestamp_ms),
        verdict,
        members,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::encode::encode;
    use crate::history::pass::replay;
    use crate::history::records::{
        MemberMetadataValue, StreamsGroupMetadataValue, TargetAssignmentMetadataValue,
    };
    use model::{MemberIdentity, Subtopology, TopicInfo, Topology};

    const G: &str = "app";

    fn topology(stateful: bool) -> CoordinatorRecord {
        let changelog = TopicInfo {
            name: "app-store-changelog".into(),
            ..TopicInfo::default()
        };
        CoordinatorRecord::Topology {
            group_id: G.into(),
            value: Some(Topology {
                epoch: 0,
                subtopologies: vec![Subtopology {
                    id: "0".into(),
                    source_topics: vec!["in".into()],
                    state_changelog_topics: stateful.then_some(changelog).into_iter().collect(),
                    ..Subtopology::default()
                }],
            }),
        }
    }

    fn epoch(e: i32, validated: i32, standbys: Option<&str>) -> CoordinatorRecord {
        let mut v = StreamsGroupMetadataValue::new(e, 1);
        v.validated_topology_epoch = validated;
        v.last_assignment_configs =
            standbys.map(|n| BTreeMap::from([("num.standby.replicas".into(), n.into())]));
        CoordinatorRecord::StreamsGroupMetadata {
            group_id: G.into(),
            value: Some(v),
        }
    }

    fn member(id: &str) -> CoordinatorRecord {
        CoordinatorRecord::MemberMetadata {
            group_id: G.into(),
            member_id: id.into(),
            value: Some(MemberMetadataValue {
                identity: MemberIdentity {
                    instance_id: None,
                    rack_id: None,
                    client_id: format!("{id}-client"),
                    client_host: "/127.0.0.1".into(),
                    process_id: format!("{id}-process"),
                    user_endpoint: None,
                    client_tags: BTreeMap::new(),
                },
                rebalance_timeout_ms: 300_000,
                topology_epoch: 0,
            }),
        }
    }

    fn target(e: i32, ts: i64, of: &[(&str, &[i32])]) -> Vec<CoordinatorRecord> {
        let mut out: Vec<CoordinatorRecord> = of
            .iter()
            .map(|(id, ps)| CoordinatorRecord::TargetAssignmentMember {
                group_id: G.into(),
                member_id: id.to_string(),
                value: Some(Assignment {
                    active: ps.iter().map(|p| ("0", *p)).collect(),
                    ..Assignment::default()
                }),
            })
            .collect();
        out.push(CoordinatorRecord::TargetAssignmentMetadata {
            group_id: G.into(),
            value: Some(TargetAssignmentMetadataValue {
                assignment_epoch: e,
                assignment_timestamp_ms: ts,
            }),
        });
        out
    }

    fn write(offset: i64, records: Vec<CoordinatorRecord>) -> Write {
        Write {
            offset,
            batch_offset: offset,
            timestamp_ms: 1_700_000_000_000 + offset,
            records: records.iter().filter_map(encode).collect(),
        }
    }

    /// One member joins a 4-partition topology: the only target is all four tasks to it.
    fn joined(stateful: bool, validated: i32, broker: &[i32]) -> Vec<Write> {
        let mut first = vec![
            member("a"),
            topology(stateful),
            epoch(1, validated, Some("0")),
        ];
        first.extend(target(1, 5, &[("a", broker)]));
        vec![write(0, first)]
    }

    fn partitions() -> TopicMetadata {
        TopicMetadata::from([
            ("in".to_string(), 4),
            ("app-store-changelog".to_string(), 4),
        ])
    }

    /// The verifier, having listened to a replay of `writes`.
    fn verifier(writes: &[Write]) -> Verifier {
        let mut v = Verifier::default();
        replay(writes, None, &mut [&mut v]);
        v
    }

    fn run(writes: &[Write], version: KafkaVersion) -> Verification {
        let fallback = GroupConfig::default();
        let cx = Context {
            version,
            partitions: &partitions(),
            fallback: &fallback,
        };
        verifier(writes).verify(&cx)
    }

    #[test]
    fn the_target_the_assignor_computes_verifies() {
        let v = run(&joined(false, 0, &[0, 1, 2, 3]), KafkaVersion::V4_3);
        assert_eq!((v.verified, v.differences.len()), (1, 0), "{v:?}");
        assert!(v.assumptions.is_empty() && v.skipped.is_empty(), "{v:?}");
    }

    #[test]
    fn a_target_the_assignor_would_not_compute_is_a_difference() {
        let v = run(&joined(false, 0, &[0, 1, 2]), KafkaVersion::V4_3);
        assert_eq!(v.verified, 1);
        let d = &v.differences[0];
        assert_eq!(
            (d.epoch, d.offset, d.verdict),
            (1, 0, TargetVerdict::Differs)
        );
        assert_eq!(d.members[0].member_id, "a");
        assert_eq!(d.members[0].computed.active.len(), 4);
        assert_eq!(v.faults().count(), 1);
        // 4.4's assignor also reads task offsets the records do not hold: with state, maybe.
        let v = run(&joined(true, 0, &[0, 1, 2]), KafkaVersion::V4_4);
        assert_eq!(v.differences[0].members[0].computed.active.len(), 4);
        assert_eq!(
            v.differences[0].verdict,
            TargetVerdict::MayDependOnTaskOffsets
        );
        assert_eq!(v.faults().count(), 0);
    }

    #[test]
    fn a_topology_not_validated_then_gets_empty_targets() {
        // The topics exist now, but the records say the coordinator had not validated them.
        let v = run(&joined(false, -1, &[]), KafkaVersion::V4_3);
        assert_eq!((v.verified, v.differences.len()), (1, 0), "{v:?}");
        // 4.1 does not record validation: an all-empty target is skipped, not compared.
        let v = run(&joined(false, -1, &[]), KafkaVersion::V4_1);
        assert_eq!((v.verified, v.skipped.len()), (0, 1), "{v:?}");
    }

    #[test]
    fn the_configs_of_each_epoch_bump_are_the_records_else_the_groups_now() {
        // Two processes, one standby asked for: each gets two actives and two standbys.
        let mut w = vec![
            member("a"),
            member("b"),
            topology(true),
            epoch(1, 0, Some("1")),
        ];
        w.extend(target(1, 5, &[("a", &[0, 2]), ("b", &[1, 3])]));
        let v = run(&[write(0, w.clone())], KafkaVersion::V4_3);
        let d = &v.differences[0];
        assert!(
            d.members.iter().all(|m| m.computed.standby.len() == 2),
            "{d:?}"
        );
        assert!(v.assumptions.is_empty());
        w[3] = epoch(1, 0, None);
        let v = run(&[write(0, w)], KafkaVersion::V4_1);
        assert_eq!(v.assumptions.len(), 1, "{v:?}");
        assert!(v.assumptions[0].contains("num.standby.replicas=0"), "{v:?}");
    }

    #[test]
    fn the_release_shows_in_the_records_fields() {
        let detect = |wire, writes: &[Write]| verifier(writes).detect(wire);
        let timed = joined(false, 0, &[0, 1, 2, 3]);
        assert_eq!(detect(1, &timed).0, KafkaVersion::V4_4);
        assert!(detect(1, &timed).1.is_none());
        assert_eq!(detect(0, &timed).0, KafkaVersion::V4_3);
        let mut untimed = vec![member("a"), topology(false), epoch(1, 0, Some("0"))];
        untimed.extend(target(1, 0, &[("a", &[0, 1, 2, 3])]));
        assert_eq!(
            detect(0, &[write(0, untimed.clone())]).0,
            KafkaVersion::V4_2
        );
        untimed[2] = epoch(1, -1, None);
        let (v, note) = detect(0, &[write(0, untimed)]);
        assert_eq!(v, KafkaVersion::V4_1);
        assert!(note.unwrap().contains("--kafka-version"));
        assert_eq!(detect(0, &[]).0, KafkaVersion::V4_3);
    }

    #[test]
    fn a_batch_of_two_writes_checks_the_target_with_the_members_it_had() {
        // The runtime put a's first heartbeat (join, target) and b's join (epoch bump, no
        // target yet: the assignment interval) in one batch.
        let mut records = vec![member("a"), topology(false), epoch(1, 0, Some("0"))];
        records.extend(target(1, 5, &[("a", &[0, 1, 2, 3])]));
        records.extend([member("b"), epoch(2, 0, Some("0"))]);
        let v = run(&[write(0, records)], KafkaVersion::V4_3);
        assert_eq!((v.verified, v.differences.len()), (1, 0), "{v:?}");
    }

    /// A recorded history: a joins; b joins and gets half; b leaves and the last target, by
    /// `last`, gives a everything back (or not).
    fn recorded(last: &[i32]) -> Vec<Write> {
        let mut first = vec![member("a"), topology(false), epoch(1, 0, Some("0"))];
        first.extend(target(1, 5, &[("a", &[0, 1, 2, 3])]));
        let mut second = vec![member("b"), epoch(2, 0, Some("0"))];
        second.extend(target(2, 6, &[("a", &[0, 1]), ("b", &[2, 3])]));
        let leave = CoordinatorRecord::MemberMetadata {
            group_id: G.into(),
            member_id: "b".into(),
            value: None,
        };
        let mut third = vec![leave, epoch(3, 0, Some("0"))];
        third.extend(target(3, 7, &[("a", last)]));
        vec![write(0, first), write(10, second), write(20, third)]
    }

    #[test]
    fn the_story_and_every_release_tried_share_one_replay() {
        use crate::history::replay::APPLIED;
        use crate::history::report::{build, Window};
        for (last, faults) in [(&[0, 1, 2, 3][..], 0), (&[0, 1, 2][..], 1)] {
            let writes = recorded(last);
            let records: usize = writes.iter().map(|w| w.records.len()).sum();
            APPLIED.with(|c| c.set(0));
            let mut verifier = Verifier::default();
            let (report, _) = build(G, &writes, Window::default(), Some(&mut verifier));
            let fallback = GroupConfig::default();
            // Detected 4.3.2 (timed targets); with a difference, 4.3.1 is tried too.
            let (v, notes) = verifier.verify_release(None, 0, &partitions(), &fallback);
            assert_eq!((v.verified, v.faults().count()), (3, faults), "{v:?}");
            assert_eq!((report.events.len(), notes.len()), (3, 1), "{notes:?}");
            // Before: once for the story and once per release tried (2, or 3 with a difference).
            assert_eq!(
                APPLIED.with(|c| c.get()),
                records,
                "each record applied once"
            );
        }
    }
}
