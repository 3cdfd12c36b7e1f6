//! End-to-end tests of `list` and `describe` against a real broker (tests/kafka/harness), and
//! of the failure paths (nothing listening, garbage-speaking server, wrong password, untrusted
//! CA). Needs Java 17+ and Maven for the broker tests (the harness fails loudly without them).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Output;
use std::time::Duration;

use model::group::Snapshot;

use crate::support;
use crate::support::{
    stderr_of, stdout_of, streams_group, streams_group_guarded, wait_for, Broker, CommandOutput,
};

fn sg(bootstrap: &str, args: &[&str]) -> CommandOutput {
    let mut all = vec![
        "--bootstrap-server",
        bootstrap,
        "--timeout",
        "15000",
        "--color",
        "never",
    ];
    all.extend_from_slice(args);
    streams_group(&all)
}

fn ok(out: &CommandOutput) -> String {
    assert!(out.status.success(), "streams-group failed: {out}");
    out.stdout.clone()
}

fn snapshot(bootstrap: &str, group: &str) -> Snapshot {
    let out = sg(
        bootstrap,
        &["describe", "--group", group, "--output", "json"],
    );
    let text = ok(&out);
    support::json_schema::assert_valid("describe", &text);
    serde_json::from_str(&text).expect("describe --output json is a Snapshot")
}

/// Java tool rows (whitespace-split), without the header line(s) and blank lines.
fn java_rows(out: &Output, header_first: &str) -> Vec<Vec<String>> {
    stdout_of(out)
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|r| !r.is_empty() && r[0] != header_first)
        .collect()
}

/// `ACTIVE: 0:[3]; 1:[3]; TARGET-ACTIVE: ...` → value of the `label:` section, as `0:[3]; 1:[3]`.
fn java_tasks(tokens: &[String], label: &str) -> String {
    let mut out = Vec::new();
    let mut on = false;
    for t in tokens {
        if t.ends_with(':')
            && t.chars()
                .all(|c| c.is_ascii_uppercase() || c == '-' || c == ':')
        {
            on = t == &format!("{label}:");
            continue;
        }
        if on {
            out.push(t.trim_end_matches(';').to_string());
        }
    }
    out.join("; ")
}

/// Compare our describe with `kafka-streams-groups.sh --describe` (members, tasks, epochs,
/// offsets, lag); retried because a running app may still move offsets.
fn agrees_with_java_tool(broker: &Broker, group: &str) -> Result<(), String> {
    let snap = snapshot(&broker.bootstrap, group);
    let g = snap.groups.first().ok_or("no group in our snapshot")?;
    // --state --verbose: GROUP COORDINATOR (ID) STATE GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH #MEMBERS
    let st = java_rows(
        &broker.tool(&["--describe", "--group", group, "--state", "--verbose"]),
        "GROUP",
    );
    let row = st.first().ok_or("java --state printed no row")?;
    let c = g.coordinator.as_ref().ok_or("no coordinator")?;
    let ours = vec![
        group.to_string(),
        format!("{}:{}", c.host, c.port),
        format!("({})", c.id),
        g.state.clone(),
        g.group_epoch.to_string(),
        g.target_assignment_epoch.to_string(),
        g.members.len().to_string(),
    ];
    if row[..7] != ours[..] {
        return Err(format!("state: java {row:?} vs ours {ours:?}"));
    }
    // --members --verbose
    let mm = java_rows(
        &broker.tool(&["--describe", "--group", group, "--members", "--verbose"]),
        "GROUP",
    );
    let mut java_members = BTreeMap::new();
    for r in &mm {
        // GROUP TARGET-ASSIGNMENT-EPOCH TOPOLOGY-EPOCH MEMBER MEMBER-PROTOCOL MEMBER-EPOCH PROCESS CLIENT-ID ASSIGNMENTS...
        if r.len() < 8 {
            return Err(format!("short java member row {r:?}"));
        }
        java_members.insert(
            r[3].clone(),
            (
                r[5].clone(),
                r[6].clone(),
                r[7].clone(),
                java_tasks(&r[8..], "ACTIVE"),
                java_tasks(&r[8..], "TARGET-ACTIVE"),
            ),
        );
    }
    let our_members: BTreeMap<_, _> = g
        .members
        .iter()
        .map(|m| {
            (
                m.member_id.clone(),
                (
                    m.member_epoch.to_string(),
                    m.process_id.clone(),
                    m.client_id.clone(),
                    m.assignment.active.compact(),
                    m.target_assignment.active.compact(),
                ),
            )
        })
        .collect();
    if java_members != our_members {
        return Err(format!(
            "members: java {java_members:?}\nours {our_members:?}"
        ));
    }
    // --offsets --verbose: GROUP TOPIC PARTITION CURRENT-OFFSET LEADER-EPOCH LOG-END-OFFSET OFFSET-LAG
    let oo = java_rows(
        &broker.tool(&["--describe", "--group", group, "--offsets", "--verbose"]),
        "GROUP",
    );
    let java_offsets: BTreeMap<(String, i32), (String, String, String)> = oo
        .iter()
        .filter(|r| r.len() >= 7)
        .map(|r| {
            (
                (r[1].clone(), r[2].parse().unwrap_or(-1)),
                (r[3].clone(), r[5].clone(), r[6].clone()),
            )
        })
        .collect();
    let opt = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_else(|| "-".into());
    let our_offsets: BTreeMap<(String, i32), (String, String, String)> = g
        .offsets
        .iter()
        .map(|o| {
            (
                (o.topic.clone(), o.partition),
                (opt(o.committed), opt(o.end), opt(o.lag)),
            )
        })
        .collect();
    if java_offsets != our_offsets {
        return Err(format!(
            "offsets: java {java_offsets:?}\nours {our_offsets:?}"
        ));
    }
    Ok(())
}

