//! Byte-for-byte comparison of our StreamsGroupHeartbeat (88) / StreamsGroupDescribe (89) codecs
//! with kafka-clients' generated message classes, through `streamsgroup.CodecOracle` on the
//! harness classpath (`tests/kafka/harness java ...`).
//!
//! 1. Java encodes a realistic message → we decode → we encode → identical bytes.
//! 2. We encode our own realistic message → Java parses and re-encodes → identical bytes.
//!
//! v0 is checked against the harness's default kafka-clients (4.3.1); v0 and v1 against 4.4.0,
//! the first release with v1. Without Java/Maven the tests fail when `CI=true` and print a skip
//! note otherwise.

use std::process::Command;

use kafka::codec::describe::{DescribeRequest, DescribeResponse};
use kafka::codec::heartbeat::{WireHeartbeatRequest, WireHeartbeatResponse};
use kafka::wire::{from_hex, to_hex};

use crate::support;
use crate::support::samples;

const CASES: [&str; 4] = [
    "describe-request",
    "describe-response",
    "heartbeat-request",
    "heartbeat-response",
];

fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("-version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
        || Command::new(cmd)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
}

fn java_available() -> bool {
    if have("java") && have("mvn") {
        return true;
    }
    let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
    assert!(
        !ci,
        "CI=true but java/mvn are missing: the codec oracle test cannot run"
    );
    eprintln!("note: java or mvn not found; skipping the kafka-clients codec comparison");
    false
}

enum Oracle {
    Hex(Vec<u8>),
    Unsupported(String),
}

fn oracle(version: &str, args: &[&str], stdin: Option<&[u8]>) -> Oracle {
    let out = support::java_standalone_with(version, "streamsgroup.CodecOracle", args, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if out.status.code() == Some(3) && stdout.starts_with("UNSUPPORTED") {
        return Oracle::Unsupported(stdout);
    }
    assert!(
        out.status.success(),
        "CodecOracle {args:?} failed ({}): {}{}",
        out.status,
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    Oracle::Hex(from_hex(last).unwrap_or_else(|| panic!("CodecOracle printed no hex: {stdout}")))
}

fn ours_reencode(case: &str, bytes: &[u8], v: i16) -> Vec<u8> {
    match case {
        "describe-request" => DescribeRequest::decode(bytes, v)
            .unwrap()
            .encode(v)
            .unwrap(),
        "describe-response" => DescribeResponse::decode(bytes, v)
            .unwrap()
            .encode(v)
            .unwrap(),
        "heartbeat-request" => WireHeartbeatRequest::decode(bytes, v)
            .unwrap()
            .encode(v)
            .unwrap(),
        _ => WireHeartbeatResponse::decode(bytes, v)
            .unwrap()
            .encode(v)
            .unwrap(),
    }
}

fn ours_sample(case: &str, v: i16) -> Vec<u8> {
    match case {
        "describe-request" => samples::describe_request(v).encode(v).unwrap(),
        "describe-response" => samples::describe_response(v).encode(v).unwrap(),
        "heartbeat-request" => samples::heartbeat_request(v).encode(v).unwrap(),
        _ => samples::heartbeat_response(v).encode(v).unwrap(),
    }
}

fn api_kind(case: &str) -> (&'static str, &'static str) {
    match case {
        "describe-request" => ("89", "request"),
        "describe-response" => ("89", "response"),
        "heartbeat-request" => ("88", "request"),
        _ => ("88", "response"),
    }
}

#[test]
fn codecs_match_kafka_clients_byte_for_byte() {
    let version = support::kafka_version();
    let checked = compare_with(&version);
    assert!(
        checked >= 8,
        "only {checked} comparisons ran (v0 must always run)"
    );
}

/// Kafka 4.4 has version 1 of both APIs: all 16 comparisons must run.
#[test]
fn version_1_codecs_match_kafka_clients_4_4() {
    let checked = compare_with("4.4.0");
    assert!(
        checked == 0 || checked == 16,
        "{checked} comparisons ran against 4.4.0, expected 16"
    );
}

/// Run every comparison the given kafka-clients version supports; returns how many ran.
fn compare_with(version: &str) -> usize {
    if !java_available() {
        return 0;
    }
    let mut checked = 0;
    for v in 0..=1i16 {
        let vs = v.to_string();
        for case in CASES {
            // 1. Java → ours → bytes
            match oracle(version, &["encode", case, &vs], None) {
                Oracle::Unsupported(why) => {
                    eprintln!("skip {case} v{v}: {why}");
                    continue;
                }
                Oracle::Hex(java) => {
                    let ours = ours_reencode(case, &java, v);
                    assert_eq!(
                        to_hex(&ours),
                        to_hex(&java),
                        "{case} v{v}: our re-encoding of Java's bytes differs"
                    );
                    checked += 1;
                }
            }
            // 2. ours → Java → bytes
            let ours = ours_sample(case, v);
            let (api, kind) = api_kind(case);
            let hex = to_hex(&ours);
            match oracle(
                version,
                &["roundtrip", api, kind, &vs],
                Some(hex.as_bytes()),
            ) {
                Oracle::Unsupported(why) => eprintln!("skip roundtrip {case} v{v}: {why}"),
                Oracle::Hex(java) => {
                    assert_eq!(
                        to_hex(&java),
                        hex,
                        "{case} v{v}: Java's re-encoding of our bytes differs"
                    );
                    checked += 1;
                }
            }
        }
    }
    eprintln!("{checked} codec comparisons with kafka-clients {version} passed");
    checked
}
