//! Realistic sample messages for the codec tests (tests/library/codec.rs), the Java oracle
//! comparison (tests/oracles/kafka_codec.rs) and the fuzzer's seeds (tests/fuzz/seeds.rs):
//! several members, all three task roles, task offsets, endpoints, a topology with subtopologies
//! and copartition groups, statuses.

use kafka::codec::describe::*;
use kafka::codec::heartbeat::*;
use model::heartbeat::Endpoint;

fn tids(s: &str, p: &[i32]) -> WireTaskIds {
    WireTaskIds {
        subtopology_id: s.into(),
        partitions: p.to_vec(),
    }
}

fn toff(s: &str, p: i32, o: i64) -> WireTaskOffset {
    WireTaskOffset {
        subtopology_id: s.into(),
        partition: p,
        offset: o,
    }
}

fn tinfo(name: &str, partitions: i32, rf: i16, cfg: &[(&str, &str)]) -> WireTopicInfo {
    WireTopicInfo {
        name: name.into(),
        partitions,
        replication_factor: rf,
        topic_configs: cfg
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

pub fn describe_request(version: i16) -> DescribeRequest {
    DescribeRequest {
        group_ids: vec!["word-count".into(), "orders-app".into()],
        include_authorized_operations: true,
        include_topology_description: version >= 1,
    }
}

pub fn describe_response(version: i16) -> DescribeResponse {
    let member = |i: usize| WireMember {
        member_id: format!("member-{i}"),
        member_epoch: 7 + i as i32,
        instance_id: if i == 0 {
            Some("instance-0".into())
        } else {
            None
        },
        rack_id: if i == 1 { Some("rack-b".into()) } else { None },
        client_id: format!("word-count-{i}-StreamThread-1"),
        client_host: format!("/10.0.0.{i}"),
        topology_epoch: if i == 2 { 0 } else { 1 },
        process_id: format!("process-{i}"),
        user_endpoint: if i == 2 {
            None
        } else {
            Some(Endpoint {
                host: format!("host{i}"),
                port: 8080 + i as u16,
            })
        },
        client_tags: vec![("zone".into(), format!("z{i}")), ("az".into(), "a".into())],
        task_offsets: vec![toff("0", i as i32, 100), toff("1", 0, 5)],
        task_end_offsets: vec![toff("0", i as i32, 120), toff("1", 0, 5)],
        assignment: WireAssignment {
            active_tasks: vec![tids("0", &[i as i32]), tids("1", &[i as i32, 3])],
            standby_tasks: vec![tids("1", &[(i as i32 + 1) % 3])],
            warmup_tasks: if i == 1 {
                vec![tids("0", &[2])]
            } else {
                vec![]
            },
        },
        target_assignment: WireAssignment {
            active_tasks: vec![tids("0", &[i as i32]), tids("1", &[i as i32])],
            standby_tasks: vec![tids("1", &[(i as i32 + 1) % 3])],
            warmup_tasks: vec![],
        },
        is_classic: false,
    };
    let topology = WireDescribedTopology {
        epoch: 1,
        subtopologies: Some(vec![
            WireDescribedSubtopology {
                subtopology_id: "0".into(),
                source_topics: vec!["words".into()],
                repartition_sink_topics: vec![
                    "word-count-KSTREAM-AGGREGATE-0000000003-repartition".into(),
                ],
                state_changelog_topics: vec![],
                repartition_source_topics: vec![],
            },
            WireDescribedSubtopology {
                subtopology_id: "1".into(),
                source_topics: vec![],
                repartition_sink_topics: vec![],
                state_changelog_topics: vec![tinfo(
                    "word-count-counts-changelog",
                    3,
                    0,
                    &[("cleanup.policy", "compact")],
                )],
                repartition_source_topics: vec![tinfo(
                    "word-count-KSTREAM-AGGREGATE-0000000003-repartition",
                    3,
                    1,
                    &[],
                )],
            },
        ]),
    };
    let node = |name: &str, t: i8| TopologyDescriptionNode {
        name: name.into(),
        node_type: t,
        source_topics: if t == 1 { vec!["words".into()] } else { vec![] },
        sink_topic: if t == 3 { Some("out".into()) } else { None },
        stores: if t == 2 {
            vec!["counts".into()]
        } else {
            vec![]
        },
        successors: if t == 3 { vec![] } else { vec!["next".into()] },
    };
    let mut g = WireDescribedGroup {
        error_code: 0,
        error_message: None,
        group_id: "word-count".into(),
        group_state: "Reconciling".into(),
        group_epoch: 9,
        assignment_epoch: 9,
        topology: Some(topology),
        members: (0..3).map(member).collect(),
        authorized_operations: 0x1f0,
        topology_description: None,
        topology_description_status: 0,
        assignor_name: None,
    };
    if version >= 1 {
        g.topology_description = Some(TopologyDescription {
            subtopologies: vec![TopologyDescriptionSubtopology {
                subtopology_id: "0".into(),
                nodes: vec![
                    node("KSTREAM-SOURCE-0000000000", 1),
                    node("KSTREAM-AGGREGATE-0000000001", 2),
                    node("KSTREAM-SINK-0000000002", 3),
                ],
            }],
            global_stores: vec![TopologyDescriptionGlobalStore {
                source: node("KSTREAM-SOURCE-0000000010", 1),
                processor: node("KTABLE-SOURCE-0000000011", 2),
            }],
        });
        g.topology_description_status = 3;
        g.assignor_name = Some("sticky".into());
    }
    let missing = WireDescribedGroup {
        error_code: 69,
        error_message: Some("Group orders-app is not a streams group.".into()),
        group_id: "orders-app".into(),
        group_state: "Dead".into(),
        group_epoch: -1,
        assignment_epoch: -1,
        topology: None,
        members: vec![],
        authorized_operations: i32::MIN,
        ..WireDescribedGroup::default()
    };
    let empty = WireDescribedGroup {
        group_id: "stopped-app".into(),
        group_state: "Empty".into(),
        group_epoch: 4,
        assignment_epoch: 4,
        topology: Some(WireDescribedTopology {
            epoch: 0,
            subtopologies: None,
        }),
        ..WireDescribedGroup::default()
    };
    DescribeResponse {
        throttle_time_ms: 0,
        groups: vec![g, missing, empty],
    }
}

pub fn heartbeat_request(_version: i16) -> WireHeartbeatRequest {
    WireHeartbeatRequest {
        group_id: "word-count".into(),
        member_id: "3f1e0c1a-member".into(),
        member_epoch: 0,
        endpoint_information_epoch: 2,
        instance_id: Some("instance-1".into()),
        rack_id: Some("rack-a".into()),
        rebalance_timeout_ms: 300_000,
        topology: Some(WireTopology {
            epoch: 1,
            subtopologies: vec![
                WireSubtopology {
                    subtopology_id: "0".into(),
                    source_topics: vec!["orders".into(), "customers".into()],
                    source_topic_regex: vec![],
                    state_changelog_topics: vec![tinfo(
                        "app-store-changelog",
                        0,
                        3,
                        &[("min.insync.replicas", "2")],
                    )],
                    repartition_sink_topics: vec!["app-rekey-repartition".into()],
                    repartition_source_topics: vec![],
                    copartition_groups: vec![WireCopartitionGroup {
                        source_topics: vec![0, 1],
                        source_topic_regex: vec![],
                        repartition_source_topics: vec![],
                    }],
                },
                WireSubtopology {
                    subtopology_id: "1".into(),
                    source_topics: vec!["payments".into()],
                    source_topic_regex: vec![],
                    state_changelog_topics: vec![],
                    repartition_sink_topics: vec![],
                    repartition_source_topics: vec![tinfo("app-rekey-repartition", 4, 0, &[])],
                    copartition_groups: vec![WireCopartitionGroup {
                        source_topics: vec![0],
                        source_topic_regex: vec![],
                        repartition_source_topics: vec![0],
                    }],
                },
            ],
        }),
        active_tasks: Some(vec![tids("0", &[0, 1]), tids("1", &[2])]),
        standby_tasks: Some(vec![tids("1", &[0])]),
        warmup_tasks: Some(vec![tids("0", &[3])]),
        process_id: Some("9b0c-process".into()),
        user_endpoint: Some(Endpoint {
            host: "app-1.example".into(),
            port: 65535,
        }),
        client_tags: Some(vec![("zone".into(), "eu-1a".into())]),
        task_offsets: Some(vec![toff("0", 0, 42), toff("1", 0, 7)]),
        task_end_offsets: Some(vec![toff("0", 0, 50), toff("1", 0, 7)]),
        shutdown_application: false,
    }
}

pub fn heartbeat_response(version: i16) -> WireHeartbeatResponse {
    WireHeartbeatResponse {
        throttle_time_ms: 0,
        error_code: 0,
        error_message: None,
        member_id: "3f1e0c1a-member".into(),
        member_epoch: 12,
        heartbeat_interval_ms: 5000,
        acceptable_recovery_lag_legacy: if version == 0 { 10_000 } else { 0 },
        task_offset_interval_ms: 60_000,
        acceptable_recovery_lag: if version >= 1 { 10_000_000_000 } else { -1 },
        status: Some(vec![
            (
                0,
                "Topology epoch 0 is stale; the group runs epoch 1".into(),
            ),
            (
                3,
                "Internal topics are missing: [app-store-changelog]".into(),
            ),
        ]),
        active_tasks: Some(vec![tids("0", &[0, 1]), tids("1", &[2])]),
        standby_tasks: Some(vec![tids("1", &[0])]),
        warmup_tasks: Some(vec![]),
        topology_description_required: version >= 1,
        endpoint_information_epoch: 3,
        partitions_by_user_endpoint: Some(vec![WireEndpointToPartitions {
            user_endpoint: Endpoint {
                host: "app-1.example".into(),
                port: 8080,
            },
            active_partitions: vec![WireTopicPartition {
                topic: "orders".into(),
                partitions: vec![0, 1],
            }],
            standby_partitions: vec![],
        }]),
    }
}
