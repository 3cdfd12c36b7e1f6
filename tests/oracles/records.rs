//! The decoder of the group coordinator's records (`history::records`) against Apache's own
//! generated record classes, through `streamsgroup.RecordOracle` on the harness classpath of
//! each release the GMM oracle models (4.1.2, 4.2.2, 4.3.1, 4.3.2, 4.4.0).
//!
//! Per release, one JVM and one batch: varied records of every streams type and offset commits
//! (nulls, empty lists, tagged fields at their default and set as far as the release has them,
//! unicode group ids, a member with a thousand tasks, tombstones, OffsetCommitValue versions 0-4)
//! are built by Apache's JSON converters and serialized by `GroupCoordinatorRecordSerde`. Our
//! `decode` must return exactly the record that was described, `group_of` the type and group,
//! and `encode` the same bytes; some records also carry an unknown tagged field in every struct,
//! which `decode` must skip and count. Then `consumer_offsets_partition` against
//! `Utils.abs(groupId.hashCode()) % partitions`.
//!
//! `cargo test --test oracles records -- --nocapture` prints one line per release.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use coordinator::java::java_string_hash;
use kafka::wire::{from_hex, to_hex};
use model::heartbeat::Endpoint;
use model::{Assignment, MemberIdentity, Subtopology, TaskSet, TopicInfo, Topology};
use streams_group::history::encode::encode;
use streams_group::history::records::{
    CoordinatorRecord, CurrentMemberAssignmentValue, MemberMetadataValue, OffsetCommitValue,
    StreamsGroupMetadataValue, TargetAssignmentMetadataValue,
};
use streams_group::history::{consumer_offsets_partition, decode, group_of};

use crate::support;
use crate::support::gmm_oracle::{GmmOracle, ORACLE_VERSIONS};

/// An unknown tagged field added to every struct of some records: a tag above every known one.
const UNKNOWN_TAG: (u32, &str) = (100, "c0ffee");

/// The tagged fields a release writes.
#[derive(Clone, Copy)]
struct Release {
    /// 17's ValidatedTopologyEpoch and LastAssignmentConfigs (4.2+).
    validated_epoch: bool,
    /// 17's Stored/FailedDescriptionTopologyEpoch (4.4+).
    description_epochs: bool,
    /// 20's AssignmentTimestamp (4.3+).
    assignment_timestamp: bool,
    /// 22's per-task AssignmentEpochs (4.2+).
    assignment_epochs: bool,
}

impl Release {
    fn of(version: &str) -> Release {
        let line = |v: &str| version >= v;
        Release {
            validated_epoch: line("4.2"),
            description_epochs: line("4.4"),
            assignment_timestamp: line("4.3"),
            assignment_epochs: line("4.2"),
        }
    }
}

/// One record to build in Java and what we expect back.
struct Case {
    record: CoordinatorRecord,
    unknown_tag: bool,
}

// ------------------------------------------------------------------------------ generators

const GROUPS: [&str; 6] = [
    "my-app",
    "grüppe-😀",
    "日本語-アプリ",
    "",
    "a.b_c-D",
    "polygenelubricants",
];

fn text(rng: &mut ChaCha8Rng, max: usize) -> String {
    const ALPHABET: [&str; 8] = ["a", "Z", "0", "-", "é", "😀", "字", "_"];
    (0..rng.gen_range(0..=max))
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())])
        .collect()
}

fn maybe_text(rng: &mut ChaCha8Rng, max: usize) -> Option<String> {
    rng.gen_bool(0.5).then(|| text(rng, max))
}

fn kvs(rng: &mut ChaCha8Rng, max: usize) -> BTreeMap<String, String> {
    (0..rng.gen_range(0..=max))
        .map(|i| (format!("k{i}-{}", text(rng, 4)), text(rng, 6)))
        .collect()
}

fn task_set(rng: &mut ChaCha8Rng, subtopologies: usize, partitions: i32) -> TaskSet {
    let mut out = Vec::new();
    for s in 0..subtopologies {
        for p in 0..partitions {
            if rng.gen_bool(0.4) {
                out.push((s.to_string(), p));
            }
        }
    }
    out.iter().map(|(s, p)| (s.as_str(), *p)).collect()
}

