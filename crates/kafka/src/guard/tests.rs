//! The layouts are checked against the crate itself: a populated response of every type, encoded
//! by the crate (`broker` feature, tests only) at every version we read, is walked to its last
//! byte, decodes, and every strict prefix of it is refused. Then the inputs that made the crate
//! ask for gigabytes are refused before it sees them.

use std::fmt::Debug;

use bytes::{Bytes, BytesMut};
use kafka_protocol::messages::api_versions_response::{
    ApiVersion, FinalizedFeatureKey, SupportedFeatureKey,
};
use kafka_protocol::messages::find_coordinator_response::Coordinator;
use kafka_protocol::messages::list_groups_response::ListedGroup;
use kafka_protocol::messages::list_offsets_response::{
    ListOffsetsPartitionResponse, ListOffsetsTopicResponse,
};
use kafka_protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::messages::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartitions, OffsetFetchResponseTopics,
};
use kafka_protocol::messages::{BrokerId, GroupId, TopicName};
use kafka_protocol::protocol::{Encodable, StrBytes};

use super::*;

fn s(x: &str) -> StrBytes {
    StrBytes::from_string(x.to_string())
}

/// Walk to the end, decode, re-encode identically; refuse every strict prefix.
fn exact<R: Guarded + Encodable + Debug>(r: &R, version: i16) {
    let name = R::SCHEMA.name;
    let mut buf = BytesMut::new();
    r.encode(&mut buf, version)
        .unwrap_or_else(|e| panic!("{name} v{version}: sample does not encode: {e}"));
    let bytes = buf.to_vec();
    let mut reader = Reader::new(&bytes);
    let w = Walk {
        version,
        flexible: version >= R::SCHEMA.flexible_from,
    };
    w.fields(&mut reader, R::SCHEMA.fields)
        .unwrap_or_else(|e| panic!("{name} v{version}: {e}"));
    assert_eq!(
        reader.remaining(),
        0,
        "{name} v{version}: the layout stops short of the crate's encoding"
    );
    let back: R = decode(bytes.clone(), version).unwrap();
    let mut again = BytesMut::new();
    back.encode(&mut again, version).unwrap();
    assert_eq!(again.to_vec(), bytes, "{name} v{version}");
    for cut in 0..bytes.len() {
        assert!(
            check(R::SCHEMA, &bytes[..cut], version).is_err(),
            "{name} v{version}: prefix of {cut} of {} bytes accepted",
            bytes.len()
        );
    }
}

fn versions<R: Guarded>() -> std::ops::RangeInclusive<i16> {
    R::SCHEMA.versions.0..=R::SCHEMA.versions.1
}

fn flexible<R: Guarded>(v: i16) -> bool {
    v >= R::SCHEMA.flexible_from
}

fn tag() -> Bytes {
    Bytes::from_static(b"\x01\x02\x03")
}

#[test]
fn api_versions_every_version() {
    for v in versions::<ApiVersionsResponse>() {
        let flex = flexible::<ApiVersionsResponse>(v);
        let mut key = ApiVersion::default()
            .with_api_key(18)
            .with_min_version(0)
            .with_max_version(4);
        if flex {
            key = key.with_unknown_tagged_field(7, tag());
        }
        let mut r = ApiVersionsResponse::default()
            .with_error_code(35)
            .with_api_keys(vec![key.clone(), key.with_api_key(89)]);
        if v >= 1 {
            r = r.with_throttle_time_ms(12);
        }
        if v >= 3 {
            r = r
                .with_supported_features(vec![SupportedFeatureKey::default()
                    .with_name(s("streams.version"))
                    .with_min_version(0)
                    .with_max_version(1)])
                .with_finalized_features_epoch(42)
                .with_finalized_features(vec![
                    FinalizedFeatureKey::default()
                        .with_name(s("streams.version"))
                        .with_max_version_level(1),
                    FinalizedFeatureKey::default().with_name(s("metadata.version")),
                ])
                .with_zk_migration_ready(true)
                .with_unknown_tagged_field(9, tag());
        }
        exact(&r, v);
    }
}

