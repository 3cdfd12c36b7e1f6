use super::*;
use crate::watch::fixtures::{group, member, sample};

fn scale_out() -> Vec<Sample> {
    vec![
        sample(
            10,
            vec![group(
                "Stable",
                3,
                3,
                vec![member("m1", 3, &[0, 1], &[0, 1])],
            )],
        ),
        sample(
            11,
            vec![group(
                "Stable",
                3,
                3,
                vec![member("m1", 3, &[0, 1], &[0, 1])],
            )],
        ),
        sample(
            12,
            vec![group(
                "Reconciling",
                4,
                4,
                vec![member("m1", 3, &[0, 1], &[0]), member("m2", 4, &[], &[1])],
            )],
        ),
        sample(
            13,
            vec![group(
                "Reconciling",
                4,
                4,
                vec![member("m1", 4, &[0], &[0]), member("m2", 4, &[], &[1])],
            )],
        ),
        sample(
            15,
            vec![group(
                "Stable",
                4,
                4,
                vec![member("m1", 4, &[0], &[0]), member("m2", 4, &[1], &[1])],
            )],
        ),
    ]
}

fn kinds(r: &TimelineReport) -> Vec<String> {
    r.events
        .iter()
        .map(|e| {
            let v = serde_json::to_value(e).unwrap();
            format!(
                "{}@{}",
                v["what"]["kind"].as_str().unwrap(),
                e.after_ms / 1000
            )
        })
        .collect()
}

#[test]
fn a_scale_out_replays_as_join_epochs_move_catch_ups_and_stable_again() {
    let r = build("rec.jsonl", &scale_out());
    assert_eq!((r.samples, r.duration_ms), (5, 5000));
    assert_eq!(
        kinds(&r),
        vec![
            "start@0",
            "state@2",
            "group_epoch@2",
            "target_assignment_epoch@2",
            "member_joined@2",
            "member_reached_target@3",
            "state@5",
            "task_moved@5",
            "member_reached_target@5",
            "stable_again@5",
        ]
    );
    let took: Vec<(&str, Option<i64>)> = r
        .catch_ups
        .iter()
        .map(|c| (c.member.as_str(), c.took_ms))
        .collect();
    assert_eq!(took, vec![("m1", Some(1000)), ("m2", Some(3000))]);
    assert!(r.events.iter().any(|e| e.what
        == Happening::Milestone(Milestone::StableAgain {
            group: "app".into(),
            group_epoch: 4,
            after_ms: 3000
        })));
}

#[test]
fn a_member_that_leaves_or_is_still_behind_at_the_end_has_no_time() {
    let mut samples = scale_out();
    samples.truncate(3);
    samples.push(sample(
        14,
        vec![group(
            "Reconciling",
            5,
            5,
            vec![member("m1", 4, &[0], &[0, 1])],
        )],
    ));
    let r = build("rec.jsonl", &samples);
    let open: Vec<(&str, Option<i64>)> = r
        .catch_ups
        .iter()
        .map(|c| (c.member.as_str(), c.took_ms))
        .collect();
    assert_eq!(open, vec![("m2", None), ("m1", None)]);
    assert!(kinds(&r).contains(&"member_left@4".to_string()));
}

#[test]
fn a_member_that_joined_after_the_target_waits_for_its_first_target() {
    let samples = vec![
        sample(
            10,
            vec![group(
                "Stable",
                3,
                3,
                vec![member("m1", 3, &[0, 1], &[0, 1])],
            )],
        ),
        // m2 joined; the assignment interval holds the next target back: m2 is at the old
        // target's epoch with nothing, which is no target of its own.
        sample(
            11,
            vec![group(
                "Reconciling",
                4,
                3,
                vec![member("m1", 3, &[0, 1], &[0, 1]), member("m2", 3, &[], &[])],
            )],
        ),
        sample(
            12,
            vec![group(
                "Reconciling",
                4,
                4,
                vec![member("m1", 3, &[0, 1], &[0]), member("m2", 4, &[], &[1])],
            )],
        ),
        sample(
            14,
            vec![group(
                "Stable",
                4,
                4,
                vec![member("m1", 4, &[0], &[0]), member("m2", 4, &[1], &[1])],
            )],
        ),
    ];
    let r = build("rec.jsonl", &samples);
    assert_eq!(
        kinds(&r),
        vec![
            "start@0",
            "state@1",
            "group_epoch@1",
            "member_joined@1",
            "member_waiting_for_first_target@1",
            "target_assignment_epoch@2",
            "state@4",
            "task_moved@4",
            "member_reached_target@4",
            "member_reached_target@4",
            "stable_again@4",
        ]
    );
    assert!(r.events.iter().any(|e| e.what
        == Happening::Milestone(Milestone::MemberWaitingForFirstTarget {
            group: "app".into(),
            member: "m2".into(),
            group_epoch: 4,
            target_epoch: 3,
        })));
    let took: Vec<(&str, i32, Option<i64>)> = r
        .catch_ups
        .iter()
        .map(|c| (c.member.as_str(), c.target_epoch, c.took_ms))
        .collect();
    assert_eq!(took, vec![("m1", 4, Some(2000)), ("m2", 4, Some(2000))]);
    assert!(r.unpaired.is_empty());
}

#[test]
fn a_member_still_waiting_at_the_end_is_on_no_way_to_a_target() {
    let samples = vec![
        sample(
            10,
            vec![group("Stable", 3, 3, vec![member("m1", 3, &[0], &[0])])],
        ),
        sample(
            11,
            vec![group(
                "Reconciling",
                4,
                3,
                vec![member("m1", 3, &[0], &[0]), member("m2", 3, &[], &[])],
            )],
        ),
    ];
    let r = build("rec.jsonl", &samples);
    assert!(!kinds(&r).contains(&"member_reached_target@1".to_string()));
    assert!(r.catch_ups.is_empty(), "{:?}", r.catch_ups);
}

#[test]
fn a_late_sample_tells_what_it_waited_for_before_the_coordinator_moved() {
    use crate::watch::fixtures::{coordinated_by, coordinator_wait};
    use crate::watch::sample::Waited;
    let stable = || group("Stable", 3, 3, vec![member("m1", 3, &[0], &[0])]);
    let mut late = sample(14, vec![coordinated_by(stable(), 1)]);
    late.waited = Some(Waited::until(
        coordinator_wait(10_500, 2, 7),
        late.sampled_at_ms,
    ));
    let samples = vec![sample(10, vec![coordinated_by(stable(), 2)]), late];
    let report = build("r.jsonl", &samples);
    let whats: Vec<(i64, &Happening)> = report.events.iter().map(|e| (e.at_ms, &e.what)).collect();
    let Some((at, Happening::Milestone(Milestone::SampleLate { waited }))) = whats.get(1) else {
        panic!("{whats:?}")
    };
    assert_eq!(
        (*at, waited.waited_ms, waited.wait.retries),
        (10_500, 3500, 7)
    );
    assert!(
        matches!(
            whats[2],
            (14_000, Happening::Change(Change::CoordinatorMoved { .. }))
        ),
        "{whats:?}"
    );
}
