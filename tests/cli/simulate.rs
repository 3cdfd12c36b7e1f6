//! `simulate` end to end through the binary: reports, JSON contract, scenarios, bad input.

use crate::support::golden::Golden;
use crate::support::StreamsGroup;

/// (exit status, stdout, stderr) of `streams-group ARGS`, with `NO_COLOR=1`.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = StreamsGroup::new(args).env("NO_COLOR", "1").run();
    (out.code(), out.stdout, out.stderr)
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["--output", "json"]);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn default_run_reaches_stable_with_every_task_once() {
    let v = json(&["simulate", "--members", "6"]);
    assert_eq!(v["final_state"], "Stable");
    assert!(v["virtual_time_to_stable_ms"].as_i64().unwrap() > 0);
    let mut seen = std::collections::BTreeSet::new();
    for m in v["members"].as_array().unwrap() {
        assert!(m["member_id"].is_string() && m["process_id"].is_string());
        for e in m["assignment"]["active"].as_array().unwrap() {
            let s = e["subtopology"].as_str().unwrap().to_string();
            for p in e["partitions"].as_array().unwrap() {
                assert!(seen.insert((s.clone(), p.as_i64().unwrap())), "task twice");
            }
        }
        assert!(m["assignment"]["standby"].is_array());
    }
    assert_eq!(seen.len() as u64, v["total_tasks"].as_u64().unwrap());
    for key in ["group_epoch", "heartbeats", "tasks_moved"] {
        assert!(v[key].is_number(), "{key}");
    }
}

#[test]
fn every_built_in_scenario_ends_stable_without_violations_on_every_profile() {
    for (version, s) in ["4.1", "4.2", "4.3.1", "4.3", "4.4", "kip"]
        .into_iter()
        .flat_map(|v| {
            [
                "start",
                "scale-out",
                "scale-in",
                "crash",
                "rolling-bounce",
                "create-topics",
            ]
            .into_iter()
            .map(move |s| (v, s))
        })
        .chain([("kip", "deploy")])
    {
        let v = json(&[
            "simulate",
            "--members",
            "4",
            "--threads-per-process",
            "2",
            "--standby-replicas",
            "1",
            "--scenario",
            s,
            "--trace",
            "--kafka-version",
            version,
        ]);
        let release: model::KafkaVersion = version.parse().unwrap();
        assert_eq!(v["kafka_version"], release.release());
        assert_eq!(v["final_state"], "Stable", "scenario {s} on {version}");
        assert_eq!(
            v["invariant_violations"].as_array().unwrap().len(),
            0,
            "scenario {s}"
        );
        assert!(
            !v["trace"].as_array().unwrap().is_empty(),
            "scenario {s} has a transcript"
        );
    }
}

#[test]
fn deploy_on_a_release_kills_the_first_restarted_instance_and_says_how_to_deploy() {
    for version in ["4.1", "4.2", "4.3.1", "4.3", "4.4"] {
        let (code, out, err) = run(&[
            "simulate",
            "--members",
            "4",
            "--scenario",
            "deploy",
            "--kafka-version",
            version,
            "--output",
            "json",
        ]);
        assert_eq!(code, 1, "{version}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let failed = v["failed_members"].as_array().unwrap();
        assert_eq!(failed.len(), 1, "{version}: {failed:?}");
        assert_eq!(failed[0]["error"], "INVALID_REQUEST");
        assert_eq!(
            failed[0]["message"],
            "Topology updates are not supported yet."
        );
        assert!(v["advice"].as_str().unwrap().contains("new application.id"));
        // The group carries on without it, on the old topology.
        assert_eq!(v["topology_epoch"], 0);
        assert_eq!(v["final_state"], "Stable");
    }
    // The default profile is the newest release.
    let (code, out, _) = run(&["simulate", "--members", "4", "--scenario", "deploy"]);
    assert_eq!(code, 1);
    assert!(out.contains("MEMBER DIED: p1-t1-r1"), "{out}");
    assert!(out.starts_with("Kafka 4.4.0 coordinator"), "{out}");
}

#[test]
fn a_source_topic_that_grows_gets_its_new_tasks_assigned_on_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    let topology = dir.path().join("t.json");
    std::fs::write(
        &topology,
        r#"{"epoch": 0, "subtopologies": [{"id": "0", "source_topics": ["events"]}]}"#,
    )
    .unwrap();
    let scenario = dir.path().join("grow.json");
    std::fs::write(
        &scenario,
        r#"{"steps": [{"action": "create_topics", "topics": {"events": 12}}]}"#,
    )
    .unwrap();
    for version in ["4.1", "4.2", "4.3.1", "4.3", "4.4", "kip"] {
        let v = json(&[
            "simulate",
            "--members",
            "3",
            "--topology",
            topology.to_str().unwrap(),
            "--partitions",
            "8",
            "--scenario",
            scenario.to_str().unwrap(),
            "--kafka-version",
            version,
        ]);
        assert_eq!(v["total_tasks"], 12, "{version}");
        let assigned: usize = v["members"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["assignment"]["active"].as_array().unwrap())
            .map(|e| e["partitions"].as_array().unwrap().len())
            .sum();
        assert_eq!(
            assigned, 12,
            "{version}: every task of the grown topic is assigned"
        );
    }
}

