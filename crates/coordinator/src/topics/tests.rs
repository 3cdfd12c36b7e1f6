//! The topology configuration's tests: examples found by the lock-step oracle, each pipeline
//! step's problems and errors, and properties over random topologies and metadata.

use super::checks::missing_sources_detail;
use super::*;
use model::topology::TopicInfo;
use std::collections::BTreeSet;

fn sub(id: &str) -> Subtopology {
    Subtopology {
        id: id.into(),
        ..Subtopology::default()
    }
}

fn info(name: &str, partitions: i32) -> TopicInfo {
    TopicInfo {
        partitions,
        ..TopicInfo::named(name)
    }
}

fn md(entries: &[(&str, i32)]) -> TopicMetadata {
    entries.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Found by the lock-step oracle (seed 4242, scenario 16, group `g1`): three repartition
/// topics are mis-partitioned; Apache 4.2.2 names `g1-rep8`, the first of them in its
/// required-topics `HashSet`, and expects 6 for it because a repartition source counts as
/// decided (6, from `g1-in2`), not as the 5 partitions it has.
#[test]
fn the_first_mis_partitioned_topic_is_apaches() {
    let text = include_str!("../../../../tests/data/configure/java-order-g1.json");
    let topology: Topology = serde_json::from_str(text).expect("topology");
    let mut metadata = md(&[
        ("g1-in0", 6),
        ("g1-in1", 2),
        ("g1-in2", 6),
        ("g1-rep4", 5),
        ("g1-rep6", 5),
        ("g1-rep7", 2),
        ("g1-rep8", 5),
    ]);
    for (c, n) in [
        ("s1-store0", 6),
        ("s3-store0", 2),
        ("s3-store1", 2),
        ("s5-store0", 2),
        ("s5-store1", 2),
        ("s6-store0", 5),
        ("s6-store1", 5),
        ("s7-store0", 2),
        ("s8-store0", 5),
        ("s8-store1", 5),
    ] {
        metadata.insert(format!("g1-{c}-changelog"), n);
    }
    let c = configure(&topology, &metadata).expect("valid");
    assert_eq!(
        c.problem.map(|p| p.detail().to_string()).as_deref(),
        Some("Existing topic g1-rep8 has different number of partitions: expected 6, found 5")
    );
}

/// input -> [0] -> app-rep -> [1] (store changelog)
fn wordcount() -> Topology {
    let mut s0 = sub("0");
    s0.source_topics = vec!["input".into()];
    s0.repartition_sink_topics = vec!["app-rep".into()];
    let mut s1 = sub("1");
    s1.repartition_source_topics = vec![info("app-rep", 0)];
    s1.state_changelog_topics = vec![info("app-store-changelog", 0)];
    Topology {
        epoch: 0,
        subtopologies: vec![s1, s0],
    }
}

#[test]
fn missing_source_topics_message() {
    let mut s = sub("0");
    s.source_topics = vec!["e".into(), "d".into(), "b".into(), "a".into(), "c".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s],
    };
    let c = configure(&t, &md(&[("c", 1)])).unwrap();
    assert!(!c.is_ready());
    let p = c.problem.unwrap();
    assert_eq!(p.status_code(), StatusCode::MissingSourceTopics);
    assert_eq!(
        p.detail(),
        "Source topics a, b, d and 1 additional topics are missing."
    );
    assert_eq!(
        missing_sources_detail(&["x".into()]),
        "Source topics x are missing."
    );
}

