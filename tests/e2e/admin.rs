//! End-to-end tests of the admin actions (`reset-offsets`, `delete-offsets`, `delete`) against a
//! real broker (tests/kafka/harness, Kafka 4.3.1 by default) and a real Kafka Streams app, side
//! by side with Apache's `kafka-streams-groups.sh`. One broker and one app for every case, in
//! order: the running app refuses every action; once it is stopped (group Empty) every reset
//! scenario plans what the official tool plans, dry runs change nothing, `--execute` writes what
//! the official tool then reads back, `--export` round-trips through `--from-file` (ours and
//! Apache's), offsets of one topic are deleted, and the group is deleted with its internal topics.
//!
//! Apache's `--describe --offsets` shows nothing for an Empty group (it lists the partitions of
//! the members' tasks), so the official reading of committed offsets is
//! `--reset-offsets --to-current --dry-run`, which prints them as NEW-OFFSET.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::support;
use crate::support::{stderr_of, stdout_of, streams_group, wait_for, Broker, CommandOutput};

type Offsets = BTreeMap<(String, i32), i64>;

const GROUP: &str = "adm";
const INPUT: &str = "adm-input";
const REPARTITION: &str = "adm-counts-repartition";
const CHANGELOG: &str = "adm-counts-changelog";

fn sg(broker: &Broker, args: &[&str]) -> CommandOutput {
    let mut all = vec![
        "--bootstrap-server",
        &broker.bootstrap,
        "--timeout",
        "15000",
    ];
    all.extend_from_slice(args);
    streams_group(&all)
}

fn ok(out: &CommandOutput) -> String {
    assert!(out.status.success(), "failed: {out}");
    out.stdout.clone()
}

/// Our plan as JSON (checked against its schema), as (topic, partition) -> new offset.
fn our_plan(broker: &Broker, args: &[&str]) -> (Value, Offsets) {
    let mut all = vec!["reset-offsets", "--group", GROUP, "-o", "json"];
    all.extend_from_slice(args);
    let text = ok(&sg(broker, &all));
    support::json_schema::assert_valid("reset-offsets", &text);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let plan = doc["groups"][0]["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["topic"].as_str().unwrap().to_string(),
                    r["partition"].as_i64().unwrap() as i32,
                ),
                r["new_offset"].as_i64().unwrap(),
            )
        })
        .collect();
    (doc, plan)
}

