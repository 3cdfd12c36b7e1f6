//! Coordinator invariants, checked by driving it with simulated clients through random groups,
//! topologies and scenarios.

use std::collections::{BTreeMap, BTreeSet};

use coordinator::GroupConfig;
use model::KafkaVersion;
use model::{Subtopology, TopicInfo, Topology};
use proptest::prelude::*;
use streams_group::simulate::report::{SimulationReport, StopReason};
use streams_group::simulate::scenario::{self, BuiltInContext};
use streams_group::simulate::{self, RunSettings, SimConfig};

fn topology(subtopologies: usize, stateful_mask: u8) -> Topology {
    Topology {
        epoch: 0,
        subtopologies: (0..subtopologies)
            .map(|i| Subtopology {
                id: i.to_string(),
                source_topics: vec![format!("in-{i}")],
                state_changelog_topics: if stateful_mask & (1 << i) != 0 {
                    vec![TopicInfo::named(format!("app-store-{i}-changelog"))]
                } else {
                    vec![]
                },
                ..Subtopology::default()
            })
            .collect(),
    }
}

fn config(
    members: u32,
    threads: u32,
    t: Topology,
    partitions: i32,
    standby: u32,
    seed: u64,
) -> SimConfig {
    let metadata: BTreeMap<String, i32> = t
        .subtopologies
        .iter()
        .flat_map(|s| s.source_topics.clone())
        .map(|n| (n, partitions))
        .collect();
    SimConfig {
        assignor: "sticky".into(),
        kafka_version: KafkaVersion::NEWEST,
        group_id: "app".into(),
        members,
        threads_per_process: threads,
        topology: t,
        metadata,
        group: GroupConfig {
            num_standby_replicas: standby,
            ..GroupConfig::default()
        },
        broker_bounds: Default::default(),
        run: RunSettings {
            seed,
            release_delay_ms: 150,
            restart_delay_ms: 2_000,
            max_time_ms: 900_000,
            trace: true,
            ..RunSettings::default()
        },
        initial: None,
    }
}

fn run(cfg: &SimConfig, name: &str) -> SimulationReport {
    let ids = simulate::initial_member_ids(cfg);
    let mut next = cfg.topology.clone();
    next.epoch += 1;
    next.subtopologies.push(Subtopology {
        id: "new".into(),
        source_topics: vec!["in-0".into()],
        ..Subtopology::default()
    });
    let missing = BTreeMap::new();
    let ctx = BuiltInContext {
        member_ids: &ids,
        count: 1,
        instances: None,
        named: None,
        topology_epoch: cfg.topology.epoch,
        missing_topics: &missing,
        deploy_topology: Some(next),
    };
    let s = scenario::built_in(name, &ctx).expect("built-in scenario");
    simulate::run(cfg, &s, &mut |_, _| {}).expect("simulation runs")
}

/// The checks every run must pass.
fn check(r: &SimulationReport, cfg: &SimConfig) {
    assert!(
        r.invariant_violations.is_empty(),
        "violations: {:?}",
        r.invariant_violations
    );
    assert_eq!(r.final_state.name(), "Stable", "steps: {:?}", r.steps);
    // Members may die (a deploy on a release); the time limit never ends these runs.
    assert_ne!(r.stop_reason, StopReason::MaxTime, "steps: {:?}", r.steps);
    // Every task active on exactly one member.
    let mut active: BTreeMap<(String, i32), usize> = BTreeMap::new();
    for m in &r.members {
        for (s, p) in m.assignment.active.iter() {
            *active.entry((s.to_string(), p)).or_default() += 1;
        }
    }
    assert_eq!(active.len() as u64, r.total_tasks, "every task is assigned");
    assert!(
        active.values().all(|n| *n == 1),
        "one active owner per task"
    );
    // Standbys: min(replicas, processes - 1) per stateful task, never beside a copy.
    let processes: BTreeSet<&str> = r.members.iter().map(|m| m.process_id.as_str()).collect();
    let want = (cfg.group.num_standby_replicas as usize).min(processes.len() - 1);
    let mut standby: BTreeMap<(String, i32), Vec<&str>> = BTreeMap::new();
    for m in &r.members {
        for (s, p) in m.assignment.standby.iter() {
            standby
                .entry((s.to_string(), p))
                .or_default()
                .push(&m.process_id);
        }
    }
    let stateful: BTreeSet<&str> = cfg
        .topology
        .subtopologies
        .iter()
        .filter(|s| s.is_stateful())
        .map(|s| s.id.as_str())
        .collect();
    for (s, p) in active.keys() {
        let n = standby.get(&(s.clone(), *p)).map_or(0, Vec::len);
        let expected = if stateful.contains(s.as_str()) {
            want
        } else {
            0
        };
        assert_eq!(n, expected, "standby count of {s}_{p}");
    }
    for ((s, p), holders) in &standby {
        let owner = r
            .members
            .iter()
            .find(|m| m.assignment.active.contains(s, *p))
            .map(|m| m.process_id.as_str());
        assert!(
            !holders.contains(&owner.unwrap_or("")),
            "standby beside its active {s}_{p}"
        );
        let distinct: BTreeSet<_> = holders.iter().collect();
        assert_eq!(
            distinct.len(),
            holders.len(),
            "two standbys of {s}_{p} in one process"
        );
    }
    // Member epochs never go back, except when a member is fenced and rejoins (epoch 0).
    let mut last: BTreeMap<&str, i32> = BTreeMap::new();
    for t in &r.trace {
        if t.error.is_some() || t.response_epoch < 0 {
            last.remove(t.member_id.as_str());
            continue;
        }
        if let Some(prev) = last.get(t.member_id.as_str()) {
            assert!(
                t.response_epoch >= *prev,
                "epoch of {} went back",
                t.member_id
            );
        }
        last.insert(&t.member_id, t.response_epoch);
    }
}

