//! Seeds (real samples: codec samples, responses encoded by kafka-protocol, the fixtures in
//! tests/data) and the text mutator's dictionaries.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kafka_protocol::messages::*;
use kafka_protocol::protocol::{Encodable, StrBytes};

use kafka::codec::describe::DescribeResponse;
use kafka::codec::heartbeat::{WireHeartbeatRequest, WireHeartbeatResponse};
use kafka::guard::Guarded;

use crate::support::samples;

use super::targets::encode_kp;
use super::text;

// ------------------------------------------------------------------ seeds

pub(crate) fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

pub(crate) fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(data(dir))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect();
    out.sort();
    out.into_iter().map(|(_, b)| b).collect()
}

pub(crate) fn describe_response_seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for v in 0..=1 {
        out.push(samples::describe_response(v).encode(v).unwrap());
        let mut one = samples::describe_response(v);
        one.groups.truncate(1);
        out.push(one.encode(v).unwrap());
    }
    out.push(DescribeResponse::default().encode(0).unwrap());
    out
}

pub(crate) fn describe_request_seeds() -> Vec<Vec<u8>> {
    (0..=1)
        .map(|v| samples::describe_request(v).encode(v).unwrap())
        .collect()
}

pub(crate) fn heartbeat_response_seeds() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..=1)
        .map(|v| samples::heartbeat_response(v).encode(v).unwrap())
        .collect();
    out.push(WireHeartbeatResponse::default().encode(1).unwrap());
    out
}

pub(crate) fn heartbeat_request_seeds() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..=1)
        .map(|v| samples::heartbeat_request(v).encode(v).unwrap())
        .collect();
    out.push(WireHeartbeatRequest::default().encode(0).unwrap());
    out
}

pub(crate) fn s(x: &str) -> StrBytes {
    StrBytes::from_string(x.to_string())
}

/// `r` encoded at every version of its layout that takes it.
pub(crate) fn kp_seeds<R: Guarded + Encodable>(r: &R) -> Vec<Vec<u8>> {
    let (lo, hi) = R::SCHEMA.versions;
    (lo..=hi).filter_map(|v| encode_kp(r, v).ok()).collect()
}

pub(crate) fn api_versions_seeds() -> Vec<Vec<u8>> {
    use api_versions_response::*;
    let keys: Vec<ApiVersion> = [(0, 0, 11), (3, 0, 12), (18, 0, 4), (88, 0, 1), (89, 0, 1)]
        .iter()
        .map(|&(k, lo, hi)| {
            ApiVersion::default()
                .with_api_key(k)
                .with_min_version(lo)
                .with_max_version(hi)
        })
        .collect();
    let base = ApiVersionsResponse::default().with_api_keys(keys);
    let mut out = kp_seeds(&base);
    let v3 = base
        .clone()
        .with_supported_features(vec![SupportedFeatureKey::default()
            .with_name(s("streams.version"))
            .with_max_version(1)])
        .with_finalized_features_epoch(7)
        .with_finalized_features(vec![FinalizedFeatureKey::default()
            .with_name(s("streams.version"))
            .with_max_version_level(1)
            .with_min_version_level(1)]);
    out.extend(encode_kp(&v3, 3));
    out.extend(encode_kp(&base.with_error_code(35), 0));
    out
}

pub(crate) fn metadata_seeds() -> Vec<Vec<u8>> {
    use metadata_response::*;
    let part = |i| {
        MetadataResponsePartition::default()
            .with_partition_index(i)
            .with_leader_id(BrokerId(1))
            .with_replica_nodes(vec![BrokerId(1), BrokerId(2)])
            .with_isr_nodes(vec![BrokerId(1)])
    };
    let r = MetadataResponse::default()
        .with_brokers(vec![
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(1))
                .with_host(s("b1.example"))
                .with_port(9092),
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(2))
                .with_host(s("b2.example"))
                .with_port(9093)
                .with_rack(Some(s("r2"))),
        ])
        .with_controller_id(BrokerId(1))
        .with_topics(vec![
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(s("wordcount-input"))))
                .with_partitions((0..4).map(part).collect()),
            MetadataResponseTopic::default()
                .with_error_code(3)
                .with_name(Some(TopicName(s("missing")))),
        ]);
    kp_seeds(&r)
}