#[test]
fn wordcount_missing_internal_then_ready() {
    let t = wordcount();
    let c = configure(&t, &md(&[("input", 6)])).unwrap();
    let Some(TopicProblem::MissingInternalTopics {
        to_create, detail, ..
    }) = &c.problem
    else {
        panic!("{c:?}");
    };
    assert_eq!(
        detail,
        "Internal topics are missing: app-rep, app-store-changelog"
    );
    assert_eq!(
        to_create
            .iter()
            .map(|t| (t.name.as_str(), t.partitions, t.replication_factor))
            .collect::<Vec<_>>(),
        vec![("app-rep", 6, -1), ("app-store-changelog", 6, -1)]
    );
    assert!(c.subtopologies.is_empty());
    assert_eq!(c.total_tasks(), 0);

    let c = configure(
        &t,
        &md(&[("input", 6), ("app-rep", 6), ("app-store-changelog", 6)]),
    )
    .unwrap();
    assert!(c.is_ready(), "{c:?}");
    assert_eq!(c.num_tasks("0"), Some(6));
    assert_eq!(c.num_tasks("1"), Some(6));
    assert_eq!(c.total_tasks(), 12);
    assert_eq!(c.subtopologies[0].id, "0", "sorted by id");
    assert!(!c.subtopologies[0].stateful);
    assert!(c.subtopologies[1].stateful);
    assert_eq!(
        c.subtopologies[1].changelog_topics["app-store-changelog"],
        6
    );
}

#[test]
fn wrong_internal_count() {
    let c = configure(
        &wordcount(),
        &md(&[("input", 6), ("app-rep", 6), ("app-store-changelog", 5)]),
    )
    .unwrap();
    assert_eq!(
        c.problem.as_ref().map(TopicProblem::detail),
        Some(
            "Existing topic app-store-changelog has different number of partitions: \
             expected 6, found 5"
        )
    );
    assert_eq!(c.internal_topics.len(), 2);
}

#[test]
fn existing_repartition_topic_keeps_its_count_downstream() {
    // app-rep exists with 3 partitions although its upstream has 6: the changelog follows
    // the existing topic (3) and the repartition topic is reported as mis-partitioned.
    let c = configure(&wordcount(), &md(&[("input", 6), ("app-rep", 3)])).unwrap();
    assert_eq!(
        c.problem.as_ref().map(TopicProblem::detail),
        Some("Existing topic app-rep has different number of partitions: expected 6, found 3")
    );
}

#[test]
fn creating_what_was_asked_for_makes_a_chain_after_a_coerced_join_ready() {
    // input(6) -> [0] -> r1 -> [1: join r1 with table(3)] -> r2 -> [2]. r1 is coerced to
    // the table's 3; r2 is computed from r1 before that (6), also once r1 exists with 3.
    let mut s0 = sub("0");
    s0.source_topics = vec!["input".into()];
    s0.repartition_sink_topics = vec!["r1".into()];
    let mut s1 = sub("1");
    s1.source_topics = vec!["table".into()];
    s1.repartition_source_topics = vec![info("r1", 0)];
    s1.copartition_groups = vec![["r1".to_string(), "table".to_string()].into()];
    s1.repartition_sink_topics = vec!["r2".into()];
    let mut s2 = sub("2");
    s2.repartition_source_topics = vec![info("r2", 0)];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s0, s1, s2],
    };
    let mut m = md(&[("input", 6), ("table", 3)]);
    let first = configure(&t, &m).unwrap();
    for topic in &first.internal_topics {
        m.insert(topic.name.clone(), topic.partitions);
    }
    let c = configure(&t, &m).unwrap();
    assert!(c.is_ready(), "{:?}", c.problem);
    assert_eq!(
        (c.num_tasks("0"), c.num_tasks("1"), c.num_tasks("2")),
        (Some(6), Some(3), Some(6))
    );
}

#[test]
fn user_fixed_repartition_count() {
    let mut t = wordcount();
    t.subtopologies[0].repartition_source_topics[0].partitions = 2;
    t.subtopologies[0].repartition_source_topics[0].replication_factor = 3;
    let c = configure(&t, &md(&[("input", 6)])).unwrap();
    let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
        panic!()
    };
    assert_eq!(to_create[0].partitions, 2);
    assert_eq!(to_create[0].replication_factor, 3);
    assert_eq!(
        to_create[1].partitions, 2,
        "changelog follows the repartition source"
    );
}

