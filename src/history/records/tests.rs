use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::history::encode::encode;
use kafka::wire::from_hex;

fn tasks(pairs: &[(&str, i32)]) -> TaskSet {
    pairs.iter().copied().collect()
}

fn kv(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn sample_topology() -> Topology {
    Topology {
        epoch: 3,
        subtopologies: vec![
            Subtopology {
                id: "0".into(),
                source_topics: vec!["words".into(), "clicks".into()],
                repartition_sink_topics: vec!["app-repartition".into()],
                state_changelog_topics: vec![TopicInfo {
                    name: "app-store-changelog".into(),
                    partitions: 0,
                    replication_factor: 3,
                    topic_configs: kv(&[("cleanup.policy", "compact")]),
                }],
                copartition_groups: vec![["clicks", "words"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()],
                ..Subtopology::default()
            },
            Subtopology {
                id: "1".into(),
                source_topic_regex: vec!["in-.*".into()],
                repartition_source_topics: vec![TopicInfo {
                    name: "app-repartition".into(),
                    partitions: 4,
                    ..TopicInfo::default()
                }],
                copartition_groups: vec![["app-repartition", "in-.*"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()],
                ..Subtopology::default()
            },
        ],
    }
}

/// A member's metadata with every field set.
fn sample_member() -> MemberMetadataValue {
    MemberMetadataValue {
        identity: MemberIdentity {
            instance_id: Some("i-1".into()),
            rack_id: None,
            client_id: "app-client".into(),
            client_host: "/10.0.0.1".into(),
            process_id: "5c9e3f4e-0000-4000-8000-000000000001".into(),
            user_endpoint: Some(Endpoint {
                host: "h".into(),
                port: 65535,
            }),
            client_tags: kv(&[("az", "a"), ("rack", "r1")]),
        },
        rebalance_timeout_ms: 300_000,
        topology_epoch: 3,
    }
}

/// An offset commit at version 4, with a topic id.
fn sample_offset() -> OffsetCommitValue {
    OffsetCommitValue {
        version: 4,
        offset: 1234,
        leader_epoch: 2,
        metadata: String::new(),
        commit_timestamp_ms: 1_700_000_000_000,
        expire_timestamp_ms: -1,
        topic_id: Some([7; 16]),
    }
}

/// One record of each type with every field set, and their tombstones.
fn samples() -> Vec<CoordinatorRecord> {
    let g = || "app-ü".to_string();
    let m = || "member-1".to_string();
    let mut metadata = StreamsGroupMetadataValue::new(7, -42);
    metadata.validated_topology_epoch = 3;
    metadata.last_assignment_configs = Some(kv(&[("num.standby.replicas", "1")]));
    metadata.stored_description_topology_epoch = -2;
    metadata.failed_description_topology_epoch = 2;
    let assigned = Assignment {
        active: tasks(&[("0", 0), ("0", 2), ("1", 1)]),
        standby: tasks(&[("0", 1)]),
        warmup: TaskSet::new(),
    };
    let current = CurrentMemberAssignmentValue {
        member_epoch: 7,
        previous_member_epoch: 6,
        state: 2,
        active_task_epochs: [("0".to_string(), [(0, 5), (2, 7)].into_iter().collect())]
            .into_iter()
            .collect(),
        assigned: assigned.clone(),
        pending_revocation: Assignment {
            active: tasks(&[("1", 3)]),
            ..Assignment::default()
        },
    };
    let records = vec![
        CoordinatorRecord::StreamsGroupMetadata {
            group_id: g(),
            value: Some(metadata),
        },
        CoordinatorRecord::MemberMetadata {
            group_id: g(),
            member_id: m(),
            value: Some(sample_member()),
        },
        CoordinatorRecord::TargetAssignmentMetadata {
            group_id: g(),
            value: Some(TargetAssignmentMetadataValue {
                assignment_epoch: 7,
                assignment_timestamp_ms: 1_700_000_000_123,
            }),
        },
        CoordinatorRecord::TargetAssignmentMember {
            group_id: g(),
            member_id: m(),
            value: Some(assigned),
        },
        CoordinatorRecord::CurrentMemberAssignment {
            group_id: g(),
            member_id: m(),
            value: Some(current),
        },
        CoordinatorRecord::Topology {
            group_id: g(),
            value: Some(sample_topology()),
        },
        CoordinatorRecord::OffsetCommit {
            group_id: g(),
            topic: "words".into(),
            partition: 3,
            value: Some(sample_offset()),
        },
    ];
    let tombstones: Vec<CoordinatorRecord> =
        records.iter().map(CoordinatorRecord::tombstone).collect();
    records.into_iter().chain(tombstones).collect()
}

fn bytes_of(r: &CoordinatorRecord) -> (Vec<u8>, Option<Vec<u8>>) {
    encode(r).expect("a known record type")
}

#[test]
fn every_sample_round_trips() {
    for record in samples() {
        let (key, value) = bytes_of(&record);
        let d = decode(&key, value.as_deref()).unwrap_or_else(|e| panic!("{record:?}: {e}"));
        assert_eq!(d.record, record);
        assert_eq!((d.unknown_tagged_fields, d.trailing_bytes), (0, 0));
        assert_eq!(d.record.is_tombstone(), value.is_none());
        assert_eq!(group_of(&key), Some((record.record_type(), "app-ü")));
        assert_eq!(d.record.group_id(), Some("app-ü"));
    }
}

#[test]
fn bytes_written_by_hand_decode() {
    // StreamsGroupTargetAssignmentMetadata (20) of group "g": epoch 5, timestamp 0x0102 in tag 0.
    let key = from_hex("0014 0001 67").unwrap();
    let value = from_hex("0000 00000005 01 00 08 0000000000000102").unwrap();
    let d = decode(&key, Some(&value)).unwrap();
    assert_eq!(
        d.record,
        CoordinatorRecord::TargetAssignmentMetadata {
            group_id: "g".into(),
            value: Some(TargetAssignmentMetadataValue {
                assignment_epoch: 5,
                assignment_timestamp_ms: 0x0102,
            }),
        }
    );
    // Without the tag (4.1, 4.2): the default, 0.
    let d = decode(&key, Some(&from_hex("0000 00000005 00").unwrap())).unwrap();
    let CoordinatorRecord::TargetAssignmentMetadata { value: Some(v), .. } = d.record else {
        panic!("{d:?}")
    };
    assert_eq!(v.assignment_timestamp_ms, 0);
    // OffsetCommit v3 (not flexible): offset 9, leader epoch 1, metadata "m", commit time 2.
    let key = from_hex("0001 0001 67 0001 74 00000002").unwrap();
    let value = from_hex("0003 0000000000000009 00000001 0001 6d 0000000000000002").unwrap();
    let d = decode(&key, Some(&value)).unwrap();
    let CoordinatorRecord::OffsetCommit {
        topic,
        partition,
        value: Some(v),
        ..
    } = d.record
    else {
        panic!("{d:?}")
    };
    assert_eq!((topic.as_str(), partition), ("t", 2));
    assert_eq!((v.offset, v.leader_epoch, v.metadata.as_str()), (9, 1, "m"));
    assert_eq!(
        (v.commit_timestamp_ms, v.expire_timestamp_ms, v.topic_id),
        (2, -1, None)
    );
}

#[test]
fn unknown_tags_are_skipped_and_counted_at_every_level() {
    // StreamsGroupMetadata: epoch 1, hash 2, then tag 9 (3 bytes) and tag 0 (validated epoch 4).
    let key = from_hex("0011 0001 67").unwrap();
    let value = from_hex("0000 00000001 0000000000000002 02 09 03 aabbcc 00 04 00000004").unwrap();
    let d = decode(&key, Some(&value)).unwrap();
    assert_eq!(d.unknown_tagged_fields, 1);
    let CoordinatorRecord::StreamsGroupMetadata { value: Some(v), .. } = &d.record else {
        panic!("{d:?}")
    };
    assert_eq!(
        (v.epoch, v.metadata_hash, v.validated_topology_epoch),
        (1, 2, 4)
    );
    // A member whose endpoint and one client tag carry an unknown tag each.
    let key = from_hex("0013 0001 67 0001 6d").unwrap();
    let value = from_hex(concat!(
        "0000 00 00 02 63 02 68 ffffffff 00000000 02 70",
        "01 02 48 1f90 01 05 00",     // endpoint "H":8080, tag 5 (empty)
        "02 02 6b 02 76 01 07 01 ff", // client tag k=v, tag 7 (1 byte)
        "00"
    ))
    .unwrap();
    let d = decode(&key, Some(&value)).unwrap();
    assert_eq!(d.unknown_tagged_fields, 2);
    let CoordinatorRecord::MemberMetadata { value: Some(v), .. } = &d.record else {
        panic!("{d:?}")
    };
    assert_eq!(
        v.identity.user_endpoint,
        Some(Endpoint {
            host: "H".into(),
            port: 8080
        })
    );
    assert_eq!(v.identity.client_tags, kv(&[("k", "v")]));
    assert_eq!(
        (
            v.identity.instance_id.as_deref(),
            v.identity.client_id.as_str()
        ),
        (None, "c")
    );
}

#[test]
fn assignment_epochs_of_the_wrong_length_are_left_out() {
    // Record 22: epochs 1/0, state 1, active [("0", [1, 2]) with epochs [9]], then five empty lists.
    let key = from_hex("0016 0001 67 0001 6d").unwrap();
    let value =
        from_hex("0000 00000001 00000000 01 02 02 30 03 00000001 00000002 01 00 05 02 00000009 01 01 01 01 01 00")
            .unwrap();
    let d = decode(&key, Some(&value)).unwrap();
    let CoordinatorRecord::CurrentMemberAssignment { value: Some(v), .. } = &d.record else {
        panic!("{d:?}")
    };
    assert_eq!(v.assigned.active, tasks(&[("0", 1), ("0", 2)]));
    assert!(v.active_task_epochs.is_empty());
    assert_eq!(v.member_state(), Some(MemberState::Stable));
}

#[test]
fn other_types_are_unknown_not_errors() {
    // A consumer group's metadata (type 3) and a classic group's (type 2) tombstone.
    for (t, value) in [
        (3i16, Some(vec![0u8, 0, 1, 2])),
        (2, None),
        (24, Some(vec![])),
    ] {
        let mut key = t.to_be_bytes().to_vec();
        key.extend_from_slice(&from_hex("0003 616263 ffff").unwrap());
        let d = decode(&key, value.as_deref()).unwrap();
        assert_eq!(d.record, CoordinatorRecord::Unknown { record_type: t });
        assert_eq!(group_of(&key), Some((t, "abc")));
        assert!(!d.record.is_tombstone());
    }
}

#[test]
fn trailing_bytes_are_counted_not_refused() {
    let (mut key, value) = bytes_of(&samples()[2]);
    key.push(0);
    let mut value = value.unwrap();
    value.extend_from_slice(&[1, 2]);
    let d = decode(&key, Some(&value)).unwrap();
    assert_eq!(d.trailing_bytes, 3);
    assert_eq!(d.record, samples()[2]);
}

#[test]
fn malformed_records_say_what_is_wrong() {
    let err = |key: &str, value: Option<&str>| {
        let value = value.map(|v| from_hex(v).unwrap());
        decode(&from_hex(key).unwrap(), value.as_deref())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("00", None),
        "record key: truncated: need 2 bytes, 1 left at byte 0"
    );
    assert_eq!(
        err("0011 ffff", None),
        "StreamsGroupMetadata record (17) key: null in a non-nullable string at byte 4"
    );
    assert_eq!(
        err("0011 0001 67", Some("0001 00")),
        "StreamsGroupMetadata record (17) value: unknown value version 1 (this decoder reads 0-0) at byte 0"
    );
    assert_eq!(
        err("0001 0001 67 0001 74 00000002", Some("0005")),
        "OffsetCommit record (1) value: unknown value version 5 (this decoder reads 0-4) at byte 0"
    );
    // Tag 0 of 17 (an int32) given 5 bytes.
    assert_eq!(
        err("0011 0001 67", Some("0000 00000001 0000000000000002 01 00 05 0000000400")),
        "StreamsGroupMetadata record (17) value: tagged field 0: 1 bytes left after the field at byte 21"
    );
    // A copartition group naming source topic 3 of a subtopology with one source topic.
    assert!(err(
        "0017 0001 67",
        Some("0000 00000001 02 02 30 02 02 74 01 01 01 01 02 02 0003 01 01 00 00 00")
    )
    .contains(
        "copartition group of subtopology 0: source topic index 3 out of range (1 source topics)"
    ));
    // Not UTF-8.
    assert!(err("0014 0001 ff", None).contains("string is not UTF-8 at byte 4"));
}

#[test]
fn group_of_reads_only_the_type_and_the_group() {
    assert_eq!(
        group_of(&from_hex("0016 0002 6869 ffff").unwrap()),
        Some((22, "hi"))
    );
    assert_eq!(group_of(&from_hex("0016 0003 6869").unwrap()), None);
    assert_eq!(group_of(&from_hex("0016 ffff").unwrap()), None);
    assert_eq!(group_of(&[0]), None);
    assert_eq!(group_of(&from_hex("0001 0000").unwrap()), Some((1, "")));
}

/// Every prefix of every sample, and random corruptions of them, decode or fail without a panic;
/// a corrupted record that still decodes agrees with `group_of`.
#[test]
fn no_input_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let pairs: Vec<(Vec<u8>, Option<Vec<u8>>)> = samples().iter().map(bytes_of).collect();
    for (key, value) in &pairs {
        for n in 0..key.len() {
            let _ = decode(&key[..n], value.as_deref());
            let _ = group_of(&key[..n]);
        }
        if let Some(value) = value {
            for n in 0..value.len() {
                let _ = decode(key, Some(&value[..n]));
            }
        }
    }
    for _ in 0..20_000 {
        let (key, value) = &pairs[rng.gen_range(0..pairs.len())];
        let mut key = key.clone();
        let mut value = value.clone().unwrap_or_default();
        for _ in 0..rng.gen_range(1..4) {
            let target = if rng.gen_bool(0.2) || value.is_empty() {
                &mut key
            } else {
                &mut value
            };
            let at = rng.gen_range(0..target.len().max(1));
            match rng.gen_range(0..4) {
                0 if !target.is_empty() => target[at] = rng.gen(),
                1 if !target.is_empty() => target[at] ^= 1 << rng.gen_range(0..8),
                2 => target.insert(
                    at.min(target.len()),
                    [0x00, 0x7f, 0x80, 0xff][rng.gen_range(0..4)],
                ),
                _ => target.truncate(at),
            }
        }
        if let Ok(d) = decode(&key, Some(&value)) {
            if let Some(group) = d.record.group_id() {
                assert_eq!(group_of(&key).map(|(_, g)| g), Some(group));
            }
        }
        let random: Vec<u8> = (0..rng.gen_range(0..40)).map(|_| rng.gen()).collect();
        let _ = decode(&key, Some(&random));
    }
}

#[test]
fn copartition_groups_cannot_copy_one_long_name_without_end() {
    // One subtopology with a 2,000-byte source topic and 50 groups that each name it.
    let name = "t".repeat(2000);
    let mut value = from_hex("0000 00000001 02 02 30 02").unwrap();
    value.extend_from_slice(&[0xd1, 0x0f]); // uvarint 2001: compact length of 2,000 bytes
    value.extend_from_slice(name.as_bytes());
    value.extend_from_slice(&from_hex("01 01 01 01 33").unwrap()); // empty lists, 50 groups
    for _ in 0..50 {
        value.extend_from_slice(&from_hex("02 0000 01 01 00").unwrap());
    }
    value.extend_from_slice(&from_hex("00 00").unwrap());
    let e = decode(&from_hex("0017 0001 67").unwrap(), Some(&value)).unwrap_err();
    assert!(
        e.to_string().contains("name its topics over and over"),
        "{e}"
    );
    // A few groups are fine.
    let mut few = value[..value.len() - 2 - 50 * 6].to_vec();
    *few.last_mut().unwrap() = 0x04; // 3 groups
    for _ in 0..3 {
        few.extend_from_slice(&from_hex("02 0000 01 01 00").unwrap());
    }
    few.extend_from_slice(&from_hex("00 00").unwrap());
    let d = decode(&from_hex("0017 0001 67").unwrap(), Some(&few)).unwrap();
    let CoordinatorRecord::Topology { value: Some(t), .. } = d.record else {
        panic!("{d:?}")
    };
    assert_eq!(t.subtopologies[0].copartition_groups.len(), 3);
}

#[test]
fn the_last_kind_specific_record_names_the_group_kind() {
    use super::GroupKind::{self, *};
    // Offsets alone say nothing; a classic group's metadata, a consumer group's records
    // (3-8, 16), a share group's (10-15) and a streams group's (17, 19-23) do.
    assert_eq!(GroupKind::of_log([1, 1, 0]), None);
    assert_eq!(GroupKind::of_log([1, 2, 1]), Some(Classic));
    assert_eq!(GroupKind::of_log([3, 5, 16, 1]), Some(Consumer));
    assert_eq!(GroupKind::of_log([11, 10, 15]), Some(Share));
    assert_eq!(GroupKind::of_log([17, 19, 23, 1]), Some(Streams));
    // An id reused: a streams group deleted, then a consumer group of the same name.
    assert_eq!(GroupKind::of_log([17, 23, 17, 3, 5]), Some(Consumer));
    assert_eq!(GroupKind::of_log([3, 5, 17, 19]), Some(Streams));
    assert_eq!(GroupKind::of_record_type(18), Some(Streams));
    assert_eq!(GroupKind::of_record_type(9), None);
    assert_eq!(Classic.name(), "classic");
}