/// Describing one named group costs three round trips in a row on a one-broker cluster:
/// ApiVersions; Metadata and FindCoordinator back to back; StreamsGroupDescribe (issue #36).
/// Counted through a proxy, so every request goes over the one bootstrap connection.
fn round_trips_in_a_row(bootstrap: &str, group: &str) {
    let proxy = support::turns::TurnCounter::start(bootstrap);
    for view in ["--members", "--state"] {
        proxy.reset();
        let out = ok(&sg(&proxy.addr, &["describe", "--group", group, view]));
        assert!(out.contains(group), "{view}: {out}");
        assert_eq!(proxy.connections(), 1, "{view}: one connection");
        assert_eq!(proxy.turns(), 3, "{view}: round trips in a row");
    }
}

#[test]
fn live_list_and_describe_agree_with_the_java_tool() {
    let broker = Broker::start();
    let b = broker.bootstrap.clone();
    let mut app = broker.app("e2e-app", 2, 2);

    // list: Stable
    let out = ok(&sg(&b, &["list"]));
    let row: Vec<&str> = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some("e2e-app"))
        .expect("list shows e2e-app")
        .split_whitespace()
        .collect();
    assert_eq!(row, ["e2e-app", "Stable"], "{out}");
    let text = ok(&sg(&b, &["list", "-o", "json", "--state", "stable"]));
    support::json_schema::assert_valid("list", &text);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["groups"][0]["group_id"], "e2e-app");
    assert_eq!(json["groups"][0]["state"], "Stable");

    // describe agrees with kafka-streams-groups.sh (retry while offsets move)
    let mut last = String::new();
    let agreed = (0..6).any(|_| match agrees_with_java_tool(&broker, "e2e-app") {
        Ok(()) => true,
        Err(e) => {
            last = e;
            std::thread::sleep(Duration::from_secs(2));
            false
        }
    });
    assert!(agreed, "never agreed with the Java tool: {last}");

    // every view runs, one header each
    for view in ["--state", "--members", "--offsets", "--topology"] {
        let out = ok(&sg(
            &b,
            &["describe", "--group", "e2e-app", "--group", "e2e-app", view],
        ));
        assert_eq!(
            out.lines()
                .filter(|l| l.trim_start().starts_with("GROUP"))
                .count(),
            1,
            "{view}: {out}"
        );
    }
    round_trips_in_a_row(&b, "e2e-app");
    let topo = ok(&sg(&b, &["describe", "--group", "e2e-app", "--topology"]));
    assert!(topo.contains("e2e-app-input"), "{topo}");
    assert!(topo.contains("changelog"), "{topo}");

    // the offline-first commands, online against the same live group
    commands_against_a_live_group(&b, "e2e-app");

    // stop one instance: the group reconciles to 2 members and describe shows it
    app.stop_instance(1);
    assert!(
        broker.wait_stable("e2e-app", 2),
        "group did not become Stable with 2 members"
    );
    let snap = snapshot(&b, "e2e-app");
    let g = &snap.groups[0];
    assert_eq!(g.members.len(), 2);
    assert!(g.members.iter().all(|m| m.is_reconciled()));
    let all_active: usize = g.members.iter().map(|m| m.assignment.active.len()).sum();
    assert_eq!(
        all_active, 8,
        "4 partitions x 2 subtopologies are all assigned"
    );
    let members = ok(&sg(&b, &["describe", "--group", "e2e-app", "--members"]));
    assert_eq!(members.lines().count(), 3, "{members}");

    // stop all: Empty group, --offsets still shows lag; produce 100 more records → lag 100
    app.stop_all();
    wait_for("group Empty", Duration::from_secs(60), || {
        let s = snapshot(&b, "e2e-app");
        (s.groups[0].state == "Empty").then_some(())
    });
    broker.produce("e2e-app-input", 100);
    let snap = snapshot(&b, "e2e-app");
    let g = &snap.groups[0];
    let input: Vec<_> = g
        .offsets
        .iter()
        .filter(|o| o.topic == "e2e-app-input")
        .collect();
    assert_eq!(input.len(), 4, "{:?}", g.offsets);
    assert!(input
        .iter()
        .all(|o| o.committed.is_some() && o.end.is_some()));
    assert_eq!(input.iter().map(|o| o.lag.unwrap_or(0)).sum::<i64>(), 100);
    // The members view of an Empty group says so, and the lag gate has nothing to check.
    let members = ok(&sg(&b, &["describe", "--group", "e2e-app", "--members"]));
    assert_eq!(
        members, "e2e-app: no members (the group is Empty)\n",
        "{members}"
    );
    let out = sg(&b, &["lag", "--group", "e2e-app", "--exit-code"]);
    assert_eq!(out.status.code(), Some(6), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("the group has no members (it is Empty)"),
        "{}",
        out.stderr
    );
    let table = ok(&sg(&b, &["describe", "--group", "e2e-app"]));
    let total: Vec<&str> = table
        .lines()
        .find(|l| l.contains("e2e-app-input") && l.contains("TOTAL"))
        .expect("a TOTAL row")
        .split_whitespace()
        .collect();
    assert_eq!(total.last(), Some(&"100"), "{table}");

    // unknown group → exit 4, one clear line
    let out = sg(&b, &["describe", "--group", "no-such-group"]);
    assert_eq!(out.status.code(), Some(4), "{}", out.stderr);
    assert!(out.stderr.contains("GROUP_ID_NOT_FOUND"), "{}", out.stderr);
}

