//! The codecs on hand-written bytes and values. The round trips, truncations and byte flips of
//! the realistic sample messages are integration tests (tests/library/codec.rs), beside the
//! samples (tests/support/samples.rs), which are test data and stay out of the library.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::describe::*;
use super::heartbeat::*;
use model::heartbeat::HeartbeatRequest;
use model::topology::{Subtopology, TopicInfo, Topology};

#[test]
fn describe_request_bytes_by_hand() {
    let r = DescribeRequest {
        group_ids: vec!["g".into()],
        include_authorized_operations: false,
        include_topology_description: true,
    };
    assert!(r.encode(0).is_err(), "v0 has no IncludeTopologyDescription");
    // [array len 2][str len 2 'g'][false][true][no tags]
    assert_eq!(r.encode(1).unwrap(), vec![2, 2, b'g', 0, 1, 0]);
    let r0 = DescribeRequest {
        include_topology_description: false,
        ..r.clone()
    };
    assert_eq!(r0.encode(0).unwrap(), vec![2, 2, b'g', 0, 0]);
    assert_eq!(
        DescribeRequest::decode(&[2, 2, b'g', 0, 1, 0], 1).unwrap(),
        r
    );
}

#[test]
fn describe_response_empty_group_bytes_by_hand() {
    let resp = DescribeResponse {
        throttle_time_ms: 0,
        groups: vec![WireDescribedGroup {
            group_id: "a".into(),
            group_state: "Empty".into(),
            group_epoch: 1,
            assignment_epoch: 1,
            topology: Some(WireDescribedTopology {
                epoch: 0,
                subtopologies: None,
            }),
            ..WireDescribedGroup::default()
        }],
    };
    let mut expected = vec![0, 0, 0, 0, 2]; // throttle, 1 group
    expected.extend([0, 0, 0]); // error 0, null message
    expected.extend([2, b'a', 6, b'E', b'm', b'p', b't', b'y']);
    expected.extend([0, 0, 0, 1, 0, 0, 0, 1]); // epochs
    expected.extend([1, 0, 0, 0, 0, 0, 0]); // topology present, epoch 0, null subtopologies, tags
    expected.extend([1]); // no members
    expected.extend([0x80, 0, 0, 0]); // authorized operations INT_MIN
    expected.extend([0, 0]); // group tags, response tags
    assert_eq!(resp.encode(0).unwrap(), expected);
    let mut v1 = expected[..expected.len() - 2].to_vec();
    v1.extend([0xff, 0, 0, 0, 0]); // null description, status 0, null assignor, tags, tags
    assert_eq!(resp.encode(1).unwrap(), v1);
    let model = DescribeResponse::decode(&expected, 0).unwrap().groups[0].to_model();
    assert_eq!(model.state, "Empty");
    assert_eq!(model.topology.subtopologies, None);
}

#[test]
fn a_stored_description_becomes_the_processor_graph() {
    use model::processor_graph::{NodeKind, StoredDescription};
    let node = |name: &str, node_type: i8, successors: &[&str]| TopologyDescriptionNode {
        name: name.into(),
        node_type,
        source_topics: if node_type == 1 {
            vec!["in".into()]
        } else {
            Vec::new()
        },
        sink_topic: (node_type == 3).then(|| "out".to_string()),
        stores: if node_type == 2 {
            vec!["s".into()]
        } else {
            Vec::new()
        },
        successors: successors.iter().map(|s| s.to_string()).collect(),
    };
    let mut g = WireDescribedGroup {
        topology_description_status: 3,
        topology_description: Some(TopologyDescription {
            subtopologies: vec![TopologyDescriptionSubtopology {
                subtopology_id: "0".into(),
                nodes: vec![
                    node("src", 1, &["p"]),
                    node("p", 2, &["snk"]),
                    node("snk", 3, &[]),
                ],
            }],
            global_stores: vec![TopologyDescriptionGlobalStore {
                source: node("gs", 1, &["gp"]),
                processor: node("gp", 2, &[]),
            }],
        }),
        ..WireDescribedGroup::default()
    };
    let StoredDescription::Available(graph) = g.stored_description() else {
        panic!("status 3 with a description is available");
    };
    let sub = graph.subtopology("0").unwrap();
    assert_eq!(
        sub.nodes[1].kind,
        NodeKind::Processor {
            stores: vec!["s".into()]
        }
    );
    assert_eq!(
        sub.nodes[2].kind,
        NodeKind::Sink {
            topic: Some("out".into())
        }
    );
    assert_eq!(sub.nodes[0].successors, vec!["p".to_string()]);
    let global = graph.subtopology("global-0").unwrap();
    assert!(global.global && global.nodes.len() == 2);
    g.topology_description_status = 1;
    assert_eq!(g.stored_description(), StoredDescription::NotStored);
    g.topology_description_status = 2;
    assert_eq!(g.stored_description(), StoredDescription::Failed);
    g.topology_description_status = 0;
    assert_eq!(g.stored_description(), StoredDescription::NotRequested);
}

