//! Heartbeat handling against the KIP-1071 text, one behaviour per test.

use std::collections::BTreeMap;

use super::*;
use model::{Assignment, StatusCode, Subtopology, TaskSet, TopicInfo, Topology};

fn topo(epoch: i32, source: &str) -> Topology {
    Topology {
        epoch,
        subtopologies: vec![Subtopology {
            id: "0".into(),
            source_topics: vec![source.into()],
            state_changelog_topics: vec![TopicInfo::named("app-store-changelog")],
            ..Subtopology::default()
        }],
    }
}

fn metadata() -> BTreeMap<String, i32> {
    BTreeMap::from([
        ("in".to_string(), 4),
        ("other".to_string(), 4),
        ("app-store-changelog".to_string(), 4),
    ])
}

fn coordinator() -> Coordinator {
    Coordinator::for_version(
        KafkaVersion::Kip,
        GroupConfig {
            initial_rebalance_delay_ms: 0,
            ..GroupConfig::default()
        },
    )
}

fn join(member: &str, t: Topology) -> HeartbeatRequest {
    HeartbeatRequest {
        group_id: "app".into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 60_000,
        topology: Some(t),
        process_id: Some(format!("proc-{member}")),
        active_tasks: Some(TaskSet::new()),
        standby_tasks: Some(TaskSet::new()),
        warmup_tasks: Some(TaskSet::new()),
        ..HeartbeatRequest::default()
    }
}

fn beat(member: &str, epoch: i32, owned: &Assignment) -> HeartbeatRequest {
    HeartbeatRequest {
        group_id: "app".into(),
        member_id: member.into(),
        member_epoch: epoch,
        rebalance_timeout_ms: -1,
        active_tasks: Some(owned.active.clone()),
        standby_tasks: Some(owned.standby.clone()),
        warmup_tasks: Some(owned.warmup.clone()),
        ..HeartbeatRequest::default()
    }
}

fn at(now_ms: i64) -> RequestContext {
    RequestContext {
        now_ms,
        ..RequestContext::default()
    }
}

fn send(c: &mut Coordinator, req: HeartbeatRequest) -> HeartbeatResponse {
    c.heartbeat(&req, &at(0), &metadata()).response
}

fn error(r: &HeartbeatResponse) -> Option<ErrorCode> {
    r.error
}

#[test]
fn first_join_creates_the_group_with_the_members_topology_epoch() {
    let mut c = coordinator();
    let r = send(&mut c, join("a", topo(3, "in")));
    assert_eq!(error(&r), None);
    let g = c.group("app").unwrap();
    assert_eq!(g.topology().unwrap().epoch, 3);
    // A new group starts at epoch 1; the first member's join bumps it to 2.
    assert_eq!(g.group_epoch(), 2);
    assert_eq!(r.member_epoch, 2);
    assert_eq!(r.active_tasks.as_ref().unwrap().len(), 4);
    assert_eq!(g.state(), GroupState::Stable);
}

#[test]
fn join_with_same_epoch_and_same_topology_is_accepted() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    assert_eq!(error(&send(&mut c, join("b", topo(0, "in")))), None);
}

#[test]
fn join_with_same_epoch_and_different_topology_is_invalid_topology_epoch() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    let r = send(&mut c, join("b", topo(0, "other")));
    assert_eq!(error(&r), Some(ErrorCode::StreamsInvalidTopologyEpoch));
    assert_eq!(
        c.group("app").unwrap().members().len(),
        1,
        "no member created"
    );
}

#[test]
fn join_with_lower_epoch_is_topology_fenced() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(2, "in")));
    let r = send(&mut c, join("b", topo(1, "in")));
    assert_eq!(error(&r), Some(ErrorCode::StreamsTopologyFenced));
}

#[test]
fn join_with_epoch_jump_is_invalid_topology_epoch() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    let r = send(&mut c, join("b", topo(2, "other")));
    assert_eq!(error(&r), Some(ErrorCode::StreamsInvalidTopologyEpoch));
}

