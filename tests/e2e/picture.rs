//! `topology show group:ID` live against Kafka 4.4.0 brokers: with the in-memory topology
//! description plugin Apache ships (KIP-1331, off by default) the picture has the app's
//! processors, as the members pushed them; Graphviz renders its DOT. Without the plugin it has
//! the subtopologies and topics only, and says why on stderr.
//!
//! Never skips: without Java 17+ and Maven the harness fails loudly.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;
use crate::support::Broker;

const PLUGIN: &str = "group.streams.topology.description.plugin.class=\
                      org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin";

fn show(broker: &Broker, group: &str, format: &str) -> (String, String) {
    let out = support::streams_group(&[
        "topology",
        "show",
        &format!("group:{group}"),
        "--bootstrap-server",
        &broker.bootstrap,
        "--format",
        format,
    ])
    .success();
    (out.stdout, out.stderr)
}

#[test]
fn a_broker_with_a_description_plugin_gives_the_processor_graph() {
    let broker = Broker::start_configured("4.4.0", &[PLUGIN]);
    let _app = broker.app("picture", 1, 1);
    // Members push the description when a heartbeat asks for it, soon after joining.
    let deadline = Instant::now() + Duration::from_secs(60);
    let text = loop {
        let (text, err) = show(&broker, "picture", "text");
        if text.contains("processors:") {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "no processors after 60 s:\n{text}{err}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    // The harness app: a re-key into a repartition topic, then a count into the store `counts`.
    for want in [
        "reads   picture-input (source",
        "writes  picture-counts-repartition (repartition",
        "store   counts -> picture-counts-changelog (changelog",
        "KSTREAM-AGGREGATE-",
        "sink      KSTREAM-SINK-",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    let (dot, _) = show(&broker, "picture", "dot");
    assert!(dot.contains("subgraph cluster_s1"), "{dot}");
    let mut child = Command::new("dot")
        .args(["-Tsvg", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("Graphviz `dot` runs (.ci/run installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn without_the_plugin_the_picture_has_topics_and_a_note() {
    let broker = Broker::start_version("4.4.0");
    let _app = broker.app("plain", 1, 1);
    let (text, err) = show(&broker, "plain", "text");
    assert!(!text.contains("processors:"), "{text}");
    assert!(text.contains("plain-counts-repartition"), "{text}");
    assert!(
        err.contains("stores no topology description")
            && err.contains("group.streams.topology.description.plugin.class"),
        "{err}"
    );
    // Kafka 4.4.0's DescribeConfigs on the group: the public streams.* configs with the
    // broker's defaults filled in, and none of the internal ones (acceptable recovery lag, task
    // offset interval, warm-ups), so lag falls back to 10000.
    let out = support::streams_group(&[
        "describe",
        "--group",
        "plain",
        "--bootstrap-server",
        &broker.bootstrap,
        "-o",
        "json",
    ]);
    let snap = out.success().json();
    let group = snap["groups"][0]["configs"]["group"]
        .as_object()
        .expect("group configs");
    assert_eq!(group["streams.heartbeat.interval.ms"], "500", "{group:?}");
    assert_eq!(group["streams.assignor.name"], "sticky", "{group:?}");
    for internal in [
        "streams.acceptable.recovery.lag",
        "streams.task.offset.interval.ms",
        "streams.num.warmup.replicas",
    ] {
        assert!(!group.contains_key(internal), "{internal}: {group:?}");
    }
}