#[test]
fn standby_replicas_beyond_the_broker_bound_are_refused() {
    let (code, _, err) = run(&["simulate", "--standby-replicas", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("group.streams.max.standby.replicas"), "{err}");
    let (code, _, err) = run(&["simulate", "--kafka-version", "5.0"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "use one of 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), \
             4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1), kip"
        ),
        "{err}"
    );
}

#[test]
fn deploy_shows_stale_members_on_the_way_and_ends_on_the_new_epoch() {
    let v = json(&[
        "simulate",
        "--members",
        "3",
        "--scenario",
        "deploy",
        "--kafka-version",
        "kip",
    ]);
    assert_eq!(v["topology_epoch"], 1);
    let step = &v["steps"][0];
    assert!(step["statuses_seen"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == "STALE_TOPOLOGY"));
    for m in v["members"].as_array().unwrap() {
        assert_eq!(m["topology_epoch"], 1);
    }
}

#[test]
fn create_topics_waits_in_not_ready_until_the_topics_exist() {
    let v = json(&[
        "simulate",
        "--members",
        "2",
        "--scenario",
        "create-topics",
        "--trace",
    ]);
    let statuses: Vec<&str> = v["statuses_seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(statuses.contains(&"MISSING_SOURCE_TOPICS"));
    assert!(v["virtual_time_to_stable_ms"].as_i64().unwrap() >= 20_000);
}

#[test]
fn a_scenario_file_runs_its_steps_in_order() {
    let v = json(&[
        "simulate",
        "--members",
        "3",
        "--scenario",
        "tests/data/scenarios/scale-out-then-crash.json",
    ]);
    let steps: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "add 2 member(s)",
            "set standby replicas to 1",
            "crash p1-t1",
            "wait 10000 ms"
        ]
    );
    assert_eq!(v["final_state"], "Stable");
    assert_eq!(v["members"].as_array().unwrap().len(), 4);
}

#[test]
fn the_same_seed_gives_byte_identical_output() {
    let a = run(&[
        "simulate",
        "--members",
        "5",
        "--scenario",
        "rolling-bounce",
        "--seed",
        "7",
        "--output",
        "json",
    ]);
    let b = run(&[
        "simulate",
        "--members",
        "5",
        "--scenario",
        "rolling-bounce",
        "--seed",
        "7",
        "--output",
        "json",
    ]);
    assert_eq!(a, b);
    let t1 = run(&["simulate", "--members", "5", "--seed", "7"]);
    let t2 = run(&["simulate", "--members", "5", "--seed", "7"]);
    assert_eq!(t1, t2);
}

