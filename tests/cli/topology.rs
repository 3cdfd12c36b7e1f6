//! `streams-group topology`: run the binary on the fixtures in tests/data/topologies/.

use std::path::{Path, PathBuf};

use crate::support::{CommandOutput, StreamsGroup};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/topologies")
        .join(name)
}

/// `streams-group ARGS` with `NO_COLOR=1`.
fn run(args: &[&str]) -> CommandOutput {
    StreamsGroup::new(args).env("NO_COLOR", "1").run()
}

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["--output", "json"];
    all.extend_from_slice(args);
    let o = run(&all);
    (o.code(), o.json())
}

#[test]
fn json_file_table() {
    let f = fixture("wordcount.json");
    let o = run(&["topology", f.to_str().unwrap()]);
    assert_eq!(o.code(), 0, "{}", o.stderr);
    let out = &o.stdout;
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("SUBTOPOLOGY") && lines[0].contains("CHANGELOGS"));
    assert!(lines[1].trim_start().starts_with("0 "), "{out}");
    assert!(lines[1].contains("streams-plaintext-input"));
    assert!(lines[2].trim_start().starts_with("1 "), "{out}");
    assert!(lines[2].contains(" yes "));
    assert!(out.contains("Internal topics the coordinator asks to create:"));
    assert!(
        out.contains("Ready once the internal topics above exist: 16 tasks in 2 subtopologies.")
    );
    assert!(out.contains("Assumed partitions: streams-plaintext-input=8"));
    assert!(!out.lines().any(|l| l.ends_with(' ')), "no trailing spaces");
}

