//! Smoke test of the in-process oracle of Apache's streams group coordinator
//! (tests/support/gmm_oracle.rs): one scripted group history per Kafka version, asserting what
//! Apache's GroupMetadataManager answers. The assertions document Apache's behaviour as observed
//! by running it; `cargo test --test oracles gmm_smoke -- --nocapture` prints every step.

use std::collections::BTreeMap;

use model::{
    Assignment, ErrorCode, HeartbeatRequest, StatusCode, Subtopology, TaskSet, TopicInfo, Topology,
};

use crate::support;
use crate::support::gmm_oracle::{GmmOracle, OracleGroup, OracleOutcome};

const GROUP: &str = "app";

fn topology() -> Topology {
    Topology {
        epoch: 0,
        subtopologies: vec![
            Subtopology {
                id: "0".into(),
                source_topics: vec!["words".into()],
                repartition_sink_topics: vec!["app-repartition".into()],
                state_changelog_topics: vec![TopicInfo::named("app-s0-changelog")],
                ..Subtopology::default()
            },
            Subtopology {
                id: "1".into(),
                repartition_source_topics: vec![TopicInfo::named("app-repartition")],
                state_changelog_topics: vec![TopicInfo::named("app-counts-changelog")],
                ..Subtopology::default()
            },
        ],
    }
}

/// A simulated Streams client: it owns exactly what the last response with task lists gave it.
struct Client {
    member_id: String,
    process_id: String,
    epoch: i32,
    owned: Assignment,
}

struct Script {
    apache: GmmOracle,
    clients: BTreeMap<String, Client>,
}

impl Script {
    fn new(version: &str) -> Script {
        let apache = GmmOracle::start(version, &[]);
        println!(
            "== Kafka {version}: StreamsGroupHeartbeat v{}",
            apache.heartbeat_version
        );
        Script {
            apache,
            clients: BTreeMap::new(),
        }
    }

    fn request(&self, member: &str, topology: Option<Topology>) -> HeartbeatRequest {
        let c = &self.clients[member];
        let joining = c.epoch == 0;
        HeartbeatRequest {
            group_id: GROUP.into(),
            member_id: c.member_id.clone(),
            member_epoch: c.epoch,
            rebalance_timeout_ms: if joining { 60_000 } else { -1 },
            topology: if joining { topology } else { None },
            process_id: joining.then(|| c.process_id.clone()),
            active_tasks: Some(c.owned.active.clone()),
            standby_tasks: Some(c.owned.standby.clone()),
            warmup_tasks: Some(c.owned.warmup.clone()),
            ..HeartbeatRequest::default()
        }
    }

    /// One heartbeat; on success the client takes the epoch and any task lists it was sent.
    fn send_quietly(&mut self, member: &str, req: &HeartbeatRequest, now_ms: i64) -> OracleOutcome {
        let out = self.apache.heartbeat(req, now_ms, "client", "/127.0.0.1");
        let r = &out.response;
        if r.error.is_none() {
            let c = self.clients.get_mut(member).expect("client");
            c.epoch = r.member_epoch;
            if let (Some(a), Some(s), Some(w)) =
                (&r.active_tasks, &r.standby_tasks, &r.warmup_tasks)
            {
                c.owned = Assignment {
                    active: a.clone(),
                    standby: s.clone(),
                    warmup: w.clone(),
                };
            }
        }
        out
    }

    fn send(&mut self, member: &str, req: &HeartbeatRequest, now_ms: i64) -> OracleOutcome {
        let out = self.send_quietly(member, req, now_ms);
        print_outcome(member, now_ms, &out);
        out
    }

    /// A new client that has not joined yet.
    fn add_client(&mut self, member: &str, process_id: &str) {
        self.clients.insert(
            member.into(),
            Client {
                member_id: member.into(),
                process_id: process_id.into(),
                epoch: 0,
                owned: Assignment::default(),
            },
        );
    }

    fn join(&mut self, member: &str, now_ms: i64) -> OracleOutcome {
        self.add_client(member, &format!("process-{member}"));
        let req = self.request(member, Some(topology()));
        self.send(member, &req, now_ms)
    }

    fn beat(&mut self, member: &str, now_ms: i64) -> OracleOutcome {
        let req = self.request(member, None);
        self.send(member, &req, now_ms)
    }

