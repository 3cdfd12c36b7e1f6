//! Every live command while the cluster moves, on one three-broker cluster, in order:
//!
//! 1. `start --brokers 3` gives three addresses; a stopped app (`parked`, offsets committed)
//!    and a running app of three instances (`moving`);
//! 2. `describe` through any single node answers like through the coordinator;
//! 3. `describe --watch 1 --record R` runs through a rolling restart of all three nodes
//!    (controlled shutdown, start, back in the ISR). While each node restarts, with the
//!    restarting node first in the bootstrap list: `describe --state`, `describe` (offsets, via
//!    ListOffsets at the partition leaders), `list` and `lag` answer (exit 0). While the
//!    coordinator of `parked` restarts: `reset-offsets --execute` and `delete-offsets
//!    --execute` report every partition done or failed, and a rerun completes them. One
//!    instance of `moving` leaves during the restart of node 2, so there is a rebalance to
//!    record; the watch exits 0 on SIGINT and `timeline R` shows the rebalance;
//! 4. `history` reads the group's partition from its leader after the moves;
//! 5. SIGKILL of `moving`'s coordinator: `describe` (the dead node first in the bootstrap list)
//!    finds the new coordinator and shows the group, its members' epochs continued. Two watches
//!    sample twice a second through it: one whose samples time out (`--timeout 2000`), which
//!    says on stderr that it waits for the coordinator (the dead broker) before each fails, and
//!    one whose retries may take as long as the move does (`--timeout 30000`), whose one late
//!    sample says what it waits for and records it; both recordings' `timeline` tell the
//!    coordinator moving from the dead broker to the new one.

use std::collections::BTreeMap;
use std::path::Path;

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::recording::recorded_samples;
use crate::support::{
    streams_group_guarded, wait_for, Broker, CommandOutput, Running, StreamsGroup,
};

const VERSION: &str = "4.4.0";
const MOVING: &str = "moving";
const PARKED: &str = "parked";
/// Each command's own bound on its retries (`--timeout`).
const TIMEOUT_MS: &str = "30000";
/// A hang guard, not a speed check: only a command that never ends reaches it.
const GUARD: Duration = Duration::from_secs(90);

/// Our binary against `bootstrap` with `--timeout`.
fn sg(bootstrap: &str, args: &[&str]) -> CommandOutput {
    let mut all = vec!["--bootstrap-server", bootstrap, "--timeout", TIMEOUT_MS];
    all.extend_from_slice(args);
    streams_group_guarded(&all, GUARD)
}

fn ok(what: &str, out: &CommandOutput) -> String {
    assert_eq!(out.code(), 0, "{what}: {out}");
    out.stdout.clone()
}

fn json(bootstrap: &str, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["-o", "json"]);
    let text = ok(&format!("{args:?} via {bootstrap}"), &sg(bootstrap, &all));
    serde_json::from_str(&text).expect("JSON")
}

/// `describe --output json` of one group: the group object.
fn described(bootstrap: &str, group: &str) -> Value {
    let doc = json(bootstrap, &["describe", "--group", group]);
    doc["groups"][0].clone()
}

fn coordinator(bootstrap: &str, group: &str) -> u32 {
    let g = described(bootstrap, group);
    g["coordinator"]["id"].as_u64().expect("coordinator id") as u32
}

/// What must not depend on the broker asked: state, epochs, members and their epochs.
fn essence(g: &Value) -> (String, i64, i64, BTreeMap<String, i64>) {
    let members = g["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| {
            let id = m["member_id"].as_str().unwrap_or_default().to_string();
            (id, m["member_epoch"].as_i64().unwrap_or(-1))
        })
        .collect();
    (
        g["state"].as_str().unwrap_or_default().to_string(),
        g["group_epoch"].as_i64().unwrap_or(-1),
        g["target_assignment_epoch"].as_i64().unwrap_or(-1),
        members,
    )
}

/// Committed offsets of a group's input partitions, as `describe` shows them.
fn committed(bootstrap: &str, group: &str) -> BTreeMap<i64, Option<i64>> {
    let g = described(bootstrap, group);
    let input = format!("{group}-input");
    g["offsets"]
        .as_array()
        .expect("offsets")
        .iter()
        .filter(|o| o["topic"] == input.as_str())
        .map(|o| (o["partition"].as_i64().unwrap(), o["committed"].as_i64()))
        .collect()
}

/// The bootstrap list with node `first` first.
fn first(cluster: &Broker, first: u32) -> String {
    let mut list = vec![cluster.nodes[&first].clone()];
    list.extend(
        cluster
            .nodes
            .iter()
            .filter(|(n, _)| **n != first)
            .map(|(_, a)| a.clone()),
    );
    list.join(",")
}

