//! `describe --watch`, `--record` and `timeline` live: a 1x1 harness app is watched while
//! instances join. Off a terminal (change lines, and JSON lines checked against the
//! describe-watch schema) and in a pseudo-terminal (tmux): the redrawn screen marks the new
//! member and the epoch change; Ctrl-C ends the watch with exit 0; the recording replays as a
//! timeline that shows the join. A broker that is not there is retried, not fatal.
//!
//! Never skips: without Java 17+ and Maven the harness fails loudly, and so does a missing tmux.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::support;
use crate::support::json_schema::{problems, schema};
use crate::support::recording::{recorded_samples, sample, settled};
use crate::support::{wait_for, Broker, Running, StreamsGroup};

const GROUP: &str = "watch-e2e";

/// How long to wait for what the watches must see: a hang guard, not a speed check.
const GUARD: Duration = Duration::from_secs(120);

/// The member ids of the group now.
fn members(bootstrap: &str) -> Vec<String> {
    let out = support::streams_group(&[
        "describe",
        "--bootstrap-server",
        bootstrap,
        "--group",
        GROUP,
        "--output",
        "json",
    ]);
    let v = out.json();
    v["groups"][0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["member_id"].as_str().unwrap().to_string())
        .collect()
}

/// The group epoch now.
fn group_epoch(bootstrap: &str) -> i64 {
    let out = support::streams_group(&[
        "describe",
        "--bootstrap-server",
        bootstrap,
        "--group",
        GROUP,
        "-o",
        "json",
    ]);
    let v = out.json();
    v["groups"][0]["group_epoch"].as_i64().unwrap()
}

/// A watch off a terminal (stdout a pipe), bounded by `--samples` (10 minutes: far more than an
/// instance takes to join, on the slowest machine).
fn spawn_watch(bootstrap: &str, extra: &[&str]) -> Running {
    StreamsGroup::new([
        "describe",
        "--bootstrap-server",
        bootstrap,
        "--group",
        GROUP,
    ])
    .args(["--members", "--watch", "1", "--samples", "600"])
    .args(extra)
    .spawn()
}

/// Ctrl-C as a terminal sends it, then the output; the watch must end with exit 0.
fn interrupt(watch: Running) -> String {
    watch.interrupt().success().stdout
}

/// One broker for both watches (it and the app JVMs are most of the time): an instance joins
/// while the group is watched off a terminal, another while it is watched in tmux.
#[test]
fn watch_shows_joins_off_and_on_a_terminal_and_the_recording_replays_them() {
    let tmux = Arc::new(Tmux::new());
    let broker = Broker::start();
    let _first = broker.app(GROUP, 1, 1);
    let _second = off_a_terminal(&broker);
    let _third = in_a_terminal(&broker, tmux);
}