/// Joiners draw ids: the report says what varied across samples, and one sample is the first
/// run exactly. A scenario where no member draws an id runs once, whatever --samples says.
#[test]
fn samples_say_what_varies_and_one_sample_is_the_first_run() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let base = ["simulate", "--members", "6", "--threads-per-process", "2"];
    let scale_out = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(&["--standby-replicas", "1", "--scenario", "scale-out"]);
        a.extend_from_slice(extra);
        a.extend_from_slice(&["-o", "json"]);
        json(&a)
    };
    let mut many = scale_out(&[]);
    let s = many["samples"].clone();
    assert_eq!(
        (s["count"].as_u64(), s["exact"].as_bool()),
        (Some(20), Some(false))
    );
    let d = &s["distribution"];
    let moved = many["steps"][0]["moved_active"].as_i64().unwrap();
    let range = &d["moved_active"];
    assert!(
        range["min"].as_i64().unwrap() <= moved && moved <= range["max"].as_i64().unwrap(),
        "the first sample lies in the range: {moved} {range}"
    );
    assert_eq!(d["processes"].as_array().unwrap().len(), 4, "{d}");
    assert_eq!(
        d["kept_in_every_sample"].as_array().unwrap().len(),
        6,
        "{d}"
    );
    let mut one = scale_out(&["--samples", "1"]);
    assert_eq!(one["samples"]["count"], 1);
    assert!(one["samples"].get("distribution").is_none());
    many.as_object_mut().unwrap().remove("samples");
    one.as_object_mut().unwrap().remove("samples");
    assert_eq!(many, one, "--samples 1 is the first sample");
    let other_seed = scale_out(&["--seed", "43"]);
    assert_ne!(other_seed["samples"], s, "the seed draws the ids");
    let exact = json(&[
        "simulate",
        "--from-snapshot",
        "tests/data/cli/wordcount-uuids.json",
        "--scenario",
        "crash",
        "--samples",
        "50",
        "-o",
        "json",
    ]);
    // Only heartbeat phases vary: the time to Stable does, the assignment does not.
    let s = &exact["samples"];
    assert_eq!(
        (s["count"].as_u64(), s["exact"].as_bool()),
        (Some(50), Some(true))
    );
    let t = &s["distribution"]["time_to_stable_ms"];
    assert!(t["min"].as_i64() < t["max"].as_i64(), "{s}");
    let once = json(&[
        "simulate",
        "--from-snapshot",
        "tests/data/cli/wordcount-uuids.json",
        "--scenario",
        "crash",
        "--samples",
        "1",
        "-o",
        "json",
    ]);
    assert_eq!(
        once["samples"],
        serde_json::json!({"count": 1, "exact": true, "joiners": 0})
    );
}

#[test]
fn table_report_snapshot() {
    let (code, out, _) = run(&[
        "simulate",
        "--members",
        "4",
        "--threads-per-process",
        "2",
        "--scenario",
        "scale-out",
        "--verbose",
    ]);
    assert_eq!(code, 0);
    let mut golden = Golden::new("simulate");
    golden.check("table_report", &out);
    golden.finish();
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    for (args, needle) in [
        (
            vec!["simulate", "--members", "0"],
            "invalid value '0' for '--members <N>': 0 is not in 1..=100000",
        ),
        (
            vec!["simulate", "--scenario", "explode"],
            "unknown scenario `explode`: use one of start, scale-out",
        ),
        (vec!["simulate", "--partitions=-3"], "--partitions"),
        (vec!["simulate", "--bogus"], "unexpected argument"),
        (
            vec!["simulate", "--session-timeout", "100"],
            "streams.session.timeout.ms is 100, but a broker requires it to be at least 45000",
        ),
        (vec!["simulate", "--topic-partitions", "orders"], "TOPIC=N"),
        (
            vec![
                "simulate",
                "--scenario",
                "tests/data/scenarios/unknown-member.json",
            ],
            "unknown member `p9-t9`",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed a report");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn racks_keep_a_tasks_copies_apart() {
    let v = json(&[
        "simulate",
        "--members",
        "6",
        "--assignor",
        "balanced-sticky",
        "--racks",
        "3",
        "--standby-replicas",
        "1",
    ]);
    assert_eq!(v["final_state"], "Stable");
    // Processes p1..p6 sit on racks r1, r2, r3, r1, r2, r3.
    let rack = |p: &str| (p[1..].parse::<u32>().unwrap() - 1) % 3;
    let mut copies: std::collections::BTreeMap<(String, i64), Vec<u32>> = Default::default();
    for m in v["members"].as_array().unwrap() {
        let r = rack(m["process_id"].as_str().unwrap());
        for role in ["active", "standby"] {
            for e in m["assignment"][role].as_array().unwrap() {
                for p in e["partitions"].as_array().unwrap() {
                    copies
                        .entry((
                            e["subtopology"].as_str().unwrap().into(),
                            p.as_i64().unwrap(),
                        ))
                        .or_default()
                        .push(r);
                }
            }
        }
    }
    let standbys = copies.values().filter(|c| c.len() == 2).count();
    assert!(standbys > 0, "stateful tasks have a standby");
    for (task, racks) in &copies {
        let distinct: std::collections::BTreeSet<_> = racks.iter().collect();
        assert_eq!(
            distinct.len(),
            racks.len(),
            "copies of {task:?} share a rack: {racks:?}"
        );
    }
}

#[test]
fn the_readme_shows_the_current_default_output() {
    let (code, out, _) = run(&["simulate", "--members", "6"]);
    assert_eq!(code, 0);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&format!("```text\n{out}```")),
        "update the README's example output of `simulate --members 6`:\n{out}"
    );
}

