//! `lag`: per-task restoration lag from a snapshot whose members report task offsets.

use model::group::Snapshot;
use model::TaskId;

use crate::support::StreamsGroup;

/// (exit status, stdout, stderr) of `streams-group ARGS`, with `NO_COLOR=1`.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = StreamsGroup::new(args).env("NO_COLOR", "1").run();
    (out.code(), out.stdout, out.stderr)
}

/// The wordcount fixture, with member 0 restoring a standby (lag 200) and warming up a task
/// (lag 40,000) of tasks active on another process, and member 1 keeping dormant state (no end
/// offset). Returns the snapshot path and the three task ids.
fn snapshot_with_offsets(dir: &std::path::Path) -> (String, [String; 3]) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/snapshots/wordcount-epoch3.json"
    ))
    .unwrap();
    let mut s: Snapshot = serde_json::from_str(&text).unwrap();
    let members = &mut s.groups[0].members;
    let p0 = members[0].process_id.clone();
    // Tasks active on another process than member 0's.
    let mut elsewhere = members
        .iter()
        .filter(|m| m.process_id != p0)
        .flat_map(|m| m.assignment.active.tasks())
        .collect::<Vec<TaskId>>()
        .into_iter();
    let (standby, warmup) = (elsewhere.next().unwrap(), elsewhere.next().unwrap());
    let dormant = members[0].assignment.active.tasks().next().unwrap();
    let m0 = &mut members[0];
    m0.assignment.standby.insert_task(&standby);
    m0.assignment.warmup.insert_task(&warmup);
    m0.task_offsets.insert(standby.clone(), 9_800);
    m0.task_end_offsets.insert(standby.clone(), 10_000);
    m0.task_offsets.insert(warmup.clone(), 0);
    m0.task_end_offsets.insert(warmup.clone(), 40_000);
    let m1 = members.iter_mut().find(|m| m.process_id != p0).unwrap();
    m1.task_offsets.insert(dormant.clone(), 77);
    let path = dir.join("lag.json");
    std::fs::write(&path, serde_json::to_string(&s).unwrap()).unwrap();
    (
        path.display().to_string(),
        [standby.to_string(), warmup.to_string(), dormant.to_string()],
    )
}

#[test]
fn lag_per_task_with_status() {
    let dir = tempfile::tempdir().unwrap();
    let (snap, [standby, warmup, dormant]) = snapshot_with_offsets(dir.path());
    let (code, out, err) = run(&["lag", "--snapshot", &snap]);
    assert_eq!(code, 0, "{err}");
    let row = |task: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.split_whitespace().nth(3) == Some(task))
            .unwrap_or_else(|| panic!("no row for {task}:\n{out}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert_eq!(
        row(&standby)[4..],
        // A standby's end offset is its changelog's last offset: 9800..=10000 are to restore.
        ["standby", "9800", "10000", "201", "caught-up"]
    );
    assert_eq!(
        row(&warmup)[4..],
        ["warmup", "0", "40000", "40001", "lagging"]
    );
    assert_eq!(row(&dormant)[4..], ["on-disk", "77", "-", "-", "unknown"]);
    assert!(out.contains("1 caught up, 1 lagging, 1 unknown"), "{out}");
}

#[test]
fn json_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let (snap, _) = snapshot_with_offsets(dir.path());
    let (code, out, _) = run(&[
        "lag",
        "--snapshot",
        &snap,
        "--output",
        "json",
        "--exit-code",
    ]);
    assert_eq!(code, 1, "a lagging task fails --exit-code");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["lagging"], 1);
    assert_eq!(v["tasks"].as_array().unwrap().len(), 3);
    assert!(v["tasks"][0]["task"]["subtopology"].is_string());
    // With a larger acceptable lag everything known is caught up.
    let (code, _, _) = run(&[
        "lag",
        "--snapshot",
        &snap,
        "--acceptable-recovery-lag",
        "50000",
        "--exit-code",
    ]);
    assert_eq!(code, 0);
    // A group whose members report no task offsets: nothing was checked, so the gate fails.
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).unwrap()).unwrap();
    for m in v["groups"][0]["members"].as_array_mut().unwrap() {
        m["task_offsets"] = serde_json::json!([]);
        m["task_end_offsets"] = serde_json::json!([]);
    }
    let silent = dir.path().join("silent.json");
    std::fs::write(&silent, v.to_string()).unwrap();
    let (code, _, err) = run(&["lag", "--snapshot", silent.to_str().unwrap(), "--exit-code"]);
    assert_eq!(code, 6, "nothing to check has its own exit status: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nothing was checked"), "{err}");
    // The fixture records a 4.4 broker: the members have not reported yet, and the line
    // does not blame the broker's version.
    assert!(
        err.contains("no member has reported task offsets yet"),
        "{err}"
    );
    assert!(!err.contains("before Kafka 4.4"), "{err}");
    let (code, _, _) = run(&["lag", "--snapshot", silent.to_str().unwrap()]);
    assert_eq!(code, 0, "without --exit-code it only notes it");
}

#[test]
fn bad_input() {
    for (args, needle) in [
        (vec!["lag"], "--group"),
        (
            vec!["lag", "--snapshot", "/nonexistent.json"],
            "/nonexistent.json",
        ),
        (
            vec![
                "lag",
                "--snapshot",
                "tests/data/snapshots/wordcount-epoch3.json",
                "--acceptable-recovery-lag=-1",
            ],
            "must not be negative",
        ),
        (vec!["lag", "--group", "g"], "--bootstrap-server"),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
