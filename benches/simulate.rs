//! Simulator throughput: a whole run of `simulate` (formation, and a scale-out) at several sizes,
//! and a scale-out with the default number of samples.

use std::collections::BTreeMap;

use coordinator::GroupConfig;
use criterion::{criterion_group, criterion_main, Criterion};
use model::{Subtopology, TopicInfo, Topology};
use streams_group::simulate::scenario::{Action, Scenario, Step};
use streams_group::simulate::{self, SimConfig};

fn config(members: u32, subtopologies: usize, partitions: i32) -> SimConfig {
    let topology = Topology {
        epoch: 0,
        subtopologies: (0..subtopologies)
            .map(|i| Subtopology {
                id: i.to_string(),
                source_topics: vec![format!("in-{i}")],
                state_changelog_topics: if i % 2 == 0 {
                    vec![TopicInfo::named(format!("app-s{i}-changelog"))]
                } else {
                    vec![]
                },
                ..Subtopology::default()
            })
            .collect(),
    };
    let metadata: BTreeMap<String, i32> = (0..subtopologies)
        .map(|i| (format!("in-{i}"), partitions))
        .collect();
    SimConfig {
        assignor: "sticky".into(),
        kafka_version: model::KafkaVersion::NEWEST,
        group_id: "bench".into(),
        members,
        threads_per_process: 1,
        topology,
        metadata,
        group: GroupConfig {
            num_standby_replicas: 1,
            ..GroupConfig::default()
        },
        broker_bounds: Default::default(),
        run: streams_group::simulate::RunSettings {
            seed: 1,
            ..Default::default()
        },
        initial: None,
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("simulate");
    g.sample_size(10);
    let scale_out = Scenario {
        name: "scale-out".into(),
        steps: vec![Step {
            at_ms: None,
            action: Action::AddMembers { count: 2 },
        }],
    };
    for (members, subs, parts) in [(100, 10, 100), (1_000, 10, 1_000)] {
        let cfg = config(members, subs, parts);
        g.bench_function(format!("start/{members}m/{}t", subs as i32 * parts), |b| {
            b.iter(|| simulate::run(&cfg, &Scenario::default(), &mut |_, _| {}).unwrap())
        });
        g.bench_function(
            format!("scale-out/{members}m/{}t", subs as i32 * parts),
            |b| b.iter(|| simulate::run(&cfg, &scale_out, &mut |_, _| {}).unwrap()),
        );
    }
    // The default sample count on a 1,000-member scale-out: every sample, on every core.
    let cfg = config(1_000, 10, 100);
    g.bench_function("scale-out/1000m/1000t/default-samples", |b| {
        b.iter(|| simulate::samples::run(&cfg, &scale_out, None, &mut |_| {}).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