pub(crate) fn find_coordinator_seeds() -> Vec<Vec<u8>> {
    use find_coordinator_response::*;
    let c = Coordinator::default()
        .with_key(s("wordcount"))
        .with_node_id(BrokerId(1))
        .with_host(s("localhost"))
        .with_port(9092);
    kp_seeds(&FindCoordinatorResponse::default().with_coordinators(vec![
        c.clone(),
        c.with_key(s("other")).with_error_code(15).with_error_message(Some(s("not available"))),
    ]))
}

pub(crate) fn list_groups_seeds() -> Vec<Vec<u8>> {
    use list_groups_response::*;
    let g = |id: &str, t: &str| {
        ListedGroup::default()
            .with_group_id(GroupId(s(id)))
            .with_protocol_type(s(""))
            .with_group_state(s("Stable"))
            .with_group_type(s(t))
    };
    kp_seeds(
        &ListGroupsResponse::default()
            .with_groups(vec![g("wordcount", "streams"), g("orders", "consumer")]),
    )
}

pub(crate) fn offset_fetch_seeds() -> Vec<Vec<u8>> {
    use offset_fetch_response::*;
    let p = |i| {
        OffsetFetchResponsePartitions::default()
            .with_partition_index(i)
            .with_committed_offset(100 + i64::from(i))
            .with_metadata(Some(s("")))
    };
    let g = OffsetFetchResponseGroup::default()
        .with_group_id(GroupId(s("wordcount")))
        .with_topics(vec![OffsetFetchResponseTopics::default()
            .with_name(TopicName(s("wordcount-input")))
            .with_partitions((0..3).map(p).collect())]);
    kp_seeds(&OffsetFetchResponse::default().with_groups(vec![g]))
}

pub(crate) fn list_offsets_seeds() -> Vec<Vec<u8>> {
    use list_offsets_response::*;
    let p = |i| {
        ListOffsetsPartitionResponse::default()
            .with_partition_index(i)
            .with_timestamp(-1)
            .with_offset(5000)
    };
    kp_seeds(&ListOffsetsResponse::default().with_topics(vec![
        ListOffsetsTopicResponse::default()
            .with_name(TopicName(s("wordcount-input")))
            .with_partitions((0..3).map(p).collect()),
    ]))
}

pub(crate) fn sasl_handshake_seeds() -> Vec<Vec<u8>> {
    kp_seeds(&SaslHandshakeResponse::default().with_mechanisms(vec![
        s("SCRAM-SHA-512"),
        s("SCRAM-SHA-256"),
        s("PLAIN"),
    ]))
}

pub(crate) fn sasl_authenticate_seeds() -> Vec<Vec<u8>> {
    let mut out = kp_seeds(
        &SaslAuthenticateResponse::default()
            .with_auth_bytes(bytes::Bytes::from_static(
                b"r=fuzznonce3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
            ))
            .with_session_lifetime_ms(3_600_000),
    );
    out.extend(kp_seeds(
        &SaslAuthenticateResponse::default()
            .with_error_code(58)
            .with_error_message(Some(s("Authentication failed during authentication"))),
    ));
    out
}

pub(crate) fn frame_seeds() -> Vec<Vec<u8>> {
    let with_header = |flexible: bool, body: Vec<u8>| {
        let mut m = vec![0, 0, 0, 7];
        if flexible {
            m.push(0);
        }
        m.extend(body);
        kafka::wire::frame(&m)
    };
    vec![
        with_header(true, samples::describe_response(1).encode(1).unwrap()),
        with_header(false, api_versions_seeds().remove(0)),
        b"HTTP/1.1 400 Bad Request\r\n\r\n".to_vec(),
        vec![0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46],
    ]
}

pub(crate) fn scram_seeds() -> Vec<Vec<u8>> {
    [
        "r=fuzznonce3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=16\nv=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
        "r=fuzznonceX,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=1,m=ext\ne=invalid-proof",
        "e=unknown-user\n",
        "r=fuzznonce,s=,i=0\nv=",
    ]
    .iter()
    .map(|x| x.as_bytes().to_vec())
    .collect()
}

pub(crate) fn describe_text_seeds() -> Vec<Vec<u8>> {
    let mut out = files("tests/data/topologies", "txt");
    out.extend(files("tests/data/pasted", "txt"));
    out
}

