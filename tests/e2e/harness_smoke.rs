//! Smoke test of the real-Kafka harness: broker up, a 2x2 Streams app forms a Stable streams
//! group, Apache's kafka-streams-groups sees 4 members, then 2 after one instance stops, then 4
//! again when another instance is added with the app's thread count; an admin step runs through
//! the broker's admin JVM, and in a JVM of its own once that one is gone.
//! Needs Java 17+ and Maven (first run downloads the Kafka jars from Maven Central).

use std::time::{Duration, Instant};

use crate::support::{peak_rss_kib, signal, stderr_of, stdout_of, wait_for, Broker};

/// Member lines of `kafka-streams-groups --describe --members` for `group`.
fn member_lines(broker: &Broker, group: &str) -> Option<Vec<String>> {
    let out = broker.tool(&["--describe", "--group", group, "--members"]);
    if !out.status.success() {
        return None;
    }
    Some(
        stdout_of(&out)
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(group))
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn broker_app_and_tool_agree_on_members() {
    let t0 = Instant::now();
    let mut broker = Broker::start();
    assert!(
        broker.bootstrap.starts_with("127.0.0.1:"),
        "{}",
        broker.bootstrap
    );
    let broker_ready = broker.start_time;

    let group = "smoke-app";
    let mut app = broker.app(group, 2, 2);
    let app_stable = app.start_time;
    assert_eq!(app.pids.len(), 2);
    assert_eq!(app.expected_members(), 4);

    // Apache's own tool lists exactly the 4 stream threads as members, from 2 processes.
    let members = member_lines(&broker, group).expect("kafka-streams-groups --describe failed");
    assert_eq!(
        members.len(),
        4,
        "expected 4 members, got:\n{}",
        members.join("\n")
    );
    let processes: std::collections::BTreeSet<&str> = members
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    assert_eq!(
        processes.len(),
        2,
        "expected 2 process ids:\n{}",
        members.join("\n")
    );
    for l in &members {
        assert!(l.contains("ACTIVE:"), "member without active tasks: {l}");
    }

    // Peak RSS while everything runs.
    let broker_rss = broker.pid().and_then(peak_rss_kib).unwrap_or(0);
    let app_rss: Vec<u64> = app.pids.values().filter_map(|p| peak_rss_kib(*p)).collect();

    // One instance leaves (close() on SIGTERM): its two members go, two remain.
    let t_leave = Instant::now();
    app.stop_instance(0);
    let remaining = wait_for(
        "2 members after stopping instance 0",
        Duration::from_secs(90),
        || member_lines(&broker, group).filter(|m| m.len() == 2),
    );
    let leave_time = t_leave.elapsed();
    assert!(
        remaining.iter().all(|l| l.contains("instance-1")),
        "the remaining members should belong to instance 1:\n{}",
        remaining.join("\n")
    );
    assert!(
        broker.wait_stable(group, 2),
        "group not Stable with 2 members"
    );

    // Another instance of the running app, without --threads: it gets the app's 2 threads (as
    // recorded at its first start), and the harness says so.
    let out = broker.harness(&["app", "--application-id", group, "--instances", "1"]);
    let (said, noted) = (stdout_of(&out), stderr_of(&out));
    assert!(
        said.contains("INSTANCE=2 ") && said.contains(" THREADS=2"),
        "{said}"
    );
    assert!(
        noted.contains("1 instance(s) with 2 thread(s) each (the app's thread count"),
        "{noted}"
    );
    let members = wait_for(
        "4 members once instance 2 joined",
        Duration::from_secs(90),
        || member_lines(&broker, group).filter(|m| m.len() == 4),
    );
    assert_eq!(
        members.iter().filter(|l| l.contains("instance-2")).count(),
        2,
        "instance 2 runs 2 threads:\n{}",
        members.join("\n")
    );

    admin_steps_with_and_without_the_admin_jvm(&broker, &format!("{group}-input"));

    app.stop_all();
    assert!(app.pids.is_empty());
    broker.stop();
    assert!(
        !broker.dir.exists(),
        "run dir not removed: {}",
        broker.dir.display()
    );

    eprintln!(
        "harness smoke (Kafka {}): broker ready {:.1}s, app 2x2 stable {:.1}s, 2 members left after stop {:.1}s, \
         total {:.1}s; peak RSS broker {} MiB, apps {:?} MiB",
        broker.version,
        broker_ready.as_secs_f64(),
        app_stable.as_secs_f64(),
        leave_time.as_secs_f64(),
        t0.elapsed().as_secs_f64(),
        broker_rss / 1024,
        app_rss.iter().map(|k| k / 1024).collect::<Vec<_>>()
    );
}

/// An admin step (here `produce`, then `end-offsets`) goes through the broker's admin JVM, whose
/// log names it; once that JVM is gone, the same step runs in a JVM of its own and does the same.
fn admin_steps_with_and_without_the_admin_jvm(broker: &Broker, topic: &str) {
    let pid: u32 = std::fs::read_to_string(broker.dir.join("admin.pid"))
        .expect("the run directory names its admin JVM (admin.pid)")
        .trim()
        .parse()
        .expect("admin.pid holds a pid");
    let records = |b: &Broker| -> i64 { b.end_offsets(topic).iter().sum() };
    let before = records(broker);
    broker.produce(topic, 5);
    assert_eq!(
        records(broker),
        before + 5,
        "5 records through the admin JVM"
    );
    let log = std::fs::read_to_string(broker.dir.join("admin.log")).unwrap_or_default();
    assert!(
        log.lines()
            .any(|l| l.contains(" produce ") && l.ends_with(" -> 0")),
        "the admin JVM ran no produce step:\n{log}"
    );
    signal(pid, "-KILL");
    wait_for("the admin JVM gone", Duration::from_secs(30), || {
        peak_rss_kib(pid).is_none().then_some(())
    });
    broker.produce(topic, 5);
    assert_eq!(
        records(broker),
        before + 10,
        "5 more records in a JVM of their own"
    );
}