    fn leave(&mut self, member: &str, now_ms: i64) -> OracleOutcome {
        let mut req = self.request(member, None);
        req.member_epoch = -1;
        let out = self.send(member, &req, now_ms);
        self.clients.remove(member);
        out
    }

    fn group(&mut self) -> OracleGroup {
        self.apache.describe(GROUP).expect("the group exists")
    }
}

fn tasks(t: &Option<TaskSet>) -> String {
    t.as_ref()
        .map_or("-".into(), |t| format!("[{}]", t.compact()))
}

fn print_outcome(member: &str, now_ms: i64, out: &OracleOutcome) {
    for t in &out.timers {
        println!(
            "   timer {} fired at {} ms (error: {:?})",
            t.key, t.at_ms, t.error
        );
    }
    let r = &out.response;
    let statuses: Vec<String> = r
        .status
        .iter()
        .flatten()
        .map(|s| format!("{:?}: {}", s.code, s.detail))
        .collect();
    println!(
        "t={now_ms:>6} {member}: error={:?} {:?} by={:?} epoch={} hb={} active={} standby={} statuses={statuses:?} create={:?}",
        r.error,
        r.error_message,
        out.rejected_by,
        r.member_epoch,
        r.heartbeat_interval_ms,
        tasks(&r.active_tasks),
        tasks(&r.standby_tasks),
        out.creatable_topics,
    );
    if let Some(g) = &out.group {
        print_group(g);
    }
}

fn print_group(g: &OracleGroup) {
    println!(
        "        group {} epoch={} assignment_epoch={} ts={:?} topology_epoch={:?} configured={:?} order={:?}",
        g.state,
        g.group_epoch,
        g.assignment_epoch,
        g.assignment_timestamp_ms,
        g.topology_epoch,
        g.configured,
        g.member_order
    );
    for (id, m) in &g.members {
        println!(
            "        {id}: {} epoch={} prev={} assigned=[{}] pending=[{}] target=[{}]",
            m.state,
            m.member_epoch,
            m.previous_member_epoch,
            m.assigned.active.compact(),
            m.pending_revocation.active.compact(),
            m.target.active.compact()
        );
    }
}

fn ts(spec: &[(&str, &[i32])]) -> TaskSet {
    spec.iter()
        .flat_map(|(s, ps)| ps.iter().map(move |p| (*s, *p)))
        .collect()
}

fn statuses(out: &OracleOutcome) -> Vec<(StatusCode, String)> {
    out.response
        .status
        .iter()
        .flatten()
        .map(|s| (s.code, s.detail.clone()))
        .collect()
}

const INITIAL_DELAY: &str = "Assignment delayed due to the configured initial rebalance delay.";
const INTERVAL_DELAY: &str = "Assignment delayed due to the configured assignment interval.";

/// The statuses of a response that has only ASSIGNMENT_DELAYED with this detail.
fn delayed(detail: &str) -> Vec<(StatusCode, String)> {
    vec![(StatusCode::AssignmentDelayed, detail.to_string())]
}

fn assert_ok(out: &OracleOutcome, epoch: i32) {
    let r = &out.response;
    assert_eq!(
        (r.error, &r.error_message, &out.rejected_by),
        (None, &None, &None)
    );
    assert_eq!(r.member_epoch, epoch, "member epoch");
    assert_eq!(
        r.heartbeat_interval_ms, 5000,
        "Apache's default heartbeat interval"
    );
}

fn assert_rejected(out: &OracleOutcome, code: ErrorCode, message: &str, by: &str) {
    let r = &out.response;
    assert_eq!(
        (
            r.error,
            r.error_message.as_deref(),
            out.rejected_by.as_deref()
        ),
        (Some(code), Some(message), Some(by))
    );
    // Error responses carry no member id and epoch 0 (GroupCoordinatorService / KafkaApis).
    assert_eq!((r.member_id.as_str(), r.member_epoch), ("", 0));
}

