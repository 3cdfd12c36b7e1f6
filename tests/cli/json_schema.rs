//! The JSON contract, machine-readable: `docs/schemas/NAME.schema.json` are the schemas that
//! `streams_group::schema::all()` generates from the report types, and every `--output json`
//! case of tests/data/cli/cases.txt prints a document its schema accepts.
//!
//! `BLESS=1 cargo test --test cli` rewrites the schema files (with the golden files).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use model::group::{Snapshot, SNAPSHOT_SCHEMA_VERSION};
use serde_json::{json, Value};
use streams_group::check_epoch::BrokerReport;
use streams_group::describe::{ListReport, ListRow};

use crate::support::cli_cases::{cases, subcommands, Case};
use crate::support::golden::bless;
use crate::support::json_schema::problems;
use crate::support::StreamsGroup;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn schema_dir() -> PathBuf {
    Path::new(ROOT).join("docs/schemas")
}

fn schemas() -> BTreeMap<&'static str, Value> {
    streams_group::schema::all().into_iter().collect()
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap();
    s.push('\n');
    s
}

#[test]
fn schema_files_are_generated_from_the_report_types() {
    let blessing = bless();
    let dir = schema_dir();
    let mut stale = Vec::new();
    for (name, schema) in schemas() {
        let file = dir.join(format!("{name}.schema.json"));
        let want = pretty(&schema);
        if blessing {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&file, &want).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(want.as_str()) {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "schema files differ from the report types (BLESS=1 cargo test --test cli rewrites \
         them): {stale:?}"
    );
    let known = schemas();
    let extra: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".schema.json").map(str::to_string))
        .filter(|name| !known.contains_key(name.as_str()))
        .collect();
    assert!(extra.is_empty(), "schema files of no document: {extra:?}");
}

/// Every command that prints JSON has a schema: each subcommand but `completions` (a shell
/// script) and `man` (manual pages), with `diff topology` and `diff assignment` as `diff-topology`,
/// `diff-assignment`, and `describe --watch` as `describe-watch`.
#[test]
fn every_command_has_a_schema() {
    let mut kinds = Vec::new();
    for sub in subcommands(&["help"]) {
        match sub.as_str() {
            "completions" | "man" => {}
            "diff" => kinds.extend(
                subcommands(&["diff", "--help"])
                    .into_iter()
                    .map(|s| format!("diff-{s}")),
            ),
            // `describe --watch --output json` prints a document of its own per sample.
            "describe" => kinds.extend(["describe".into(), "describe-watch".into()]),
            _ => kinds.push(sub),
        }
    }
    assert!(
        kinds.len() >= 8,
        "the command list is read from help: {kinds:?}"
    );
    let known = schemas();
    let mut names: Vec<&str> = known.keys().copied().collect();
    let mut expected: Vec<&str> = kinds.iter().map(String::as_str).collect();
    names.sort_unstable();
    expected.sort_unstable();
    assert_eq!(names, expected, "one schema per command that prints JSON");
}

/// The cases of tests/data/cli/cases.txt that ask for `--output json`.
fn json_cases() -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|c| {
            c.args
                .windows(2)
                .any(|w| matches!(w[0].as_str(), "-o" | "--output") && w[1] == "json")
        })
        .collect()
}

/// The document a command line prints: its subcommand, `diff-SUB` for `diff SUB`.
fn kind(args: &[String]) -> String {
    match args {
        [diff, sub, ..] if diff == "diff" => format!("diff-{sub}"),
        [sub, ..] => sub.clone(),
        [] => panic!("a case without a command"),
    }
}