#[test]
fn chained_repartitions_resolve_in_any_order() {
    // input(4) -> [2] -> r1 -> [1] -> r2 -> [0]
    let mut a = sub("0");
    a.repartition_source_topics = vec![info("r2", 0)];
    let mut b = sub("1");
    b.repartition_source_topics = vec![info("r1", 0)];
    b.repartition_sink_topics = vec!["r2".into()];
    let mut c = sub("2");
    c.source_topics = vec!["input".into()];
    c.repartition_sink_topics = vec!["r1".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![a, b, c],
    };
    let conf = configure(&t, &md(&[("input", 4), ("r1", 4), ("r2", 4)])).unwrap();
    assert!(conf.is_ready(), "{conf:?}");
    assert_eq!(conf.total_tasks(), 12);
}

#[test]
fn loops_and_unwritten_repartition_topics_are_invalid() {
    let mut a = sub("0");
    a.repartition_source_topics = vec![info("rp-b", 0)];
    a.repartition_sink_topics = vec!["rp-a".into()];
    let mut b = sub("1");
    b.repartition_source_topics = vec![info("rp-a", 0)];
    b.repartition_sink_topics = vec!["rp-b".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![a, b],
    };
    let e = configure(&t, &md(&[])).unwrap_err();
    assert!(e.message.contains("loops"), "{e}");
    assert_eq!(e.error_code().code(), 130);

    let mut s = sub("0");
    s.source_topics = vec!["in".into()];
    s.repartition_source_topics = vec![info("rp", 0)];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s],
    };
    let e = configure(&t, &md(&[("in", 1)])).unwrap_err();
    assert!(e.message.contains("never used as a sink topic"), "{e}");
}

#[test]
fn invalid_inputs() {
    let mut s = sub("0");
    s.source_topics = vec!["in".into()];
    s.state_changelog_topics = vec![info("c", 3)];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s.clone()],
    };
    assert!(configure(&t, &md(&[("in", 1)])).is_err());
    s.state_changelog_topics.clear();
    s.source_topic_regex = vec!["a.*".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s.clone(), sub("x")],
    };
    assert!(configure(&t, &md(&[("in", 1)]))
        .unwrap_err()
        .message
        .contains("regular expressions"));
    s.source_topic_regex.clear();
    s.id = "1".into();
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s.clone(), s],
    };
    assert!(configure(&t, &md(&[]))
        .unwrap_err()
        .message
        .contains("Duplicate"));
}

fn join(a: &str, b: &str) -> Subtopology {
    let mut s = sub("0");
    s.source_topics = vec![a.into(), b.into()];
    s.copartition_groups = vec![[a.to_string(), b.to_string()].into_iter().collect()];
    s
}

#[test]
fn external_copartitioned_topics_must_match() {
    let t = Topology {
        epoch: 0,
        subtopologies: vec![join("left", "right")],
    };
    let c = configure(&t, &md(&[("left", 4), ("right", 8)])).unwrap();
    assert_eq!(
        c.problem.as_ref().map(TopicProblem::detail),
        Some("Following topics do not have the same number of partitions: [{left=4, right=8}]")
    );
    assert_eq!(
        c.problem.unwrap().status_code(),
        StatusCode::IncorrectlyPartitionedTopics
    );
    let c = configure(&t, &md(&[("left", 4), ("right", 4)])).unwrap();
    assert!(c.is_ready());
    assert_eq!(c.total_tasks(), 4);
}

