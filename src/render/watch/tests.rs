use super::*;
use model::group::{DescribedTopology, Snapshot};

fn group(epoch: i32, members: &[&str]) -> GroupDescription {
    let member = |id: &&str| model::group::MemberDescription {
        member_id: id.to_string(),
        member_epoch: epoch,
        instance_id: None,
        rack_id: None,
        client_id: String::new(),
        client_host: String::new(),
        topology_epoch: 0,
        process_id: format!("p-{id}"),
        user_endpoint: None,
        client_tags: Default::default(),
        task_offsets: Default::default(),
        task_end_offsets: Default::default(),
        assignment: Default::default(),
        target_assignment: Default::default(),
        is_classic: false,
        endpoint_partitions: None,
    };
    GroupDescription {
        member_order: Vec::new(),
        group_id: "app".into(),
        state: "Stable".into(),
        group_epoch: epoch,
        target_assignment_epoch: epoch,
        coordinator: None,
        topology: DescribedTopology::default(),
        members: members.iter().map(member).collect(),
        offsets: vec![],
        assignor: None,
        configs: None,
    }
}

fn sample(at_s: i64, g: GroupDescription) -> Sample {
    let snapshot = Snapshot {
        schema_version: 1,
        kafka_version: None,
        kafka_version_note: None,
        legacy_version_name: None,
        groups: vec![g],
    };
    Sample::new(at_s * 1000, snapshot, vec![])
}

const TABLE: &str = "GROUP  MEMBER  EPOCH\napp    m1      4\napp    m2      4\n";

fn frame_of(width: usize, height: usize) -> Option<String> {
    frame_waiting(width, height, None)
}

fn frame_waiting(width: usize, height: usize, waiting: Option<&str>) -> Option<String> {
    colored::control::set_override(false);
    let mut w = Watcher::new();
    w.observe(&sample(1, group(3, &["m1"])));
    let changes = w.observe(&sample(2, group(4, &["m1", "m2"])));
    frame(&Frame {
        title: "watch",
        watcher: &w,
        changes: &changes,
        recent: &[],
        table: TABLE,
        mark_by: MarkBy::Member,
        width,
        height,
        waiting,
    })
}

#[test]
fn the_frame_marks_the_new_member_and_the_epoch_change() {
    let text = frame_of(120, 40).unwrap();
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches("\x1b[K")).collect();
    assert_eq!(lines[0], "watch");
    assert!(lines[1].contains("group epoch 4 (was 3)"), "{text}");
    assert!(lines[1].contains("members 2 (+1)"), "{text}");
    assert!(
        lines[2].contains("Stable 3/3 › 00:00:02 Stable 4/4"),
        "{text}"
    );
    assert!(lines.contains(&"+ app    m2      4"), "{text}");
    assert!(lines.contains(&"* app    m1      4"), "{text}");
    let log = lines.iter().position(|l| l.starts_with("Changes")).unwrap();
    assert_eq!(lines[log + 1], "> 00:00:02 app: group epoch 3 -> 4");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("> 00:00:02 app: member joined: m2")),
        "{text}"
    );
}

#[test]
fn too_narrow_is_no_frame_and_too_short_cuts_rows_not_the_header() {
    assert_eq!(frame_of(20, 40), None);
    let short = frame_of(120, 7).unwrap();
    assert!(
        short.contains("more row(s): the terminal is too short"),
        "{short}"
    );
    assert!(short.lines().count() <= 6, "{short}");
}

#[test]
fn lines_are_timestamped_changes() {
    let mut w = Watcher::new();
    let first = sample(1, group(3, &["m1"]));
    w.observe(&first);
    assert_eq!(
        start_lines(&first),
        "1970-01-01T00:00:01.000Z app: Stable, group epoch 3, target assignment epoch 3, \
         topology epoch 0, 1 member(s), lag 0\n"
    );
    let next = sample(2, group(4, &["m1"]));
    let text = change_lines(&next, &w.observe(&next));
    assert!(
        text.starts_with("1970-01-01T00:00:02.000Z app: group epoch 3 -> 4\n"),
        "{text}"
    );
    assert_eq!(visible_width("\x1b[1;33m*\x1b[0m ab"), 4);
}

fn node(id: i32) -> CoordinatorNode {
    CoordinatorNode {
        id,
        host: "localhost".into(),
        port: 9090 + id,
    }
}

#[test]
fn a_late_sample_says_what_it_waits_for_since_when_and_how_it_retries() {
    let groups = vec!["demo".to_string()];
    let mut w = Wait::new(63_613_250, Awaited::Coordinator { groups });
    assert_eq!(
        waiting_line(&w, 63_614_750),
        "waiting since 17:40:13.250 for the coordinator of demo (not found yet): 1.5 s so far, \
         no answer yet"
    );
    w.broker = Some(node(2));
    w.retries = 3;
    w.last_retry = Some("coordinator 2 of `demo`: refused; retrying".into());
    assert_eq!(
        waiting_line(&w, 63_614_750),
        "waiting since 17:40:13.250 for the coordinator of demo (broker 2 at localhost:9092): \
         1.5 s so far, retrying (3 retries, last: coordinator 2 of `demo`: refused; retrying)"
    );
    let servers = vec!["a:9092".to_string(), "b:9092".to_string()];
    let boot = Wait::new(0, Awaited::Bootstrap { servers });
    assert_eq!(
        awaited_text(&boot),
        "the bootstrap servers (a:9092, b:9092)"
    );
    let mut any = Wait::new(0, Awaited::Broker);
    assert_eq!(awaited_text(&any), "a broker's answer");
    any.broker = Some(node(3));
    assert_eq!(awaited_text(&any), "broker 3 at localhost:9093");
    w.brokers = vec![node(2), node(3)];
    assert_eq!(
        awaited_all_text(&w),
        "the coordinator of demo (broker 2 at localhost:9092, then broker 3 at localhost:9093)"
    );
}

#[test]
fn the_frame_shows_the_wait_under_its_title_and_a_move_names_both_brokers() {
    let text = frame_waiting(120, 40, Some("waiting since 00:00:02.500 for ...")).unwrap();
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches("\x1b[K")).collect();
    assert_eq!(lines[1], "… waiting since 00:00:02.500 for ...");
    assert!(lines[2].starts_with("app  Stable"), "{text}");
    let moved = Change::CoordinatorMoved {
        group: "app".into(),
        from: node(2),
        to: node(1),
    };
    assert_eq!(
        change_text(&moved),
        "app: coordinator moved: broker 2 (localhost:9092) -> broker 1 (localhost:9091)"
    );
}