pub(crate) fn topology_json_seeds() -> Vec<Vec<u8>> {
    let mut out = files("tests/data/topologies", "json");
    out.extend(files("tests/data/configure", "json"));
    // The describe fixtures as JSON.
    for t in describe_text_seeds() {
        if let Ok(top) = streams_group::topology::parse_describe(&text(&t), "app") {
            out.push(serde_json::to_vec_pretty(&top).unwrap());
        }
    }
    let hb = samples::heartbeat_request(0).to_model().unwrap();
    if let Some(t) = hb.topology {
        out.push(serde_json::to_vec(&t).unwrap());
    }
    out
}

pub(crate) fn snapshot_seeds() -> Vec<Vec<u8>> {
    let mut out = files("tests/data/snapshots", "json");
    let groups = samples::describe_response(1)
        .groups
        .iter()
        .map(|g| g.to_model())
        .collect();
    let snap = model::group::Snapshot {
        schema_version: model::group::SNAPSHOT_SCHEMA_VERSION,
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        groups,
    };
    out.push(serde_json::to_vec_pretty(&snap).unwrap());
    out
}

pub(crate) fn scenario_seeds() -> Vec<Vec<u8>> {
    use streams_group::simulate::scenario::*;
    let mut out = files("tests/data/scenarios", "json");
    let ids: Vec<String> = (0..4).map(|i| format!("p{i}-t1")).collect();
    let missing = BTreeMap::from([("app-store-changelog".to_string(), 4)]);
    let ctx = BuiltInContext {
        member_ids: &ids,
        count: 2,
        instances: None,
        named: None,
        topology_epoch: 1,
        missing_topics: &missing,
        deploy_topology: samples::heartbeat_request(0).to_model().unwrap().topology,
    };
    for name in BUILT_IN {
        let s = built_in(name, &ctx).unwrap();
        out.push(serde_json::to_vec_pretty(&s).unwrap());
    }
    out
}

pub(crate) fn one_line_seeds() -> Vec<Vec<u8>> {
    [
        "join.txt:5:5: expected `Source:`, `Processor:`, `Sink:` or `Sub-topology:`",
        "the snapshot has no group x; it has: a\r\nb, c\rd",
        "server refused: \u{1b}[31mred\u{7f}\u{0}",
        "multi\nline\n\n\u{2028}\u{85}\u{b}\u{c}\ttab",
        "\u{202e}cod.exe é 😀",
    ]
    .iter()
    .map(|x| x.as_bytes().to_vec())
    .collect()
}

pub(crate) fn properties_seeds() -> Vec<Vec<u8>> {
    [
        "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n\
         sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \
         username=\"alice\" password=\"alice-secret\";\n\
         ssl.truststore.type=PEM\nssl.truststore.location=/path/ca.pem\n",
        "# librdkafka names\nsecurity.protocol = sasl_plaintext\nsasl.mechanisms: PLAIN\n\
         sasl.username alice\nsasl.password=pa\\u0073s\\\n    word\n",
        "security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.location=client.pem\n\
         ssl.endpoint.identification.algorithm=\nclient.id=streams-group-ci\n",
        "security.protocol=SSL\nssl.keystore.key=-----BEGIN PRIVATE KEY-----\\n...\n\
         ssl.keystore.certificate.chain=-----BEGIN CERTIFICATE-----\nssl.key.password=x\n",
        "ssl.truststore.location=ca.jks\nenable.ssl.certificate.verification=false\nfoo.bar=1\n",
    ]
    .iter()
    .map(|x| x.as_bytes().to_vec())
    .collect()
}

// ------------------------------------------------------------------ dictionaries

pub(crate) const DESCRIBE_TEXT: &[&str] = &[
    "Topologies:",
    "Topology: ",
    "Sub-topology: ",
    "Sub-topology: 0 for global store (will not generate tasks)",
    "Source: ",
    "Processor: ",
    "Sink: ",
    " (topics: [",
    " (topics: ",
    " (topic: ",
    " (extractor class: ",
    " (stores: [",
    "])",
    "]",
    "[",
    ", ",
    "-->",
    "<--",
    " none",
    "KSTREAM-SOURCE-0000000000",
    "KSTREAM-JOIN-0000000004",
    "KTABLE-SOURCE-0000000002",
    "-repartition",
    "-subscription-registration-topic",
    "    ",
    "\t",
    "\n",
    "\r\n",
    "```",
    "2024-01-01 10:00:00 INFO  ",
    "\u{feff}",
    "\u{1b}[31m",
    "\r",
    "\u{85}",
    "\u{2028}",
    "é",
    "(",
    ")",
    ":",
    "0",
    "99999999999999999999",
];

