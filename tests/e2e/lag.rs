//! `lag` live against a Kafka 4.4.0 broker: two instances of the harness app with a RocksDB store
//! and one standby replica. The standbys are caught up, one instance is paused (SIGSTOP) while
//! records arrive and its standby's lag rises with its changelog, then it resumes (SIGCONT) and
//! catches up again. The offsets members report are checked against the changelog's log end
//! offsets and against what the Kafka Streams client itself logs for each standby batch
//! (StandbyUpdateListener).
//!
//! Also: interactive-query endpoints, where `describe --members` must show per endpoint exactly
//! the partitions Kafka Streams routes queries to.
//!
//! Never skips: without Java 17+ and Maven the harness fails loudly.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support;
use crate::support::{AppOptions, Broker};

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
    (out.code(), out.json())
}

/// A standby row: (partition, member id, offset, end offset, lag, changelog end offset).
type Row = (i64, String, i64, i64, i64, i64);

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
                t["changelog_end_offset"].as_i64()?,
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
/// to restore) and end offset = log end offset - 1 (its last record), and `lag` reading the same
/// log end offset from the broker.
fn all_caught_up(broker: &Broker) -> Option<Vec<Row>> {
    let (code, v) = lag(broker);
    assert_eq!(code, expected_code(&v), "exit status vs report: {v}");
    let rows = standbys(&v);
    let leo = broker.end_offsets(CHANGELOG);
    let ok = rows.len() == 2
        && v["lagging"] == 0
        && v["unknown"] == 0
        && rows.iter().all(|(p, _, o, e, l, c)| {
            let leo = leo[*p as usize];
            *l == 0 && *o == leo && *e == leo - 1 && *c == leo
        });
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
    // The paused instance must keep its place however long phase 2 takes (two producer JVMs
    // and two waits: 25 s on a loaded 2-core machine), so its session outlasts any pause: the
    // broker allows 10 minutes (its default bound is 60 s).
    let broker =
        Broker::start_configured("4.4.0", &["group.streams.max.session.timeout.ms=600000"]);
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
                "streams.session.timeout.ms=600000".into(),
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
    let (p, member, before, ..) = rows
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

    // Phase 2: pause the instance, let the other one write to the changelog in two batches: the
    // paused standby's lag rises with the changelog, though its member reports nothing new.
    app.pause_instance(k);
    let paused_at = Instant::now();
    let mut lags = Vec::new();
    for (n, from) in [(2000, 2000), (2000, 4000)] {
        broker.produce_from(&app.input_topic, n, from);
        let row = support::wait_for(
            "the paused standby's lag to rise",
            Duration::from_secs(20),
            || {
                let (code, v) = lag(&broker);
                let row = standbys(&v)
                    .into_iter()
                    .find(|r| r.1 == member && r.0 == p)?;
                let risen = row.4 > lags.last().copied().unwrap_or(0);
                risen.then(|| {
                    assert_eq!(code, 1, "a lagging standby fails --exit-code: {v}");
                    row
                })
            },
        );
        let leo = broker.end_offsets(CHANGELOG)[p as usize];
        assert_eq!(row.2, before, "a paused member's offset stays as it was");
        assert_eq!(row.4, row.5 - before, "lag = changelog end now - offset");
        assert!(row.5 > before && row.5 <= leo, "{row:?} vs log end {leo}");
        lags.push(row.4);
    }
    eprintln!(
        "phase 2: paused {:?}; lag of standby 1_{p}: {lags:?}",
        paused_at.elapsed()
    );
    app.resume_instance(k);

    // Phase 3: once running again the standby catches up.
    let resumed = Instant::now();
    let rows = support::wait_for("the standby to catch up", Duration::from_secs(90), || {
        all_caught_up(&broker)
    });
    let leo = broker.end_offsets(CHANGELOG)[p as usize];
    eprintln!(
        "phase 3: caught up {:?} after resuming: {rows:?}",
        resumed.elapsed()
    );
    assert!(
        lags[1] <= leo - before,
        "the lag {} is at most the {} records written to changelog partition {p}",
        lags[1],
        leo - before
    );
    let (batch_end, current_end) = last_batch(&app.log(k), p).unwrap();
    let row = rows.iter().find(|r| r.0 == p).unwrap();
    assert_eq!(
        row.1, member,
        "the paused member kept its standby through the pause"
    );
    assert_eq!((row.2, row.3), (batch_end + 1, current_end));
    eprintln!("total {:?}", t0.elapsed());
}