#[test]
fn join_with_next_epoch_updates_the_topology_and_marks_others_stale() {
    let mut c = coordinator();
    let a = send(&mut c, join("a", topo(0, "in")));
    let r = send(&mut c, join("b", topo(1, "other")));
    assert_eq!(error(&r), None);
    let g = c.group("app").unwrap();
    assert_eq!(g.topology().unwrap().epoch, 1);
    assert_eq!(
        g.topology().unwrap().subtopologies[0].source_topics,
        ["other"]
    );
    // The member still on epoch 0 is told it runs a stale topology.
    let owned = Assignment {
        active: a.active_tasks.unwrap(),
        ..Assignment::default()
    };
    let r = send(&mut c, beat("a", a.member_epoch, &owned));
    assert!(r.has_status(StatusCode::StaleTopology), "{r:?}");
}

#[test]
fn non_join_for_a_missing_group_is_group_id_not_found() {
    let mut c = coordinator();
    let r = send(&mut c, beat("a", 3, &Assignment::default()));
    assert_eq!(error(&r), Some(ErrorCode::GroupIdNotFound));
}

#[test]
fn a_group_of_another_type_is_group_id_not_found() {
    let mut c = coordinator();
    c.add_other_group("app");
    let r = send(&mut c, join("a", topo(0, "in")));
    assert_eq!(error(&r), Some(ErrorCode::GroupIdNotFound));
    assert!(r.error_message.unwrap().contains("not a streams group"));
}

#[test]
fn unknown_member_is_unknown_member_id() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    let r = send(&mut c, beat("zz", 1, &Assignment::default()));
    assert_eq!(error(&r), Some(ErrorCode::UnknownMemberId));
}

#[test]
fn a_member_epoch_ahead_is_fenced_and_removed() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    send(&mut c, join("b", topo(0, "in")));
    let before = c.group("app").unwrap().group_epoch();
    let r = send(&mut c, beat("b", 99, &Assignment::default()));
    assert_eq!(error(&r), Some(ErrorCode::FencedMemberEpoch));
    let g = c.group("app").unwrap();
    assert!(!g.members().contains_key("b"));
    assert_eq!(g.group_epoch(), before + 1);
}

#[test]
fn a_lost_response_is_forgiven_when_the_member_owns_nothing_new() {
    let mut c = coordinator();
    let a1 = send(&mut c, join("a", topo(0, "in")));
    let owned = Assignment {
        active: a1.active_tasks.clone().unwrap(),
        ..Assignment::default()
    };
    send(&mut c, beat("a", a1.member_epoch, &owned));
    // b joins: a must give up half of its tasks and moves to a new epoch.
    send(&mut c, join("b", topo(0, "in")));
    let r = send(&mut c, beat("a", a1.member_epoch, &owned));
    assert_eq!(error(&r), None);
    let kept = Assignment {
        active: r.active_tasks.clone().unwrap(),
        ..Assignment::default()
    };
    let r2 = send(&mut c, beat("a", r.member_epoch, &kept));
    assert!(
        r2.member_epoch > a1.member_epoch,
        "a moved on to the new epoch"
    );
    // The response with the new epoch is "lost": a retries with its previous epoch.
    let r3 = send(&mut c, beat("a", a1.member_epoch, &kept));
    assert_eq!(
        error(&r3),
        None,
        "previous epoch with owned ⊆ assigned is accepted"
    );
    // But owning a task it was never given gets it fenced.
    let mut too_much = kept.clone();
    too_much.active = TaskSet::from_iter([("0", 0), ("0", 1), ("0", 2), ("0", 3)]);
    let r4 = send(&mut c, beat("a", a1.member_epoch, &too_much));
    assert_eq!(error(&r4), Some(ErrorCode::FencedMemberEpoch));
}