fn assignment(rng: &mut ChaCha8Rng, size: (usize, i32)) -> Assignment {
    Assignment {
        active: task_set(rng, size.0, size.1),
        standby: task_set(rng, size.0, size.1),
        warmup: if rng.gen_bool(0.5) {
            task_set(rng, size.0, size.1)
        } else {
            TaskSet::new()
        },
    }
}

fn group_metadata(
    rng: &mut ChaCha8Rng,
    release: Release,
    defaults: bool,
) -> StreamsGroupMetadataValue {
    let mut m = StreamsGroupMetadataValue::new(rng.gen_range(0..1000), rng.gen());
    if release.validated_epoch && !defaults {
        m.validated_topology_epoch = rng.gen_range(0..10);
        // Null is written; an empty list is the default, not written.
        m.last_assignment_configs = if rng.gen_bool(0.2) {
            None
        } else {
            Some(kvs(rng, 3))
        };
    }
    if release.description_epochs && !defaults {
        m.stored_description_topology_epoch = [-2, 0, 7][rng.gen_range(0..3)];
        m.failed_description_topology_epoch = rng.gen_range(0..10);
    }
    m
}

fn member_metadata(rng: &mut ChaCha8Rng) -> MemberMetadataValue {
    MemberMetadataValue {
        identity: MemberIdentity {
            instance_id: maybe_text(rng, 10),
            rack_id: maybe_text(rng, 5),
            client_id: text(rng, 20),
            client_host: format!("/10.0.0.{}", rng.gen_range(0..255)),
            process_id: text(rng, 36),
            user_endpoint: rng.gen_bool(0.6).then(|| Endpoint {
                host: text(rng, 12),
                port: [0, 8080, 65535][rng.gen_range(0..3)],
            }),
            client_tags: kvs(rng, 3),
        },
        rebalance_timeout_ms: [-1, 0, 300_000, i32::MAX][rng.gen_range(0..4)],
        topology_epoch: rng.gen_range(0..5),
    }
}

fn current_assignment(
    rng: &mut ChaCha8Rng,
    release: Release,
    size: (usize, i32),
) -> CurrentMemberAssignmentValue {
    let assigned = assignment(rng, size);
    let mut active_task_epochs = BTreeMap::new();
    if release.assignment_epochs {
        // Per subtopology, all partitions or none carry an epoch (the list is parallel).
        for (s, partitions) in assigned.active.subtopologies() {
            if rng.gen_bool(0.7) {
                let epochs = partitions
                    .iter()
                    .map(|p| (p, rng.gen_range(0..50)))
                    .collect();
                active_task_epochs.insert(s.to_string(), epochs);
            }
        }
    }
    CurrentMemberAssignmentValue {
        member_epoch: [-2, 0, 5, 1000][rng.gen_range(0..4)],
        previous_member_epoch: rng.gen_range(-1..100),
        state: [1, 2, 3, 127][rng.gen_range(0..4)],
        assigned,
        active_task_epochs,
        pending_revocation: if rng.gen_bool(0.5) {
            assignment(rng, (size.0, size.1.min(4)))
        } else {
            Assignment::default()
        },
    }
}

fn topic_info(rng: &mut ChaCha8Rng, name: String) -> TopicInfo {
    TopicInfo {
        name,
        partitions: rng.gen_range(0..10),
        replication_factor: [0, 1, 3][rng.gen_range(0..3)],
        topic_configs: kvs(rng, 2),
    }
}

fn subtopology(rng: &mut ChaCha8Rng, id: usize) -> Subtopology {
    let sources: Vec<String> = (0..rng.gen_range(0..3))
        .map(|i| format!("in-{id}-{i}"))
        .collect();
    let regexes: Vec<String> = (0..rng.gen_range(0..2))
        .map(|i| format!("re-{id}-{i}.*"))
        .collect();
    let repartition: Vec<TopicInfo> = (0..rng.gen_range(0..3))
        .map(|i| topic_info(rng, format!("app-rep-{id}-{i}")))
        .collect();
    let mut inputs: Vec<String> = sources.iter().chain(&regexes).cloned().collect();
    inputs.extend(repartition.iter().map(|t| t.name.clone()));
    let copartition_groups = (0..rng.gen_range(0..3))
        .map(|_| {
            inputs
                .iter()
                .filter(|_| rng.gen_bool(0.6))
                .cloned()
                .collect()
        })
        .filter(|g: &BTreeSet<String>| !g.is_empty())
        .collect();
    Subtopology {
        id: id.to_string(),
        source_topics: sources,
        source_topic_regex: regexes,
        repartition_sink_topics: (0..rng.gen_range(0..2))
            .map(|i| format!("app-rep-{}-{i}", id + 1))
            .collect(),
        repartition_source_topics: repartition,
        state_changelog_topics: (0..rng.gen_range(0..3))
            .map(|i| topic_info(rng, format!("app-store-{id}-{i}-changelog")))
            .collect(),
        copartition_groups,
    }
}