#[test]
fn every_json_case_prints_a_document_its_schema_accepts() {
    let known = schemas();
    let cases = json_cases();
    assert!(cases.len() > 40, "the JSON cases are read: {}", cases.len());
    let mut failed = Vec::new();
    let mut validated = 0;
    for case in &cases {
        let kind = kind(&case.args);
        let schema = known
            .get(kind.as_str())
            .unwrap_or_else(|| panic!("case {}: no schema for `{kind}` output", case.name));
        let out = StreamsGroup::new(&case.args).current_dir(ROOT).run();
        // Exit 1 is a negative answer (differences, rejected, not Stable) with its report;
        // usage and input errors (2) print nothing on stdout.
        let code = out.status.code();
        if out.stdout.is_empty() {
            assert_ne!(
                code,
                Some(0),
                "case {}: exit 0 without a document",
                case.name
            );
            continue;
        }
        let doc: Value = match serde_json::from_str(&out.stdout) {
            Ok(v) => v,
            Err(e) => {
                failed.push(format!("{}: stdout is not JSON: {e}", case.name));
                continue;
            }
        };
        for p in problems(schema, &doc) {
            failed.push(format!("{} ({kind}): {p}", case.name));
        }
        validated += 1;
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(validated > 40, "only {validated} documents validated");
}

/// Every file of tests/data/snapshots is a snapshot; so is every JSON file of tests/data/cli
/// with a `schema_version` (the others there are topology files). `wordcount-4.3.json` is
/// left out: it is a snapshot as an older build wrote it (`"kafka_version": "4.3"`), which
/// this build still reads but no longer writes.
#[test]
fn snapshot_fixtures_match_the_describe_schema() {
    let schema = &schemas()["describe"];
    let mut checked = 0;
    for (dir, all_snapshots) in [("tests/data/snapshots", true), ("tests/data/cli", false)] {
        for e in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "json") || path.ends_with("wordcount-4.3.json")
            {
                continue;
            }
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if all_snapshots || doc.get("schema_version").is_some() {
                let p = problems(schema, &doc);
                assert!(p.is_empty(), "{}:\n{}", path.display(), p.join("\n"));
                checked += 1;
            }
        }
    }
    assert!(checked > 5, "only {checked} snapshot fixtures read");
}

/// `list` and `describe` need a broker, which the cases do not have: their documents are the
/// library's values, serialised as the commands print them.
#[test]
fn live_documents_match_their_schemas() {
    let known = schemas();
    let row = |verbose: bool| ListRow {
        group_id: "app".into(),
        state: "Stable".into(),
        group_epoch: verbose.then_some(3),
        target_assignment_epoch: verbose.then_some(3),
        members: verbose.then_some(2),
    };
    for verbose in [false, true] {
        let list = ListReport {
            groups: vec![row(verbose)],
        };
        let doc = serde_json::to_value(&list).unwrap();
        assert_eq!(
            problems(&known["list"], &doc),
            Vec::<String>::new(),
            "{doc}"
        );
    }
    let empty = Snapshot {
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        schema_version: SNAPSHOT_SCHEMA_VERSION,
        groups: vec![],
    };
    let doc = serde_json::to_value(&empty).unwrap();
    assert_eq!(problems(&known["describe"], &doc), Vec::<String>::new());
}

/// The admin actions need a broker too (tests/e2e/admin.rs validates their real output): a
/// report with every optional field set, and one without, as the commands print them.
#[test]
fn admin_documents_match_their_schemas() {
    use streams_group::admin::report::*;
    let known = schemas();
    let row = |note: Option<&str>, status, error: Option<&str>| ResetRow {
        topic: "in".into(),
        partition: 0,
        current_offset: Some(5),
        new_offset: 0,
        change: Some(-5),
        note: note.map(String::from),
        status,
        error: error.map(String::from),
    };
    let reset = ResetReport {
        execute: true,
        scenario: "to-earliest".into(),
        groups: vec![GroupReset {
            group_id: "app".into(),
            state: None,
            topics: vec!["in".into()],
            notes: vec!["n".into()],
            partitions: vec![
                row(
                    Some("asked 5"),
                    ActionStatus::Failed,
                    Some("UNKNOWN_MEMBER_ID"),
                ),
                row(None, ActionStatus::Done, None),
            ],
        }],
    };
    let offsets = DeleteOffsetsReport {
        execute: false,
        group_id: "app".into(),
        state: Some("Empty".into()),
        error: Some("GROUP_ID_NOT_FOUND".into()),
        partitions: vec![OffsetRow {
            topic: "in".into(),
            partition: 1,
            current_offset: None,
            status: ActionStatus::Planned,
            error: None,
        }],
    };
    let delete = DeleteReport {
        execute: true,
        groups: vec![GroupDeletion {
            group_id: "app".into(),
            state: "Empty".into(),
            committed_partitions: 8,
            status: ActionStatus::Done,
            error: None,
        }],
        internal_topics: vec![TopicDeletion {
            group_id: "app".into(),
            topic: "legacy".into(),
            status: ActionStatus::Kept,
            note: Some("odd name".into()),
            error: None,
        }],
    };
    for (kind, doc) in [
        ("reset-offsets", serde_json::to_value(&reset).unwrap()),
        ("delete-offsets", serde_json::to_value(&offsets).unwrap()),
        ("delete", serde_json::to_value(&delete).unwrap()),
    ] {
        assert_eq!(
            problems(&known[kind], &doc),
            Vec::<String>::new(),
            "{kind}: {doc}"
        );
        let mut extra = doc.clone();
        extra["bogus"] = json!(1);
        assert!(
            !problems(&known[kind], &extra).is_empty(),
            "{kind} takes unknown fields"
        );
    }
}

