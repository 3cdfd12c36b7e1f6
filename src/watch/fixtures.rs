//! Groups and samples for the unit tests.

use model::group::{
    DescribedTopology, GroupDescription, MemberDescription, PartitionOffsets, Snapshot,
};
use model::{Assignment, TaskSet};

use super::sample::Sample;

/// Active tasks of subtopology 0.
pub fn active(partitions: &[i32]) -> Assignment {
    let mut set = TaskSet::new();
    for p in partitions {
        set.insert("0", *p);
    }
    Assignment {
        active: set,
        ..Assignment::default()
    }
}

pub fn member(id: &str, epoch: i32, owned: &[i32], target: &[i32]) -> MemberDescription {
    member_owning(id, epoch, active(owned), active(target))
}

/// A member at its target owning active tasks and standbys of subtopology 0.
pub fn member_at(id: &str, active_tasks: &[i32], standbys: &[i32]) -> MemberDescription {
    let mut owned = active(active_tasks);
    owned.standby = active(standbys).active;
    member_owning(id, 3, owned.clone(), owned)
}

pub fn member_owning(
    id: &str,
    epoch: i32,
    owned: Assignment,
    target: Assignment,
) -> MemberDescription {
    MemberDescription {
        member_id: id.into(),
        member_epoch: epoch,
        instance_id: None,
        rack_id: None,
        client_id: format!("{id}-client"),
        client_host: "/127.0.0.1".into(),
        topology_epoch: 0,
        process_id: format!("p-{id}"),
        user_endpoint: None,
        client_tags: Default::default(),
        task_offsets: Default::default(),
        task_end_offsets: Default::default(),
        assignment: owned,
        target_assignment: target,
        is_classic: false,
        endpoint_partitions: None,
    }
}

pub fn group(
    state: &str,
    epoch: i32,
    target: i32,
    members: Vec<MemberDescription>,
) -> GroupDescription {
    GroupDescription {
        member_order: Vec::new(),
        group_id: "app".into(),
        state: state.into(),
        group_epoch: epoch,
        target_assignment_epoch: target,
        coordinator: None,
        topology: DescribedTopology::default(),
        members,
        offsets: vec![],
        assignor: None,
        configs: None,
    }
}

pub fn with_lag(mut g: GroupDescription, lag: i64) -> GroupDescription {
    g.offsets = vec![PartitionOffsets {
        topic: "in".into(),
        partition: 0,
        committed: Some(10),
        leader_epoch: None,
        end: Some(10 + lag),
        lag: Some(lag),
    }];
    g
}

/// A sample at `s` seconds.
pub fn sample(s: i64, groups: Vec<GroupDescription>) -> Sample {
    let snapshot = Snapshot {
        schema_version: 1,
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        groups,
    };
    Sample::new(s * 1000, snapshot, vec![])
}

/// `g`, coordinated by broker `id` (at `localhost:909<id>`).
pub fn coordinated_by(mut g: GroupDescription, id: i32) -> GroupDescription {
    g.coordinator = Some(broker(id));
    g
}

pub fn broker(id: i32) -> model::group::CoordinatorNode {
    model::group::CoordinatorNode {
        id,
        host: "localhost".into(),
        port: 9090 + id,
    }
}

/// A wait for the coordinator of `app` (broker `id`) since `since_ms`, retried `retries` times.
pub fn coordinator_wait(since_ms: i64, id: i32, retries: u32) -> model::wait::Wait {
    let mut w = model::wait::Wait::new(
        since_ms,
        model::wait::Awaited::Coordinator {
            groups: vec!["app".into()],
        },
    );
    w.broker = Some(broker(id));
    w.brokers = vec![broker(id)];
    w.retries = retries;
    w.last_retry = (retries > 0).then(|| format!("coordinator {id} of `app`: refused; retrying"));
    w
}