/// `kafka-streams-groups.sh --reset-offsets --dry-run ARGS`: GROUP TOPIC PARTITION NEW-OFFSET.
fn official_plan(broker: &Broker, args: &[&str]) -> Offsets {
    let mut all = vec!["--reset-offsets", "--group", GROUP, "--dry-run"];
    all.extend_from_slice(args);
    let out = broker.tool(&all);
    assert!(out.status.success(), "official tool: {}", stderr_of(&out));
    stdout_of(&out)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 4 && f[0] == GROUP)
        .map(|f| {
            (
                (f[1].to_string(), f[2].parse().unwrap()),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

/// The committed offsets of the input topic, as the official tool reads them.
fn official_committed(broker: &Broker) -> Offsets {
    official_plan(broker, &["--all-input-topics", "--to-current"])
}

fn all_input(n: i64) -> Offsets {
    (0..4).map(|p| ((INPUT.to_string(), p), n)).collect()
}

/// UTC `YYYY-MM-DDTHH:mm:SS.sss` of epoch milliseconds (Kafka's tools read no zone as UTC).
fn utc(ms: i64) -> String {
    streams_group::time::rfc3339(ms)
        .trim_end_matches('Z')
        .to_string()
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn topics(broker: &Broker) -> Vec<String> {
    let out = broker.java(
        "org.apache.kafka.tools.TopicCommand",
        &["--bootstrap-server", &broker.bootstrap, "--list"],
        None,
    );
    stdout_of(&out).lines().map(str::to_string).collect()
}

/// The committed offsets as our describe shows them (works while the app runs).
fn described_offsets(broker: &Broker) -> Vec<(String, i32, Option<i64>)> {
    let text = ok(&sg(broker, &["describe", "--group", GROUP, "-o", "json"]));
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["groups"][0]["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["topic"].as_str().unwrap().to_string(),
                o["partition"].as_i64().unwrap() as i32,
                o["committed"].as_i64(),
            )
        })
        .collect()
}

fn refused_while_running(broker: &Broker) {
    // The app commits while it catches up: wait until its offsets settle.
    let mut last = described_offsets(broker);
    let before = wait_for(
        "committed offsets to settle",
        Duration::from_secs(60),
        || {
            std::thread::sleep(Duration::from_millis(1500));
            let now = described_offsets(broker);
            let settled = now == last && now.iter().all(|(_, _, c)| c.is_some());
            last = now.clone();
            settled.then_some(now)
        },
    );
    let actions: [&[&str]; 4] = [
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--to-earliest",
            "--execute",
        ],
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--to-earliest",
        ],
        &[
            "delete-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--execute",
        ],
        &[
            "delete",
            "--group",
            GROUP,
            "--delete-internal-topics",
            "--execute",
        ],
    ];
    for a in actions {
        let out = sg(broker, a);
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(4), "{a:?}: {err}");
        assert!(out.stdout.is_empty(), "{a:?} printed a plan");
        assert!(
            err.contains("refused, nothing was written: group `adm` is Stable")
                && err.contains("2 live member(s)")
                && err.contains("adm-instance-0-StreamThread-1-consumer")
                && err.contains("KafkaStreams#close"),
            "{a:?}: {err}"
        );
    }
    assert_eq!(described_offsets(broker), before, "offsets moved");
    // The group is still there and still Stable.
    let state = ok(&sg(broker, &["describe", "--group", GROUP, "--state"]));
    assert!(state.contains("Stable"), "{state}");
}

fn plans_agree_with_the_official_tool(broker: &Broker, committed: &Offsets) {
    let future = utc(now_ms() + 365 * 86_400_000);
    let scenarios: [&[&str]; 6] = [
        &["--all-input-topics", "--to-earliest"],
        &["--all-input-topics", "--to-offset", "99999"],
        &["--all-input-topics", "--shift-by", "-10"],
        &["--all-input-topics", "--to-datetime", &future],
        &["--input-topic", "adm-input:1,3", "--to-latest"],
        &["--input-topic", REPARTITION, "--to-current"],
    ];
    for s in scenarios {
        let (doc, ours) = our_plan(broker, s);
        let theirs = official_plan(broker, s);
        assert_eq!(ours, theirs, "plan of {s:?}");
        assert!(!ours.is_empty(), "{s:?}: empty plan");
        assert_eq!(doc["execute"], false);
        for r in doc["groups"][0]["partitions"].as_array().unwrap() {
            assert_eq!(r["status"], "planned", "{s:?}");
        }
    }
    // The plan says which topics it covers and that the repartition topic is left out.
    let (doc, _) = our_plan(broker, &["--all-input-topics", "--to-earliest"]);
    assert_eq!(doc["groups"][0]["topics"], serde_json::json!([INPUT]));
    let notes = doc["groups"][0]["notes"].to_string();
    assert!(
        notes.contains(REPARTITION) && notes.contains("left out"),
        "{notes}"
    );
    // Every dry run above left the offsets where they were.
    assert_eq!(&official_committed(broker), committed, "a dry run wrote");
}

fn executes(broker: &Broker) {
    // To earliest: the table has the columns and a status.
    let out = sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--to-earliest",
            "--execute",
        ],
    );
    let table = ok(&out);
    let header: Vec<&str> = table.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "GROUP",
            "TOPIC",
            "PARTITION",
            "CURRENT-OFFSET",
            "NEW-OFFSET",
            "CHANGE",
            "STATUS"
        ]
    );
    assert_eq!(
        table.lines().filter(|l| l.ends_with("reset")).count(),
        4,
        "{table}"
    );
    assert_eq!(official_committed(broker), all_input(0));
    // Shift by 5.
    ok(&sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--shift-by",
            "5",
            "--execute",
        ],
    ));
    assert_eq!(official_committed(broker), all_input(5));
}