#[test]
fn every_command_through_a_rolling_restart_and_a_crash() {
    let t0 = Instant::now();
    let cluster = Broker::start_cluster(VERSION, 3);
    let addrs: Vec<&str> = cluster.bootstrap.split(',').collect();
    assert_eq!(addrs.len(), 3, "{}", cluster.bootstrap);
    assert_eq!(cluster.nodes.len(), 3, "{:?}", cluster.nodes);
    eprintln!("cluster up after {:.1} s", t0.elapsed().as_secs_f64());

    park_an_app(&cluster);
    crate::load::three_groups_from_one_load_maker(&cluster);
    let mut app = cluster.app(MOVING, 3, 1);
    eprintln!("apps ready after {:.1} s", t0.elapsed().as_secs_f64());

    any_node_answers_like_the_coordinator(&cluster);
    let rec = cluster.dir.join("rolling.jsonl");
    let watch = start_watch(&cluster, &rec, "1", "10000");
    let admin_done = rolling_restart(&cluster, &mut app);
    assert!(
        admin_done,
        "the coordinator of `{PARKED}` was never restarted"
    );
    check_rolling_recording(watch, &rec);
    eprintln!(
        "rolling restart done after {:.1} s",
        t0.elapsed().as_secs_f64()
    );

    history_after_the_moves(&cluster);
    coordinator_killed(&cluster);
    crate::paused::a_paused_coordinator(&cluster);
    eprintln!("all done after {:.1} s", t0.elapsed().as_secs_f64());
}

/// `parked`: one instance that consumes its input and commits, then stops (group Empty).
fn park_an_app(cluster: &Broker) {
    let mut parked = cluster.app_with(PARKED, 1, 1, 4, 200);
    wait_for("parked's commits", Duration::from_secs(60), || {
        let c = committed(&cluster.bootstrap, PARKED);
        (c.len() == 4 && c.values().all(|o| o.is_some_and(|o| o > 0))).then_some(())
    });
    parked.stop_all();
}

fn any_node_answers_like_the_coordinator(cluster: &Broker) {
    let coord = coordinator(&cluster.bootstrap, MOVING);
    let reference = essence(&described(&cluster.nodes[&coord], MOVING));
    for (n, addr) in &cluster.nodes {
        if *n != coord {
            let via = essence(&described(addr, MOVING));
            assert_eq!(
                via, reference,
                "describe via node {n} vs coordinator {coord}"
            );
        }
    }
}

/// `describe --watch EVERY --record REC` of `moving` with `--timeout MS`; stdout and stderr go
/// to REC with the extensions `out` and `err`. Killed if the test ends (or fails) before
/// stopping it; SIGINT waits at most [`GUARD`] for it to end.
fn start_watch(cluster: &Broker, rec: &Path, every: &str, timeout_ms: &str) -> Running {
    let out = std::fs::File::create(rec.with_extension("out")).unwrap();
    let err = std::fs::File::create(rec.with_extension("err")).unwrap();
    let rec = rec.display().to_string();
    let boot = cluster.bootstrap.as_str();
    StreamsGroup::new(["--bootstrap-server", boot, "--timeout", timeout_ms])
        .args(["describe", "--group", MOVING, "--watch", every])
        .args(["--record", &rec])
        .stdout(out)
        .stderr(err)
        .guard(GUARD)
        .spawn()
}

/// SIGINT (Ctrl-C) the watch: it must still be running, and exit 0. Returns the recorded
/// samples and why each failed sample failed (its error, or a group it could not describe).
fn stop_watch(mut watch: Running, rec: &Path) -> (Vec<Value>, Vec<String>) {
    assert!(
        watch.is_running(),
        "describe --watch exited while the cluster moved"
    );
    let out = watch.interrupt();
    assert_eq!(out.code(), 0, "describe --watch after SIGINT");
    let text = std::fs::read_to_string(rec).expect("the recording");
    let samples: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON sample"))
        .collect();
    let failed: Vec<String> = samples
        .iter()
        .filter_map(|s| {
            let group = s["group_errors"][0]["error"].as_str();
            s["error"].as_str().or(group).map(str::to_string)
        })
        .collect();
    let n = samples.len();
    eprintln!("watch: {n} samples, {} failed: {failed:?}", failed.len());
    (samples, failed)
}