#[test]
fn metadata_every_version() {
    for v in versions::<MetadataResponse>() {
        let flex = flexible::<MetadataResponse>(v);
        let mut broker = MetadataResponseBroker::default()
            .with_node_id(BrokerId(1))
            .with_host(s("localhost"))
            .with_port(9092)
            .with_rack(Some(s("r1")));
        if flex {
            broker = broker.with_unknown_tagged_field(3, tag());
        }
        let mut part = MetadataResponsePartition::default()
            .with_partition_index(3)
            .with_leader_id(BrokerId(1))
            .with_replica_nodes(vec![BrokerId(1), BrokerId(2)])
            .with_isr_nodes(vec![BrokerId(1)]);
        if v >= 7 {
            part = part.with_leader_epoch(5);
        }
        if v >= 5 {
            part = part.with_offline_replicas(vec![BrokerId(2)]);
        }
        let mut topic = MetadataResponseTopic::default()
            .with_name(Some(TopicName(s("orders"))))
            .with_is_internal(true)
            .with_partitions(vec![part.clone(), part.with_partition_index(4)]);
        if v >= 10 {
            topic = topic.with_topic_id(uuid::Uuid::from_u128(7));
        }
        if v >= 8 {
            topic = topic.with_topic_authorized_operations(8);
        }
        let mut topics = vec![topic.clone(), topic.with_partitions(vec![])];
        if v >= 12 {
            topics.push(MetadataResponseTopic::default().with_name(None));
        }
        let mut r = MetadataResponse::default()
            .with_brokers(vec![broker.clone(), broker.with_rack(None)])
            .with_controller_id(BrokerId(1))
            .with_topics(topics);
        if v >= 2 {
            r = r.with_cluster_id(Some(s("cluster")));
        }
        if v >= 3 {
            r = r.with_throttle_time_ms(1);
        }
        if (8..=10).contains(&v) {
            r = r.with_cluster_authorized_operations(4);
        }
        exact(&r, v);
    }
}

#[test]
fn find_coordinator_list_groups_sasl() {
    let c = Coordinator::default()
        .with_key(s("g"))
        .with_node_id(BrokerId(2))
        .with_host(s("h"))
        .with_port(1)
        .with_error_message(None)
        .with_unknown_tagged_field(1, tag());
    let r = FindCoordinatorResponse::default()
        .with_throttle_time_ms(3)
        .with_coordinators(vec![c.clone(), c.with_error_message(Some(s("boom")))]);
    exact(&r, 4);

    let g = ListedGroup::default()
        .with_group_id(GroupId(s("wordcount")))
        .with_protocol_type(s(""))
        .with_group_state(s("Stable"))
        .with_group_type(s("streams"));
    exact(
        &ListGroupsResponse::default().with_groups(vec![g.clone(), g]),
        5,
    );

    for v in versions::<SaslHandshakeResponse>() {
        exact(
            &SaslHandshakeResponse::default().with_mechanisms(vec![s("PLAIN"), s("SCRAM-SHA-512")]),
            v,
        );
    }
    for v in versions::<SaslAuthenticateResponse>() {
        let mut r = SaslAuthenticateResponse::default()
            .with_error_message(Some(s("no")))
            .with_auth_bytes(Bytes::from_static(b"r=abc,s=xyz,i=4096"));
        if v >= 1 {
            r = r.with_session_lifetime_ms(1000);
        }
        exact(&r, v);
        exact(&r.with_error_message(None), v);
    }
}

