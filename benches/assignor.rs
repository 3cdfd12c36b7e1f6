//! Sticky assignor benchmarks: fresh and incremental (one new member) assignments with
//! 1 standby replica and 50% stateful subtopologies of 100 partitions.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use streams_group::coordinator::assignor::{
    synthetic_spec, BalancedStickyAssignor, GroupSpec, MemberSpec, TaskAssignor,
};

const SIZES: [(usize, usize); 3] = [(100, 1_000), (1_000, 10_000), (10_000, 100_000)];

fn incremental(members: usize, per_process: usize, tasks: usize) -> GroupSpec {
    // The assignment of n - 1 members, then one new member on a new process.
    let before = synthetic_spec(members - 1, per_process, tasks, 100, 1);
    let assignment = BalancedStickyAssignor.assign(&before).expect("assign");
    let mut spec = before.with_current_assignment(&assignment);
    spec.members.push(MemberSpec {
        member_id: "member-new".to_string(),
        process_id: "process-new".to_string(),
        ..Default::default()
    });
    spec
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sticky");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (members, tasks) in SIZES {
        for per_process in [1, 4] {
            let label = format!("{members}m_{tasks}t_{per_process}pp");
            let fresh = synthetic_spec(members, per_process, tasks, 100, 1);
            group.bench_with_input(BenchmarkId::new("fresh", &label), &fresh, |b, s| {
                b.iter(|| BalancedStickyAssignor.assign(s).expect("assign"))
            });
            let inc = incremental(members, per_process, tasks);
            group.bench_with_input(BenchmarkId::new("incremental", &label), &inc, |b, s| {
                b.iter(|| BalancedStickyAssignor.assign(s).expect("assign"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