/// The rolling restart's recording: sampled throughout, and `timeline` shows the rebalance.
fn check_rolling_recording(watch: Running, rec: &Path) {
    let (samples, failed) = stop_watch(watch, rec);
    assert!(samples.len() >= 10, "{} samples", samples.len());
    assert!(failed.iter().all(|e| !e.trim().is_empty()), "{failed:?}");
    let args = ["timeline", rec.to_str().unwrap()];
    let timeline = ok("timeline", &streams_group_guarded(&args, GUARD));
    assert!(
        timeline.contains("member left") && timeline.contains("group epoch"),
        "timeline shows no rebalance:\n{timeline}"
    );
}

/// Restart node 1, 2, 3 in turn; while each restarts, the live commands answer. Returns
/// whether the admin actions ran during the restart of `parked`'s coordinator.
fn rolling_restart(cluster: &Broker, app: &mut crate::support::App) -> bool {
    let mut admin_done = false;
    for n in 1..=3u32 {
        let parked_coord = coordinator(&cluster.bootstrap, PARKED);
        let boot = first(cluster, n);
        std::thread::scope(|scope| {
            let restart = scope.spawn(|| cluster.restart_node(n));
            std::thread::sleep(Duration::from_millis(500));
            let admin_now = parked_coord == n && !admin_done;
            if admin_now {
                admin_while_moving(&boot);
                admin_done = true;
            }
            if n == 2 {
                app.stop_instance(2);
            }
            let mut rounds = 0;
            while !restart.is_finished() || rounds == 0 {
                reads_while_moving(&boot);
                if admin_now {
                    // The reset again and again while the coordinator moves: each time every
                    // partition is done or failed, never skipped.
                    admin(&boot, &RESET);
                }
                rounds += 1;
            }
            eprintln!("node {n}: {rounds} round(s) of reads during its restart");
            restart.join().expect("broker-restart");
        });
    }
    if !admin_done {
        // Leadership came back to a node already restarted: restart the coordinator once more.
        let c = coordinator(&cluster.bootstrap, PARKED);
        let boot = first(cluster, c);
        std::thread::scope(|scope| {
            let restart = scope.spawn(|| cluster.restart_node(c));
            std::thread::sleep(Duration::from_millis(500));
            admin_while_moving(&boot);
            restart.join().expect("broker-restart");
        });
        admin_done = true;
    }
    rerun_admin(&cluster.bootstrap);
    admin_done
}

fn reads_while_moving(boot: &str) {
    let state = ok(
        "describe --state",
        &sg(boot, &["describe", "--group", MOVING, "--state"]),
    );
    assert!(state.contains(MOVING), "{state}");
    let g = described(boot, MOVING);
    assert!(!g["offsets"].as_array().unwrap().is_empty(), "{g}");
    let list = ok("list", &sg(boot, &["list"]));
    assert!(list.contains(MOVING) && list.contains(PARKED), "{list}");
    ok("lag", &sg(boot, &["lag", "--group", MOVING]));
}

/// Partition statuses of an admin report: each must be done or failed, never left planned.
fn statuses(doc: &Value) -> Vec<String> {
    let rows = match doc.get("groups") {
        Some(groups) => groups[0]["partitions"].clone(),
        None => doc["partitions"].clone(),
    };
    rows.as_array()
        .expect("partitions")
        .iter()
        .map(|r| r["status"].as_str().unwrap_or_default().to_string())
        .collect()
}

const REPARTITION: &str = "parked-counts-repartition";

/// `reset-offsets` of the input topic to the earliest offsets.
const RESET: [&str; 8] = [
    "reset-offsets",
    "--group",
    PARKED,
    "--all-input-topics",
    "--to-earliest",
    "--execute",
    "-o",
    "json",
];

/// `delete-offsets` of the repartition topic (the input topic's are the reset's).
const DELETE: [&str; 8] = [
    "delete-offsets",
    "--group",
    PARKED,
    "--input-topic",
    REPARTITION,
    "--execute",
    "-o",
    "json",
];

/// Run an admin action: every partition done or failed (never silently skipped), exit 0
/// exactly when all are done (else 4). Returns whether all were done.
fn admin(boot: &str, args: &[&str]) -> bool {
    let out = sg(boot, args);
    let code = out.status.code();
    assert!(code == Some(0) || code == Some(4), "{out}");
    let doc = out.json();
    let st = statuses(&doc);
    eprintln!("{}: {st:?} (exit {code:?})", args[0]);
    assert_eq!(st.len(), 4, "{doc}");
    assert!(st.iter().all(|s| s == "done" || s == "failed"), "{doc}");
    let all_done = st.iter().all(|s| s == "done");
    assert_eq!(code == Some(0), all_done, "{doc}");
    all_done
}