#[test]
fn heartbeat_response_v0_layout_by_hand() {
    let resp = WireHeartbeatResponse {
        member_id: "m".into(),
        member_epoch: 1,
        heartbeat_interval_ms: 2,
        acceptable_recovery_lag_legacy: 3,
        task_offset_interval_ms: 4,
        endpoint_information_epoch: 5,
        ..WireHeartbeatResponse::default()
    };
    let expected = vec![
        0, 0, 0, 0, // throttle
        0, 0, // error
        0, // null message
        2, b'm', // member id
        0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0,
        4, // epoch, interval, lag32, offset interval
        0, 0, 0, 0, // null status, active, standby, warmup
        0, 0, 0, 5, // endpoint epoch
        0, // null partitions by endpoint
        0, // tags
    ];
    assert_eq!(resp.encode(0).unwrap(), expected);
    let m = decode_response(&expected, 0).unwrap();
    assert_eq!(m.acceptable_recovery_lag, 3);
    assert_eq!(m.error, None);
    assert_eq!(m.active_tasks, None);
}

#[test]
fn copartition_groups_convert_between_names_and_indexes() {
    let sub = Subtopology {
        id: "1".into(),
        source_topics: vec!["b".into(), "a".into()],
        repartition_source_topics: vec![TopicInfo::named("r")],
        copartition_groups: vec![BTreeSet::from(["a".to_string(), "r".to_string()])],
        ..Subtopology::default()
    };
    let w = subtopology_to_wire(&sub).unwrap();
    assert_eq!(w.copartition_groups[0].source_topics, vec![1]);
    assert_eq!(w.copartition_groups[0].repartition_source_topics, vec![0]);
    assert_eq!(subtopology_from_wire(&w).unwrap(), sub);
    let bad = Subtopology {
        copartition_groups: vec![BTreeSet::from(["nope".to_string()])],
        ..sub.clone()
    };
    assert!(subtopology_to_wire(&bad).is_err());
    let mut w2 = w.clone();
    w2.copartition_groups[0].source_topics = vec![9];
    assert!(subtopology_from_wire(&w2).is_err());
}

#[test]
fn model_heartbeat_request_survives_the_wire() {
    let req = HeartbeatRequest {
        group_id: "g".into(),
        member_id: "m".into(),
        member_epoch: 0,
        rebalance_timeout_ms: 1000,
        topology: Some(Topology {
            epoch: 2,
            subtopologies: vec![Subtopology {
                id: "0".into(),
                source_topics: vec!["x".into(), "y".into()],
                copartition_groups: vec![BTreeSet::from(["x".to_string(), "y".to_string()])],
                ..Subtopology::default()
            }],
        }),
        process_id: Some("p".into()),
        ..HeartbeatRequest::default()
    };
    for v in 0..=1 {
        let bytes = encode_request(&req, v).unwrap();
        let back = WireHeartbeatRequest::decode(&bytes, v)
            .unwrap()
            .to_model()
            .unwrap();
        assert_eq!(back, req);
    }
}

#[test]
fn unknown_tagged_fields_are_skipped() {
    let mut bytes = DescribeRequest {
        group_ids: vec!["g".into()],
        ..DescribeRequest::default()
    }
    .encode(0)
    .unwrap();
    // replace the final empty tag section with one unknown tag (7, 2 bytes)
    bytes.pop();
    bytes.extend([1, 7, 2, 0xab, 0xcd]);
    assert_eq!(
        DescribeRequest::decode(&bytes, 0).unwrap().group_ids,
        vec!["g".to_string()]
    );
}

proptest! {
#[test]
fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256), v in 0i16..=1) {
    let _ = DescribeResponse::decode(&bytes, v);
    let _ = DescribeRequest::decode(&bytes, v);
    let _ = WireHeartbeatRequest::decode(&bytes, v);
    let _ = WireHeartbeatResponse::decode(&bytes, v);
}}