fn offset_commit(rng: &mut ChaCha8Rng, version: i16) -> OffsetCommitValue {
    OffsetCommitValue {
        version,
        offset: [0, 42, i64::MAX][rng.gen_range(0..3)],
        leader_epoch: if version >= 3 {
            rng.gen_range(-1..20)
        } else {
            -1
        },
        metadata: text(rng, 8),
        commit_timestamp_ms: 1_700_000_000_000 + rng.gen_range(0..1_000_000),
        expire_timestamp_ms: if version == 1 { 1_800_000_000_000 } else { -1 },
        topic_id: (version >= 4 && rng.gen_bool(0.7)).then(|| rng.gen()),
    }
}

/// The records of one release's batch: every type with varied values, its tombstone, and
/// some with an unknown tagged field in every struct.
fn cases(release: Release, rng: &mut ChaCha8Rng) -> Vec<Case> {
    let mut out = Vec::new();
    let mut add = |record, unknown_tag| {
        out.push(Case {
            record,
            unknown_tag,
        })
    };
    for (i, g) in GROUPS.iter().enumerate() {
        let group_id = g.to_string();
        let member_id = format!("m{i}-{}", text(rng, 22));
        let size = if i == 0 {
            (4, 250)
        } else {
            (rng.gen_range(0..3), rng.gen_range(1..8))
        };
        let unknown = i % 2 == 1;
        let records = vec![
            CoordinatorRecord::StreamsGroupMetadata {
                group_id: group_id.clone(),
                value: Some(group_metadata(rng, release, i == 2)),
            },
            CoordinatorRecord::MemberMetadata {
                group_id: group_id.clone(),
                member_id: member_id.clone(),
                value: Some(member_metadata(rng)),
            },
            CoordinatorRecord::TargetAssignmentMetadata {
                group_id: group_id.clone(),
                value: Some(TargetAssignmentMetadataValue {
                    assignment_epoch: rng.gen_range(0..100),
                    assignment_timestamp_ms: if release.assignment_timestamp && i != 2 {
                        1_700_000_000_000 + rng.gen_range(0..1000)
                    } else {
                        0
                    },
                }),
            },
            CoordinatorRecord::TargetAssignmentMember {
                group_id: group_id.clone(),
                member_id: member_id.clone(),
                value: Some(assignment(rng, size)),
            },
            CoordinatorRecord::CurrentMemberAssignment {
                group_id: group_id.clone(),
                member_id: member_id.clone(),
                value: Some(current_assignment(rng, release, size)),
            },
            CoordinatorRecord::Topology {
                group_id: group_id.clone(),
                value: Some(Topology {
                    epoch: rng.gen_range(0..4),
                    subtopologies: (0..rng.gen_range(0..4))
                        .map(|s| subtopology(rng, s))
                        .collect(),
                }),
            },
            CoordinatorRecord::OffsetCommit {
                group_id: group_id.clone(),
                topic: format!("in-{}", text(rng, 5)),
                partition: rng.gen_range(0..100),
                value: Some(offset_commit(rng, (i % 5) as i16)),
            },
        ];
        for record in records {
            let flexible = !matches!(&record, CoordinatorRecord::OffsetCommit { value: Some(v), .. } if v.version < 4);
            add(record.tombstone(), false);
            add(record, unknown && flexible);
        }
    }
    // Every OffsetCommitValue version, with and without the topic id.
    for version in 0..=4 {
        for _ in 0..2 {
            let record = CoordinatorRecord::OffsetCommit {
                group_id: "my-app".into(),
                topic: "words".into(),
                partition: 0,
                value: Some(offset_commit(rng, version)),
            };
            add(record, false);
        }
    }
    out
}