/// Change lines, JSON lines and a recording while the second instance joins.
fn off_a_terminal(broker: &Broker) -> support::App {
    let b = broker.bootstrap.as_str();
    let before = members(b);
    let epoch_before = group_epoch(b);
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec.jsonl");
    let lines = spawn_watch(b, &["--record", rec.to_str().unwrap()]);
    let json = spawn_watch(b, &["--output", "json"]);
    // Both watches have sampled the group as it was before the instance starts.
    wait_for("the watches' first samples", GUARD, || {
        (!recorded_samples(&rec).is_empty() && !json.stdout_lines().is_empty()).then_some(())
    });
    let second = broker.app(GROUP, 1, 1);
    let joined: Vec<String> = members(b)
        .into_iter()
        .filter(|m| !before.contains(m))
        .collect();
    assert_eq!(joined.len(), 1, "one member joined: {joined:?}");
    let joined = &joined[0];
    let epoch_after = group_epoch(b);
    // Both watches have sampled the group settled at its new epoch (the joiner at its target),
    // whenever their samples fall, and have taken at least three samples: an instance can join
    // and settle within one interval (0.8 s in a CI run), so the settled sample may be the second.
    let seen_settled = |s: &Value| settled(s, 2) && s["groups"][0]["group_epoch"] == epoch_after;
    wait_for("both watches to see the group settled", GUARD, || {
        let recorded = recorded_samples(&rec);
        let recorded = recorded.len() >= 3 && recorded.last().is_some_and(seen_settled);
        let printed = json.stdout_lines();
        let printed =
            printed.len() >= 3 && printed.last().is_some_and(|l| seen_settled(&sample(l)));
        (recorded && printed).then_some(())
    });
    let text = interrupt(lines);
    let stream = interrupt(json);

    let line = |needle: &str| text.lines().find(|l| l.contains(needle));
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains(&format!("{GROUP}: Stable, group epoch {epoch_before}")),
        "{text}"
    );
    let join = line(&format!("member joined: {joined}")).unwrap_or_else(|| panic!("{text}"));
    assert!(
        join.starts_with("20") && join.contains("Z watch-e2e: "),
        "{join}"
    );
    assert!(
        text.contains("group epoch ") && line(&format!(" -> {epoch_after}")).is_some(),
        "the epoch change to {epoch_after}: {text}"
    );
    assert!(
        line("task ").is_some_and(|l| l.contains("moved:")),
        "{text}"
    );

    check_json_lines(&stream, joined);
    check_timeline(&rec, joined);
    second
}

/// One describe-watch object per sample; one of them has the join among its changes.
fn check_json_lines(stream: &str, joined: &str) {
    let schema = schema("describe-watch");
    let mut saw_join = false;
    for line in stream.lines() {
        let doc: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let p = problems(&schema, &doc);
        assert!(p.is_empty(), "{}", p.join("\n"));
        saw_join |= doc["changes"].as_array().is_some_and(|cs| {
            cs.iter()
                .any(|c| c["kind"] == "member_joined" && c["member"] == joined)
        });
    }
    assert!(stream.lines().count() >= 3, "{stream}");
    assert!(saw_join, "no sample has the join: {stream}");
}

fn check_timeline(rec: &Path, joined: &str) {
    let recorded = std::fs::read_to_string(rec).unwrap();
    assert!(recorded.lines().count() >= 3, "{recorded}");
    let table = support::streams_group(&["timeline", rec.to_str().unwrap()])
        .success()
        .stdout;
    assert!(
        table.contains(&format!("member joined: {joined}")),
        "{table}"
    );
    assert!(
        table.contains(&format!("member {joined} reached its target")),
        "{table}"
    );
    let out = support::streams_group(&["timeline", rec.to_str().unwrap(), "-o", "json"]);
    support::json_schema::assert_valid("timeline", &out.stdout);
}

/// The watch's own tmux server; its one session is `watch`.
struct Tmux(support::tmux::Tmux);

impl Tmux {
    fn new() -> Tmux {
        Tmux(support::tmux::Tmux::new("e2e-watch"))
    }

    fn run(&self, args: &[&str]) -> String {
        self.0.run(args)
    }

    fn screen(&self) -> String {
        self.0.screen_of("watch")
    }
}

/// Every distinct screen seen until `stop`, polled every 100 ms (a frame stays up for one
/// sample interval), into `seen`.
fn record_screens(
    tmux: Arc<Tmux>,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<String>>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            let s = tmux.screen();
            let mut seen = seen.lock().unwrap();
            if seen.last() != Some(&s) {
                seen.push(s);
            }
            drop(seen);
            std::thread::sleep(Duration::from_millis(100));
        }
    })
}