pub(crate) const JSON: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ":",
    ",",
    "null",
    "true",
    "false",
    "-1",
    "0",
    "2147483647",
    "2147483648",
    "-2147483649",
    "1e400",
    "0.5",
    "\"\"",
    "\\u0000",
    "\\r",
    "\\n",
    "\\u001b[2J",
    "\\u2028",
    "\\ud800",
    "\\\"",
    "\"epoch\": ",
    "\"subtopologies\": ",
    "\"id\": ",
    "\"source_topics\": ",
    "\"source_topic_regex\": ",
    "\"repartition_sink_topics\": ",
    "\"repartition_source_topics\": ",
    "\"state_changelog_topics\": ",
    "\"copartition_groups\": ",
    "\"name\": ",
    "\"partitions\": ",
    "\"replication_factor\": ",
    "\"topic_configs\": ",
    "\"schema_version\": ",
    "\"kafka_version\": ",
    "\"groups\": ",
    "\"group_id\": ",
    "\"members\": ",
    "\"steps\": ",
    "\"action\": ",
    "\"at_ms\": ",
    "\"add_members\"",
    "\"remove_members\"",
    "\"crash\"",
    "\"restart\"",
    "\"deploy\"",
    "\"create_topics\"",
    "\"set_standby_replicas\"",
    "\"wait\"",
    "\"count\": ",
    "\"ms\": ",
    "\"topics\": ",
    "\"topology\": ",
    "\"topology_epoch\": ",
    "\"num_standby_replicas\": ",
    "\u{feff}",
    "\r",
];

pub(crate) const PROPERTIES: &[&str] = &[
    "\n",
    "\r\n",
    "\r",
    "=",
    ":",
    " ",
    "\\",
    "\\\n",
    "\\n",
    "\\r",
    "\\t",
    "\\f",
    "\\u001b",
    "\\u0000",
    "\\u00e9",
    "\\uZZZZ",
    "\\u12",
    "#",
    "!",
    "\"",
    ";",
    "security.protocol=",
    "SASL_SSL",
    "SSL",
    "PLAINTEXT",
    "sasl.mechanism=",
    "sasl.mechanisms=",
    "SCRAM-SHA-256",
    "PLAIN",
    "GSSAPI",
    "sasl.jaas.config=",
    "username=",
    "password=",
    "sasl.username=",
    "sasl.password=",
    "ssl.truststore.type=",
    "ssl.truststore.location=",
    "ssl.truststore.certificates=",
    "ssl.keystore.type=",
    "ssl.keystore.location=",
    "ssl.keystore.key=",
    "ssl.keystore.certificate.chain=",
    "ssl.key.password=",
    "ssl.ca.location=",
    "ssl.certificate.location=",
    "ssl.key.location=",
    "ssl.endpoint.identification.algorithm=",
    "enable.ssl.certificate.verification=",
    "client.id=",
    "JKS",
    "PEM",
    "PKCS12",
];

pub(crate) const ONE_LINE: &[&str] = &[
    "\r", "\n", "\r\n", "\u{1b}", "\u{0}", "\u{7f}", "\u{85}", "\u{9b}", "\u{2028}", "\u{2029}",
    "\u{202a}", "\u{2066}", "\u{200b}", "\t", " ", "\\", "\\u{1b}", "é", "😀",
];

pub(crate) const SCRAM: &[&str] = &[
    "r=",
    "s=",
    "i=",
    "m=",
    "e=",
    "v=",
    ",",
    "=",
    "\n",
    "fuzznonce",
    "==",
    "AAAA",
    "!",
    "\r",
    "\u{1b}",
    "0",
    "4096",
    "1000001",
    "-1",
];

pub(crate) fn offset_commit_seeds() -> Vec<Vec<u8>> {
    use offset_commit_response::*;
    let p = |i, e| {
        OffsetCommitResponsePartition::default()
            .with_partition_index(i)
            .with_error_code(e)
    };
    kp_seeds(&OffsetCommitResponse::default().with_topics(vec![
        OffsetCommitResponseTopic::default()
            .with_name(TopicName(s("wordcount-input")))
            .with_partitions(vec![p(0, 0), p(1, 25)]),
    ]))
}