// ------------------------------------------------------------------------------ to Apache's JSON

fn kv_json(m: &BTreeMap<String, String>) -> Value {
    m.iter()
        .map(|(k, v)| json!({"key": k, "value": v}))
        .collect()
}

fn tasks_json(t: &TaskSet, epochs: Option<&BTreeMap<String, BTreeMap<i32, i32>>>) -> Value {
    t.to_task_ids()
        .iter()
        .map(|e| {
            let mut o = json!({"subtopologyId": e.subtopology, "partitions": e.partitions});
            if let Some(of) = epochs.and_then(|m| m.get(&e.subtopology)) {
                let all: Vec<i32> = e.partitions.iter().map(|p| of[p]).collect();
                o["assignmentEpochs"] = json!(all);
            }
            o
        })
        .collect()
}

fn assignment_json(a: &Assignment) -> Value {
    json!({
        "activeTasks": tasks_json(&a.active, None),
        "standbyTasks": tasks_json(&a.standby, None),
        "warmupTasks": tasks_json(&a.warmup, None),
    })
}

fn topic_info_json(t: &TopicInfo) -> Value {
    json!({"name": t.name, "partitions": t.partitions, "replicationFactor": t.replication_factor,
           "topicConfigs": kv_json(&t.topic_configs)})
}

fn subtopology_json(s: &Subtopology) -> Value {
    let index = |list: &[String], name: &str| list.iter().position(|x| x == name);
    let repartition: Vec<String> = s
        .repartition_source_topics
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let groups: Vec<Value> = s
        .copartition_groups
        .iter()
        .map(|g| {
            let mut lists: [Vec<usize>; 3] = Default::default();
            for name in g {
                if let Some(i) = index(&s.source_topics, name) {
                    lists[0].push(i);
                } else if let Some(i) = index(&s.source_topic_regex, name) {
                    lists[1].push(i);
                } else {
                    lists[2].push(index(&repartition, name).expect("a repartition source"));
                }
            }
            json!({"sourceTopics": lists[0], "sourceTopicRegex": lists[1], "repartitionSourceTopics": lists[2]})
        })
        .collect();
    json!({
        "subtopologyId": s.id,
        "sourceTopics": s.source_topics,
        "sourceTopicRegex": s.source_topic_regex,
        "stateChangelogTopics": s.state_changelog_topics.iter().map(topic_info_json).collect::<Vec<_>>(),
        "repartitionSinkTopics": s.repartition_sink_topics,
        "repartitionSourceTopics": s.repartition_source_topics.iter().map(topic_info_json).collect::<Vec<_>>(),
        "copartitionGroups": groups,
    })
}

fn metadata_json(m: &StreamsGroupMetadataValue) -> Value {
    let mut v = json!({"epoch": m.epoch, "metadataHash": m.metadata_hash});
    if m.validated_topology_epoch != -1 {
        v["validatedTopologyEpoch"] = json!(m.validated_topology_epoch);
    }
    match &m.last_assignment_configs {
        None => v["lastAssignmentConfigs"] = Value::Null,
        Some(c) if !c.is_empty() => v["lastAssignmentConfigs"] = kv_json(c),
        Some(_) => {}
    }
    if m.stored_description_topology_epoch != -1 {
        v["storedDescriptionTopologyEpoch"] = json!(m.stored_description_topology_epoch);
    }
    if m.failed_description_topology_epoch != -1 {
        v["failedDescriptionTopologyEpoch"] = json!(m.failed_description_topology_epoch);
    }
    v
}

fn member_json(m: &MemberMetadataValue) -> Value {
    json!({
        "instanceId": m.identity.instance_id, "rackId": m.identity.rack_id, "clientId": m.identity.client_id,
        "clientHost": m.identity.client_host, "rebalanceTimeoutMs": m.rebalance_timeout_ms,
        "topologyEpoch": m.topology_epoch, "processId": m.identity.process_id,
        "userEndpoint": m.identity.user_endpoint.as_ref().map(|e| json!({"host": e.host, "port": e.port})),
        "clientTags": kv_json(&m.identity.client_tags),
    })
}