fn admin_while_moving(boot: &str) {
    let reset_done = admin(boot, &RESET);
    let delete_done = admin(boot, &DELETE);
    eprintln!("during the restart: reset all done {reset_done}, delete all done {delete_done}");
}

/// After the restart: a rerun completes what failed, and `describe` shows the result (input
/// offsets at 0, repartition offsets gone).
fn rerun_admin(boot: &str) {
    assert!(admin(boot, &RESET), "the reset rerun did not complete");
    let parts = |topic: &str| -> BTreeMap<i64, Option<i64>> {
        let g = described(boot, PARKED);
        g["offsets"]
            .as_array()
            .expect("offsets")
            .iter()
            .filter(|o| o["topic"] == topic)
            .map(|o| (o["partition"].as_i64().unwrap(), o["committed"].as_i64()))
            .collect()
    };
    if parts(REPARTITION).values().any(Option::is_some) {
        assert!(admin(boot, &DELETE), "the delete rerun did not complete");
    }
    let input = parts("parked-input");
    assert!(
        input.len() == 4 && input.values().all(|o| *o == Some(0)),
        "{input:?}"
    );
    let repartition = parts(REPARTITION);
    assert!(repartition.values().all(Option::is_none), "{repartition:?}");
}

/// `history` after the coordinator moved: it reads the partition from its current leader.
fn history_after_the_moves(cluster: &Broker) {
    let h = json(&cluster.bootstrap, &["history", "--group", MOVING]);
    let now = described(&cluster.bootstrap, MOVING);
    assert_eq!(h["group_epoch"], now["group_epoch"], "{h}");
    assert_eq!(h["coordinator"], now["coordinator"]["id"], "{h}");
}

/// SIGKILL the coordinator of `moving`: describe (dead node first) finds the new one.
fn coordinator_killed(cluster: &Broker) {
    let before = described(&cluster.bootstrap, MOVING);
    let dead = before["coordinator"]["id"].as_u64().unwrap() as u32;
    let (_, epoch_before, _, members_before) = essence(&before);
    // A watch with a short --timeout: its samples fail while the dead node is still named
    // coordinator (until the controller fences it), and it says so on stderr, going on.
    let rec = cluster.dir.join("killed.jsonl");
    // Sampled twice a second, each sample retried for 2 s: a sample that waits for the dead
    // coordinator is late, and says so, before it fails.
    let watch = start_watch(cluster, &rec, "500ms", "2000");
    // The watch of issue #33: twice a second, its retries bounded by 30 s, which the move takes
    // less than: no sample fails, one is late.
    let long_rec = cluster.dir.join("killed-waiting.jsonl");
    let waiting = start_watch(cluster, &long_rec, "500ms", "30000");
    wait_for("the watches' first samples", GUARD, || {
        let both = [&rec, &long_rec].map(|r| !recorded_samples(r).is_empty());
        (both == [true, true]).then_some(())
    });
    cluster.kill_node(dead);
    let t = Instant::now();
    let boot = first(cluster, dead);
    let out = streams_group_guarded(
        &[
            "--bootstrap-server",
            &boot,
            "--timeout",
            "50000",
            "describe",
            "--group",
            MOVING,
            "-o",
            "json",
        ],
        Duration::from_secs(60),
    );
    let text = ok("describe after the kill", &out);
    eprintln!(
        "describe after SIGKILL of coordinator {dead}: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let after = serde_json::from_str::<Value>(&text).unwrap()["groups"][0].clone();
    assert_ne!(after["coordinator"]["id"], dead, "{after}");
    let (_, epoch_after, _, members_after) = essence(&after);
    assert!(
        epoch_after >= epoch_before,
        "{epoch_before} -> {epoch_after}"
    );
    for (m, e) in &members_after {
        if let Some(b) = members_before.get(m) {
            assert!(e >= b, "member {m}: epoch {b} -> {e}");
        }
    }
    assert!(!members_after.is_empty(), "{after}");
    // The watch goes on through failed samples and finds the new coordinator too: wait until a
    // sample failed and the last one describes the group again (both are checked below).
    let failed = |s: &Value| !(s["error"].is_null() && s["group_errors"].is_null());
    wait_for("the watch's samples to fail, then recover", GUARD, || {
        let all = recorded_samples(&rec);
        (all.iter().any(failed) && all.last().is_some_and(|s| !failed(s))).then_some(())
    });
    let (samples, failed) = stop_watch(watch, &rec);
    let err = std::fs::read_to_string(rec.with_extension("err")).unwrap();
    assert!(
        !failed.is_empty(),
        "no sample failed after SIGKILL: {samples:?}"
    );
    assert!(
        err.contains("warning: sample at ") && err.contains("cannot connect"),
        "the watch's stderr does not say which samples failed and why:\n{err}"
    );
    let last = samples.last().expect("samples");
    assert!(
        last["error"].is_null() && last["group_errors"].is_null(),
        "the watch did not recover: {last}"
    );
    let new = after["coordinator"]["id"].as_u64().unwrap() as u32;
    // Every sample that waited for the dead coordinator waited longer than its interval.
    let coordinator = format!("for the coordinator of {MOVING} (broker {dead} at ");
    let line = waiting_line(&err, &coordinator);
    eprintln!("waiting line of the watch whose samples failed: {line}");
    // Its samples lost the group while the coordinator moved; the move shows when it is back.
    timeline_tells_the_move(&rec, dead, new);
    the_late_sample_said_what_it_waited_for(waiting, &long_rec, dead, new);
    cluster.start_node(dead);
}

/// `timeline REC` has the coordinator of `moving` moving from broker `dead` to broker `new`.
/// Returns the timeline.
fn timeline_tells_the_move(rec: &Path, dead: u32, new: u32) -> String {
    let args = ["timeline", rec.to_str().unwrap()];
    let timeline = ok("timeline", &streams_group_guarded(&args, GUARD));
    let moved = format!("{MOVING}: coordinator moved: broker {dead} (");
    let line = timeline.lines().find(|l| l.contains(&moved));
    let line = line.unwrap_or_else(|| panic!("no `{moved}` in the timeline:\n{timeline}"));
    eprintln!("timeline {}: {line}", rec.display());
    assert!(line.contains(&format!(") -> broker {new} (")), "{line}");
    timeline
}

/// The first line of `err` that says the watch is waiting `named` (`for ...`).
fn waiting_line<'a>(err: &'a str, named: &str) -> &'a str {
    let line = err
        .lines()
        .find(|l| l.starts_with("waiting since ") && l.contains(named));
    line.unwrap_or_else(|| panic!("no waiting line `{named}` on stderr:\n{err}"))
}