#[test]
fn a_task_moves_only_after_its_owner_released_it() {
    let mut c = coordinator();
    let a1 = send(&mut c, join("a", topo(0, "in")));
    let owned_a = Assignment {
        active: a1.active_tasks.clone().unwrap(),
        ..Assignment::default()
    };
    let b1 = send(&mut c, join("b", topo(0, "in")));
    assert!(
        b1.active_tasks.unwrap().is_empty(),
        "nothing free for b yet"
    );
    let a2 = send(&mut c, beat("a", a1.member_epoch, &owned_a));
    let a_now = a2.active_tasks.clone().unwrap();
    assert_eq!(a_now.len(), 2, "a keeps half");
    // a has not released yet (still reports all four): b still gets nothing.
    let b2 = send(&mut c, beat("b", b1.member_epoch, &Assignment::default()));
    assert!(b2.active_tasks.is_none_or(|t| t.is_empty()));
    assert_eq!(c.group("app").unwrap().state(), GroupState::Reconciling);
    // a releases: b gets the other half.
    send(
        &mut c,
        beat(
            "a",
            a2.member_epoch,
            &Assignment {
                active: a_now,
                ..Assignment::default()
            },
        ),
    );
    let b3 = send(&mut c, beat("b", b2.member_epoch, &Assignment::default()));
    assert_eq!(b3.active_tasks.unwrap().len(), 2);
}

#[test]
fn leaving_removes_the_member_and_bumps_the_epoch() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    send(&mut c, join("b", topo(0, "in")));
    let e = c.group("app").unwrap().group_epoch();
    let r = send(
        &mut c,
        HeartbeatRequest {
            member_epoch: -1,
            topology: None,
            ..join("b", topo(0, "in"))
        },
    );
    assert_eq!(r.member_epoch, -1);
    assert_eq!(c.group("app").unwrap().group_epoch(), e + 1);
    assert_eq!(c.group("app").unwrap().members().len(), 1);
}

#[test]
fn a_static_member_can_leave_temporarily_and_come_back_under_a_new_id() {
    let mut c = coordinator();
    let mut j = join("a", topo(0, "in"));
    j.instance_id = Some("inst-1".into());
    let r = send(&mut c, j.clone());
    let tasks = r.active_tasks.unwrap();
    let e = c.group("app").unwrap().group_epoch();
    let leave = HeartbeatRequest {
        member_epoch: -2,
        topology: None,
        ..j.clone()
    };
    assert_eq!(send(&mut c, leave).member_epoch, -2);
    assert_eq!(
        c.group("app").unwrap().group_epoch(),
        e,
        "a temporary leave does not rebalance"
    );
    // Another member may not take the instance id while it is held...
    let mut thief = join("x", topo(0, "in"));
    thief.instance_id = Some("inst-1".into());
    thief.member_id = "x".into();
    // ...but the same instance coming back under a new member id gets its tasks back.
    let mut back = j.clone();
    back.member_id = "a2".into();
    let r = send(&mut c, back);
    assert_eq!(error(&r), None);
    assert_eq!(r.active_tasks.unwrap(), tasks);
    assert!(!c.group("app").unwrap().members().contains_key("a"));
    // Now the instance id is held by a live member: a third join is refused.
    assert_eq!(
        error(&send(&mut c, thief)),
        Some(ErrorCode::UnreleasedInstanceId)
    );
}

#[test]
fn missing_source_topics_keep_the_group_not_ready() {
    let mut c = coordinator();
    let out = c.heartbeat(&join("a", topo(0, "absent")), &at(0), &metadata());
    assert!(out.response.has_status(StatusCode::MissingSourceTopics));
    assert_eq!(c.group("app").unwrap().state(), GroupState::NotReady);
    assert!(out.response.active_tasks.unwrap().is_empty());
}