/// Each instance's `STREAMS-METADATA` line (`KafkaStreams#metadataForAllStreamsClients()`):
/// endpoint -> (active, standby) topic partitions, as "topic-partition" strings.
type Served = std::collections::BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

fn streams_metadata(log: &str) -> Option<Served> {
    let line = log
        .lines()
        .rev()
        .find(|l| l.starts_with("STREAMS-METADATA "))?;
    let set = |s: Option<&str>| -> BTreeSet<String> {
        s.unwrap_or("")
            .split(',')
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect()
    };
    Some(
        line["STREAMS-METADATA ".len()..]
            .split(" | ")
            .filter(|c| !c.is_empty())
            .map(|c| {
                let mut fields = c.split(' ');
                let endpoint = fields.next().unwrap_or("").to_string();
                let (mut active, mut standby) = (None, None);
                for f in fields {
                    if let Some(v) = f.strip_prefix("active=") {
                        active = Some(v);
                    } else if let Some(v) = f.strip_prefix("standby=") {
                        standby = Some(v);
                    }
                }
                (endpoint, (set(active), set(standby)))
            })
            .collect(),
    )
}

/// What `describe --members -o json` says each endpoint serves (its members' entries merged).
fn described(broker: &Broker, group: &str) -> Served {
    let out = support::streams_group(&[
        "describe",
        "--bootstrap-server",
        &broker.bootstrap,
        "--group",
        group,
        "--members",
        "--output",
        "json",
    ]);
    let v = out.json();
    let mut served = Served::new();
    for m in v["groups"][0]["members"].as_array().unwrap() {
        let e = &m["user_endpoint"];
        assert!(!e.is_null(), "every instance has an endpoint: {m}");
        let endpoint = format!("{}:{}", e["host"].as_str().unwrap(), e["port"]);
        let p = &m["endpoint_partitions"];
        assert!(
            !p.is_null(),
            "a member with an endpoint has endpoint_partitions: {m}"
        );
        let entry = served.entry(endpoint).or_default();
        for (role, into) in [("active", &mut entry.0), ("standby", &mut entry.1)] {
            for t in p[role].as_array().unwrap() {
                for part in t["partitions"].as_array().unwrap() {
                    into.insert(format!("{}-{}", t["topic"].as_str().unwrap(), part));
                }
            }
        }
    }
    served
}

/// `describe --members` shows, per interactive-query endpoint, exactly the partitions that Kafka
/// Streams itself routes queries to (`metadataForAllStreamsClients()`, which the group
/// coordinator's endpoint map feeds), actives and standbys, on a 4.4.0 broker.
#[test]
fn described_endpoints_serve_what_kafka_streams_routes_to() {
    const IQ: &str = "iq-live";
    let broker = Broker::start_version("4.4.0");
    let app = broker.app_opts(
        IQ,
        &AppOptions {
            instances: 3,
            threads: 2,
            partitions: 6,
            records: 200,
            group_configs: vec!["streams.num.standby.replicas=1".into()],
            app_configs: vec!["application.server=auto".into()],
            ..AppOptions::default()
        },
    );
    assert!(broker.wait_stable(IQ, 6), "the group did not settle");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ours = described(&broker, IQ);
        let theirs: Vec<Option<Served>> = (0..3).map(|k| streams_metadata(&app.log(k))).collect();
        let agree = ours.len() == 3
            && ours.values().all(|(a, _)| !a.is_empty())
            && theirs.iter().all(|t| t.as_ref() == Some(&ours));
        if agree {
            let active: usize = ours.values().map(|(a, _)| a.len()).sum();
            let standby: usize = ours.values().map(|(_, s)| s.len()).sum();
            eprintln!(
                "3 endpoints agree with every instance's metadataForAllStreamsClients(): {active} active, {standby} standby topic partitions"
            );
            // 6 input and 6 repartition partitions active; standbys only of the stateful
            // subtopology (the repartition topic's 6).
            assert_eq!((active, standby), (12, 6), "{ours:?}");
            return;
        }
        assert!(
            Instant::now() < deadline,
            "describe and Kafka Streams disagree for 60 s:\ndescribe: {ours:?}\nKafka Streams: {theirs:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}
