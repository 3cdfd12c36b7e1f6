//! `lag` live against a Kafka 4.4.0 broker: two instances of the harness app with a RocksDB store
//! and one standby replica. The standbys are caught up, one instance is paused (SIGSTOP) while
//! records arrive, its standby falls behind once it resumes (SIGCONT) and catches up again. The
//! offsets members report are checked against the changelog's log end offsets and against what
//! the Kafka Streams client itself logs for each standby batch (StandbyUpdateListener).
//!
//! Never skips: without Java 17+ and Maven the harness fails loudly.

mod support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::{AppOptions, Broker};

const GROUP: &str = "lag-live";
const CHANGELOG: &str = "lag-live-counts-changelog";

/// `lag --output json --exit-code --acceptable-recovery-lag 0`: (exit status, report).
fn lag(broker: &Broker) -> (i32, Value) {
    let out = support::streams_group(&[
        "lag",
        "--bootstrap-server",
        &broker.bootstrap,
        "--group",
        GROUP,
        "--acceptable-recovery-lag",
        "0",
        "--exit-code",
        "--output",
        "json",
    ]);
    let code = out.status.code().unwrap_or(-1);
    let v: Value = serde_json::from_str(&support::stdout_of(&out)).unwrap_or_else(|e| {
        panic!(
            "lag printed no JSON ({e}), exit {code}:\n{}{}",
            support::stdout_of(&out),
            support::stderr_of(&out)
        )
    });
    (code, v)
}

/// A standby row: (partition, member id, offset, end offset, lag).
type Row = (i64, String, i64, i64, i64);

/// The standby rows of a report.
fn standbys(v: &Value) -> Vec<Row> {
    v["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["role"] == "standby")
        .filter_map(|t| {
            Some((
                t["task"]["partition"].as_i64()?,
                t["member_id"].as_str()?.to_string(),
                t["offset"].as_i64()?,
                t["end_offset"].as_i64()?,
                t["lag"].as_i64()?,
            ))
        })
        .collect()
}

/// The exit status `--exit-code` must give for a report: 6 nothing reported (yet), 1 a task
/// lagging, 0 all caught up.
fn expected_code(v: &Value) -> i32 {
    if v["tasks"].as_array().unwrap().is_empty() {
        6
    } else {
        i32::from(v["lagging"].as_u64().unwrap() > 0)
    }
}

/// Every standby caught up, reporting offset = the changelog's log end offset (the next offset
/// to restore) and end offset = log end offset - 1 (its last record).
fn all_caught_up(broker: &Broker) -> Option<Vec<Row>> {
    let (code, v) = lag(broker);
    assert_eq!(code, expected_code(&v), "exit status vs report: {v}");
    let rows = standbys(&v);
    let leo = broker.end_offsets(CHANGELOG);
    let ok = rows.len() == 2
        && v["lagging"] == 0
        && v["unknown"] == 0
        && rows
            .iter()
            .all(|(p, _, o, e, l)| *l == 0 && *o == leo[*p as usize] && *e == leo[*p as usize] - 1);
    ok.then(|| {
        assert_eq!(code, 0, "all caught up passes --exit-code");
        rows
    })
}

/// The last STANDBY-BATCH line an instance logged for standby task 1_p: (batch end, current end).
fn last_batch(log: &str, p: i64) -> Option<(i64, i64)> {
    let task = format!("task=1_{p} ");
    log.lines()
        .rev()
        .find(|l| l.starts_with("STANDBY-BATCH") && l.contains(&task))
        .map(|l| {
            let num = |key: &str| -> i64 {
                l.split_whitespace()
                    .find_map(|f| f.strip_prefix(key))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("no {key} in {l}"))
            };
            (num("batch-end="), num("current-end="))
        })
}