/// `check-epoch --group` (each KIP row a live group can show: shipped clients send topology
/// epoch 0, so "older" cannot happen online), `diff topology group:ID`, `diff assignment --group`
/// and `simulate --from-group`, all against the live group.
fn commands_against_a_live_group(b: &str, group: &str) {
    let code = |out: &CommandOutput| out.code();
    let live = format!("group:{group}");
    let check = |topology: &str, epoch: &str, extra: &[&str]| {
        let mut args = vec![
            "check-epoch",
            "--group",
            group,
            "--topology",
            topology,
            "--topology-epoch",
            epoch,
        ];
        args.extend_from_slice(extra);
        sg(b, &args)
    };
    // ER = EG, same topology: accepted.
    let out = check(&live, "0", &[]);
    assert_eq!(code(&out), 0, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.starts_with("ACCEPTED"), "{}", out.stdout);
    // ER = EG + 1: the broker's own coordinator refuses; the KIP would update. The release is
    // the harness broker's, to the patch (its ApiVersions tell the line, its configs 4.3.1
    // from 4.3.2), so no note is needed.
    let release = support::kafka_version();
    let out = check(&live, "1", &[]);
    assert_eq!(code(&out), 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("Topology updates are not supported yet"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains(&format!("decided by: the Kafka {release} coordinator")),
        "{}",
        out.stdout
    );
    assert!(
        !out.stderr.contains("4.3.1 or 4.3.2") && !out.stderr.contains("wire does not tell"),
        "the release is known, no detection note: {}",
        out.stderr
    );
    let out = check(&live, "1", &["--rules", "kip"]);
    assert_eq!(code(&out), 0, "{}{}", out.stdout, out.stderr);
    // A group the cluster has never seen: a first deployment is accepted.
    let out = sg(
        b,
        &[
            "check-epoch",
            "--group",
            "e2e-never-deployed",
            "--topology",
            &live,
            "--topology-epoch",
            "0",
        ],
    );
    assert_eq!(code(&out), 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .starts_with("ACCEPTED (the group has no topology yet: initialised"),
        "{}",
        out.stdout
    );
    // ER > EG + 1 under the KIP: STREAMS_INVALID_TOPOLOGY_EPOCH.
    let out = check(&live, "2", &["--kafka-version", "kip"]);
    assert_eq!(code(&out), 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("STREAMS_INVALID_TOPOLOGY_EPOCH"),
        "{}",
        out.stdout
    );
    // ER = EG with another topology: STREAMS_INVALID_TOPOLOGY_EPOCH.
    let snap = snapshot(b, group);
    let mut topology = streams_group::topology::described::topology_of(&snap.groups[0])
        .expect("initialised topology");
    topology.subtopologies.push(model::Subtopology {
        id: "9".into(),
        source_topics: vec![format!("{group}-input")],
        ..Default::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.json");
    std::fs::write(&other, serde_json::to_string(&topology).unwrap()).unwrap();
    let other = other.to_str().unwrap();
    let out = check(other, "0", &["--kafka-version", "kip"]);
    assert_eq!(code(&out), 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("STREAMS_INVALID_TOPOLOGY_EPOCH"),
        "{}",
        out.stdout
    );
    // diff topology: live group vs the same topology with a new subtopology.
    let out = sg(b, &["diff", "topology", &live, other, "--exit-code"]);
    assert_eq!(code(&out), 1, "{}{}", out.stdout, out.stderr);
    // topology group:ID: every count was read from the cluster, none assumed.
    let out = sg(b, &["topology", &live]);
    assert_eq!(code(&out), 0, "{}{}", out.stdout, out.stderr);
    let text = out.stdout;
    let read = text
        .lines()
        .find_map(|l| l.strip_prefix("Partitions (read from the cluster): "))
        .unwrap_or_else(|| panic!("no counts read from the cluster:\n{text}"));
    for topic in ["input", "counts-repartition", "counts-changelog"] {
        assert!(read.contains(&format!("{group}-{topic}=")), "{text}");
    }
    assert!(!text.contains("Assumed partitions"), "{text}");
    // diff assignment of a Stable group: current = target.
    let out = sg(b, &["diff", "assignment", "--group", group, "--exit-code"]);
    assert_eq!(code(&out), 0, "{}{}", out.stdout, out.stderr);
    // Task lag: Kafka 4.3 brokers return no task offsets; the command says so and succeeds,
    // and as a gate it fails with its own exit status (6), naming the broker's version.
    let out = sg(b, &["lag", "--group", group]);
    assert_eq!(code(&out), 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("0 caught up, 0 lagging, 0 unknown"),
        "{}",
        out.stdout
    );
    let out = sg(b, &["lag", "--group", group, "--exit-code"]);
    assert_eq!(code(&out), 6, "{}{}", out.stdout, out.stderr);
    let err = &out.stderr;
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the broker is Kafka 4.1-4.3 (StreamsGroupDescribe v0)"),
        "{err}"
    );
    // What if two more instances join? The simulation starts from the live group.
    let out = sg(
        b,
        &[
            "simulate",
            "--from-group",
            group,
            "--scenario",
            "scale-out",
            "--instances",
            "2",
            "--output",
            "json",
        ],
    );
    let text = ok(&out);
    support::json_schema::assert_valid("simulate", &text);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["final_state"], "Stable", "{v}");
    assert_eq!(v["stop_reason"], "completed", "{v}");
    // The profile is the broker's release, detected live.
    let release = support::kafka_version();
    assert_eq!(v["kafka_version"], release.as_str(), "{v}");
    assert_eq!(
        snap.kafka_version.map(|k| k.release().to_string()),
        Some(release),
        "describe --output json records the broker's version"
    );
    // ... and the group's configs and its coordinator's settings, as the harness set them
    // (heartbeat 500 ms, session 6 s, bounds lowered to allow them), so the simulation above
    // ran with them and printed no note about assumed defaults.
    let configs = snap.groups[0].configs.as_ref().expect("configs recorded");
    let group = configs.group.as_ref().expect("group configs read");
    let broker = configs.broker.as_ref().expect("broker settings read");
    assert_eq!(group["streams.heartbeat.interval.ms"], "500", "{configs:?}");
    assert_eq!(group["streams.session.timeout.ms"], "6000", "{configs:?}");
    assert_eq!(
        broker["group.streams.min.heartbeat.interval.ms"], "100",
        "{configs:?}"
    );
    assert!(configs.unreadable.is_empty(), "{configs:?}");
    assert!(
        !out.stderr.contains("assumed Kafka's defaults"),
        "{}",
        out.stderr
    );
    // Two instances of the app's 2 threads each: 4 more members in 2 more processes.
    let before: BTreeSet<&str> = snap.groups[0]
        .members
        .iter()
        .map(|m| m.process_id.as_str())
        .collect();
    let members = v["members"].as_array().unwrap();
    assert_eq!(members.len(), snap.groups[0].members.len() + 4, "{v}");
    let after: BTreeSet<&str> = members
        .iter()
        .map(|m| m["process_id"].as_str().unwrap())
        .collect();
    assert_eq!(after.len(), before.len() + 2, "{v}");
    assert_eq!(v["invariant_violations"].as_array().unwrap().len(), 0);
}

#[test]
fn live_sasl_ssl_good_and_bad_credentials() {
    let broker = Broker::start_sasl_ssl();
    let sb = broker
        .sasl_ssl_bootstrap
        .clone()
        .expect("SASL_SSL listener");
    let props = broker.client_properties();
    let props_s = props.to_str().unwrap().to_string();
    // SCRAM-SHA-512 (default file), SCRAM-SHA-256 and PLAIN
    for file in [
        props.clone(),
        broker.dir.join("client-sasl-ssl-scram-sha-256.properties"),
        broker.dir.join("client-sasl-ssl-plain.properties"),
    ] {
        let out = sg(&sb, &["list", "--command-config", file.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            file.display(),
            out.stderr
        );
    }
    // describe over SASL_SSL reaches the broker (unknown group → exit 4, not 3)
    let out = sg(
        &sb,
        &["describe", "--group", "nope", "--command-config", &props_s],
    );
    assert_eq!(out.status.code(), Some(4), "{}", out.stderr);

    // Configs: alice reads the group's and the broker's; bob may not (the harness denies him
    // DescribeConfigs), and every command still works, naming what it could not read.
    let _app = broker.app("acl", 1, 1);
    let describe_acl = |file: &str, more: &[&str]| {
        let mut args = vec![
            "describe",
            "--group",
            "acl",
            "--command-config",
            file,
            "-o",
            "json",
        ];
        args.extend_from_slice(more);
        sg(&sb, &args)
    };
    let configs = |file: &str| -> model::group::ClusterSettings {
        let text = ok(&describe_acl(file, &[]));
        support::json_schema::assert_valid("describe", &text);
        let snap: Snapshot = serde_json::from_str(&text).unwrap();
        snap.groups[0].configs.clone().expect("configs")
    };
    let alice = configs(&props_s);
    assert!(alice.group.is_some() && alice.broker.is_some(), "{alice:?}");
    assert!(alice.unreadable.is_empty(), "{alice:?}");
    let bob_props = broker.dir.join("client-sasl-ssl-bob.properties");
    let bob_s = bob_props.to_str().unwrap();
    let bob = configs(bob_s);
    assert_eq!(
        (bob.group.as_ref(), bob.broker.as_ref()),
        (None, None),
        "{bob:?}"
    );
    assert_eq!(
        bob.unreadable,
        [
            "group configs not read: GROUP_AUTHORIZATION_FAILED",
            "broker settings not read: CLUSTER_AUTHORIZATION_FAILED"
        ]
    );
    let out = sg(
        &sb,
        &[
            "simulate",
            "--from-group",
            "acl",
            "--command-config",
            bob_s,
            "--scenario",
            "scale-out",
        ],
    );
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(0), "{err}");
    let assumed: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("assumed Kafka's defaults"))
        .collect();
    assert_eq!(assumed.len(), 1, "{err}");
    assert!(assumed[0].contains("GROUP_AUTHORIZATION_FAILED"), "{err}");
    assert!(assumed[0].contains("--broker-config"), "{err}");

    // history: alice reads the group's records; bob, denied READ on __consumer_offsets, is
    // told which ACL he needs (exit 4).
    let out = sg(
        &sb,
        &["history", "--group", "acl", "--command-config", &props_s],
    );
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);

    // --debug: each request on stderr (the SASL exchange too), never the password; stdout is
    // the report alone.
    let out = describe_acl(&props_s, &["--debug"]);
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("stdout is the report");
    assert_eq!(doc["groups"][0]["group_id"], "acl", "{}", out.stdout);
    for api in ["SaslHandshake", "SaslAuthenticate", "StreamsGroupDescribe"] {
        let sent = format!("-> {api} v");
        assert!(err.lines().any(|l| l.contains(&sent)), "no {api}: {err}");
    }
    assert!(err.contains("coordinator of `acl`: node 1 at "), "{err}");
    assert!(err.lines().all(|l| l.starts_with("debug: +")), "{err}");
    assert!(!err.contains("alice-secret"), "{err}");
    // A group without records: exit 4, saying so.
    let out = sg(
        &sb,
        &[
            "history",
            "--group",
            "never-was",
            "--command-config",
            &props_s,
        ],
    );
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("has no records"), "{err}");
    // (The first ACL on the topic ends `allow.everyone.if.no.acl.found` for it: last.)
    let acl = broker.java(
        "org.apache.kafka.tools.AclCommand",
        &[
            "--bootstrap-server",
            &broker.bootstrap,
            "--add",
            "--deny-principal",
            "User:bob",
            "--operation",
            "Read",
            "--topic",
            "__consumer_offsets",
        ],
        None,
    );
    assert!(acl.status.success(), "{}", stderr_of(&acl));
    let out = sg(
        &sb,
        &["history", "--group", "acl", "--command-config", bob_s],
    );
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("Topic:__consumer_offsets READ"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let text = std::fs::read_to_string(&props).unwrap();
    // wrong password → exit 3 with a clear line, and the password is not printed
    let bad = broker.dir.join("bad-password.properties");
    std::fs::write(&bad, text.replace("alice-secret", "not-the-password")).unwrap();
    let out = sg(
        &sb,
        &[
            "list",
            "--command-config",
            bad.to_str().unwrap(),
            "--verbose",
        ],
    );
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("wrong username or password"), "{err}");
    assert!(!err.contains("not-the-password"), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{err}"
    );

    // untrusted CA: use the client certificate (not a CA) as the truststore
    let untrusted = broker.dir.join("untrusted.properties");
    let (client_cert, _) = broker.client_cert_pem();
    std::fs::write(
        &untrusted,
        text.lines()
            .filter(|l| !l.starts_with("ssl.truststore.location"))
            .chain([format!("ssl.truststore.location={}", client_cert.display()).as_str()])
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let out = sg(
        &sb,
        &["list", "--command-config", untrusted.to_str().unwrap()],
    );
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("ssl.truststore.location"), "{err}");

    pkcs12_stores(&broker, &sb, &text);
}