/// The redrawn screen while the third instance joins, then Ctrl-C.
fn in_a_terminal(broker: &Broker, tmux: Arc<Tmux>) -> support::App {
    let b = broker.bootstrap.clone();
    let before = members(&b);
    let dir = tempfile::tempdir().unwrap();
    let exit_file = dir.path().join("exit");
    let cmd = format!(
        "{} describe --bootstrap-server {b} --group {GROUP} --members --watch 0.5 --samples 400; \
         echo $? > {}; sleep 60",
        support::streams_group_bin().display(),
        exit_file.display()
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "watch",
        "-x",
        "250",
        "-y",
        "50",
        &cmd,
    ]);
    wait_for("the first frame", GUARD, || {
        tmux.screen().contains("Ctrl-C stops").then_some(())
    });
    let (stop, seen) = (Arc::new(AtomicBool::new(false)), Arc::default());
    let recorder = record_screens(tmux.clone(), stop.clone(), Arc::clone(&seen));
    let third = broker.app(GROUP, 1, 1);
    let joined = members(&b)
        .into_iter()
        .find(|m| !before.contains(m))
        .unwrap();
    let marks_join = |s: &String| {
        s.lines()
            .any(|l| l.starts_with("+ ") && l.contains(&joined))
    };
    // The frame that marks the join may still be coming (the app returns once the group is
    // Stable, the frame follows the next sample): wait for it, not for a fixed time.
    wait_for("a screen that marks the join", GUARD, || {
        seen.lock().unwrap().iter().any(marks_join).then_some(())
    });
    stop.store(true, Ordering::Relaxed);
    recorder.join().unwrap();
    let screens = std::mem::take(&mut *seen.lock().unwrap());
    tmux.run(&["send-keys", "-t", "watch", "C-c"]);
    // The exit status once the shell has written it whole (the file exists, empty, before).
    let code = wait_for("the watch to end", Duration::from_secs(30), || {
        std::fs::read_to_string(&exit_file)
            .ok()
            .filter(|s| s.ends_with('\n'))
    });
    assert_eq!(code.trim(), "0", "Ctrl-C ends the watch with exit 0");

    let marked = screens.iter().find(|s| marks_join(s));
    let marked = marked.unwrap_or_else(|| {
        panic!(
            "no screen marks {joined} as new; last screen:\n{}",
            screens.last().unwrap()
        )
    });
    assert!(marked.contains("members 3 (+1)"), "{marked}");
    let header = marked.lines().nth(1).unwrap();
    assert!(
        header.starts_with(GROUP) && header.contains("group epoch ") && header.contains("(was "),
        "the epoch change is marked: {marked}"
    );
    assert!(
        marked.contains("\n> ") && marked.contains(&format!("member joined: {joined}")),
        "{marked}"
    );
    let frames = screens
        .iter()
        .filter(|s| s.contains("Ctrl-C stops"))
        .count();
    assert!(
        frames >= 3,
        "the screen is redrawn in place: {frames} frames"
    );
    assert!(
        screens
            .iter()
            .all(|s| s.matches("Ctrl-C stops").count() == 1),
        "one frame on the screen at a time"
    );
    third
}

#[test]
fn a_broker_that_is_not_there_is_retried_and_recorded() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("rec.jsonl");
    // Under a hang guard below the 30 s a sample would cost if the outage were waited out
    // (`--timeout`'s default) instead of recorded: only a hang, or that, trips it.
    let out = support::streams_group_guarded(
        &[
            "describe",
            "--bootstrap-server",
            &format!("127.0.0.1:{port}"),
            "--group",
            GROUP,
            "--watch",
            "200ms",
            "--samples",
            "3",
            "--record",
            rec.to_str().unwrap(),
        ],
        Duration::from_secs(20),
    );
    let text = out.success().stdout;
    assert_eq!(text.lines().count(), 1, "one line for the outage: {text}");
    assert!(
        text.contains("broker unreachable, retrying: cannot connect to 127.0.0.1"),
        "{text}"
    );
    let recorded = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(recorded.lines().count(), 3, "{recorded}");
    assert!(recorded
        .lines()
        .all(|l| l.contains("\"error\":\"cannot connect")));
    let out = support::streams_group(&["timeline", rec.to_str().unwrap()]);
    assert!(out.stdout.contains("broker unreachable, retrying"), "{out}");
}