/// The schemas are strict: an unknown field, a missing field or a wrong type is caught, at the
/// top, in a nested struct and next to a flattened enum.
#[test]
fn the_schemas_reject_what_the_commands_do_not_print() {
    let known = schemas();
    let simulate = &known["simulate"];
    let doc = json!({
        "kafka_version": "4.4", "assignor": "sticky", "scenario": "start", "seed": 42,
        "samples": {"count": 1, "exact": true, "joiners": 0},
        "final_state": "Stable", "group_epoch": 1, "target_assignment_epoch": 1,
        "topology_epoch": 0, "virtual_time_to_stable_ms": null, "virtual_time_end_ms": 0,
        "heartbeats": 0, "rebalances": 0, "tasks_moved": 0, "total_tasks": 0,
        "balance": {
            "min_tasks_per_member": 0, "max_tasks_per_member": 0, "min_active_per_member": 0,
            "max_active_per_member": 0, "min_tasks_per_process": 0, "max_tasks_per_process": 0
        },
        "statuses_seen": [], "errors_seen": {}, "invariant_violations": [],
        "failed_members": [], "steps": [], "stop_reason": "completed", "max_time_ms": 600000,
        "members": [{
            "member_id": "m", "process_id": "p", "member_epoch": 1, "topology_epoch": 0,
            "assignment": {
                "active": [{"subtopology": "0", "partitions": [0]}], "standby": [], "warmup": []
            }
        }]
    });
    assert_eq!(problems(simulate, &doc), Vec::<String>::new());
    let wrong = |edit: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        edit(&mut d);
        assert!(!problems(simulate, &d).is_empty(), "accepted: {d}");
    };
    wrong(&|d| d["bogus"] = json!(1));
    wrong(&|d| d["balance"]["bogus"] = json!(1));
    wrong(&|d| d["samples"]["bogus"] = json!(1));
    wrong(&|d| d["members"][0]["assignment"]["active"][0]["bogus"] = json!(1));
    wrong(&|d| drop(d.as_object_mut().unwrap().remove("seed")));
    wrong(&|d| d["final_state"] = json!("Sleeping"));
    wrong(&|d| d["members"][0]["assignment"]["active"] = json!("0:[0]"));

    // check-epoch's `broker` has its verdict flattened in: the verdict's fields are allowed
    // there, others are not.
    let broker = streams_group::schema::of::<BrokerReport>();
    let with = |b: Value| problems(&broker, &b);
    let rejected = json!({
        "versions": "4.1-4.4", "verdict": "rejected", "error": "INVALID_REQUEST",
        "message": "m", "accepted": false
    });
    assert_eq!(with(rejected.clone()), Vec::<String>::new());
    let mut extra = rejected.clone();
    extra["bogus"] = json!(1);
    assert!(
        !with(extra).is_empty(),
        "an unknown field next to the flattened verdict"
    );
}

/// A recording line is a `describe-watch` document (one without `changes`): every line of the
/// recordings in tests/data/watch but a cut last one.
#[test]
fn recording_fixtures_match_the_describe_watch_schema() {
    let schema = &schemas()["describe-watch"];
    let mut checked = 0;
    for name in ["rebalance.jsonl", "truncated.jsonl"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join("tests/data/watch").join(name));
        for line in text.unwrap().lines() {
            let Ok(doc) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let p = problems(schema, &doc);
            assert!(p.is_empty(), "{name}: {}", p.join("\n"));
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} samples read");
}