/// [0] reads a(2) -> r1; [1] reads b(8) -> r2; [2] joins r1 and r2 (flexible): both get
/// max(2, 8) = 8.
fn repartition_join(fixed_r1: i32, fixed_r2: i32) -> Topology {
    let mut s0 = sub("0");
    s0.source_topics = vec!["a".into()];
    s0.repartition_sink_topics = vec!["r1".into()];
    let mut s1 = sub("1");
    s1.source_topics = vec!["b".into()];
    s1.repartition_sink_topics = vec!["r2".into()];
    let mut s2 = sub("2");
    s2.repartition_source_topics = vec![info("r1", fixed_r1), info("r2", fixed_r2)];
    s2.copartition_groups = vec![["r1".to_string(), "r2".to_string()].into_iter().collect()];
    s2.state_changelog_topics = vec![info("s-changelog", 0)];
    Topology {
        epoch: 0,
        subtopologies: vec![s0, s1, s2],
    }
}

#[test]
fn flexible_repartition_topics_take_the_max() {
    let c = configure(&repartition_join(0, 0), &md(&[("a", 2), ("b", 8)])).unwrap();
    let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
        panic!()
    };
    let got: Vec<(&str, i32)> = to_create
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    assert_eq!(got, vec![("r1", 8), ("r2", 8), ("s-changelog", 8)]);
}

#[test]
fn fixed_repartition_topics_win_and_must_agree() {
    let c = configure(&repartition_join(3, 0), &md(&[("a", 2), ("b", 8)])).unwrap();
    let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
        panic!("{c:?}")
    };
    let got: Vec<(&str, i32)> = to_create
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    assert_eq!(got, vec![("r1", 3), ("r2", 3), ("s-changelog", 3)]);

    let c = configure(&repartition_join(3, 5), &md(&[("a", 2), ("b", 8)])).unwrap();
    assert!(c
        .problem
        .unwrap()
        .detail()
        .starts_with("Following repartition topics have a fixed but different number"));
}

#[test]
fn mixed_group_coerces_repartition_topic_to_external_count() {
    // [0] reads a(2) -> r; [1] joins r with table t(6).
    let mut s0 = sub("0");
    s0.source_topics = vec!["a".into()];
    s0.repartition_sink_topics = vec!["r".into()];
    let mut s1 = sub("1");
    s1.source_topics = vec!["t".into()];
    s1.repartition_source_topics = vec![info("r", 0)];
    s1.copartition_groups = vec![["r".to_string(), "t".to_string()].into_iter().collect()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s0, s1.clone()],
    };
    let c = configure(&t, &md(&[("a", 2), ("t", 6), ("r", 6)])).unwrap();
    assert!(c.is_ready(), "{c:?}");
    assert_eq!(c.num_tasks("0"), Some(2));
    assert_eq!(c.num_tasks("1"), Some(6));

    // Fixed r = 4 cannot follow t = 6.
    s1.repartition_source_topics[0].partitions = 4;
    let mut s0 = sub("0");
    s0.source_topics = vec!["a".into()];
    s0.repartition_sink_topics = vec!["r".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s0, s1],
    };
    let c = configure(&t, &md(&[("a", 2), ("t", 6)])).unwrap();
    assert_eq!(
        c.problem.unwrap().detail(),
        "Number of partitions [4] of repartition topic [r] doesn't match number of \
         partitions [6] of the source topic."
    );
}

#[test]
fn source_topic_as_changelog_is_not_internal() {
    let mut s = sub("0");
    s.source_topics = vec!["table".into()];
    s.state_changelog_topics = vec![info("table", 0)];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s],
    };
    let c = configure(&t, &md(&[("table", 3)])).unwrap();
    assert!(c.is_ready(), "{c:?}");
    assert!(c.internal_topics.is_empty());
    assert!(c.subtopologies[0].stateful);
    assert_eq!(c.subtopologies[0].changelog_topics["table"], 3);
}

#[test]
fn subtopology_without_inputs_and_changelog_is_invalid() {
    let mut s = sub("0");
    s.state_changelog_topics = vec![info("c", 0)];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s],
    };
    assert!(configure(&t, &md(&[]))
        .unwrap_err()
        .message
        .contains("has no source or repartition source topics"));
}