#[test]
fn offset_fetch_and_list_offsets() {
    for v in versions::<OffsetFetchResponse>() {
        let p = OffsetFetchResponsePartitions::default()
            .with_partition_index(1)
            .with_committed_offset(100)
            .with_committed_leader_epoch(2)
            .with_metadata(None);
        let t = OffsetFetchResponseTopics::default()
            .with_name(TopicName(s("in")))
            .with_partitions(vec![p.clone(), p.with_metadata(Some(s("m")))]);
        let g = OffsetFetchResponseGroup::default()
            .with_group_id(GroupId(s("app")))
            .with_topics(vec![t.clone(), t]);
        let r = OffsetFetchResponse::default()
            .with_throttle_time_ms(1)
            .with_groups(vec![g.clone(), g.with_topics(vec![]).with_error_code(69)]);
        exact(&r, v);
    }
    for v in versions::<ListOffsetsResponse>() {
        let mut p = ListOffsetsPartitionResponse::default()
            .with_partition_index(0)
            .with_timestamp(-1)
            .with_offset(77);
        if v >= 4 {
            p = p.with_leader_epoch(3);
        }
        let t = ListOffsetsTopicResponse::default()
            .with_name(TopicName(s("in")))
            .with_partitions(vec![p.clone(), p.with_partition_index(1)]);
        let mut r = ListOffsetsResponse::default().with_topics(vec![t.clone(), t]);
        if v >= 2 {
            r = r.with_throttle_time_ms(2);
        }
        exact(&r, v);
    }
}

#[test]
fn admin_action_responses() {
    use kafka_protocol::messages::delete_groups_response::DeletableGroupResult;
    use kafka_protocol::messages::delete_topics_response::DeletableTopicResult;
    use kafka_protocol::messages::offset_commit_response::{
        OffsetCommitResponsePartition, OffsetCommitResponseTopic,
    };
    use kafka_protocol::messages::offset_delete_response::{
        OffsetDeleteResponsePartition, OffsetDeleteResponseTopic,
    };
    for v in versions::<OffsetCommitResponse>() {
        let mut p = OffsetCommitResponsePartition::default()
            .with_partition_index(2)
            .with_error_code(25);
        if flexible::<OffsetCommitResponse>(v) {
            p = p.with_unknown_tagged_field(4, tag());
        }
        let t = OffsetCommitResponseTopic::default()
            .with_name(TopicName(s("in")))
            .with_partitions(vec![p.clone(), p.with_partition_index(3)]);
        let mut r = OffsetCommitResponse::default().with_topics(vec![t.clone(), t]);
        if v >= 3 {
            r = r.with_throttle_time_ms(5);
        }
        exact(&r, v);
    }
    let p = OffsetDeleteResponsePartition::default()
        .with_partition_index(1)
        .with_error_code(86);
    let t = OffsetDeleteResponseTopic::default()
        .with_name(TopicName(s("in")))
        .with_partitions(vec![p.clone(), p]);
    exact(
        &OffsetDeleteResponse::default()
            .with_error_code(0)
            .with_throttle_time_ms(1)
            .with_topics(vec![t.clone(), t]),
        0,
    );
    for v in versions::<DeleteGroupsResponse>() {
        let g = DeletableGroupResult::default()
            .with_group_id(GroupId(s("app")))
            .with_error_code(68);
        exact(
            &DeleteGroupsResponse::default()
                .with_throttle_time_ms(2)
                .with_results(vec![g.clone(), g]),
            v,
        );
    }
    for v in versions::<DeleteTopicsResponse>() {
        let mut t = DeletableTopicResult::default()
            .with_name(Some(TopicName(s("app-counts-changelog"))))
            .with_error_code(3);
        if v >= 5 {
            t = t.with_error_message(Some(s("gone")));
        }
        let r = DeleteTopicsResponse::default()
            .with_throttle_time_ms(1)
            .with_responses(vec![t.clone(), t.with_error_message(None)]);
        exact(&r, v);
    }
}