pub(crate) fn offset_delete_seeds() -> Vec<Vec<u8>> {
    use offset_delete_response::*;
    let p = |i, e| {
        OffsetDeleteResponsePartition::default()
            .with_partition_index(i)
            .with_error_code(e)
    };
    kp_seeds(&OffsetDeleteResponse::default().with_topics(vec![
        OffsetDeleteResponseTopic::default()
            .with_name(TopicName(s("wordcount-input")))
            .with_partitions(vec![p(0, 0), p(1, 86)]),
    ]))
}

pub(crate) fn delete_groups_seeds() -> Vec<Vec<u8>> {
    use delete_groups_response::*;
    let g = |id: &str, e| {
        DeletableGroupResult::default()
            .with_group_id(GroupId(s(id)))
            .with_error_code(e)
    };
    kp_seeds(&DeleteGroupsResponse::default().with_results(vec![g("a", 0), g("b", 68)]))
}

pub(crate) fn delete_topics_seeds() -> Vec<Vec<u8>> {
    use delete_topics_response::*;
    let t = |n: &str, e| {
        DeletableTopicResult::default()
            .with_name(Some(TopicName(s(n))))
            .with_error_code(e)
    };
    kp_seeds(&DeleteTopicsResponse::default().with_responses(vec![
        t("wordcount-counts-changelog", 0),
        t("wordcount-counts-repartition", 3),
    ]))
}

/// What the admin actions read from the user: a `--from-file` plan, then each line as a
/// `--to-datetime`, `--by-duration` and `--input-topic` value.
pub(crate) fn admin_input_seeds() -> Vec<Vec<u8>> {
    [
        "wordcount-input,0,120\nwordcount-input,1,-5\n",
        "app,wordcount-input,0,5\r\nother,\"we,ird\",1,7\n\n",
        "2024-02-29T12:34:56.789\n2024-02-29T13:34:56.789+01:00\n1969-12-31T23:59:59.999-02\n",
        "PT30M\nP1DT2H\n-PT0.5S\npt-1h30m\n",
        "orders\norders:0,1,2\nbad:x\n",
    ]
    .iter()
    .map(|x| x.as_bytes().to_vec())
    .collect()
}

pub(crate) const ADMIN_INPUT: &[&str] = &[
    "\n",
    ",",
    "\"",
    "\"\"",
    ":",
    "T",
    "Z",
    "+",
    "-",
    ".",
    "P",
    "D",
    "H",
    "M",
    "S",
    "PT",
    "00",
    "99",
    "2147483648",
    "9223372036854775808",
    "-1",
];

/// An input of the `coordinator_record` target (`targets::split_record`).
fn record_input(key: &[u8], value: Option<&[u8]>) -> Vec<u8> {
    let flag = if value.is_none() { 0x8000 } else { 0 };
    let mut out = (key.len() as u16 | flag).to_be_bytes().to_vec();
    out.extend_from_slice(key);
    out.extend_from_slice(value.unwrap_or_default());
    out
}