fn current_json(c: &CurrentMemberAssignmentValue) -> Value {
    json!({
        "memberEpoch": c.member_epoch, "previousMemberEpoch": c.previous_member_epoch, "state": c.state,
        "activeTasks": tasks_json(&c.assigned.active, Some(&c.active_task_epochs)),
        "standbyTasks": tasks_json(&c.assigned.standby, None),
        "warmupTasks": tasks_json(&c.assigned.warmup, None),
        "activeTasksPendingRevocation": tasks_json(&c.pending_revocation.active, None),
        "standbyTasksPendingRevocation": tasks_json(&c.pending_revocation.standby, None),
        "warmupTasksPendingRevocation": tasks_json(&c.pending_revocation.warmup, None),
    })
}

fn offset_json(o: &OffsetCommitValue) -> Value {
    let mut v = json!({"offset": o.offset, "metadata": o.metadata, "commitTimestamp": o.commit_timestamp_ms});
    if o.version >= 3 {
        v["leaderEpoch"] = json!(o.leader_epoch);
    }
    if o.version == 1 {
        v["expireTimestamp"] = json!(o.expire_timestamp_ms);
    }
    if let Some(id) = &o.topic_id {
        v["topicId"] = json!(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id));
    }
    v
}

/// The oracle's request for `case`: the record type, the key and value as Apache's JSON
/// converters read them.
fn request(case: &Case) -> Value {
    let r = &case.record;
    let (key, version, value) = match r {
        CoordinatorRecord::OffsetCommit {
            group_id,
            topic,
            partition,
            value,
        } => (
            json!({"group": group_id, "topic": topic, "partition": partition}),
            value.as_ref().map_or(0, |v| v.version),
            value.as_ref().map(offset_json),
        ),
        CoordinatorRecord::StreamsGroupMetadata { group_id, value } => (
            json!({"groupId": group_id}),
            0,
            value.as_ref().map(metadata_json),
        ),
        CoordinatorRecord::MemberMetadata {
            group_id,
            member_id,
            value,
        } => (
            json!({"groupId": group_id, "memberId": member_id}),
            0,
            value.as_ref().map(member_json),
        ),
        CoordinatorRecord::TargetAssignmentMetadata { group_id, value } => (
            json!({"groupId": group_id}),
            0,
            value.as_ref().map(|v| {
                let mut j = json!({"assignmentEpoch": v.assignment_epoch});
                if v.assignment_timestamp_ms != 0 {
                    j["assignmentTimestamp"] = json!(v.assignment_timestamp_ms);
                }
                j
            }),
        ),
        CoordinatorRecord::TargetAssignmentMember {
            group_id,
            member_id,
            value,
        } => (
            json!({"groupId": group_id, "memberId": member_id}),
            0,
            value.as_ref().map(assignment_json),
        ),
        CoordinatorRecord::CurrentMemberAssignment {
            group_id,
            member_id,
            value,
        } => (
            json!({"groupId": group_id, "memberId": member_id}),
            0,
            value.as_ref().map(current_json),
        ),
        CoordinatorRecord::Topology { group_id, value } => (
            json!({"groupId": group_id}),
            0,
            value.as_ref().map(|t| {
                json!({"epoch": t.epoch,
                "subtopologies": t.subtopologies.iter().map(subtopology_json).collect::<Vec<_>>()})
            }),
        ),
        CoordinatorRecord::Unknown { .. } => unreachable!("no unknown records are built"),
    };
    let mut req = json!({"op": "record", "type": r.record_type(), "key": key, "version": version, "value": value});
    if case.unknown_tag {
        req["unknown_tag"] = json!([UNKNOWN_TAG.0, UNKNOWN_TAG.1]);
    }
    req
}

// ------------------------------------------------------------------------------ the test

fn run_oracle(version: &str, requests: &[Value]) -> Vec<Value> {
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    let out = support::java_standalone_with(
        version,
        "streamsgroup.RecordOracle",
        &[],
        Some(input.as_bytes()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "RecordOracle on {version} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{version}: bad answer {l}: {e}"))
        })
        .collect();
    assert_eq!(
        answers.len(),
        requests.len(),
        "{version}: one answer per request:\n{stdout}"
    );
    for (req, a) in requests.iter().zip(&answers) {
        assert!(
            a.get("error").is_none(),
            "{version}: Apache refused {req}: {a}"
        );
    }
    answers
}

