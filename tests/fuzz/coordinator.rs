//! The coordinator never panics, whatever it is sent, and never lets two members hold a task as
//! active: random request sequences (valid and invalid) with random clocks.

use std::collections::BTreeMap;

use coordinator::{Coordinator, GroupConfig, RequestContext};
use model::{HeartbeatRequest, Subtopology, TaskSet, TopicInfo, Topology};
use proptest::prelude::*;

fn topology(epoch: i32, variant: u8) -> Topology {
    let mut subs = vec![Subtopology {
        id: "0".into(),
        source_topics: vec!["in".into()],
        state_changelog_topics: vec![TopicInfo::named("app-s-changelog")],
        ..Subtopology::default()
    }];
    if variant % 3 == 1 {
        subs.push(Subtopology {
            id: "1".into(),
            source_topics: vec!["other".into()],
            ..Subtopology::default()
        });
    }
    if variant % 3 == 2 {
        subs[0].source_topics.push("missing".into());
    }
    Topology {
        epoch,
        subtopologies: subs,
    }
}

fn tasks(bits: u16) -> TaskSet {
    (0..6)
        .filter(|i| bits & (1 << i) != 0)
        .map(|i| ("0", i - 1))
        .chain(
            (0..4)
                .filter(|i| bits & (1 << (i + 6)) != 0)
                .map(|i| ("1", i)),
        )
        .collect()
}

#[derive(Debug, Clone)]
struct Req {
    member: u8,
    epoch: i32,
    topo_epoch: i32,
    variant: u8,
    with_topology: bool,
    owned: Option<(u16, u16)>,
    instance: bool,
    empty_group: bool,
    advance_ms: i64,
    standbys: u32,
    /// Behave like a well-formed client (last epoch, last assignment) instead of random fields.
    smart: bool,
}

fn req() -> impl Strategy<Value = Req> {
    (
        0u8..5,
        prop_oneof![Just(0), Just(-1), Just(-2), Just(-3), 1i32..12],
        -1i32..4,
        0u8..6,
        any::<bool>(),
        proptest::option::of((any::<u16>(), any::<u16>())),
        any::<bool>(),
        prop::bool::weighted(0.02),
        0i64..20_000,
        0u32..3,
        prop::bool::weighted(0.7),
    )
        .prop_map(
            |(
                member,
                epoch,
                topo_epoch,
                variant,
                with_topology,
                owned,
                instance,
                empty_group,
                advance_ms,
                standbys,
                smart,
            )| Req {
                member,
                epoch,
                topo_epoch,
                variant,
                with_topology,
                owned,
                instance,
                empty_group,
                advance_ms,
                standbys,
                smart,
            },
        )
}

proptest! {
    // Failing cases are kept beside this file (tests/fuzz/coordinator.proptest-regressions): proptest's
    // default would put them under tests/proptest-regressions/, main.rs being here.
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        .. ProptestConfig::default()
    })]

    #[test]
    fn random_requests_never_panic_or_double_assign(reqs in prop::collection::vec(req(), 1..60)) {
        let mut c = Coordinator::new(GroupConfig { initial_rebalance_delay_ms: 1_000, ..GroupConfig::default() });
        let metadata = BTreeMap::from([("in".to_string(), 5), ("other".to_string(), 4), ("app-s-changelog".to_string(), 5)]);
        let mut now = 0;
        // What each member last heard: epoch and active/standby tasks.
        let mut known: BTreeMap<u8, (i32, TaskSet, TaskSet)> = BTreeMap::new();
        for r in reqs {
            now += r.advance_ms;
            if let Some(g) = c.group_mut("app") {
                let mut cfg = g.config().clone();
                cfg.num_standby_replicas = r.standbys;
                g.set_config(cfg);
            }
            let owned = r.owned.map(|(a, s)| (tasks(a), tasks(s)));
            let mut req = HeartbeatRequest {
                group_id: if r.empty_group { String::new() } else { "app".into() },
                member_id: format!("m{}", r.member),
                member_epoch: r.epoch,
                instance_id: r.instance.then(|| format!("i{}", r.member)),
                rebalance_timeout_ms: if r.epoch == 0 { 10_000 } else { -1 },
                topology: r.with_topology.then(|| topology(r.topo_epoch, r.variant)),
                active_tasks: owned.as_ref().map(|o| o.0.clone()),
                standby_tasks: owned.as_ref().map(|o| o.1.clone()),
                warmup_tasks: owned.as_ref().map(|_| TaskSet::new()),
                process_id: Some(format!("p{}", r.member % 3)),
                ..HeartbeatRequest::default()
            };
            if r.smart {
                match known.get(&r.member) {
                    Some((epoch, a, s)) if *epoch > 0 => {
                        req.member_epoch = *epoch;
                        req.topology = None;
                        req.rebalance_timeout_ms = -1;
                        req.active_tasks = Some(a.clone());
                        req.standby_tasks = Some(s.clone());
                        req.warmup_tasks = Some(TaskSet::new());
                    }
                    _ => {
                        req.member_epoch = 0;
                        req.topology = Some(topology(r.topo_epoch.max(0), r.variant));
                        req.rebalance_timeout_ms = 10_000;
                        // A joining client says it owns nothing (null lists are refused).
                        req.active_tasks = Some(TaskSet::new());
                        req.standby_tasks = Some(TaskSet::new());
                        req.warmup_tasks = Some(TaskSet::new());
                    }
                }
                req.group_id = "app".into();
            }
            let ctx = RequestContext { now_ms: now, ..RequestContext::default() };
            let out = c.heartbeat(&req, &ctx, &metadata);
            if out.response.error.is_none() {
                OK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let e = known.entry(r.member).or_insert((0, TaskSet::new(), TaskSet::new()));
                e.0 = out.response.member_epoch;
                if let Some(a) = &out.response.active_tasks { e.1 = a.clone(); }
                if let Some(s) = &out.response.standby_tasks { e.2 = s.clone(); }
            } else {
                known.remove(&r.member);
            }
            TOTAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            c.expire(now);
            if let Some(g) = c.group("app") {
                let snapshot = g.ownership().snapshot();
                let mut active: BTreeMap<(String, i32), usize> = BTreeMap::new();
                for (s, p, role, _, _) in &snapshot {
                    if *role == model::TaskRole::Active {
                        *active.entry((s.clone(), *p)).or_default() += 1;
                    }
                }
                prop_assert!(active.values().all(|n| *n <= 1), "two active holders: {snapshot:?}");
                let _ = g.describe();
                let _ = g.state();
            }
        }
    }
}

static OK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static TOTAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The generator is only useful if a fair share of its requests are accepted.
#[test]
fn the_fuzzer_reaches_the_handling_code() {
    random_requests_never_panic_or_double_assign();
    let ok = OK.load(std::sync::atomic::Ordering::Relaxed);
    let total = TOTAL.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        ok * 10 >= total,
        "only {ok} of {total} requests were accepted"
    );
}
