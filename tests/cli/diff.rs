//! `streams-group diff topology` and `diff assignment`, on real `Topology#describe()` outputs and
//! on the snapshot fixture built by the coordinator (see tests/cli/check_epoch.rs).

use std::path::Path;

use model::group::Snapshot;
use model::TaskSet;

use crate::support::golden::Golden;
use crate::support::StreamsGroup;
use crate::topo;

fn snap_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/snapshots/wordcount-epoch3.json")
        .display()
        .to_string()
}

/// (exit status, stdout, stderr) of `streams-group ARGS`, with `NO_COLOR=1`.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = StreamsGroup::new(args).env("NO_COLOR", "1").run();
    (out.code(), out.stdout, out.stderr)
}

fn diff_topology(old: &str, new: &str, app: &str, extra: &[&str]) -> (i32, String, String) {
    let (o, n) = (topo(old), topo(new));
    let mut args = vec![
        "diff",
        "topology",
        &o,
        &n,
        "--application-id",
        app,
        "--exit-code",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).expect("JSON output")
}

#[test]
fn renamed_store_is_a_hazard() {
    let (code, out, _) = diff_topology(
        "wordcount-named-store.txt",
        "wordcount-renamed-store.txt",
        "wordcount",
        &["--output", "json"],
    );
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["verdict"], "different");
    assert_eq!(v["hazardous"], true);
    let kinds: Vec<&str> = v["hazards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        vec![
            "store_renamed",
            "repartition_topic_added",
            "repartition_topic_removed"
        ]
    );
    assert_eq!(
        v["hazards"][0]["topics"],
        serde_json::json!([
            "wordcount-counts-store-changelog",
            "wordcount-word-counts-changelog"
        ])
    );
}

#[test]
fn added_group_by_adds_a_subtopology_and_a_repartition_topic() {
    let (code, out, _) = diff_topology(
        "wordcount-named-store.txt",
        "wordcount-histogram.txt",
        "wordcount",
        &["--output", "json"],
    );
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["added_subtopologies"], serde_json::json!(["2"]));
    assert_eq!(v["removed_subtopologies"], serde_json::json!([]));
    assert_eq!(v["changed_subtopologies"][0]["id"], "1");
    assert_eq!(
        v["changed_subtopologies"][0]["repartition_sink_topics"]["added"],
        serde_json::json!(["wordcount-count-histogram-repartition"])
    );
    assert_eq!(v["hazards"][0]["kind"], "repartition_topic_added");
}

#[test]
fn reordered_topology_is_no_change() {
    let (code, out, err) = diff_topology(
        "wordcount-named-store.txt",
        "wordcount-reordered.txt",
        "wordcount",
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("No differences in content."), "{out}");
    // Without --exit-code a difference still exits 0.
    let (o, n) = (
        topo("wordcount-named-store.txt"),
        topo("wordcount-renamed-store.txt"),
    );
    let (code, _, _) = run(&["diff", "topology", &o, &n, "--application-id", "wordcount"]);
    assert_eq!(code, 0);
}

#[test]
fn new_copartitioned_join() {
    let (code, out, _) = diff_topology(
        "orders-rekey.txt",
        "stream-table-join.txt",
        "shop",
        &["--output", "json"],
    );
    assert_eq!(code, 1);
    let v = json(&out);
    let s1 = &v["changed_subtopologies"][0];
    assert_eq!(s1["id"], "1");
    assert_eq!(
        s1["source_topics"]["added"],
        serde_json::json!(["customers"])
    );
    assert_eq!(
        s1["copartition_groups"]["added"],
        serde_json::json!([[
            "customers",
            "shop-KSTREAM-KEY-SELECT-0000000004-repartition"
        ]])
    );
    // A new store is no hazard, nor is a join whose partition counts are unknown.
    assert_eq!(v["hazards"], serde_json::json!([]));
}