#[test]
fn missing_internal_topics_are_requested() {
    let mut c = coordinator();
    let md = BTreeMap::from([("in".to_string(), 4)]);
    let out = c.heartbeat(&join("a", topo(0, "in")), &at(0), &md);
    assert!(out.response.has_status(StatusCode::MissingInternalTopics));
    assert_eq!(out.topics_to_create.len(), 1);
    assert_eq!(out.topics_to_create[0].name, "app-store-changelog");
    assert_eq!(out.topics_to_create[0].partitions, 4);
}

#[test]
fn shutdown_request_reaches_every_member() {
    let mut c = coordinator();
    let a = send(&mut c, join("a", topo(0, "in")));
    let b = send(&mut c, join("b", topo(0, "in")));
    let mut req = beat("b", b.member_epoch, &Assignment::default());
    req.shutdown_application = true;
    send(&mut c, req);
    let owned = Assignment {
        active: a.active_tasks.unwrap(),
        ..Assignment::default()
    };
    let r = send(&mut c, beat("a", a.member_epoch, &owned));
    assert!(r.has_status(StatusCode::ShutdownApplication));
}

#[test]
fn session_timeout_removes_a_silent_member() {
    let mut c = coordinator();
    send(&mut c, join("a", topo(0, "in")));
    assert!(c.expire(44_999).is_empty());
    let removed = c.expire(45_000);
    assert_eq!(removed.len(), 1);
    assert_eq!(c.group("app").unwrap().state(), GroupState::Empty);
}

#[test]
fn rebalance_timeout_removes_a_member_that_does_not_release() {
    let mut c = coordinator();
    let a = send(&mut c, join("a", topo(0, "in")));
    let owned = Assignment {
        active: a.active_tasks.unwrap(),
        ..Assignment::default()
    };
    send(&mut c, join("b", topo(0, "in")));
    let r = c
        .heartbeat(&beat("a", a.member_epoch, &owned), &at(1_000), &metadata())
        .response;
    assert_eq!(r.error, None);
    // a keeps heartbeating but never releases; its rebalance timeout (60 s) runs out.
    c.heartbeat(&beat("a", r.member_epoch, &owned), &at(30_000), &metadata());
    c.heartbeat(
        &beat("b", 2, &Assignment::default()),
        &at(30_000),
        &metadata(),
    );
    let removed = c.expire(61_000);
    assert!(
        matches!(removed.as_slice(), [(_, Removal::RebalanceTimeout { member_id })] if member_id == "a")
    );
}

#[test]
fn the_group_max_size_is_enforced() {
    let mut c = Coordinator::new(GroupConfig {
        max_size: 1,
        initial_rebalance_delay_ms: 0,
        ..GroupConfig::default()
    });
    send(&mut c, join("a", topo(0, "in")));
    assert_eq!(
        error(&send(&mut c, join("b", topo(0, "in")))),
        Some(ErrorCode::GroupMaxSizeReached)
    );
}

#[test]
fn the_initial_rebalance_delay_holds_back_the_first_assignment() {
    let mut c = Coordinator::new(GroupConfig::default());
    let r = send(&mut c, join("a", topo(0, "in")));
    assert!(r.has_status(StatusCode::AssignmentDelayed));
    assert!(r.active_tasks.unwrap().is_empty());
    assert_eq!(
        r.member_epoch, 1,
        "the member waits at the initial assignment epoch"
    );
    c.expire(3_000);
    let r = c
        .heartbeat(
            &beat("a", 1, &Assignment::default()),
            &at(3_100),
            &metadata(),
        )
        .response;
    assert_eq!(r.member_epoch, 2);
    assert_eq!(r.active_tasks.unwrap().len(), 4);
}

#[test]
fn owned_tasks_that_do_not_exist_are_an_invalid_request() {
    let mut c = coordinator();
    let a = send(&mut c, join("a", topo(0, "in")));
    let bogus = Assignment {
        active: TaskSet::from_iter([("9", 0)]),
        ..Assignment::default()
    };
    let r = send(&mut c, beat("a", a.member_epoch, &bogus));
    assert_eq!(error(&r), Some(ErrorCode::InvalidRequest));
}