#[test]
fn scenario_counts_obey_the_command_lines_limits() {
    let dir = tempfile::tempdir().unwrap();
    for (body, want) in [
        (
            r#"{"steps": [{"action": "add_members", "count": 1000000}]}"#,
            "at most 100000 are simulated",
        ),
        (
            r#"{"steps": [{"action": "create_topics", "topics": {"orders": 2000000000}}]}"#,
            "between 1 and 100000 partitions",
        ),
        (
            r#"{"steps": [{"action": "create_topics", "topics": {"my orders": 4}}]}"#,
            "not a valid Kafka topic name",
        ),
        (
            r#"{"steps": [{"action": "wait", "ms": -5}]}"#,
            "wait must be between",
        ),
    ] {
        let p = dir.path().join("s.json");
        std::fs::write(&p, body).unwrap();
        let (code, _, err) = run(&["simulate", "--scenario", p.to_str().unwrap()]);
        assert_eq!(code, 2, "{body}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{body}: {err}");
    }
    let (code, _, err) = run(&["simulate", "--members", "2", "--processes", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--processes 5 is more than --members 2"),
        "{err}"
    );
}

/// Apache's sticky assignor warns (at WARN, in the broker log) when it cannot place every
/// standby; the simulation says the same on stderr and in the JSON report.
#[test]
fn standbys_without_room_are_warned_about_as_the_assignor_does() {
    let args = [
        "simulate",
        "--members",
        "2",
        "--processes",
        "2",
        "--standby-replicas",
        "2",
        "--kafka-version",
        "4.3",
        "--output",
        "json",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("warning: assignor: Unable to assign 1 of 2 standby tasks")),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    let warnings = report["assignor_warnings"]
        .as_array()
        .expect("assignor_warnings");
    assert!(!warnings.is_empty() && warnings.len() <= 20);
    // With room for every standby there is nothing to warn about.
    let (_, out, err) = run(&[
        "simulate",
        "--members",
        "3",
        "--processes",
        "3",
        "--standby-replicas",
        "2",
        "--output",
        "json",
    ]);
    assert!(!err.contains("warning: assignor"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(report.get("assignor_warnings").is_none());
}

/// Members restored from a snapshot heartbeat with the client id and host the group recorded
/// for them: carrying on is no metadata change, so a quiet start is no rebalance (it was one
/// new group epoch per member, leaving the group Reconciling).
#[test]
fn a_restored_group_carries_on_without_a_rebalance() {
    let v = json(&[
        "simulate",
        "--from-snapshot",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/cli/two-groups.json"
        ),
        "--group",
        "other",
    ]);
    assert_eq!(v["final_state"], "Stable");
    assert_eq!(v["rebalances"], 0);
    assert!(v["heartbeats"].as_u64().unwrap() >= 3, "{v}");
    let scaled = json(&[
        "simulate",
        "--from-snapshot",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/snapshots/wordcount-epoch3.json"
        ),
        "--scenario",
        "scale-out",
        "--count",
        "1",
    ]);
    assert_eq!(scaled["rebalances"], 1, "one join, one new group epoch");
}

#[test]
fn a_run_from_a_snapshot_counts_its_time_to_stable_from_the_first_step() {
    let snap = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cli/wordcount-uuids.json"
    );
    for scenario in ["scale-out", "scale-in", "crash", "rolling-bounce"] {
        let v = json(&["simulate", "--from-snapshot", snap, "--scenario", scenario]);
        let tts = &v["virtual_time_to_stable_ms"];
        assert_eq!(tts, &v["steps"][0]["time_to_stable_ms"], "{scenario}");
        assert!(tts.as_i64().unwrap() > 0, "{scenario}: {tts}");
    }
    // No step: the group, already Stable, is Stable at once.
    let v = json(&["simulate", "--from-snapshot", snap]);
    assert_eq!(v["virtual_time_to_stable_ms"], 0);
    // A new group's first step is forming, at 0; the scale-out comes after it.
    let v = json(&["simulate", "--members", "4", "--scenario", "scale-out"]);
    let formed = v["virtual_time_to_stable_ms"].as_i64().unwrap();
    assert!(formed > 0 && formed <= v["steps"][0]["started_at_ms"].as_i64().unwrap());
}

