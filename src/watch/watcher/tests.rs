use super::*;
use crate::watch::fixtures::{group, member, member_at, sample};
use model::movement::{compose, diff_owners};
use model::Assignment;
use proptest::prelude::*;

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

/// The task moves of `changes`, as `diff assignment` writes them.
fn moves_of(changes: &[Change]) -> Vec<TaskMove> {
    changes
        .iter()
        .filter_map(|c| match c {
            Change::TaskMoved {
                task,
                role,
                from,
                to,
                ..
            } => Some(TaskMove {
                task: task.clone(),
                role: *role,
                from: from.clone(),
                to: to.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// Every move the watch reports over `samples` (of group "app"), and what is left unpaired.
fn watched(samples: &[Sample]) -> (Vec<TaskMove>, Vec<TaskMove>) {
    let mut w = Watcher::new();
    let mut moves = Vec::new();
    for s in samples {
        moves.extend(moves_of(&w.observe(s)));
    }
    let unpaired = w.unpaired().into_iter().map(|(_, m)| m).collect();
    (moves, unpaired)
}

/// `diff_owners` of the group's members' current assignments in two samples.
fn diff_of(a: &Sample, b: &Sample) -> Vec<TaskMove> {
    let of = |s: &Sample| -> BTreeMap<String, Assignment> {
        s.group("app")
            .unwrap()
            .members
            .iter()
            .map(|m| (m.member_id.clone(), m.assignment.clone()))
            .collect()
    };
    diff_owners(&of(a), &of(b)).moves
}

fn standby_move(task: &str, from: &str, to: &str) -> TaskMove {
    TaskMove {
        task: task.into(),
        role: TaskRole::Standby,
        from: vec![from.into()],
        to: vec![to.into()],
    }
}

fn stable(s: i64, members: Vec<model::group::MemberDescription>) -> Sample {
    sample(s, vec![group("Stable", 3, 3, members)])
}

#[test]
fn a_standby_its_new_owner_held_first_moves_when_the_old_owner_drops_it() {
    let samples = vec![
        stable(
            1,
            vec![member_at("m1", &[0], &[1]), member_at("m2", &[1], &[0])],
        ),
        // m3 joins and takes both standbys at once; m1 and m2 still hold them.
        stable(
            2,
            vec![
                member_at("m1", &[0], &[1]),
                member_at("m2", &[1], &[0]),
                member_at("m3", &[], &[0, 1]),
            ],
        ),
        // m2 lets go of its standby first, m1 a sample later.
        stable(
            3,
            vec![
                member_at("m1", &[0], &[1]),
                member_at("m2", &[1], &[]),
                member_at("m3", &[], &[0, 1]),
            ],
        ),
        stable(
            4,
            vec![
                member_at("m1", &[0], &[]),
                member_at("m2", &[1], &[]),
                member_at("m3", &[], &[0, 1]),
            ],
        ),
    ];
    let mut w = Watcher::new();
    let per_sample: Vec<Vec<TaskMove>> = samples.iter().map(|s| moves_of(&w.observe(s))).collect();
    assert_eq!(
        per_sample,
        vec![
            vec![],
            vec![],
            vec![standby_move("0_0", "m2", "m3")],
            vec![standby_move("0_1", "m1", "m3")],
        ]
    );
    assert!(w.unpaired().is_empty());
    let (moves, _) = watched(&samples);
    assert_eq!(compose(&moves), compose(&diff_of(&samples[0], &samples[3])));
}

#[test]
fn an_active_task_revoked_and_assigned_in_one_sample_moves_once() {
    let samples = vec![
        stable(
            1,
            vec![member_at("m1", &[0, 1], &[]), member_at("m2", &[], &[])],
        ),
        stable(
            2,
            vec![member_at("m1", &[0], &[]), member_at("m2", &[1], &[])],
        ),
    ];
    let (moves, unpaired) = watched(&samples);
    let want = TaskMove {
        role: TaskRole::Active,
        ..standby_move("0_1", "m1", "m2")
    };
    assert_eq!(moves, vec![want]);
    assert!(unpaired.is_empty());
    assert_eq!(diff_of(&samples[0], &samples[1]), moves);
}

#[test]
fn a_task_that_moves_twice_composes_to_one_move_from_first_to_last() {
    let samples = vec![
        stable(
            1,
            vec![
                member_at("a", &[], &[0]),
                member_at("b", &[], &[]),
                member_at("c", &[], &[]),
            ],
        ),
        stable(
            2,
            vec![
                member_at("a", &[], &[0]),
                member_at("b", &[], &[0]),
                member_at("c", &[], &[]),
            ],
        ),
        stable(
            3,
            vec![
                member_at("a", &[], &[]),
                member_at("b", &[], &[0]),
                member_at("c", &[], &[]),
            ],
        ),
        stable(
            4,
            vec![
                member_at("a", &[], &[]),
                member_at("b", &[], &[]),
                member_at("c", &[], &[]),
            ],
        ),
        stable(
            5,
            vec![
                member_at("a", &[], &[]),
                member_at("b", &[], &[]),
                member_at("c", &[], &[0]),
            ],
        ),
    ];
    let (moves, unpaired) = watched(&samples);
    assert_eq!(
        moves,
        vec![standby_move("0_0", "a", "b"), standby_move("0_0", "b", "c")]
    );
    assert!(unpaired.is_empty());
    let diff = diff_of(&samples[0], &samples[4]);
    assert_eq!(diff, vec![standby_move("0_0", "a", "c")]);
    assert_eq!(compose(&moves), compose(&diff));
}

#[test]
fn a_replica_added_with_no_one_giving_it_up_is_no_move_but_is_left_unpaired() {
    let samples = vec![
        stable(1, vec![member_at("a", &[], &[0]), member_at("b", &[], &[])]),
        stable(2, vec![member_at("a", &[], &[]), member_at("b", &[], &[])]),
        stable(3, vec![member_at("a", &[], &[]), member_at("b", &[], &[0])]),
        stable(
            4,
            vec![member_at("a", &[], &[0]), member_at("b", &[], &[0])],
        ),
    ];
    let (moves, unpaired) = watched(&samples);
    assert_eq!(moves, vec![standby_move("0_0", "a", "b")]);
    let added = TaskMove {
        from: vec![],
        ..standby_move("0_0", "-", "a")
    };
    assert_eq!(unpaired, vec![added]);
    let all: Vec<TaskMove> = moves.into_iter().chain(unpaired).collect();
    assert_eq!(compose(&all), compose(&diff_of(&samples[0], &samples[3])));
}

/// A random sample of group "app": members m1..m4 each present or not, owning random active
/// and standby tasks of 0_0..0_3 (several owners of one active too: the watch takes what it
/// is shown).
fn random_sample(s: i64, bits: &[u8; 4]) -> Sample {
    let members = (0..4)
        .filter(|i| bits[*i] & 1 == 1)
        .map(|i| {
            let tasks = |shift: u8| -> Vec<i32> {
                (0..4)
                    .filter(|p| bits[i] >> (shift + *p as u8) & 1 == 1)
                    .collect()
            };
            member_at(&format!("m{}", i + 1), &tasks(1), &tasks(4))
        })
        .collect();
    stable(s, members)
}

proptest! {
    /// The moves a watch reports from the first sample to the last, then what is left unpaired,
    /// compose to the moves `diff assignment` finds between those two samples; with as many
    /// owners of each task in each role at the end as at the start, nothing is left unpaired
    /// and the moves alone compose to the diff. Each move has as many owners losing the task as
    /// gaining it.
    #[test]
    fn the_moves_of_a_watch_compose_to_the_diff_of_its_first_and_last_sample(
        steps in proptest::collection::vec(proptest::array::uniform4(0u8..128), 2..12)
    ) {
        let samples: Vec<Sample> = steps
            .iter()
            .enumerate()
            .map(|(i, bits)| random_sample(i as i64 + 1, bits))
            .collect();
        let (moves, unpaired) = watched(&samples);
        for m in &moves {
            prop_assert_eq!(m.from.len(), m.to.len(), "{:?}", m);
            prop_assert!(!m.from.is_empty());
        }
        let diff = compose(&diff_of(&samples[0], samples.last().unwrap()));
        let all: Vec<TaskMove> = moves.iter().cloned().chain(unpaired.iter().cloned()).collect();
        prop_assert_eq!(compose(&all), diff.clone());
        let counts = |s: &Sample| owners_of(s.group("app").unwrap())
            .into_iter()
            .map(|(k, o)| (k, o.len()))
            .collect::<BTreeMap<_, _>>();
        if counts(&samples[0]) == counts(samples.last().unwrap()) {
            prop_assert!(unpaired.is_empty(), "{:?}", unpaired);
            prop_assert_eq!(compose(&moves), diff);
        }
    }
}

#[test]
fn the_coordinator_moving_is_a_change_even_across_samples_that_lost_the_group() {
    use crate::watch::fixtures::{broker, coordinated_by};
    let stable = || group("Stable", 3, 3, vec![member("m1", 3, &[0], &[0])]);
    let mut w = Watcher::new();
    assert_eq!(
        w.observe(&sample(1, vec![coordinated_by(stable(), 2)])),
        vec![]
    );
    // The same broker again, and a sample without a coordinator (an old recording): no move.
    assert_eq!(
        w.observe(&sample(2, vec![coordinated_by(stable(), 2)])),
        vec![]
    );
    assert_eq!(w.observe(&sample(3, vec![stable()])), vec![]);
    // Broker 2 is killed: the group is not described for a while, then by broker 1.
    let gone = w.observe(&sample(4, vec![]));
    assert!(matches!(gone[..], [Change::GroupGone { .. }]), "{gone:?}");
    let back = w.observe(&sample(5, vec![coordinated_by(stable(), 1)]));
    let moved = Change::CoordinatorMoved {
        group: "app".into(),
        from: broker(2),
        to: broker(1),
    };
    assert_eq!(
        back,
        vec![
            Change::GroupAppeared {
                group: "app".into()
            },
            moved
        ]
    );
    assert_eq!(
        w.observe(&sample(6, vec![coordinated_by(stable(), 1)])),
        vec![]
    );
}