/// One record of each type the decoder knows, with most fields set, their tombstones, and an
/// unknown type.
pub(crate) fn coordinator_record_seeds() -> Vec<Vec<u8>> {
    use model::heartbeat::Endpoint;
    use model::MemberIdentity;
    use model::{Assignment, Subtopology, TaskSet, TopicInfo, Topology};
    use std::collections::BTreeMap;
    use streams_group::history::encode::encode;
    use streams_group::history::records::*;

    let g = || "app".to_string();
    let m = || "m-1".to_string();
    let tasks: TaskSet = [("0", 0), ("0", 3), ("1", 1)].into_iter().collect();
    let assignment = Assignment {
        active: tasks.clone(),
        standby: [("1", 2)].into_iter().collect(),
        warmup: TaskSet::new(),
    };
    let kv = BTreeMap::from([("k".to_string(), "v".to_string())]);
    let mut metadata = StreamsGroupMetadataValue::new(3, 77);
    metadata.validated_topology_epoch = 1;
    metadata.last_assignment_configs = Some(kv.clone());
    let topology = Topology {
        epoch: 1,
        subtopologies: vec![Subtopology {
            id: "0".into(),
            source_topics: vec!["a".into(), "b".into()],
            repartition_source_topics: vec![TopicInfo::named("app-rep")],
            state_changelog_topics: vec![TopicInfo {
                topic_configs: kv.clone(),
                ..TopicInfo::named("app-store-changelog")
            }],
            copartition_groups: vec![["a", "app-rep"].iter().map(|s| s.to_string()).collect()],
            ..Subtopology::default()
        }],
    };
    let records = vec![
        CoordinatorRecord::StreamsGroupMetadata {
            group_id: g(),
            value: Some(metadata),
        },
        CoordinatorRecord::MemberMetadata {
            group_id: g(),
            member_id: m(),
            value: Some(MemberMetadataValue {
                identity: MemberIdentity {
                    instance_id: Some("i".into()),
                    rack_id: None,
                    client_id: "c".into(),
                    client_host: "/h".into(),
                    process_id: "p".into(),
                    user_endpoint: Some(Endpoint {
                        host: "h".into(),
                        port: 9,
                    }),
                    client_tags: kv,
                },
                rebalance_timeout_ms: 1000,
                topology_epoch: 1,
            }),
        },
        CoordinatorRecord::TargetAssignmentMetadata {
            group_id: g(),
            value: Some(TargetAssignmentMetadataValue {
                assignment_epoch: 3,
                assignment_timestamp_ms: 5,
            }),
        },
        CoordinatorRecord::TargetAssignmentMember {
            group_id: g(),
            member_id: m(),
            value: Some(assignment.clone()),
        },
        CoordinatorRecord::CurrentMemberAssignment {
            group_id: g(),
            member_id: m(),
            value: Some(CurrentMemberAssignmentValue {
                member_epoch: 3,
                previous_member_epoch: 2,
                state: 2,
                active_task_epochs: BTreeMap::from([(
                    "0".to_string(),
                    BTreeMap::from([(0, 3), (3, 2)]),
                )]),
                assigned: assignment.clone(),
                pending_revocation: assignment,
            }),
        },
        CoordinatorRecord::Topology {
            group_id: g(),
            value: Some(topology),
        },
        CoordinatorRecord::OffsetCommit {
            group_id: g(),
            topic: "a".into(),
            partition: 1,
            value: Some(OffsetCommitValue {
                version: 4,
                offset: 10,
                leader_epoch: 1,
                metadata: "m".into(),
                commit_timestamp_ms: 7,
                expire_timestamp_ms: -1,
                topic_id: Some([1; 16]),
            }),
        },
    ];
    let mut out = Vec::new();
    for r in &records {
        let (key, value) = encode(r).expect("a known type");
        out.push(record_input(&key, value.as_deref()));
        out.push(record_input(&key, None));
    }
    // A consumer group's member metadata (type 5): not decoded.
    out.push(record_input(
        &[0, 5, 0, 3, b'a', b'p', b'p', 0, 1, b'm'],
        Some(&[0, 0, 0]),
    ));
    out
}

/// Batches in each codec a broker may write (zstd: the codec's own tests), a transactional one
/// with its commit marker, and a cleaned batch that spans more offsets than it holds.
pub(crate) fn record_batches_seeds() -> Vec<Vec<u8>> {
    use kafka::batches::build::{batch, BatchSpec, KeyValue};
    let records: Vec<KeyValue> = vec![
        (
            Some(&b"\x00\x11\x00\x03app"[..]),
            Some(&b"\x00\x00value"[..]),
        ),
        (Some(&b"\x00\x13\x00\x03app\x00\x03m-1"[..]), None),
        (None, Some(&b"no key"[..])),
    ];
    let mut out: Vec<Vec<u8>> = (0..4)
        .map(|codec| {
            batch(&BatchSpec {
                base: 100,
                attributes: codec,
                producer: -1,
                records: records.clone(),
            })
        })
        .collect();
    let mut txn = batch(&BatchSpec {
        base: 0,
        attributes: 0x10,
        producer: 7,
        records: records.clone(),
    });
    txn.extend(batch(&BatchSpec {
        base: 3,
        attributes: 0x30,
        producer: 7,
        records: vec![(
            Some(&b"\x00\x00\x00\x00"[..]),
            Some(&b"\x00\x00\x00\x00\x00\x00"[..]),
        )],
    }));
    out.push(txn);
    let mut cleaned = batch(&BatchSpec {
        base: 30,
        attributes: 1,
        producer: -1,
        records,
    });
    cleaned[23..27].copy_from_slice(&9i32.to_be_bytes());
    out.push(cleaned);
    out
}