fn script(version: &str) {
    // 4.1 (streams groups in early access) has no initial rebalance delay, starts the group
    // epoch at 1, computes the target at once and runs the old sticky assignor (not
    // range-style); it does not store the last assignment configs (a changed group config does
    // not bump the group epoch) and zeroes the metadata hash in the epoch record when a member
    // leaves. 4.2 brought the initial rebalance delay (KIP-1071 follow-ups, KAFKA-19829) and the
    // first bump to epoch 2. 4.3 brought the assignment interval (KIP-1263) and
    // TargetAssignmentMetadata.INITIAL (assignment epoch 1); 4.4 accepts static members.
    let v41 = version.starts_with("4.1.");
    let v42 = version.starts_with("4.2.");
    let has_interval = !(v41 || v42);
    let initial_assignment_epoch = if v42 { 0 } else { 1 };
    let static_members = version == "4.4.0";
    // Group epochs after the joins: one less on 4.1 (first bump to 1, and b's join is a single
    // bump there as well).
    let e = |n: i32| if v41 { n - 1 } else { n };

    let mut s = Script::new(version);
    assert_eq!(s.apache.heartbeat_version, i16::from(version == "4.4.0"));
    s.apache
        .set_topics(&BTreeMap::from([("words".to_string(), 4)]));

    // The first member creates the group. The initial rebalance delay (3000 ms) is armed, the
    // internal topics are missing and reported for creation; the first bump goes to epoch 2.
    // 4.1: no delay, the first bump goes to 1 and the (empty) target is computed at once; the
    // missing topics are listed as a Java Set ("[a, b, c]").
    let a = s.join("a", 0);
    assert_ok(&a, 1);
    assert_eq!(a.response.active_tasks, Some(TaskSet::new()));
    if v41 {
        assert_eq!(
            statuses(&a),
            vec![(
                StatusCode::MissingInternalTopics,
                "Internal topics are missing: [app-counts-changelog, app-s0-changelog, app-repartition]".to_string()
            )]
        );
    } else {
        assert_eq!(
            statuses(&a),
            vec![
                (StatusCode::AssignmentDelayed, INITIAL_DELAY.to_string()),
                (
                    StatusCode::MissingInternalTopics,
                    "Internal topics are missing: app-counts-changelog, app-s0-changelog, app-repartition".to_string()
                ),
            ]
        );
    }
    let expected_topics: BTreeMap<String, (i32, i16)> = [
        "app-counts-changelog",
        "app-repartition",
        "app-s0-changelog",
    ]
    .iter()
    .map(|t| (t.to_string(), (4, -1)))
    .collect();
    assert_eq!(a.creatable_topics, expected_topics);
    let g = a.group.as_ref().expect("group created");
    assert_eq!(
        (g.state.as_str(), g.group_epoch, g.assignment_epoch),
        ("NOT_READY", e(2), initial_assignment_epoch)
    );
    // The first heartbeat works on a new StreamsGroup that is not in the groups map; replaying
    // its records builds another one, so the configured topology it computed is gone (soft state).
    assert_eq!(g.configured, None);
    assert_eq!(g.validated_topology_epoch, (!v41).then_some(-1));
    assert_eq!(g.member("a").state, "STABLE");

    let internal: BTreeMap<String, i32> = a
        .creatable_topics
        .iter()
        .map(|(n, (p, _))| (n.clone(), *p))
        .collect();
    s.apache.set_topics(&internal);

    // The second member joins: one bump for the new member and the new metadata hash.
    let b = s.join("b", 100);
    assert_ok(&b, if v41 { 2 } else { 1 });
    let g = b.group.as_ref().unwrap();
    assert_eq!(
        g.configured.as_ref().map(|c| (c.ready, c.tasks.clone())),
        Some((
            true,
            BTreeMap::from([("0".to_string(), 4), ("1".to_string(), 4)])
        ))
    );
    assert_eq!(
        g.member_order,
        ["b", "a"],
        "TimelineHashMap iteration order"
    );
    let half = |ps: &[i32]| ts(&[("0", ps), ("1", ps)]);
    if v41 {
        // No delay: the target is computed at once; b owns its target already (a owns
        // nothing), a must still pick its part up. No status at all (null, not []).
        // 4.1's sticky assignor is the old task-pair one: balanced, not range-style, and its
        // ties are broken in the iteration order of HashSets of objects without hashCode
        // (identity hashes), so which 4 tasks each member gets changes from JVM to JVM.
        assert_eq!(statuses(&b), vec![]);
        assert_eq!(
            b.response.status, None,
            "4.1 leaves Status null when there is none"
        );
        assert_eq!(
            (
                g.state.as_str(),
                g.group_epoch,
                g.assignment_epoch,
                g.validated_topology_epoch
            ),
            ("RECONCILING", 2, 2, None)
        );
        let a41 = g.member("a").target.active.clone();
        let b41 = g.member("b").target.active.clone();
        assert_eq!((a41.len(), b41.len()), (4, 4));
        assert!(a41.is_disjoint(&b41));
        assert_eq!(b.response.active_tasks, Some(b41.clone()));
        assert_eq!(g.member("b").active_task_epochs, None);
        let out = s.beat("a", 1000);
        assert_ok(&out, 2);
        assert_eq!(out.response.active_tasks, Some(a41.clone()));
        let out = s.beat("b", 1100);
        assert_ok(&out, 2);
        assert_eq!(out.response.active_tasks, None, "unchanged: no task lists");
        assert_eq!(out.group.as_ref().unwrap().state, "STABLE");
        // No timer: the initial rebalance delay does not exist.
        let fired = s.apache.advance(3000);
        assert_eq!(fired.timers, vec![]);
        assert_eq!(fired.groups[GROUP].assignment_timestamp_ms, None);
    } else {
        assert_eq!(statuses(&b), delayed(INITIAL_DELAY));
        assert_eq!(
            (g.state.as_str(), g.group_epoch, g.validated_topology_epoch),
            ("ASSIGNING", 3, Some(0))
        );
        for t in [1000, 2000] {
            for (m, dt) in [("a", 0), ("b", 100)] {
                let out = s.beat(m, t + dt);
                assert_ok(&out, 1);
                assert_eq!(statuses(&out), delayed(INITIAL_DELAY));
            }
        }

        // The initial delay ends: the timer computes the target for everyone.
        let fired = s.apache.advance(3000);
        assert_eq!(
            fired
                .timers
                .iter()
                .map(|t| (t.key.as_str(), t.at_ms, t.error.clone()))
                .collect::<Vec<_>>(),
            [("initial-rebalance-timeout-app", 3000, None)]
        );
        let g = &fired.groups[GROUP];
        assert_eq!((g.group_epoch, g.assignment_epoch), (3, 3));
        assert_eq!(g.assignment_timestamp_ms, has_interval.then_some(3000));
        assert_eq!(g.member("a").target.active, half(&[0, 2]));
        assert_eq!(g.member("b").target.active, half(&[1, 3]));

        let out = s.beat("a", 3500);
        assert_ok(&out, 3);
        assert_eq!(out.response.active_tasks, Some(half(&[0, 2])));
        assert_eq!(statuses(&out), vec![]);
        assert_eq!(out.response.status, Some(vec![]), "4.2+ always sets Status");
        let out = s.beat("b", 3600);
        assert_ok(&out, 3);
        assert_eq!(out.response.active_tasks, Some(half(&[1, 3])));
        assert_eq!(out.group.as_ref().unwrap().state, "STABLE");
    }

    // b leaves: +1, and a takes everything at its next heartbeat (nothing to revoke).
    let out = s.leave("b", 7200);
    assert_eq!((out.response.error, out.response.member_epoch), (None, -1));
    let g = out.group.as_ref().unwrap();
    assert_eq!(
        (g.state.as_str(), g.group_epoch, g.assignment_epoch),
        ("ASSIGNING", e(4), e(3))
    );
    assert_eq!(g.member_order, ["a"]);
    // 4.1's fencing writes the epoch record with metadata hash 0 (4.2+ keeps the hash).
    assert_eq!(g.metadata_hash == 0, v41);
    let out = s.beat("a", 7500);
    assert_ok(&out, e(4));
    assert_eq!(out.response.active_tasks, Some(half(&[0, 1, 2, 3])));
    assert_eq!(out.group.as_ref().unwrap().state, "STABLE");

    // c joins 200 ms after that target computation: within the assignment interval (4.3+).
    let c = s.join("c", 7700);
    if has_interval {
        assert_ok(&c, 4);
        assert_eq!(statuses(&c), delayed(INTERVAL_DELAY));
        let g = c.group.as_ref().unwrap();
        assert_eq!((g.group_epoch, g.assignment_epoch), (5, 4));
        let out = s.beat("a", 8200);
        assert_eq!(statuses(&out), delayed(INTERVAL_DELAY));
    } else {
        assert_ok(&c, e(5));
        assert_eq!(statuses(&c), vec![]);
        let g = c.group.as_ref().unwrap();
        assert_eq!((g.group_epoch, g.assignment_epoch), (e(5), e(5)));
        assert_eq!(g.member("c").state, "UNRELEASED_TASKS");
        let out = s.beat("a", 8200);
        // a must first revoke half of its tasks (UNREVOKED_TASKS, still the old epoch).
        assert_ok(&out, e(4));
        if !v41 {
            assert_eq!(out.response.active_tasks, Some(half(&[0, 1])));
        }
    }
    let mut t = 8200;
    s.beat("c", t + 50);
    for _ in 0..5 {
        t += 500;
        s.beat("a", t);
        s.beat("c", t + 50);
    }
    let g = s.group();
    assert_eq!(
        (g.state.as_str(), g.group_epoch, g.assignment_epoch),
        ("STABLE", e(5), e(5))
    );
    let (a_tasks, c_tasks) = (
        &g.member("a").assigned.active,
        &g.member("c").assigned.active,
    );
    if v41 {
        // Balanced (4 tasks each), all 8 tasks once; which ones is the old assignor's business.
        assert_eq!((a_tasks.len(), c_tasks.len()), (4, 4));
        assert!(a_tasks.is_disjoint(c_tasks));
    } else {
        assert_eq!(*a_tasks, half(&[0, 1]));
        assert_eq!(*c_tasks, half(&[2, 3]));
    }
    assert_eq!(g.assignment_timestamp_ms, has_interval.then_some(8700));

    // c crashes: only a keeps heartbeating (every 5 s) until c's session (45 s) times out.
    let last_c = t + 50;
    while t + 5000 < last_c + 45_000 {
        t += 5000;
        assert_ok(&s.beat("a", t), e(5));
    }
    let adv = s.apache.advance(last_c + 45_000);
    assert_eq!(
        adv.timers
            .iter()
            .map(|t| (t.key.as_str(), t.at_ms))
            .collect::<Vec<_>>(),
        [("session-timeout-app-c", last_c + 45_000)]
    );
    let g = &adv.groups[GROUP];
    assert_eq!(
        (g.state.as_str(), g.group_epoch, g.assignment_epoch),
        ("ASSIGNING", e(6), e(5))
    );
    assert_eq!(g.member_order, ["a"]);
    t = last_c + 45_000;
    let out = s.beat("a", t + 100);
    assert_ok(&out, e(6));
    assert_eq!(out.response.active_tasks, Some(half(&[0, 1, 2, 3])));

    // Rejected joins leave the group as it was (the snapshot registry is reverted).
    s.add_client("d", "process-d");
    let mut changed = topology();
    changed.subtopologies[0]
        .source_topics
        .push("more-words".into());
    let req = s.request("d", Some(changed));
    let out = s.send("d", &req, t + 200);
    assert_rejected(
        &out,
        ErrorCode::InvalidRequest,
        "Topology updates are not supported yet.",
        "coordinator",
    );
    let g = out.group.as_ref().unwrap();
    assert_eq!(
        (g.group_epoch, g.member_order.clone()),
        (e(6), vec!["a".to_string()])
    );

    let mut internal_topic = topology();
    internal_topic.subtopologies[0].source_topics =
        vec!["__consumer_offsets".into(), "bad topic".into()];
    let req = s.request("d", Some(internal_topic));
    let out = s.send("d", &req, t + 210);
    assert_rejected(
        &out,
        ErrorCode::StreamsInvalidTopology,
        "Use of Kafka internal topics __consumer_offsets in a Kafka Streams topology is prohibited.",
        "kafka_apis",
    );
    let mut invalid = topology();
    invalid.subtopologies[0].source_topics = vec!["bad topic".into()];
    let req = s.request("d", Some(invalid));
    let out = s.send("d", &req, t + 220);
    assert_rejected(
        &out,
        ErrorCode::StreamsInvalidTopology,
        "Topic names bad topic are not valid topic names.",
        "kafka_apis",
    );
    let mut null_lists = s.request("d", Some(topology()));
    null_lists.active_tasks = None;
    null_lists.standby_tasks = None;
    null_lists.warmup_tasks = None;
    let out = s.send("d", &null_lists, t + 230);
    assert_rejected(
        &out,
        ErrorCode::InvalidRequest,
        "ActiveTasks must be empty when (re-)joining.",
        "service",
    );

    // Group configs are validated against the broker's bounds (max 2 standby replicas).
    let standby3 = s
        .apache
        .group_config(GROUP, &[("streams.num.standby.replicas", "3")]);
    println!("group config standby=3: {standby3:?}");
    let expected = if version == "4.4.0" {
        "streams.num.standby.replicas must be less than or equal to 2"
    } else {
        "streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas"
    };
    assert_eq!(standby3, Err(expected.to_string()));
    let standby1 = s
        .apache
        .group_config(GROUP, &[("streams.num.standby.replicas", "1")]);
    println!("group config standby=1: {standby1:?}");
    assert_eq!(standby1, Ok(()));
    // The changed assignment config bumps the group epoch at the next heartbeat; the target
    // follows at once (4.2) or after the assignment interval (4.3+, last target at t+100).
    // 4.1 does not bump: the new config only applies to the next target computed for another
    // reason.
    let out = s.beat("a", t + 300);
    let g = out.group.as_ref().unwrap();
    if v41 {
        assert_ok(&out, 5);
        assert_eq!(statuses(&out), vec![]);
        assert_eq!(
            (g.group_epoch, g.last_assignment_configs.as_ref()),
            (5, None)
        );
    } else {
        assert_eq!(g.group_epoch, 7);
        assert_eq!(
            g.last_assignment_configs
                .as_ref()
                .and_then(|c| c.get("num.standby.replicas"))
                .map(String::as_str),
            Some("1")
        );
        if has_interval {
            assert_ok(&out, 6);
            assert_eq!(statuses(&out), delayed(INTERVAL_DELAY));
        } else {
            assert_ok(&out, 7);
            assert_eq!(statuses(&out), vec![]);
        }
    }

    // A static member: rejected by 4.1-4.3 at the service level, accepted by 4.4.
    s.add_client("e", "process-e");
    let mut req = s.request("e", Some(topology()));
    req.instance_id = Some("instance-e".into());
    let out = s.send("e", &req, t + 400);
    if static_members {
        assert_ok(&out, 6);
        let g = out.group.as_ref().unwrap();
        assert_eq!(g.member("e").instance_id.as_deref(), Some("instance-e"));
        assert_eq!(g.group_epoch, 8);
    } else {
        assert_rejected(
            &out,
            ErrorCode::InvalidRequest,
            "Static membership is not yet supported.",
            "service",
        );
    }
}