fn check_record(version: &str, case: &Case, answer: &Value) {
    let key = from_hex(answer["key"].as_str().unwrap()).unwrap();
    let value = answer["value"].as_str().map(|v| from_hex(v).unwrap());
    let what = || {
        format!(
            "{version}: {:?}\nkey {}\nvalue {:?}",
            case.record,
            to_hex(&key),
            value.as_deref().map(to_hex)
        )
    };
    let d = decode(&key, value.as_deref())
        .unwrap_or_else(|e| panic!("{}\ndoes not decode: {e}", what()));
    assert_eq!(d.record, case.record, "{}", what());
    let added = answer["unknown_tags_added"].as_u64().unwrap_or(0) as usize;
    assert_eq!(
        d.unknown_tagged_fields,
        added,
        "unknown tagged fields: {}",
        what()
    );
    assert!(!case.unknown_tag || added > 0, "{}", what());
    assert_eq!(d.trailing_bytes, 0, "{}", what());
    assert_eq!(
        group_of(&key),
        Some((case.record.record_type(), case.record.group_id().unwrap())),
        "{}",
        what()
    );
    if !case.unknown_tag {
        let ours = encode(&case.record).unwrap();
        assert_eq!(
            ours,
            (key.clone(), value.clone()),
            "our encoding differs from Apache's: {}",
            what()
        );
    }
}

/// Group ids and partition counts to ask Java about.
fn partition_requests() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut groups: Vec<String> = GROUPS.iter().map(|g| g.to_string()).collect();
    groups.extend((0..40).map(|_| text(&mut rng, 12)));
    let counts = [1, 7, 50, 1000];
    groups
        .iter()
        .flat_map(|g| {
            counts
                .iter()
                .map(move |n| json!({"op": "partition", "group": g, "partitions": n}))
        })
        .collect()
}

fn check_partition(req: &Value, answer: &Value) {
    let g = req["group"].as_str().unwrap();
    let n = req["partitions"].as_i64().unwrap() as i32;
    assert_eq!(
        i64::from(java_string_hash(g)),
        answer["hash"].as_i64().unwrap(),
        "hashCode of {g:?}"
    );
    assert_eq!(
        i64::from(consumer_offsets_partition(g, n)),
        answer["partition"].as_i64().unwrap(),
        "partition of {g:?} among {n}"
    );
}

fn seed_of(version: &str) -> u64 {
    version
        .bytes()
        .fold(1071, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
}

#[test]
fn apache_records_decode_to_what_was_built() {
    GmmOracle::require();
    let mut total = 0;
    for version in ORACLE_VERSIONS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed_of(version));
        let cases = cases(Release::of(version), &mut rng);
        let partitions = partition_requests();
        // One JVM per release: the versions it knows, every record, the partitions.
        let mut requests = vec![json!({"op": "info"})];
        requests.extend(cases.iter().map(request));
        requests.extend(partitions.iter().cloned());
        let answers = run_oracle(version, &requests);
        let info = &answers[0];
        assert_eq!(
            info["streams_value_versions"],
            json!([0, 0]),
            "{version}: {info}"
        );
        assert_eq!(
            info["offset_commit_value_versions"],
            json!([0, 4]),
            "{version}: {info}"
        );
        for (case, answer) in cases.iter().zip(&answers[1..]) {
            check_record(version, case, answer);
        }
        for (req, answer) in partitions.iter().zip(&answers[1 + cases.len()..]) {
            check_partition(req, answer);
        }
        let unknown = cases.iter().filter(|c| c.unknown_tag).count();
        let tombstones = cases.iter().filter(|c| c.record.is_tombstone()).count();
        println!(
            "records {version}: {} records built by Apache decode exactly ({tombstones} tombstones, \
             {unknown} with an unknown tagged field in every struct; our encoding is Apache's for \
             the others), {} partitions of __consumer_offsets agree",
            cases.len(),
            partitions.len()
        );
        total += cases.len();
    }
    assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
    assert!(total > 300, "{total} records");
}