fn to_datetime(broker: &Broker) {
    let before_batch = broker.end_offsets(INPUT);
    std::thread::sleep(Duration::from_millis(1100));
    let cut = now_ms();
    std::thread::sleep(Duration::from_millis(1100));
    broker.produce(INPUT, 200);
    let want: Offsets = before_batch
        .iter()
        .enumerate()
        .map(|(p, o)| ((INPUT.to_string(), p as i32), *o))
        .collect();
    // The same instant in UTC (no zone) and at +01:00.
    let plus_one = format!("{}+01:00", utc(cut + 3_600_000));
    let (_, plan) = our_plan(broker, &["--all-input-topics", "--to-datetime", &plus_one]);
    assert_eq!(plan, want, "first offsets after {plus_one}");
    ok(&sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--to-datetime",
            &utc(cut),
            "--execute",
        ],
    ));
    assert_eq!(official_committed(broker), want);
    assert_eq!(
        official_plan(broker, &["--all-input-topics", "--to-datetime", &utc(cut)]),
        want,
        "the official tool reads the same time the same way"
    );
}

fn export_round_trip(broker: &Broker, dir: &std::path::Path) {
    let out = sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--all-input-topics",
            "--shift-by",
            "-3",
            "--export",
        ],
    );
    let csv = ok(&out);
    let current = official_committed(broker);
    let want: Offsets = current
        .iter()
        .map(|(k, v)| (k.clone(), (v - 3).max(0)))
        .collect();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let file = dir.join("plan.csv");
    std::fs::write(&file, &csv).unwrap();
    let path = file.display().to_string();
    // Apache reads our file as we do.
    assert_eq!(official_plan(broker, &["--from-file", &path]), want);
    let (_, ours) = our_plan(broker, &["--from-file", &path]);
    assert_eq!(ours, want);
    ok(&sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            GROUP,
            "--from-file",
            &path,
            "--execute",
        ],
    ));
    assert_eq!(official_committed(broker), want);
}

/// The committed offsets as our own `--to-current` plan reads them (no JVM to start).
fn our_committed(broker: &Broker) -> Offsets {
    our_plan(broker, &["--all-input-topics", "--to-current"]).1
}