#[test]
fn apache_4_1_2() {
    GmmOracle::require();
    script("4.1.2");
}

#[test]
fn apache_4_2_2() {
    GmmOracle::require();
    script("4.2.2");
}

#[test]
fn apache_4_3_1() {
    GmmOracle::require();
    script("4.3.1");
}

#[test]
fn apache_4_3_2() {
    GmmOracle::require();
    script("4.3.2");
}

#[test]
fn apache_4_4_0() {
    GmmOracle::require();
    script("4.4.0");
}

/// One JVM serves thousands of heartbeats: 20 members of 10 processes on 16 partitions, 100
/// rounds each (every member heartbeats every 500 ms of fake time).
#[test]
fn thousands_of_heartbeats_in_one_jvm() {
    GmmOracle::require();
    let mut s = Script::new("4.3.1");
    let mut topics = BTreeMap::from([("words".to_string(), 16)]);
    for t in [
        "app-repartition",
        "app-s0-changelog",
        "app-counts-changelog",
    ] {
        topics.insert(t.to_string(), 16);
    }
    s.apache.set_topics(&topics);
    let members: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    let started = std::time::Instant::now();
    let mut beats = 0;
    for (i, m) in members.iter().enumerate() {
        s.add_client(m, &format!("process-{}", i / 2));
        let req = s.request(m, Some(topology()));
        let out = s.send_quietly(m, &req, i as i64);
        assert_eq!(out.response.error, None);
        beats += 1;
    }
    for round in 1..=100 {
        for (i, m) in members.iter().enumerate() {
            let now = 500 * round + i as i64;
            let req = s.request(m, None);
            let out = s.send_quietly(m, &req, now);
            assert_eq!(out.response.error, None, "{m} at {now}");
            beats += 1;
        }
    }
    let elapsed = started.elapsed();
    let g = s.group();
    println!(
        "{beats} heartbeats in {elapsed:?} ({:.0}/s); group {} at epoch {}",
        f64::from(beats) / elapsed.as_secs_f64(),
        g.state,
        g.group_epoch
    );
    assert_eq!(g.state, "STABLE");
    assert_eq!(g.members.len(), 20);
    let active: usize = g.members.values().map(|m| m.assigned.active.len()).sum();
    assert_eq!(
        active, 32,
        "16 partitions x 2 subtopologies, each task active exactly once"
    );
}

