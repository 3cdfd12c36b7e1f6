use super::super::{
    AssignmentConfigs, GroupSpec, MemberSpec, ShippedVersion, SubtopologySpec, TaskAssignor,
};
use super::StickyAssignor;

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