#[test]
fn named_processes_and_members_are_exactly_what_changes() {
    let snap = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cli/wordcount-uuids.json"
    );
    let members = |v: &serde_json::Value| -> Vec<String> {
        v["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["member_id"].as_str().unwrap().to_string())
            .collect()
    };
    // The second process, by a prefix of its UUID: its one member goes.
    let v = json(&[
        "simulate",
        "--from-snapshot",
        snap,
        "--scenario",
        "crash",
        "--process",
        "3f9b",
    ]);
    assert_eq!(
        members(&v),
        ["Mf9kTz1aR8eWcN4pQ2sL0g", "Xq3vH0dUQ4uSRm2b7yKj1A"]
    );
    // By member: the named one goes, wherever it is in the group's list.
    let v = json(&[
        "simulate",
        "--from-snapshot",
        snap,
        "--scenario",
        "scale-in",
        "--member",
        "Mf",
    ]);
    assert_eq!(
        members(&v),
        ["Xq3vH0dUQ4uSRm2b7yKj1A", "Xq7cP5nJT2i9Ld0xW3rE6Q"]
    );
    assert_eq!(v["steps"][0]["step"], "remove Mf9kTz1aR8eWcN4pQ2sL0g");
    // Every usage error is one line and exit 2.
    for args in [
        &["--scenario", "crash", "--process", "3f"][..],
        &["--scenario", "crash", "--process", "nope"],
        &["--scenario", "scale-in", "--member", "Xq"],
        &["--scenario", "scale-in", "--instances", "2"],
        &["--scenario", "crash", "--count", "3"],
        &["--scenario", "scale-out", "--member", "Mf"],
        &["--scenario", "deploy", "--process", "3f2"],
    ] {
        let mut a = vec!["simulate", "--from-snapshot", snap];
        a.extend(args);
        let (code, out, err) = run(&a);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// A run expected to be long (500 members or more) says it is alive on stderr; off a terminal
/// (here, a pipe) as a line per 10 % of the first run's virtual time against --max-time, then of
/// the samples. Stdout stays the report alone; a smaller run says nothing. No time is measured.
#[test]
fn a_long_run_shows_progress_on_stderr_and_stdout_stays_the_report() {
    // A rolling bounce of 500 members does not settle in 20 s of virtual time: the first run
    // goes the whole way to --max-time.
    let (code, out, err) = run(&[
        "simulate",
        "--members",
        "500",
        "--scenario",
        "rolling-bounce",
        "--samples",
        "3",
        "--max-time",
        "20000",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "ends at --max-time: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is pure JSON");
    assert_eq!(v["stop_reason"], "max_time");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("simulating 500 members: a line per 10 % of --max-time"),
        "{err}"
    );
    let time: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("simulating: first run at virtual "))
        .copied()
        .collect();
    // A line each time the virtual clock passes another tenth of the limit (the clock jumps
    // from event to event, so a line names where it landed), the last at the limit.
    let at: Vec<(i64, i64)> = time
        .iter()
        .map(|l| {
            let (s, rest) = l["simulating: first run at virtual ".len()..]
                .split_once(" s of 20 s (")
                .expect("time and limit");
            let pct = rest.trim_end_matches(" %)");
            (s.parse().expect("seconds"), pct.parse().expect("percent"))
        })
        .collect();
    assert!((5..=10).contains(&at.len()), "{err}");
    assert_eq!(at.last(), Some(&(20, 100)), "{err}");
    for w in at.windows(2) {
        assert!(
            w[1].1 / 10 > w[0].1 / 10,
            "one line per tenth passed: {err}"
        );
    }
    for (s, pct) in &at {
        assert_eq!(pct / 5, *s, "the percent is of 20 s: {err}");
    }
    let samples: Vec<&str> = lines
        .iter()
        .filter(|l| l.contains("samples done"))
        .copied()
        .collect();
    assert_eq!(
        samples,
        [
            "simulating: 2 of 3 samples done (66 %)",
            "simulating: 3 of 3 samples done (100 %)"
        ],
        "{err}"
    );
    assert_eq!(lines.len(), 1 + time.len() + samples.len(), "{err}");
    // One member fewer: silent.
    let (_, out, err) = run(&[
        "simulate",
        "--members",
        "499",
        "--scenario",
        "rolling-bounce",
        "--samples",
        "3",
        "--max-time",
        "20000",
        "-o",
        "json",
    ]);
    assert!(err.is_empty(), "{err}");
    serde_json::from_str::<serde_json::Value>(&out).expect("stdout is pure JSON");
}

#[test]
fn samples_beyond_the_machines_memory_are_refused_up_front_with_the_bound() {
    // 1,000 samples of 100,000 members need about 95 GiB to compare: more than half of what
    // this machine (or any CI machine) has available.
    let (code, out, err) = run(&[
        "simulate",
        "--members",
        "100000",
        "--scenario",
        "crash",
        "--samples",
        "1000",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "nothing runs: {out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "error: --samples 1000 with up to 100000 members needs about 97656 MiB to compare the outcomes, and "
        ),
        "{err}"
    );
    assert!(
        err.contains(" MiB of memory is available: give --samples "),
        "{err}"
    );
}