#[test]
fn a_paused_standby_falls_behind_and_catches_up() {
    let t0 = Instant::now();
    let broker = Broker::start_version("4.4.0");
    let mut app = broker.app_opts(
        GROUP,
        &AppOptions {
            instances: 2,
            threads: 1,
            partitions: 2,
            records: 2000,
            store: "rocksdb",
            group_configs: vec![
                "streams.num.standby.replicas=1".into(),
                // report task offsets every second instead of every minute
                "streams.task.offset.interval.ms=1000".into(),
                // a paused instance stays in the group (the harness broker's default is 6 s)
                "streams.session.timeout.ms=30000".into(),
            ],
            app_configs: vec![
                // every count update reaches the changelog
                "statestore.cache.max.bytes=0".into(),
                // standbys restore 50 records per batch, 100 ms apart: about 500 records/s
                "restore.consumer.max.poll.records=50".into(),
            ],
            standby_batch_delay_ms: 100,
        },
    );
    eprintln!("phase 0: broker and app up after {:?}", t0.elapsed());

    // Phase 1: both standbys caught up, in Kafka Streams 4.4's terms.
    let rows = support::wait_for("caught-up standbys", Duration::from_secs(60), || {
        all_caught_up(&broker)
    });
    eprintln!("phase 1: caught up after {:?}: {rows:?}", t0.elapsed());

    // The instance to pause, and the standby task it hosts (from its STANDBY-BATCH lines).
    let k = 1;
    let (p, member, before, _, _) = rows
        .iter()
        .find(|(p, ..)| last_batch(&app.log(k), *p).is_some())
        .cloned()
        .unwrap_or_else(|| panic!("instance {k} logged no standby batch:\n{}", app.log(k)));
    let (batch_end, current_end) = last_batch(&app.log(k), p).unwrap();
    assert_eq!(
        (before, rows.iter().find(|r| r.0 == p).unwrap().3),
        (batch_end + 1, current_end),
        "the member reports the next offset to restore and the client's current end offset"
    );

    // Phase 2: pause the instance, let the other one write to the changelog.
    app.pause_instance(k);
    let paused_at = Instant::now();
    broker.produce_from(&app.input_topic, 4000, 2000);
    std::thread::sleep(Duration::from_secs(2));
    let (_, v) = lag(&broker);
    let frozen = standbys(&v).into_iter().find(|r| r.1 == member);
    assert_eq!(
        frozen.map(|r| r.2),
        Some(before),
        "a paused member's report stays as it was: {v}"
    );
    let leo_paused = broker.end_offsets(CHANGELOG)[p as usize];
    assert!(
        leo_paused > before,
        "records reached changelog partition {p} while paused"
    );
    eprintln!(
        "phase 2: paused {:?}; changelog {p} end {before} -> {leo_paused}",
        paused_at.elapsed()
    );
    app.resume_instance(k);
    assert!(paused_at.elapsed() < Duration::from_secs(25));

    // Phase 3: the standby reports a lag, then catches up.
    let mut max_lag = 0;
    let mut lagging_code = None;
    let resumed = Instant::now();
    let rows = support::wait_for(
        "the standby to lag and catch up",
        Duration::from_secs(90),
        || {
            let (code, v) = lag(&broker);
            assert_eq!(code, expected_code(&v), "exit status vs report: {v}");
            if let Some(r) = standbys(&v).into_iter().find(|r| r.1 == member && r.0 == p) {
                if r.4 > max_lag {
                    max_lag = r.4;
                    lagging_code = Some(code);
                }
            }
            if max_lag == 0 {
                return None;
            }
            all_caught_up(&broker)
        },
    );
    let leo = broker.end_offsets(CHANGELOG)[p as usize];
    eprintln!(
        "phase 3: max lag {max_lag} of standby 1_{p}, caught up {:?} after resuming: {rows:?}",
        resumed.elapsed()
    );
    assert_eq!(lagging_code, Some(1), "a lagging standby fails --exit-code");
    assert!(
        max_lag <= leo - before,
        "the lag {max_lag} is at most the {} records written to changelog partition {p}",
        leo - before
    );
    let (batch_end, current_end) = last_batch(&app.log(k), p).unwrap();
    let row = rows.iter().find(|r| r.0 == p).unwrap();
    assert_eq!((row.2, row.3), (batch_end + 1, current_end));
    eprintln!("total {:?}", t0.elapsed());
}