#[test]
fn default_example_reaches_stable_with_every_task_placed() {
    let t = simulate::example::topology();
    let metadata = streams_group::topology::topic_counts::source_topic_metadata(&t, 8);
    let cfg = SimConfig {
        topology: t,
        metadata,
        ..config(6, 1, topology(1, 0), 8, 0, 1)
    };
    let r = simulate::run(&cfg, &Default::default(), &mut |_, _| {}).unwrap();
    check(&r, &cfg);
    assert_eq!(r.total_tasks, 16);
}

#[test]
fn a_run_stopped_by_the_time_limit_says_so() {
    // The group cannot form in 1 s (clients join over 0.5 s, the assignment is delayed 3 s):
    // no step starts, and the report says the limit ended the run.
    let mut cfg = config(12, 1, topology(2, 0b01), 4, 0, 3);
    cfg.run.max_time_ms = 1_000;
    let r = run(&cfg, "rolling-bounce");
    assert_eq!(r.stop_reason, StopReason::MaxTime);
    assert_eq!(r.max_time_ms, 1_000);
    assert!(r.steps.is_empty(), "{:?}", r.steps);
    // Formed, but the bounce of 12 members needs more than 40 s.
    cfg.run.max_time_ms = 40_000;
    let r = run(&cfg, "rolling-bounce");
    assert_eq!(r.stop_reason, StopReason::MaxTime);
    assert!(r.virtual_time_to_stable_ms.is_some());
    assert_eq!(r.steps.len(), 1);
    assert_eq!(r.steps[0].short_label, "restart 12 members");
    assert_eq!(r.steps[0].step.matches(", ").count(), 11, "JSON names all");
    // Members are listed in natural order.
    let ids: Vec<&str> = r.members.iter().map(|m| m.process_id.as_str()).collect();
    assert_eq!(ids[8..], ["p9", "p10", "p11", "p12"], "{ids:?}");
}

#[test]
fn standby_replicas_are_placed_on_other_processes() {
    let cfg = config(6, 2, topology(3, 0b011), 6, 1, 7);
    let r = run(&cfg, "start");
    check(&r, &cfg);
    assert!(r.members.iter().any(|m| !m.assignment.standby.is_empty()));
}

proptest! {
    // Failing cases are kept beside this file (tests/library/sim_properties.proptest-regressions): proptest's
    // default would put them under tests/proptest-regressions/, main.rs being here.
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        .. ProptestConfig::default()
    })]

    #[test]
    fn every_scenario_keeps_the_invariants(
        members in 2u32..9,
        threads in 1u32..4,
        subtopologies in 1usize..4,
        stateful_mask in 0u8..8,
        partitions in 1i32..9,
        standby in 0u32..3,
        seed in 0u64..1000,
        which in 0usize..6,
        version in 0usize..4,
    ) {
        let name = ["start", "scale-out", "scale-in", "crash", "rolling-bounce", "deploy"][which];
        let cfg = SimConfig {
            kafka_version: KafkaVersion::ALL[version],
            ..config(members, threads, topology(subtopologies, stateful_mask), partitions, standby, seed)
        };
        let r = run(&cfg, name);
        check(&r, &cfg);
    }
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let cfg = config(5, 2, topology(2, 0b01), 4, 1, 99);
    let a = serde_json::to_string(&run(&cfg, "rolling-bounce")).unwrap();
    let b = serde_json::to_string(&run(&cfg, "rolling-bounce")).unwrap();
    assert_eq!(a, b);
}
