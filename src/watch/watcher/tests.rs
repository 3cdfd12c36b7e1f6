use super::*;
use crate::watch::fixtures::{group, member, sample};

#[test]
fn the_first_sample_has_no_changes_and_starts_the_history() {
    let mut w = Watcher::new();
    let s = sample(
        1,
        vec![group(
            "Stable",
            3,
            3,
            vec![member("m1", 3, &[0, 1], &[0, 1])],
        )],
    );
    assert_eq!(w.observe(&s), vec![]);
    assert_eq!(w.history("app").len(), 1);
    assert_eq!(w.observe(&sample(2, s.snapshot.groups.clone())), vec![]);
    assert_eq!(
        w.history("app").len(),
        1,
        "an unchanged sample adds no point"
    );
}

#[test]
fn a_task_revoked_then_assigned_later_moved_from_its_last_owner() {
    let mut w = Watcher::new();
    w.observe(&sample(
        1,
        vec![group(
            "Stable",
            3,
            3,
            vec![member("m1", 3, &[0, 1], &[0, 1])],
        )],
    ));
    // m2 joins; m1 revokes task 1 first...
    let revoked = vec![member("m1", 4, &[0], &[0]), member("m2", 4, &[], &[1])];
    let got = w.observe(&sample(2, vec![group("Reconciling", 4, 4, revoked)]));
    assert!(
        !got.iter().any(|c| matches!(c, Change::TaskMoved { .. })),
        "{got:?}"
    );
    // ...and m2 gets it a sample later.
    let assigned = vec![member("m1", 4, &[0], &[0]), member("m2", 4, &[1], &[1])];
    let got = w.observe(&sample(3, vec![group("Stable", 4, 4, assigned)]));
    assert!(
        got.contains(&Change::TaskMoved {
            group: "app".into(),
            task: "0_1".into(),
            role: TaskRole::Active,
            from: vec!["m1".into()],
            to: vec!["m2".into()],
        }),
        "{got:?}"
    );
    let points: Vec<(&str, i32, i32)> = w
        .history("app")
        .iter()
        .map(|p| (p.state.as_str(), p.group_epoch, p.target_epoch))
        .collect();
    assert_eq!(
        points,
        vec![("Stable", 3, 3), ("Reconciling", 4, 4), ("Stable", 4, 4)]
    );
}

#[test]
fn an_outage_is_two_changes_and_what_changed_meanwhile_is_seen_after_it() {
    let mut w = Watcher::new();
    w.observe(&sample(1, vec![group("Stable", 3, 3, vec![])]));
    let down = Sample::failed(2000, "cannot connect to 127.0.0.1:9092: connection refused");
    assert_eq!(
        w.observe(&down),
        vec![Change::Unreachable {
            error: "cannot connect to 127.0.0.1:9092: connection refused".into()
        }]
    );
    assert!(w.is_unreachable());
    assert_eq!(w.observe(&Sample::failed(3000, "again")), vec![]);
    let got = w.observe(&sample(4, vec![group("Stable", 5, 5, vec![])]));
    assert_eq!(got[0], Change::Reachable);
    assert!(got.contains(&Change::GroupEpoch {
        group: "app".into(),
        from: 3,
        to: 5
    }));
    assert_eq!(w.last().unwrap().sampled_at_ms, 4000);
}

#[test]
fn groups_appear_and_go_with_their_error() {
    let mut w = Watcher::new();
    w.observe(&sample(1, vec![]));
    let got = w.observe(&sample(2, vec![group("Empty", 1, 1, vec![])]));
    assert_eq!(
        got,
        vec![Change::GroupAppeared {
            group: "app".into()
        }]
    );
    let mut gone = sample(3, vec![]);
    gone.group_errors.push(crate::watch::sample::GroupError {
        group_id: "app".into(),
        error: "GROUP_ID_NOT_FOUND".into(),
    });
    assert_eq!(
        w.observe(&gone),
        vec![Change::GroupGone {
            group: "app".into(),
            error: Some("GROUP_ID_NOT_FOUND".into())
        }]
    );
}

#[test]
fn the_history_keeps_the_latest_points() {
    let mut w = Watcher::new();
    for e in 0..(HISTORY_LEN as i32 + 5) {
        w.observe(&sample(e.into(), vec![group("Stable", e, e, vec![])]));
    }
    let h = w.history("app");
    assert_eq!(h.len(), HISTORY_LEN);
    assert_eq!(h.last().unwrap().group_epoch, HISTORY_LEN as i32 + 4);
}