/// Malformed input stops the driver with a message instead of hanging or guessing.
#[test]
fn malformed_requests_fail_loudly() {
    GmmOracle::require();
    let mut apache = GmmOracle::start("4.3.1", &[]);
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        apache.request(serde_json::json!({"op": "advance", "now_ms": -5, "extra": true}));
    }))
    .expect_err("the oracle must refuse an unknown field");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("unknown field 'extra'") && message.contains("exit status: 2"),
        "{message}"
    );
}

/// Partitions added to a source topic reach the coordinator through the metadata image: the
/// next heartbeat sees a new metadata hash, bumps the group epoch and assigns the new tasks.
/// Also a broker config at start-up (no initial rebalance delay).
#[test]
fn partition_growth_changes_the_metadata_hash() {
    GmmOracle::require();
    for version in support::gmm_oracle::ORACLE_VERSIONS {
        // 4.1 has no initial rebalance delay (nor its config) and starts the group epoch at 1.
        let v41 = version.starts_with("4.1.");
        let no_delay: &[(&str, &str)] = if v41 {
            &[]
        } else {
            &[("group.streams.initial.rebalance.delay.ms", "0")]
        };
        let first = if v41 { 1 } else { 2 };
        let mut apache = GmmOracle::start(version, no_delay);
        apache.set_topics(&BTreeMap::from([("words".to_string(), 2)]));
        let stateless = Topology {
            epoch: 0,
            subtopologies: vec![Subtopology {
                id: "0".into(),
                source_topics: vec!["words".into()],
                ..Subtopology::default()
            }],
        };
        let join = HeartbeatRequest {
            group_id: GROUP.into(),
            member_id: "a".into(),
            member_epoch: 0,
            rebalance_timeout_ms: 60_000,
            topology: Some(stateless),
            process_id: Some("process-a".into()),
            active_tasks: Some(TaskSet::new()),
            standby_tasks: Some(TaskSet::new()),
            warmup_tasks: Some(TaskSet::new()),
            ..HeartbeatRequest::default()
        };
        let out = apache.heartbeat(&join, 0, "client", "/127.0.0.1");
        print_outcome("a", 0, &out);
        assert_eq!(out.response.error, None, "{version}");
        assert_eq!(
            out.response.active_tasks,
            Some(ts(&[("0", &[0, 1])])),
            "{version}"
        );
        let before = out.group.unwrap();
        // 4.1's NOT_READY rule looks at the configured topology, which the group built by
        // replaying the first heartbeat's records does not have yet (soft state): NOT_READY
        // although its only member is STABLE with all tasks. 4.2+ look at the persisted
        // validated topology epoch.
        assert_eq!(
            (before.state.as_str(), before.group_epoch),
            (if v41 { "NOT_READY" } else { "STABLE" }, first),
            "{version}"
        );

        apache.set_topics(&BTreeMap::from([("words".to_string(), 4)]));
        let beat = HeartbeatRequest {
            member_epoch: out.response.member_epoch,
            rebalance_timeout_ms: -1,
            topology: None,
            process_id: None,
            active_tasks: out.response.active_tasks.clone(),
            ..join.clone()
        };
        let out = apache.heartbeat(&beat, 2000, "client", "/127.0.0.1");
        print_outcome("a", 2000, &out);
        assert_eq!(out.response.error, None, "{version}");
        let after = out.group.as_ref().unwrap();
        assert_ne!(after.metadata_hash, before.metadata_hash, "{version}");
        assert_eq!(after.group_epoch, first + 1, "{version}");
        assert_eq!(
            after.configured.as_ref().map(|c| c.tasks.clone()),
            Some(BTreeMap::from([("0".to_string(), 4)]))
        );
        assert_eq!(out.response.member_epoch, first + 1, "{version}");
        assert_eq!(
            out.response.active_tasks,
            Some(ts(&[("0", &[0, 1, 2, 3])])),
            "{version}"
        );
    }
}
