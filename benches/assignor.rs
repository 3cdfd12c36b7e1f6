//! Assignor benchmarks: Apache's sticky assignor reproduced exactly (`sticky`, 4.4) and our
//! `balanced-sticky`, fresh and incremental (one new member), with 1 standby replica and 50%
//! stateful subtopologies of 100 partitions. `benches/compare-assignor.sh` times the same
//! inputs against Apache's own assignor on the JVM.

use std::time::Duration;

use coordinator::assignor::{
    synthetic_spec, BalancedStickyAssignor, GroupSpec, MemberSpec, ShippedVersion, StickyAssignor,
    TaskAssignor,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const SIZES: [(usize, usize); 3] = [(100, 1_000), (1_000, 10_000), (10_000, 100_000)];

fn incremental(
    assignor: &dyn TaskAssignor,
    members: usize,
    per_process: usize,
    tasks: usize,
) -> GroupSpec {
    // The assignment of n - 1 members, then one new member on a new process.
    let before = synthetic_spec(members - 1, per_process, tasks, 100, 1);
    let assignment = assignor.assign(&before).expect("assign");
    let mut spec = before.with_current_assignment(&assignment);
    spec.members.push(MemberSpec {
        member_id: "member-new".to_string(),
        process_id: "process-new".to_string(),
        ..Default::default()
    });
    spec
}

fn bench(c: &mut Criterion) {
    let exact = StickyAssignor::new(ShippedVersion::V4_4);
    let assignors: [(&str, &dyn TaskAssignor); 2] = [
        ("sticky", &exact),
        ("balanced-sticky", &BalancedStickyAssignor),
    ];
    for (name, assignor) in assignors {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for (members, tasks) in SIZES {
            for per_process in [1, 4] {
                let label = format!("{members}m_{tasks}t_{per_process}pp");
                let fresh = synthetic_spec(members, per_process, tasks, 100, 1);
                group.bench_with_input(BenchmarkId::new("fresh", &label), &fresh, |b, s| {
                    b.iter(|| assignor.assign(s).expect("assign"))
                });
                let inc = incremental(assignor, members, per_process, tasks);
                group.bench_with_input(BenchmarkId::new("incremental", &label), &inc, |b, s| {
                    b.iter(|| assignor.assign(s).expect("assign"))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
