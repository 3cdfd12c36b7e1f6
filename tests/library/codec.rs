//! The StreamsGroupHeartbeat and StreamsGroupDescribe codecs on the realistic sample messages
//! of tests/support/samples.rs: round trips at v0 and v1, what the model keeps, and that no
//! truncation or flipped byte of a sample panics. The tests on hand-written bytes are unit tests
//! (crates/kafka/src/codec/tests.rs).

use proptest::prelude::*;

use kafka::codec::describe::*;
use kafka::codec::heartbeat::*;

use crate::support::samples;

#[test]
fn describe_response_round_trips_v0_and_v1() {
    for v in 0..=1 {
        let resp = samples::describe_response(v);
        let bytes = resp.encode(v).unwrap();
        let back = DescribeResponse::decode(&bytes, v).unwrap();
        assert_eq!(back, resp, "v{v}");
        assert_eq!(back.encode(v).unwrap(), bytes);
    }
    // a v1 value cannot be written as v0 (TopologyDescription is not ignorable)
    assert!(samples::describe_response(1).encode(0).is_err());
}

#[test]
fn describe_to_model_keeps_tasks_and_offsets() {
    let resp = samples::describe_response(1);
    let g = resp.groups[0].to_model();
    assert_eq!(g.members.len(), 3);
    let m1 = g
        .members
        .iter()
        .find(|m| m.member_id == "member-1")
        .unwrap();
    assert_eq!(m1.assignment.active.compact(), "0:[1]; 1:[1,3]");
    assert_eq!(m1.assignment.warmup.compact(), "0:[2]");
    assert!(!m1.is_reconciled());
    assert_eq!(m1.task_end_offsets.len(), 2);
    assert_eq!(m1.client_tags.get("zone").map(String::as_str), Some("z1"));
    assert_eq!(g.assignor.as_deref(), Some("sticky"));
    let subs = g.topology.subtopologies.unwrap();
    assert_eq!(subs[1].repartition_source_topics[0].partitions, 3);
    assert_eq!(
        subs[1].state_changelog_topics[0]
            .topic_configs
            .get("cleanup.policy")
            .map(String::as_str),
        Some("compact")
    );
}

#[test]
fn heartbeat_round_trips_v0_and_v1() {
    for v in 0..=1 {
        let req = samples::heartbeat_request(v);
        let bytes = req.encode(v).unwrap();
        assert_eq!(WireHeartbeatRequest::decode(&bytes, v).unwrap(), req);
        let resp = samples::heartbeat_response(v);
        let bytes = resp.encode(v).unwrap();
        let back = WireHeartbeatResponse::decode(&bytes, v).unwrap();
        assert_eq!(back, resp, "v{v}");
    }
    // v1 and v0 responses differ only in the recovery-lag field and TopologyDescriptionRequired
    let v0 = samples::heartbeat_response(0).encode(0).unwrap();
    let mut r1 = samples::heartbeat_response(0);
    r1.acceptable_recovery_lag_legacy = 0;
    let v1 = r1.encode(1).unwrap();
    assert_eq!(v1.len(), v0.len() - 4 + 8 + 1);
}

#[test]
fn every_truncation_of_every_sample_is_an_error_not_a_panic() {
    for v in 0..=1 {
        let all = [
            samples::describe_response(v).encode(v).unwrap(),
            samples::heartbeat_request(v).encode(v).unwrap(),
            samples::heartbeat_response(v).encode(v).unwrap(),
            samples::describe_request(v).encode(v).unwrap(),
        ];
        for (i, bytes) in all.iter().enumerate() {
            for cut in 0..bytes.len() {
                let b = &bytes[..cut];
                let failed = match i {
                    0 => DescribeResponse::decode(b, v).is_err(),
                    1 => WireHeartbeatRequest::decode(b, v).is_err(),
                    2 => WireHeartbeatResponse::decode(b, v).is_err(),
                    _ => DescribeRequest::decode(b, v).is_err(),
                };
                assert!(failed, "sample {i} v{v} cut at {cut} decoded");
            }
        }
    }
}

proptest! {
    #[test]
    fn flipped_bytes_never_panic(idx in 0usize..2000, val in any::<u8>(), v in 0i16..=1) {
        let mut bytes = samples::describe_response(v).encode(v).unwrap();
        let i = idx % bytes.len();
        bytes[i] = val;
        let _ = DescribeResponse::decode(&bytes, v);
        let mut hb = samples::heartbeat_response(v).encode(v).unwrap();
        let j = idx % hb.len();
        hb[j] = val;
        let _ = WireHeartbeatResponse::decode(&hb, v);
    }
}