#[test]
fn describe_text_json_output() {
    let f = fixture("wordcount-named-store.txt");
    let (code, v) = json(&[
        "topology",
        f.to_str().unwrap(),
        "--application-id",
        "streams-wordcount",
        "--partitions",
        "6",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["application_id"], "streams-wordcount");
    assert_eq!(v["epoch"], 0);
    assert_eq!(v["subtopologies"][0]["id"], "0");
    assert_eq!(v["subtopologies"][0]["tasks"], 6);
    assert_eq!(v["subtopologies"][0]["stateful"], false);
    assert_eq!(
        v["subtopologies"][0]["repartition_sink_topics"][0],
        "streams-wordcount-counts-store-repartition"
    );
    assert_eq!(v["subtopologies"][1]["stateful"], true);
    assert_eq!(
        v["subtopologies"][1]["changelog_topics"][0],
        "streams-wordcount-counts-store-changelog"
    );
    let c = &v["configuration"];
    assert_eq!(c["ready"], true);
    assert_eq!(c["status"], "READY");
    assert_eq!(c["total_tasks"], 12);
    let created = c["internal_topics_to_create"].as_array().unwrap();
    assert_eq!(created.len(), 2);
    assert_eq!(
        created[0]["name"],
        "streams-wordcount-counts-store-changelog"
    );
    assert_eq!(created[0]["partitions"], 6);
    assert_eq!(created[0]["replication_factor"], -1);
    assert_eq!(v["topic_partitions"]["streams-plaintext-input"], 6);
    assert_eq!(v["notes"].as_array().unwrap().len(), 0);
}

#[test]
fn describe_text_needs_application_id() {
    let f = fixture("wordcount-named-store.txt");
    let o = run(&["topology", f.to_str().unwrap()]);
    assert_eq!(o.code(), 2);
    let err = &o.stderr;
    assert!(err.contains("--application-id"), "{err}");
    assert!(err.contains("wordcount-named-store.txt"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn broken_file_reports_file_line_column() {
    let f = fixture("broken-unknown-node.txt");
    let o = run(&["topology", f.to_str().unwrap(), "--application-id", "app"]);
    assert_eq!(o.code(), 2);
    let err = &o.stderr;
    assert!(
        err.contains("broken-unknown-node.txt:5:5: expected `Source:`, `Processor:`, `Sink:` or `Sub-topology:`"),
        "{err}"
    );
}

#[test]
fn missing_file_is_a_usage_error() {
    let o = run(&["topology", "/nonexistent/topology.json"]);
    assert_eq!(o.code(), 2);
    assert!(o
        .stderr
        .contains("/nonexistent/topology.json: cannot read the file"));
}

#[test]
fn copartition_mismatch_is_a_negative_answer() {
    let f = fixture("stream-stream-join.txt");
    let (code, v) = json(&[
        "topology",
        f.to_str().unwrap(),
        "--application-id",
        "ads",
        "--topic-partitions",
        "ad-clicks=4,ad-impressions=8",
    ]);
    assert_eq!(code, 1);
    let c = &v["configuration"];
    assert_eq!(c["ready"], false);
    assert_eq!(c["status"], "INCORRECTLY_PARTITIONED_TOPICS");
    assert_eq!(
        c["detail"],
        "Following topics do not have the same number of partitions: [{ad-clicks=4, ad-impressions=8}]"
    );
    assert!(v["subtopologies"][0]["tasks"].is_null());
    assert_eq!(c["total_tasks"], 0);
}

#[test]
fn existing_internal_topic_with_wrong_count() {
    let f = fixture("wordcount.json");
    let o = run(&[
        "topology",
        f.to_str().unwrap(),
        "--topic-partitions",
        "streams-wordcount-counts-store-changelog=2",
    ]);
    assert_eq!(o.code(), 1);
    let out = &o.stdout;
    assert!(
        out.contains(
            "Not ready: INCORRECTLY_PARTITIONED_TOPICS: Existing topic \
             streams-wordcount-counts-store-changelog has different number of partitions: \
             expected 8, found 2"
        ),
        "{out}"
    );
}

#[test]
fn missing_source_topic() {
    let f = fixture("wordcount.json");
    let (code, v) = json(&[
        "topology",
        f.to_str().unwrap(),
        "--topic-partitions",
        "streams-plaintext-input=0",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["configuration"]["status"], "MISSING_SOURCE_TOPICS");
    assert_eq!(
        v["configuration"]["detail"],
        "Source topics streams-plaintext-input are missing."
    );
}

#[test]
fn pattern_source_is_an_invalid_topology() {
    let f = fixture("pattern-source.txt");
    let o = run(&["topology", f.to_str().unwrap(), "--application-id", "r"]);
    assert_eq!(o.code(), 1);
    let out = &o.stdout;
    assert!(out.contains("/orders-.*/"), "{out}");
    assert!(
        out.contains("Not accepted: STREAMS_INVALID_TOPOLOGY (130)"),
        "{out}"
    );
    assert!(out.contains("Note: sink KSTREAM-SINK-0000000002"), "{out}");
}

#[test]
fn global_store_note_in_table() {
    let f = fixture("global-store.txt");
    let o = run(&["topology", f.to_str().unwrap(), "--application-id", "pay"]);
    assert_eq!(o.code(), 0);
    let out = &o.stdout;
    assert!(out.contains("Ready: 8 tasks in 1 subtopology."), "{out}");
    assert!(
        out.contains("Note: sub-topology 0 is a global store"),
        "{out}"
    );
}

#[test]
fn bad_options() {
    let f = fixture("wordcount.json");
    let p = f.to_str().unwrap();
    for args in [
        vec!["topology", p, "--partitions", "0"],
        vec!["topology", p, "--topic-partitions", "nocount"],
        vec!["topology", p, "--topic-partitions", "a=-2"],
    ] {
        let o = run(&args);
        assert_eq!(o.code(), 2, "{args:?}: {}", o.stderr);
    }
}

#[test]
fn help_has_an_example() {
    let o = run(&["topology", "--help"]);
    assert_eq!(o.code(), 0);
    let out = &o.stdout;
    assert!(out.contains("Examples:"));
    assert!(out.contains("streams-group topology describe.txt --application-id"));
}