#[test]
fn zero_partition_metadata_counts_as_missing() {
    let mut s = sub("0");
    s.source_topics = vec!["a".into()];
    let t = Topology {
        epoch: 0,
        subtopologies: vec![s],
    };
    let c = configure(&t, &md(&[("a", 0)])).unwrap();
    assert_eq!(
        c.problem.unwrap().status_code(),
        StatusCode::MissingSourceTopics
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    const TOPICS: [&str; 8] = ["s0", "s1", "s2", "r0", "r1", "r2", "c0", "c1"];

    fn arb_sub(id: usize) -> impl Strategy<Value = Subtopology> {
        (
            proptest::sample::subsequence(vec!["s0", "s1", "s2"], 0..=2),
            proptest::sample::subsequence(vec!["r0", "r1", "r2"], 0..=2),
            proptest::collection::vec(0i32..4, 3),
            proptest::sample::subsequence(vec!["r0", "r1", "r2"], 0..=2),
            proptest::sample::subsequence(vec!["c0", "c1", "s0"], 0..=2),
            any::<bool>(),
        )
            .prop_map(move |(src, rsrc, fixed, rsink, logs, group)| {
                let mut s = sub(&id.to_string());
                s.source_topics = src.iter().map(|t| t.to_string()).collect();
                s.repartition_source_topics = rsrc
                    .iter()
                    .map(|t| {
                        let i = t[1..].parse::<usize>().unwrap_or(0);
                        info(t, fixed[i % fixed.len()])
                    })
                    .collect();
                s.repartition_sink_topics = rsink.iter().map(|t| t.to_string()).collect();
                s.state_changelog_topics = logs.iter().map(|t| info(t, 0)).collect();
                let inputs: BTreeSet<String> = s.input_topics().map(str::to_string).collect();
                if group && inputs.len() >= 2 {
                    s.copartition_groups = vec![inputs];
                }
                s
            })
    }

    fn arb_topology() -> impl Strategy<Value = Topology> {
        (1usize..4)
            .prop_flat_map(|n| (0..n).map(arb_sub).collect::<Vec<_>>())
            .prop_map(|subtopologies| Topology {
                epoch: 0,
                subtopologies,
            })
    }

    fn arb_metadata() -> impl Strategy<Value = TopicMetadata> {
        proptest::collection::btree_map(
            proptest::sample::select(TOPICS.to_vec()).prop_map(str::to_string),
            -1i32..6,
            0..8,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn never_panics_and_ready_means_topics_in_place(t in arb_topology(), m in arb_metadata()) {
            if let Ok(c) = configure(&t, &m) {
                if c.is_ready() {
                    for it in &c.internal_topics {
                        prop_assert_eq!(m.get(&it.name).copied(), Some(it.partitions));
                    }
                    for s in &c.subtopologies {
                        prop_assert!(s.num_tasks >= 1);
                    }
                } else {
                    prop_assert!(c.subtopologies.is_empty());
                    prop_assert_eq!(c.total_tasks(), 0);
                }
            }
        }

        #[test]
        fn creating_requested_topics_never_asks_again(t in arb_topology(), m in arb_metadata()) {
            let Ok(c) = configure(&t, &m) else { return Ok(()); };
            if let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = &c.problem {
                let mut m2 = m.clone();
                for it in to_create {
                    prop_assert!(it.partitions >= 1, "{:?}", it);
                    m2.insert(it.name.clone(), it.partitions);
                }
                let again = configure(&t, &m2);
                prop_assert!(again.is_ok(), "{:?}", again);
                if let Ok(again) = again {
                    prop_assert!(
                        again.is_ready() || matches!(again.problem, Some(TopicProblem::IncorrectlyPartitioned { .. })),
                        "{:?}", again
                    );
                }
            }
        }

        #[test]
        fn order_of_subtopologies_does_not_matter(t in arb_topology(), m in arb_metadata()) {
            let mut rev = t.clone();
            rev.subtopologies.reverse();
            prop_assert_eq!(configure(&t, &m), configure(&rev, &m));
        }
    }
}