/// Run a tool (keytool, openssl) that makes test stores; fail loudly without it.
fn make_store(tool: &str, args: &[&str]) {
    let out = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} is needed to make PKCS12 test stores: {e}"));
    assert!(out.status.success(), "{tool} {args:?}: {}", stderr_of(&out));
}

/// PKCS12 key and trust stores (issue #34): a truststore made by keytool (what Kafka users
/// have) and a keystore made by OpenSSL, read directly. The keystore's certificate is presented:
/// one the CA did not sign fails the handshake. A wrong password names its setting, never the
/// password.
fn pkcs12_stores(broker: &Broker, sb: &str, scram_props: &str) {
    let d = broker.dir.join("pkcs12");
    std::fs::create_dir_all(&d).unwrap();
    let p = |f: &str| d.join(f).to_str().unwrap().to_string();
    let ca = broker.dir.join("ca.pem");
    let (cert, key) = broker.client_cert_pem();
    make_store(
        "keytool",
        &[
            "-importcert",
            "-noprompt",
            "-storetype",
            "PKCS12",
            "-alias",
            "ca",
            "-file",
            ca.to_str().unwrap(),
            "-keystore",
            &p("truststore.p12"),
            "-storepass",
            "ts-secret",
        ],
    );
    let export = |cert: &str, key: &str, out: &str| {
        make_store(
            "openssl",
            &[
                "pkcs12",
                "-export",
                "-name",
                "client",
                "-in",
                cert,
                "-inkey",
                key,
                "-out",
                &p(out),
                "-passout",
                "pass:ks-secret",
            ],
        );
    };
    export(
        cert.to_str().unwrap(),
        key.to_str().unwrap(),
        "keystore.p12",
    );
    make_store(
        "openssl",
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=mallory",
            "-keyout",
            &p("mallory-key.pem"),
            "-out",
            &p("mallory.pem"),
        ],
    );
    export(&p("mallory.pem"), &p("mallory-key.pem"), "mallory.p12");
    let sasl: Vec<&str> = scram_props
        .lines()
        .filter(|l| !l.starts_with("ssl."))
        .collect();
    let props = |name: &str, keystore: &str, ts_password: &str| {
        let mut lines: Vec<String> = sasl.iter().map(|l| l.to_string()).collect();
        lines.extend([
            "ssl.truststore.type=PKCS12".to_string(),
            format!("ssl.truststore.location={}", p("truststore.p12")),
            format!("ssl.truststore.password={ts_password}"),
            "ssl.keystore.type=PKCS12".to_string(),
            format!("ssl.keystore.location={}", p(keystore)),
            "ssl.keystore.password=ks-secret".to_string(),
            "ssl.key.password=ks-secret".to_string(),
        ]);
        let f = p(name);
        std::fs::write(&f, lines.join("\n")).unwrap();
        f
    };
    let good = props("good.properties", "keystore.p12", "ts-secret");
    let out = sg(sb, &["list", "--command-config", &good]);
    assert_eq!(out.status.code(), Some(0), "{}", out.stderr);
    // Apache's tool reads the same file.
    let apache = broker.java(
        "org.apache.kafka.tools.streams.StreamsGroupCommand",
        &[
            "--bootstrap-server",
            sb,
            "--list",
            "--command-config",
            &good,
        ],
        None,
    );
    assert!(apache.status.success(), "{}", stderr_of(&apache));

    let wrong = props("wrong.properties", "keystore.p12", "not-the-ts-secret");
    let out = sg(sb, &["list", "--command-config", &wrong]);
    let err = &out.stderr;
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ssl.truststore.password"), "{err}");
    assert!(!err.contains("not-the-ts-secret"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let mallory = props("mallory.properties", "mallory.p12", "ts-secret");
    let out = sg(sb, &["list", "--command-config", &mallory]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "the broker refuses an unsigned client certificate: {}",
        out.stderr
    );
}

/// Far more than the commands below take with `--timeout 3000` or less: only a hang reaches it.
/// It guards, it does not time (tests never assert wall-clock times).
const HANG_GUARD: Duration = Duration::from_secs(60);

/// Nothing listening: the command gives up by itself, exit 3, and says what to check.
#[test]
fn nothing_listening_exits_3_by_itself() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let out = streams_group_guarded(
        &[
            "list",
            "--bootstrap-server",
            &format!("127.0.0.1:{port}"),
            "--timeout",
            "3000",
        ],
        HANG_GUARD,
    );
    assert_eq!(out.status.code(), Some(3), "{}", out.stderr);
    assert!(
        out.stderr.contains("is the broker running"),
        "{}",
        out.stderr
    );
}

