use super::*;
use crate::watch::fixtures::{group, member, with_lag};

#[test]
fn the_same_group_has_no_changes() {
    let g = group("Stable", 3, 3, vec![member("m1", 3, &[0, 1], &[0, 1])]);
    assert_eq!(group_changes(&g, &g.clone()), vec![]);
}

#[test]
fn state_and_epochs_are_changes() {
    let a = group("Stable", 3, 3, vec![]);
    let mut b = group("Assigning", 4, 3, vec![]);
    b.topology.epoch = 1;
    let app = || "app".to_string();
    assert_eq!(
        group_changes(&a, &b),
        vec![
            Change::State {
                group: app(),
                from: "Stable".into(),
                to: "Assigning".into()
            },
            Change::GroupEpoch {
                group: app(),
                from: 3,
                to: 4
            },
            Change::TopologyEpoch {
                group: app(),
                from: 0,
                to: 1
            },
        ]
    );
    let c = group("Reconciling", 4, 4, vec![]);
    assert_eq!(
        group_changes(&b, &c)[1],
        Change::TargetAssignmentEpoch {
            group: app(),
            from: 3,
            to: 4
        }
    );
}

#[test]
fn members_join_and_leave_in_natural_order() {
    let a = group(
        "Stable",
        3,
        3,
        vec![member("m10", 3, &[], &[]), member("m1", 3, &[], &[])],
    );
    let b = group(
        "Stable",
        3,
        3,
        vec![member("m2", 3, &[], &[]), member("m1", 3, &[], &[])],
    );
    let got = group_changes(&a, &b);
    assert_eq!(
        got,
        vec![
            Change::MemberJoined {
                group: "app".into(),
                member: "m2".into(),
                process: "p-m2".into(),
                member_epoch: 3,
                waiting_for_first_target: false,
            },
            Change::MemberLeft {
                group: "app".into(),
                member: "m10".into(),
                process: "p-m10".into()
            },
        ]
    );
}

#[test]
fn a_member_on_its_way_to_the_target_reports_its_progress() {
    // The target epoch moves to 4: m1 must give up task 1 to the new member.
    let a = group("Stable", 3, 3, vec![member("m1", 3, &[0, 1], &[0, 1])]);
    let b = group("Reconciling", 4, 4, vec![member("m1", 3, &[0, 1], &[0])]);
    let got = group_changes(&a, &b);
    let progress = |epoch, owned, revoke| Progress {
        member_epoch: epoch,
        target_epoch: 4,
        target_tasks: 1,
        owned_of_target: owned,
        to_revoke: revoke,
    };
    assert!(got.contains(&Change::MemberProgress {
        group: "app".into(),
        member: "m1".into(),
        progress: progress(3, 1, 1)
    }));
    assert!(!progress(3, 1, 1).caught_up());
    // It revokes task 1 and moves to epoch 4: caught up.
    let c = group("Stable", 4, 4, vec![member("m1", 4, &[0], &[0])]);
    let got = group_changes(&b, &c);
    assert!(got.contains(&Change::MemberEpoch {
        group: "app".into(),
        member: "m1".into(),
        from: 3,
        to: 4
    }));
    assert!(got.contains(&Change::MemberProgress {
        group: "app".into(),
        member: "m1".into(),
        progress: progress(4, 1, 0)
    }));
    assert!(progress(4, 1, 0).caught_up());
}

#[test]
fn an_epoch_bump_alone_is_progress_when_it_reaches_the_target() {
    let b = group("Reconciling", 5, 5, vec![member("m1", 4, &[0], &[0])]);
    let c = group("Stable", 5, 5, vec![member("m1", 5, &[0], &[0])]);
    let got = group_changes(&b, &c);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(matches!(got[2], Change::MemberProgress { progress, .. } if progress.caught_up()));
}

#[test]
fn total_lag_is_a_change_and_unknown_lag_is_none() {
    let a = with_lag(group("Stable", 1, 1, vec![]), 5);
    let b = with_lag(group("Stable", 1, 1, vec![]), 0);
    assert_eq!(
        group_changes(&a, &b),
        vec![Change::Lag {
            group: "app".into(),
            from: Some(5),
            to: Some(0)
        }]
    );
    let mut unknown = b.clone();
    unknown.offsets[0].lag = None;
    assert_eq!(total_lag(&unknown), None);
    assert_eq!(total_lag(&group("Empty", 1, 1, vec![])), Some(0));
}

#[test]
fn a_member_that_joined_after_the_target_was_computed_waits_for_its_first_target() {
    let a = group("Stable", 3, 3, vec![member("m1", 3, &[0, 1], &[0, 1])]);
    // The assignment interval holds the next target back: m2 has the old target's epoch and
    // nothing, which is no target of its own.
    let b = group(
        "Assigning",
        4,
        3,
        vec![member("m1", 3, &[0, 1], &[0, 1]), member("m2", 3, &[], &[])],
    );
    let joined = |g: &GroupDescription| {
        group_changes(&a, g)
            .into_iter()
            .find_map(|c| match c {
                Change::MemberJoined {
                    waiting_for_first_target,
                    ..
                } => Some(waiting_for_first_target),
                _ => None,
            })
            .unwrap()
    };
    assert!(joined(&b));
    assert!(waits_for_first_target(&b, &b.members[1]));
    assert!(!waits_for_first_target(&b, &b.members[0]));
    // With a target computed since, an empty target is its own.
    let c = group(
        "Stable",
        4,
        4,
        vec![member("m1", 4, &[0, 1], &[0, 1]), member("m2", 4, &[], &[])],
    );
    assert!(!joined(&c));
}