fn bad_input_writes_nothing(broker: &Broker) {
    let before = our_committed(broker);
    for (args, says) in [
        (
            vec!["--input-topic", "nope", "--to-earliest"],
            "nope do not exist",
        ),
        (
            vec!["--input-topic", "adm-input:9", "--to-earliest"],
            "adm-input-9 do not exist",
        ),
        (
            vec!["--input-topic", CHANGELOG, "--to-earliest"],
            "no committed offset",
        ),
    ] {
        let mut all = vec!["reset-offsets", "--group", GROUP, "--execute"];
        all.extend(args);
        let out = sg(broker, &all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{all:?}: {}", out.stderr);
    }
    assert_eq!(our_committed(broker), before);
    // A consumer group's offsets are not a streams application's: refused, untouched (Apache's
    // tool resets them: it takes GROUP_ID_NOT_FOUND for a group to seed).
    let seeded = broker.java(
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
        &[
            "--bootstrap-server",
            &broker.bootstrap,
            "--group",
            "plain-consumers",
            "--reset-offsets",
            "--topic",
            INPUT,
            "--to-latest",
            "--execute",
        ],
        None,
    );
    assert!(seeded.status.success(), "{}", stderr_of(&seeded));
    let out = sg(
        broker,
        &[
            "reset-offsets",
            "--group",
            "plain-consumers",
            "--input-topic",
            INPUT,
            "--to-earliest",
            "--execute",
        ],
    );
    assert_eq!(out.status.code(), Some(4), "{}", out.stderr);
    assert!(out.stderr.contains("not a streams group"), "{}", out.stderr);
}

fn delete_offsets_of_one_topic(broker: &Broker) {
    let repartition_before = official_plan(broker, &["--input-topic", REPARTITION, "--to-current"]);
    let dry = ok(&sg(
        broker,
        &["delete-offsets", "--group", GROUP, "--input-topic", INPUT],
    ));
    assert_eq!(dry.matches("would be deleted").count(), 4, "{dry}");
    assert_eq!(our_committed(broker).len(), 4, "the dry run deleted");
    let out = sg(
        broker,
        &[
            "delete-offsets",
            "--group",
            GROUP,
            "--input-topic",
            INPUT,
            "--execute",
            "-o",
            "json",
        ],
    );
    let text = ok(&out);
    support::json_schema::assert_valid("delete-offsets", &text);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let statuses: Vec<&str> = doc["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["done"; 4]);
    assert!(official_committed(broker).is_empty(), "input offsets left");
    assert_eq!(
        official_plan(broker, &["--input-topic", REPARTITION, "--to-current"]),
        repartition_before,
        "the other topic's offsets went too"
    );
}

fn delete_group(broker: &Broker) {
    let text = ok(&sg(
        broker,
        &[
            "delete",
            "--group",
            GROUP,
            "--delete-internal-topics",
            "-o",
            "json",
        ],
    ));
    support::json_schema::assert_valid("delete", &text);
    let doc: Value = serde_json::from_str(&text).unwrap();
    let planned: Vec<&str> = doc["internal_topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "planned")
        .map(|t| t["topic"].as_str().unwrap())
        .collect();
    assert_eq!(planned, [CHANGELOG, REPARTITION]);
    assert!(
        topics(broker).contains(&CHANGELOG.to_string()),
        "the dry run deleted"
    );
    let out = sg(
        broker,
        &[
            "delete",
            "--group",
            GROUP,
            "--delete-internal-topics",
            "--execute",
        ],
    );
    let table = ok(&out);
    assert_eq!(table.matches("deleted").count(), 3, "{table}");
    let listed = stdout_of(&broker.tool(&["--list"]));
    assert!(!listed.lines().any(|l| l.trim() == GROUP), "{listed}");
    assert!(!ok(&sg(broker, &["list"])).contains(GROUP));
    wait_for("the internal topics to go", Duration::from_secs(30), || {
        let t = topics(broker);
        (!t.contains(&CHANGELOG.to_string()) && !t.contains(&REPARTITION.to_string())).then_some(())
    });
    assert!(
        topics(broker).contains(&INPUT.to_string()),
        "a source topic went"
    );
    // Gone: a second delete is refused.
    let again = sg(broker, &["delete", "--group", GROUP, "--execute"]);
    assert_eq!(again.status.code(), Some(4));
    assert!(
        again.stderr.contains("GROUP_ID_NOT_FOUND"),
        "{}",
        again.stderr
    );
}

#[test]
fn admin_actions_against_a_real_broker() {
    let broker = Broker::start();
    let mut app = broker.app(GROUP, 1, 2);
    refused_while_running(&broker);
    app.stop_all();
    wait_for("the group to be Empty", Duration::from_secs(30), || {
        ok(&sg(&broker, &["describe", "--group", GROUP, "--state"]))
            .contains("Empty")
            .then_some(())
    });
    let committed = official_committed(&broker);
    assert_eq!(committed.len(), 4, "{committed:?}");
    plans_agree_with_the_official_tool(&broker, &committed);
    executes(&broker);
    to_datetime(&broker);
    let dir = tempfile::tempdir().unwrap();
    export_round_trip(&broker, dir.path());
    bad_input_writes_nothing(&broker);
    delete_offsets_of_one_topic(&broker);
    delete_group(&broker);
}
