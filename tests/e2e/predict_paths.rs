//! Predictions of the path, not only the end (issue #32): the moves a real broker got wrong
//! from `simulate` before its clients behaved as Kafka Streams' threads do, on the harness
//! broker (heartbeat 500 ms, session 6 s) with real Streams apps, predicted from a `describe
//! -o json` snapshot as a user would (`support::prediction`).
//!
//! - A `kill -9` of a multi-thread instance: the broker expires its members one by one, each a
//!   session after its own last heartbeat, with targets computed in between. The real
//!   assignment must be one of the outcomes the samples list (the one, when the report says
//!   `Exact`), and the real time to Stable, from the kill, must meet the predicted range (the
//!   watch brackets it between stamps: `support::prediction::settled_after`). (4.3.2, 2 instances × 3 threads, 2 standby replicas; 4.4.0,
//!   4 × 4 threads, 1 standby.)
//! - An instance joining a running 4.4.0 group: the joiners' targets are spaced by the
//!   assignment interval (`ASSIGNMENT_DELAYED`) as on a fresh group; the certain tasks stay,
//!   the loads lie in the ranges and the time to Stable in its range.
//!
//! - A `kill -9` in a 4.2.2 group that sets no config of its own: Kafka reports the static
//!   defaults for it and runs it with the broker's settings; the prediction takes the latter.
//!
//! Never skips: without Java 17+ and Maven the harness fails loudly.

use crate::support::prediction::{predict_then_act, start_app, Move, Verdict};
use crate::support::{AppOptions, Broker};

/// A shape of app on a broker of `version`.
fn start(
    version: &str,
    group: &str,
    instances: u32,
    threads: u32,
    standbys: u32,
) -> (Broker, crate::support::App) {
    let broker = Broker::start_version(version);
    let app = start_app(&broker, group, instances, threads, standbys);
    (broker, app)
}

fn assert_predicted(group: &str, v: &Verdict) {
    assert!(
        v.outcome_listed(),
        "{group}: the real assignment is none of the {} predicted outcomes",
        v.outcomes
    );
    assert!(
        !v.exact_contradicted(),
        "{group}: Exact, and the broker did otherwise: {v:?}"
    );
    assert!(
        v.outside.is_empty(),
        "{group}: outside the samples: {:?}",
        v.outside
    );
    assert!(
        v.time_inside(),
        "{group}: time to Stable predicted {:?} ms, the watch saw it between {:?} ms",
        v.predicted_ms,
        v.real_ms
    );
}

/// The rarest paths matter: a real outcome seen in 2 of 100 samples must be listed.
const CRASH_SAMPLES: u32 = 1000;

#[test]
fn a_crashed_three_thread_instance_on_4_3_2_ends_in_a_listed_outcome() {
    let (broker, mut app) = start("4.3.2", "crash-432", 2, 3, 2);
    let dir = tempfile::tempdir().unwrap();
    let v = predict_then_act(&broker, &mut app, Move::Kill, CRASH_SAMPLES, dir.path());
    assert_predicted("crash-432", &v);
}

#[test]
fn a_crashed_four_thread_instance_on_4_4_0_ends_in_a_listed_outcome() {
    let (broker, mut app) = start("4.4.0", "crash-440", 4, 4, 1);
    let dir = tempfile::tempdir().unwrap();
    let v = predict_then_act(&broker, &mut app, Move::Kill, CRASH_SAMPLES, dir.path());
    assert_predicted("crash-440", &v);
}

/// Kafka 4.2 reports the static defaults (a 45 s session) for a group with no config of its
/// own, and runs it with the broker's settings (the harness's 6 s): the snapshot records that
/// the group sets nothing, and the prediction takes the broker's session.
#[test]
fn a_crash_in_a_group_without_configs_of_its_own_on_4_2_2_takes_the_brokers_session() {
    let broker = Broker::start_version("4.2.2");
    let group = "crash-422-unset";
    let opts = AppOptions {
        instances: 2,
        threads: 1,
        partitions: 4,
        ..AppOptions::default()
    };
    let mut app = broker.app_opts(group, &opts);
    assert!(broker.wait_stable(group, 2), "{group}: two members");
    let dir = tempfile::tempdir().unwrap();
    let v = predict_then_act(&broker, &mut app, Move::Kill, 100, dir.path());
    let snapshot = std::fs::read_to_string(dir.path().join(format!("{group}.json"))).unwrap();
    let configs =
        &serde_json::from_str::<serde_json::Value>(&snapshot).unwrap()["groups"][0]["configs"];
    assert_eq!(
        configs["group"]["streams.session.timeout.ms"], "45000",
        "4.2.2 reports the static default: {configs}"
    );
    assert_eq!(configs["set_on_group"], serde_json::json!([]), "{configs}");
    assert_predicted(group, &v);
    assert!(
        v.predicted_ms.1 < 10_000,
        "{group}: the broker's 6 s session, not the reported 45 s: {:?}",
        v.predicted_ms
    );
}

/// An instance joins a running 4.4.0 group: four threads at once, so all but the first wait
/// for the assignment interval, as on the broker.
#[test]
fn an_instance_joining_from_a_snapshot_is_delayed_as_on_the_broker() {
    let (broker, mut app) = start("4.4.0", "join-440", 2, 4, 0);
    let dir = tempfile::tempdir().unwrap();
    let v = predict_then_act(&broker, &mut app, Move::Join, 100, dir.path());
    assert_predicted("join-440", &v);
    let statuses = v.predicted["steps"][0]["statuses_seen"].to_string();
    assert!(
        statuses.contains("ASSIGNMENT_DELAYED"),
        "four threads joining together: all but the first wait for the assignment interval: {statuses}"
    );
}