/// The watch with long retries: while it waited for the dead broker, a line on stderr said so,
/// its recording kept the wait, and its output and `timeline` tell the coordinator moving.
/// What it waited for is the coordinator of `moving` unless the kill met a sample reading
/// offsets from a partition leader on the same broker: then that leader (`for broker N at`).
fn the_late_sample_said_what_it_waited_for(watch: Running, rec: &Path, dead: u32, new: u32) {
    wait_for(
        "the waiting watch to sample the new coordinator",
        GUARD,
        || {
            let all = recorded_samples(rec);
            let last = all.last()?;
            (last["groups"][0]["coordinator"]["id"] == new).then_some(())
        },
    );
    let (samples, _) = stop_watch(watch, rec);
    // Kept past the cluster's directory, to read what a real move looks like.
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cluster-killed-waiting");
    for ext in ["jsonl", "out", "err"] {
        let _ = std::fs::copy(rec.with_extension(ext), kept.with_extension(ext));
    }
    eprintln!(
        "the waiting watch's recording and output: {}.*",
        kept.display()
    );
    let err = std::fs::read_to_string(rec.with_extension("err")).unwrap();
    let named = format!("broker {dead} at ");
    eprintln!("waiting lines:\n{err}");
    waiting_line(&err, &named);
    let waited = samples.iter().find_map(|s| {
        let w = &s["waited"];
        let brokers = w["brokers"].as_array()?;
        brokers.iter().any(|b| b["id"] == dead).then_some(w)
    });
    let waited = waited.unwrap_or_else(|| panic!("no sample recorded the wait: {samples:?}"));
    assert!(waited["waited_ms"].as_i64().unwrap() > 0, "{waited}");
    let out = std::fs::read_to_string(rec.with_extension("out")).unwrap();
    eprintln!("its output:\n{out}");
    let moved = format!("{MOVING}: coordinator moved: broker {dead} (");
    assert!(
        out.contains(&moved),
        "no `{moved}` in the watch's output:\n{out}"
    );
    let timeline = timeline_tells_the_move(rec, dead, new);
    let late = timeline
        .lines()
        .find(|l| l.contains("no sample for ") && l.contains(&named));
    let late = late.unwrap_or_else(|| panic!("the timeline tells no wait:\n{timeline}"));
    eprintln!("timeline: {late}");
}