#[test]
fn snapshot_against_file() {
    let s = snap_path();
    let n = topo("wordcount-named-store.txt");
    let (code, out, err) = run(&[
        "diff",
        "topology",
        &s,
        &n,
        "--application-id",
        "wordcount",
        "--exit-code",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(topology epoch 3) -> "), "{out}");
}

#[test]
fn human_topology_diff_snapshot() {
    let (_, out, _) = diff_topology(
        "wordcount-named-store.txt",
        "wordcount-histogram.txt",
        "wordcount",
        &[],
    );
    let out = out.replace(env!("CARGO_MANIFEST_DIR"), "[ROOT]");
    let mut golden = Golden::new("diff_topology");
    golden.check("histogram_human", &out);
    golden.finish();
}

#[test]
fn bad_topology_inputs() {
    let n = topo("wordcount-named-store.txt");
    for (args, needle) in [
        (
            vec!["diff", "topology", "/nonexistent/a.txt", n.as_str()],
            "/nonexistent/a.txt: cannot read",
        ),
        (
            vec!["diff", "topology", n.as_str(), n.as_str()],
            "--application-id",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    // A live group without --bootstrap-server is a usage error...
    let (code, _, err) = run(&["diff", "topology", "group:x", n.as_str()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--bootstrap-server"), "{err}");
    // ...and with nothing listening there, the cluster is unreachable (exit 3, within the timeout).
    let (code, _, err) = run(&[
        "diff",
        "topology",
        "group:x",
        n.as_str(),
        "--bootstrap-server",
        "127.0.0.1:9",
        "--timeout",
        "2000",
    ]);
    assert_eq!(code, 3, "{err}");
}

// ---------------------------------------------------------------------------------------------
// diff assignment

fn load_fixture() -> Snapshot {
    serde_json::from_str(&std::fs::read_to_string(snap_path()).unwrap()).unwrap()
}

fn write(dir: &Path, name: &str, s: &Snapshot) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(s).unwrap()).unwrap();
    p.display().to_string()
}

/// Move one active task from the member that has the most to the member that has the fewest.
fn move_one(s: &mut Snapshot) -> (String, String, String) {
    let members = &mut s.groups[0].members;
    let most = (0..members.len())
        .max_by_key(|i| (members[*i].assignment.active.len(), usize::MAX - i))
        .unwrap();
    let fewest = (0..members.len())
        .filter(|i| *i != most)
        .min_by_key(|i| (members[*i].assignment.active.len(), *i))
        .unwrap();
    let task = members[most].assignment.active.tasks().next().unwrap();
    members[most].assignment.active.remove_task(&task);
    members[fewest].assignment.active.insert_task(&task);
    for m in members.iter_mut() {
        m.target_assignment = m.assignment.clone();
    }
    (
        task.to_string(),
        members[most].member_id.clone(),
        members[fewest].member_id.clone(),
    )
}

#[test]
fn two_snapshots_show_each_move() {
    let dir = tempfile::tempdir().unwrap();
    let before = load_fixture();
    let mut after = before.clone();
    let (task, from, to) = move_one(&mut after);
    let a = write(dir.path(), "a.json", &before);
    let b = write(dir.path(), "b.json", &after);
    let (code, out, err) = run(&[
        "diff",
        "assignment",
        &a,
        &b,
        "--exit-code",
        "--output",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let v = json(&out);
    assert_eq!(v["compared_by"], "member");
    assert_eq!(v["moved_active"], 1);
    assert_eq!(v["moved_standby"], 0);
    assert_eq!(
        v["moves"],
        serde_json::json!([{"task": task, "role": "active", "from": [from], "to": [to]}])
    );
    assert_eq!(v["owners"].as_array().unwrap().len(), 2);
    // Same file twice: identical, exit 0.
    let (code, out, _) = run(&["diff", "assignment", &a, &a, "--exit-code"]);
    assert_eq!(code, 0);
    assert!(out.contains("No differences."), "{out}");
}

#[test]
fn member_ids_differ_so_processes_are_compared() {
    let dir = tempfile::tempdir().unwrap();
    let before = load_fixture();
    let mut after = before.clone();
    for m in &mut after.groups[0].members {
        m.member_id = format!("{}-restarted", m.member_id);
    }
    let a = write(dir.path(), "a.json", &before);
    let b = write(dir.path(), "b.json", &after);
    let (code, out, _) = run(&[
        "diff",
        "assignment",
        &a,
        &b,
        "--exit-code",
        "--output",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let v = json(&out);
    assert_eq!(v["compared_by"], "process");
    assert!(v["notes"][0].as_str().unwrap().contains("per process id"));
    assert_eq!(v["identical"], true);
}

#[test]
fn current_vs_target_of_one_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = load_fixture();
    // Target: one task moves; current stays.
    let current: Vec<_> = s.groups[0]
        .members
        .iter()
        .map(|m| m.assignment.clone())
        .collect();
    let (task, from, to) = move_one(&mut s);
    for (m, c) in s.groups[0].members.iter_mut().zip(current) {
        m.assignment = c;
    }
    let p = write(dir.path(), "s.json", &s);
    let (code, out, _) = run(&["diff", "assignment", &p, "--exit-code"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Moved: 1 active, 0 standby"), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{task} ")))
        .unwrap_or_else(|| panic!("{out}"));
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(cols, vec![task.as_str(), "active", &from, &to]);
    let out = out.replace(dir.path().to_str().unwrap(), "[TMP]");
    let mut golden = Golden::new("diff_assignment");
    golden.check("current_vs_target_human", &out);
    golden.finish();
}

#[test]
fn snapshot_vs_simulation() {
    let s = snap_path();
    let (code, out, err) = run(&[
        "diff",
        "assignment",
        &s,
        "--simulate",
        "--members",
        "4",
        "--output",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["compared_by"], "process");
    assert_eq!(v["after"], "simulation");
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("simulated 4 member(s), 2 per process"));
    // The simulated assignment covers every task exactly once, so every active task that
    // moved has a giver and a taker, and the counts add up.
    let moves = v["moves"].as_array().unwrap();
    let active_moves = moves
        .iter()
        .filter(|m| m["role"] == "active" && !m["from"].as_array().unwrap().is_empty())
        .count();
    assert_eq!(v["moved_active"].as_u64().unwrap() as usize, active_moves);
    // Gained and lost active tasks balance across owners.
    let count = |key: &str| -> usize {
        v["owners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                serde_json::from_value::<TaskSet>(o[key].clone())
                    .unwrap()
                    .len()
            })
            .sum()
    };
    assert_eq!(count("gained_active"), count("lost_active"));
}

#[test]
fn bad_assignment_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let mut other = load_fixture();
    other.groups[0].group_id = "other".into();
    let o = write(dir.path(), "o.json", &other);
    let s = snap_path();
    for (args, code_wanted, needle) in [
        (
            vec!["diff", "assignment", s.as_str(), o.as_str()],
            2,
            "different groups",
        ),
        (
            vec!["diff", "assignment", s.as_str(), "--group", "nope"],
            2,
            "has no group nope; it has: wordcount",
        ),
        (vec!["diff", "assignment"], 2, "--group"),
        (vec!["diff", "assignment", "--simulate"], 2, "snapshot file"),
        (
            vec!["diff", "assignment", "--group", "g"],
            2,
            "--bootstrap-server",
        ),
        (
            vec!["diff", "assignment", "/nonexistent/x.json"],
            2,
            "/nonexistent/x.json: cannot read",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, code_wanted, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