fn fake_server(reply: &'static [u8], close: bool) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in l.incoming().take(4) {
            let Ok(mut s) = stream else { continue };
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf);
            let _ = s.write_all(reply);
            if !close {
                std::thread::sleep(Duration::from_secs(30));
            }
        }
    });
    addr
}

/// Servers that are not Kafka, or say nothing: each command ends by itself (the hang guard only
/// catches one that does not) with exit 3 and one clean error line.
#[test]
fn garbage_and_silent_servers_give_clean_errors() {
    // Servers that are not Kafka are named.
    let named: [(&[u8], &str); 3] = [
        (
            b"HTTP/1.1 400 Bad Request\r\n\r\n",
            "an HTTP server answered",
        ),
        (b"SSH-2.0-OpenSSH_9.6\r\n", "an SSH server answered"),
        (
            &[0x16, 0x03, 0x03, 0x00, 0x31, 0x02],
            "this is a TLS listener",
        ),
    ];
    for (reply, says) in named {
        let addr = fake_server(reply, true);
        let out = streams_group_guarded(
            &["list", "--bootstrap-server", &addr, "--timeout", "2000"],
            HANG_GUARD,
        );
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(3), "{reply:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let cases: [(&[u8], bool); 4] = [
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", true),
        (&[0, 0, 0, 6, 0, 0, 0, 1, 0xff, 0xff], true), // right correlation id, truncated body
        (
            &[0, 0, 0, 40, 0, 0, 0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f],
            false,
        ), // short frame, then silence
        (b"", false),                                  // accepts, never answers
    ];
    for (reply, close) in cases {
        let addr = fake_server(reply, close);
        let out = streams_group_guarded(
            &[
                "describe",
                "--group",
                "g",
                "--bootstrap-server",
                &addr,
                "--timeout",
                "2000",
            ],
            HANG_GUARD,
        );
        let err = &out.stderr;
        assert_eq!(out.status.code(), Some(3), "{reply:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.starts_with("error:"), "{err}");
    }
}

/// The two ways a broker says "not here": a group id that belongs to a classic consumer group,
/// and a broker whose `streams.version` feature is off. Both are Kafka errors: exit 4, one line
/// that names the cause and the way out.
#[test]
fn classic_group_and_disabled_streams_groups_are_named() {
    let broker = Broker::start();
    let b = broker.bootstrap.clone();
    broker.produce("plain-topic", 10);
    // A classic consumer group with committed offsets, made by Apache's own tool.
    let reset = broker.java(
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
        &[
            "--bootstrap-server",
            &b,
            "--group",
            "classic-group",
            "--topic",
            "plain-topic",
            "--reset-offsets",
            "--to-earliest",
            "--execute",
        ],
        None,
    );
    assert!(
        reset.status.success(),
        "consumer group tool: {}",
        stderr_of(&reset)
    );
    let out = sg(&b, &["describe", "--group", "classic-group"]);
    assert_eq!(out.status.code(), Some(4), "{}", out.stderr);
    let err = &out.stderr;
    assert!(err.contains("not a streams group"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // A KIP-848 consumer group: a console consumer of the new protocol reads and leaves.
    let consumed = broker.java(
        "org.apache.kafka.tools.consumer.ConsoleConsumer",
        &[
            "--bootstrap-server",
            &b,
            "--topic",
            "plain-topic",
            "--group",
            "consumer-group",
            "--from-beginning",
            "--max-messages",
            "10",
            "--consumer-property",
            "group.protocol=consumer",
        ],
        None,
    );
    assert!(
        consumed.status.success(),
        "console consumer: {}",
        stderr_of(&consumed)
    );
    // history, --verify and --at refuse both as describe does, naming what they are.
    for (group, kind) in [
        ("classic-group", "it is a classic group"),
        ("consumer-group", "it is a consumer group"),
    ] {
        for extra in [&[][..], &["--verify"][..], &["--at", "1s"][..]] {
            let mut args = vec!["history", "--group", group];
            args.extend_from_slice(extra);
            let out = sg(&b, &args);
            let err = &out.stderr;
            assert_eq!(out.status.code(), Some(4), "{args:?}: {err}");
            assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains(&format!("Group {group} is not a streams group: {kind}")),
                "{args:?}: {err}"
            );
        }
    }
    // Turn streams groups off on the broker.
    let down = broker.java(
        "org.apache.kafka.tools.FeatureCommand",
        &[
            "--bootstrap-server",
            &b,
            "downgrade",
            "--feature",
            "streams.version=0",
        ],
        None,
    );
    assert!(
        down.status.success(),
        "feature tool: {}{}",
        stdout_of(&down),
        stderr_of(&down)
    );
    let out = wait_for(
        "describe to see streams groups disabled",
        Duration::from_secs(30),
        || {
            let out = sg(&b, &["describe", "--group", "any-app"]);
            out.stderr.contains("streams.version").then_some(out)
        },
    );
    assert_eq!(out.status.code(), Some(4), "{}", out.stderr);
    assert!(out.stderr.contains("kafka-features"), "{}", out.stderr);
}
