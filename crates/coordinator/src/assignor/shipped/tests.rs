use super::super::{
    AssignmentConfigs, GroupSpec, MemberSpec, ShippedVersion, SubtopologySpec, TaskAssignor,
};
use super::StickyAssignor;
use crate::java::IdentityHashes;

/// The README's example: 6 single-thread processes, subtopology "0" stateless and "1"
/// stateful with 8 tasks each, no standbys, nothing assigned yet.
pub(crate) fn readme_example() -> GroupSpec {
    GroupSpec {
        members: (1..=6)
            .map(|i| MemberSpec {
                member_id: format!("p{i}-t1"),
                process_id: format!("p{i}"),
                ..Default::default()
            })
            .collect(),
        subtopologies: vec![
            SubtopologySpec {
                id: "0".into(),
                num_tasks: 8,
                stateful: false,
            },
            SubtopologySpec {
                id: "1".into(),
                num_tasks: 8,
                stateful: true,
            },
        ],
        configs: AssignmentConfigs::default(),
    }
}

/// What Apache 4.3.1 and 4.4.0 compute for it (run on the JVM, see the reference notes).
#[test]
fn readme_example_matches_apache() {
    let expected = [
        ("p1-t1", "0:[0]; 1:[1]"),
        ("p2-t1", "0:[2]; 1:[0,6]"),
        ("p3-t1", "0:[5,7]"),
        ("p4-t1", "0:[3]; 1:[3,5]"),
        ("p5-t1", "0:[4,6]; 1:[7]"),
        ("p6-t1", "0:[1]; 1:[2,4]"),
    ];
    for version in [ShippedVersion::V4_3, ShippedVersion::V4_4] {
        let out = StickyAssignor::new(version)
            .assign(&readme_example())
            .expect("assign");
        let got: Vec<(String, String)> = out
            .iter()
            .map(|(m, a)| (m.clone(), a.active.compact()))
            .collect();
        let want: Vec<(String, String)> = expected
            .iter()
            .map(|(m, a)| (m.to_string(), a.to_string()))
            .collect();
        assert_eq!(got, want, "{version}");
        assert!(out.values().all(|a| a.standby.is_empty()));
    }
}

#[test]
fn not_enough_capacity_is_a_warning() {
    let mut spec = readme_example();
    spec.members.truncate(1);
    spec.configs.num_standby_replicas = 1;
    let out = StickyAssignor::default()
        .assign_with_warnings(&spec)
        .expect("assign");
    assert_eq!(out.warnings.len(), 8);
    assert!(
        out.warnings[0].starts_with("Unable to assign 1 of 1 standby tasks for task [1_7]."),
        "{}",
        out.warnings[0]
    );
    assert_eq!(out.assignment["p1-t1"].active.len(), 16);
}

#[test]
fn no_members_with_tasks_is_apaches_error() {
    let mut spec = readme_example();
    spec.members.clear();
    let err = StickyAssignor::default().assign(&spec).unwrap_err();
    assert_eq!(
        err.message,
        "No process available to assign active task 0_0."
    );
}

/// 4.1.2 on the README example with one standby, as a JDK 17 JVM computed it: the oracle's
/// reply, with the identity hashes its thread drew right before the assignment.
#[test]
fn v41_matches_apache_given_the_jvm_identity_hashes() {
    let mut spec = readme_example();
    spec.configs.num_standby_replicas = 1;
    let samples = [
        997_850_486,
        1_221_027_335,
        1_129_944_640,
        528_591_360,
        1_801_942_731,
        409_195_262,
        394_771_492,
        88_397_182,
    ];
    let hashes = IdentityHashes::from_samples(&samples).expect("one state fits");
    let out = StickyAssignor::new(ShippedVersion::V4_1)
        .with_identity_hashes(hashes)
        .assign_with_warnings(&spec)
        .expect("assign");
    let expected = [
        ("p1-t1", "0:[0]; 1:[5,7]", "1:[6]"),
        ("p2-t1", "1:[0,4]", "1:[1,3]"),
        ("p3-t1", "0:[4,6]; 1:[2]", "1:[5]"),
        ("p4-t1", "0:[3]; 1:[1]", "1:[2,4]"),
        ("p5-t1", "0:[2,5]; 1:[6]", "1:[7]"),
        ("p6-t1", "0:[1,7]; 1:[3]", "1:[0]"),
    ];
    let got: Vec<(String, String, String)> = out
        .assignment
        .iter()
        .map(|(m, a)| (m.clone(), a.active.compact(), a.standby.compact()))
        .collect();
    let want: Vec<(String, String, String)> = expected
        .iter()
        .map(|(m, a, s)| (m.to_string(), a.to_string(), s.to_string()))
        .collect();
    assert_eq!(got, want);
    assert!(out.warnings.is_empty());
}

/// 4.1 names tasks the record way and walks them in `HashSet` order: 1_1, 1_2, 1_0 (the JVM's
/// warnings, in its order).
#[test]
fn v41_warnings_and_error_are_apaches() {
    let spec = GroupSpec {
        members: vec![MemberSpec {
            member_id: "p1-t1".into(),
            process_id: "p1".into(),
            ..Default::default()
        }],
        subtopologies: vec![
            SubtopologySpec {
                id: "0".into(),
                num_tasks: 2,
                stateful: false,
            },
            SubtopologySpec {
                id: "1".into(),
                num_tasks: 3,
                stateful: true,
            },
        ],
        configs: AssignmentConfigs {
            num_standby_replicas: 1,
            ..Default::default()
        },
    };
    let v41 = StickyAssignor::new(ShippedVersion::V4_1);
    let out = v41.assign_with_warnings(&spec).expect("assign");
    let tasks: Vec<&str> = out
        .warnings
        .iter()
        .map(|w| {
            assert!(w.ends_with(
                "]. There is not enough available capacity. You should increase the number of \
                 threads and/or application instances to maintain the requested number of \
                 standby replicas."
            ));
            &w["Unable to assign 1 of 1 standby tasks for task [".len()..w.find("]]").unwrap() + 1]
        })
        .collect();
    assert_eq!(
        tasks,
        [
            "TaskId[subtopologyId=1, partition=1]",
            "TaskId[subtopologyId=1, partition=2]",
            "TaskId[subtopologyId=1, partition=0]"
        ]
    );
    assert_eq!(out.assignment["p1-t1"].active.len(), 5);

    let mut empty = readme_example();
    empty.members.clear();
    assert_eq!(
        v41.assign(&empty).unwrap_err().message,
        "No member available to assign active task {}.TaskId[subtopologyId=1, partition=0]"
    );
}

/// The identity-hash state is part of 4.1's input, and nothing else's.
#[test]
fn only_v41_reads_the_identity_hashes() {
    let mut spec = readme_example();
    spec.configs.num_standby_replicas = 1;
    let other = IdentityHashes::new_thread(42);
    for version in ShippedVersion::ALL {
        let a = StickyAssignor::new(version).assign(&spec).expect("assign");
        let b = StickyAssignor::new(version)
            .with_identity_hashes(other)
            .assign(&spec)
            .expect("assign");
        assert_eq!(
            a == b,
            version != ShippedVersion::V4_1,
            "{version}: a fresh group's ties are settled by identity hashes in 4.1 only"
        );
    }
}