#[test]
fn describe_configs_every_version() {
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult, DescribeConfigsSynonym,
    };
    for v in versions::<DescribeConfigsResponse>() {
        let syn = DescribeConfigsSynonym::default()
            .with_name(s("group.streams.heartbeat.interval.ms"))
            .with_value(Some(s("500")))
            .with_source(4);
        let mut entry = DescribeConfigsResourceResult::default()
            .with_name(s("streams.heartbeat.interval.ms"))
            .with_value(Some(s("500")))
            .with_config_source(5)
            .with_synonyms(vec![syn.clone(), syn]);
        if v >= 3 {
            entry = entry
                .with_config_type(3)
                .with_documentation(Some(s("how often")));
        }
        let result = DescribeConfigsResult::default()
            .with_error_code(0)
            .with_resource_type(32)
            .with_resource_name(s("app"))
            .with_configs(vec![entry.clone(), entry.with_value(None)]);
        let denied = DescribeConfigsResult::default()
            .with_error_code(31)
            .with_error_message(Some(s("Cluster authorization failed.")))
            .with_resource_type(4)
            .with_resource_name(s("1"));
        exact(
            &DescribeConfigsResponse::default()
                .with_throttle_time_ms(3)
                .with_results(vec![result, denied]),
            v,
        );
    }
}

/// Without the guard each of these aborts the process (the crate asks for gigabytes).
#[test]
fn huge_length_prefixes_are_refused_before_the_crate_sees_them() {
    // ApiVersions v0: error_code 0, api_keys count 0x20000000 (about 17 GB of ApiVersion), then
    // 5 bytes: the 11 bytes the fuzzer found.
    let av = vec![0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0];
    let e = decode::<ApiVersionsResponse>(av, 0).unwrap_err();
    assert!(e.contains("cannot fit in 5 bytes"), "{e}");
    // v3: compact count 2^32 - 2.
    let e =
        decode::<ApiVersionsResponse>(vec![0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f, 0], 3).unwrap_err();
    assert!(e.contains("cannot fit"), "{e}");
    // A known tagged field (supported_features) with a huge count.
    let e = decode::<ApiVersionsResponse>(
        vec![0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0xff, 0xff, 0xff, 0xff, 0x0f],
        3,
    )
    .unwrap_err();
    assert!(e.contains("cannot fit"), "{e}");
    // Metadata v12: no brokers, null cluster id, controller, topics count 2^31.
    let e = decode::<MetadataResponse>(
        vec![0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x07],
        12,
    )
    .unwrap_err();
    assert!(e.contains("cannot fit"), "{e}");
    // SaslHandshake: mechanisms count i32::MAX.
    let e = decode::<SaslHandshakeResponse>(vec![0, 0, 0x7f, 0xff, 0xff, 0xff], 1).unwrap_err();
    assert!(e.contains("cannot fit"), "{e}");
    // A negative length other than -1 and a string longer than what is left.
    assert!(decode::<SaslHandshakeResponse>(vec![0, 0, 0xff, 0xff, 0xff, 0xfe], 1).is_err());
    assert!(decode::<SaslHandshakeResponse>(vec![0, 0, 0, 0, 0, 1, 0, 9, b'P'], 1).is_err());
}

#[test]
fn versions_outside_the_layouts_are_refused() {
    let e = check(ListGroupsResponse::SCHEMA, &[0; 16], 4).unwrap_err();
    assert!(e.to_string().contains("ListGroups v4"), "{e}");
    assert!(check(ApiVersionsResponse::SCHEMA, &[0; 16], 4).is_err());
}

#[test]
fn known_tagged_field_must_match_its_size() {
    // ApiVersions v3, no api keys, throttle 0, one tagged field: tag 1 (finalized epoch,
    // an int64) that claims 4 bytes.
    let mut b = vec![0, 0, 1, 0, 0, 0, 0, 1, 1, 4];
    b.extend_from_slice(&[0; 8]);
    assert!(decode::<ApiVersionsResponse>(b, 3)
        .unwrap_err()
        .contains("tagged field 1"));
}
