//! `describe` output: one table per view with ONE header for all groups, rows sorted by group
//! then natural keys. `--output json` prints the `Snapshot` itself (see `commands::describe`).

use std::collections::BTreeMap;

use colored::Colorize;

use model::group::{GroupDescription, MemberDescription, MemberStatus, Snapshot};
use model::natural::Natural;
use model::task_set::TaskSet;

use super::table;

fn dash(s: &str) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s.to_string()
    }
}

fn tasks(t: &TaskSet) -> String {
    if t.is_empty() {
        "-".into()
    } else {
        t.compact()
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_else(|| "-".into())
}

/// `--state`: GROUP COORDINATOR (ID) ASSIGNOR STATE GROUP-EPOCH TARGET-ASSIGNMENT-EPOCH
/// #MEMBERS, the columns of Apache 4.4's `kafka-streams-groups.sh --describe --state --verbose`
/// (the assignor is `-` when the broker does not say: Kafka 4.1-4.3), + TOPOLOGY-EPOCH with
/// --verbose.
pub fn state_table(s: &Snapshot, verbose: bool) -> String {
    let mut header = vec![
        "GROUP",
        "COORDINATOR (ID)",
        "ASSIGNOR",
        "STATE",
        "GROUP-EPOCH",
        "TARGET-ASSIGNMENT-EPOCH",
        "#MEMBERS",
    ];
    if verbose {
        header.push("TOPOLOGY-EPOCH");
    }
    let mut t = table::new(&header);
    for g in &s.groups {
        let coord = g
            .coordinator
            .as_ref()
            .map(|c| format!("{}:{} ({})", c.host, c.port, c.id))
            .unwrap_or_else(|| "-".into());
        let mut row = vec![
            g.group_id.clone(),
            coord,
            opt(g.assignor.clone()),
            g.state.clone(),
            g.group_epoch.to_string(),
            g.target_assignment_epoch.to_string(),
            g.members.len().to_string(),
        ];
        if verbose {
            row.push(g.topology.epoch.to_string());
        }
        t.add_row(row);
    }
    table::render(&t)
}

/// Restoration lag per task (changelog records not yet restored, see `crate::lag`), from
/// taskOffsets/taskEndOffsets.
pub fn task_lag(g: &GroupDescription, m: &MemberDescription) -> String {
    let partitions = |task: &model::TaskId| crate::lag::changelog_partitions(g, task);
    let changelogs = crate::lag::Changelogs {
        partitions: &partitions,
        log_end: &|_| None,
    };
    let parts: Vec<String> = crate::lag::member_task_lags(
        "",
        m,
        crate::lag::DEFAULT_ACCEPTABLE_RECOVERY_LAG,
        &changelogs,
    )
    .iter()
    .filter(|t| t.end_offset.is_some())
    .map(|t| format!("{}={}", t.task, opt(t.lag)))
    .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join("; ")
    }
}

/// `--members`. The STATUS column (last) says `ok`, `reconciling` and/or `stale-topology`; it is
/// coloured when colour is on.
pub fn members_table(s: &Snapshot, verbose: bool) -> String {
    let mut header = vec![
        "GROUP",
        "MEMBER",
        "PROCESS",
        "CLIENT-ID",
        "TOPOLOGY-EPOCH",
        "MEMBER-EPOCH",
        "ACTIVE",
        "STANDBY",
        "WARMUP",
    ];
    if verbose {
        header.extend([
            "INSTANCE",
            "RACK",
            "HOST",
            "TARGET-ACTIVE",
            "TARGET-STANDBY",
            "TARGET-WARMUP",
            "TASK-LAG",
        ]);
    }
    // Interactive queries: only when some member has an endpoint (`application.server`).
    let endpoints = s
        .groups
        .iter()
        .flat_map(|g| &g.members)
        .any(|m| m.user_endpoint.is_some());
    if endpoints {
        header.extend(["ENDPOINT", "SERVES-ACTIVE", "SERVES-STANDBY"]);
    }
    header.push("STATUS");
    let mut t = table::new(&header);
    let mut empty = Vec::new();
    for g in &s.groups {
        if g.members.is_empty() {
            empty.push(format!(
                "{}: no members (the group is {})\n",
                g.group_id, g.state
            ));
        }
        let mut members: Vec<&MemberDescription> = g.members.iter().collect();
        members.sort_by_key(|m| {
            (
                Natural(&m.process_id),
                Natural(&m.client_id),
                Natural(&m.member_id),
            )
        });
        for m in members {
            let mut row = member_row(g, m, verbose);
            if endpoints {
                row.splice(row.len() - 1..row.len() - 1, endpoint_cells(m));
            }
            t.add_row(row);
        }
    }
    // Groups without members are named below the rows, and no header stands alone.
    let mut out = if empty.len() < s.groups.len() {
        table::render(&t)
    } else {
        String::new()
    };
    out.extend(empty);
    out
}

/// One member's row of `--members`.
fn member_row(g: &GroupDescription, m: &MemberDescription, verbose: bool) -> Vec<String> {
    let mut row = vec![
        g.group_id.clone(),
        m.member_id.clone(),
        dash(&m.process_id),
        dash(&m.client_id),
        m.topology_epoch.to_string(),
        m.member_epoch.to_string(),
        tasks(&m.assignment.active),
        tasks(&m.assignment.standby),
        tasks(&m.assignment.warmup),
    ];
    if verbose {
        row.extend([
            opt(m.instance_id.clone()),
            opt(m.rack_id.clone()),
            dash(&m.client_host),
            tasks(&m.target_assignment.active),
            tasks(&m.target_assignment.standby),
            tasks(&m.target_assignment.warmup),
            task_lag(g, m),
        ]);
    }
    let st = m.statuses(g);
    let text: Vec<&str> = st.iter().map(|s| s.name()).collect();
    let cell = if st.is_empty() {
        "ok".normal().to_string()
    } else if st.contains(&MemberStatus::StaleTopology) {
        text.join(",").red().bold().to_string()
    } else {
        text.join(",").yellow().to_string()
    };
    row.push(cell);
    row
}

/// ENDPOINT, SERVES-ACTIVE, SERVES-STANDBY: the member's interactive-query endpoint and the
/// topic partitions it serves ("topic:[0,1] other:[2]").
fn endpoint_cells(m: &MemberDescription) -> [String; 3] {
    let served = |v: &[model::heartbeat::TopicPartitions]| {
        if v.is_empty() {
            return "-".to_string();
        }
        v.iter()
            .map(|t| {
                let ps: Vec<String> = t.partitions.iter().map(i32::to_string).collect();
                format!("{}:[{}]", t.topic, ps.join(","))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    match (&m.user_endpoint, &m.endpoint_partitions) {
        (None, _) => ["-".into(), "-".into(), "-".into()],
        (Some(e), None) => [format!("{}:{}", e.host, e.port), "-".into(), "-".into()],
        (Some(e), Some(p)) => [
            format!("{}:{}", e.host, e.port),
            served(&p.active),
            served(&p.standby),
        ],
    }
}

/// `--offsets` (default): GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG, with a
/// `TOTAL` row per topic (sum of end offsets and lags). `--verbose` adds LEADER-EPOCH.
pub fn offsets_table(s: &Snapshot, verbose: bool) -> String {
    let mut header = vec!["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET"];
    if verbose {
        header.push("LEADER-EPOCH");
    }
    header.extend(["LOG-END-OFFSET", "LAG"]);
    let mut t = table::new(&header);
    for g in &s.groups {
        let mut by_topic: BTreeMap<&str, Vec<_>> = BTreeMap::new();
        for o in &g.offsets {
            by_topic.entry(o.topic.as_str()).or_default().push(o);
        }
        for (topic, mut rows) in by_topic {
            rows.sort_by_key(|o| o.partition);
            let mut lag_sum: Option<i64> = Some(0);
            let mut end_sum: Option<i64> = Some(0);
            for o in &rows {
                let mut row = vec![
                    g.group_id.clone(),
                    topic.to_string(),
                    o.partition.to_string(),
                    opt(o.committed),
                ];
                if verbose {
                    row.push(opt(o.leader_epoch));
                }
                row.extend([opt(o.end), opt(o.lag)]);
                t.add_row(row);
                lag_sum = lag_sum.zip(o.lag).map(|(a, b)| a + b);
                end_sum = end_sum.zip(o.end).map(|(a, b)| a + b);
            }
            let mut total = vec![
                g.group_id.clone(),
                topic.to_string(),
                "TOTAL".into(),
                "-".into(),
            ];
            if verbose {
                total.push("-".into());
            }
            total.extend([opt(end_sum), opt(lag_sum)]);
            t.add_row(total);
        }
    }
    table::render(&t)
}

/// `--topology`: GROUP TOPOLOGY-EPOCH SUBTOPOLOGY KIND TOPIC PARTITIONS, KIND one of `source`,
/// `repartition-source`, `repartition-sink`, `changelog`. Partition counts of source topics come
/// from the offsets rows, of internal topics from the topology (`-` when unknown, 0 = not set).
pub fn topology_table(s: &Snapshot) -> String {
    let mut t = table::new(&[
        "GROUP",
        "TOPOLOGY-EPOCH",
        "SUBTOPOLOGY",
        "KIND",
        "TOPIC",
        "PARTITIONS",
    ]);
    for g in &s.groups {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for o in &g.offsets {
            *counts.entry(o.topic.as_str()).or_default() += 1;
        }
        let Some(subs) = &g.topology.subtopologies else {
            t.add_row(vec![
                g.group_id.clone(),
                g.topology.epoch.to_string(),
                "-".into(),
                "(not initialised)".into(),
                "-".into(),
                "-".into(),
            ]);
            continue;
        };
        let mut internal: BTreeMap<&str, i32> = BTreeMap::new();
        for s in subs {
            for ti in s
                .repartition_source_topics
                .iter()
                .chain(&s.state_changelog_topics)
            {
                internal.insert(ti.name.as_str(), ti.partitions);
            }
        }
        let mut subs: Vec<_> = subs.iter().collect();
        subs.sort_by_key(|a| Natural(&a.id));
        for s in subs {
            let mut push = |kind: &str, topic: &str, parts: String| {
                t.add_row(vec![
                    g.group_id.clone(),
                    g.topology.epoch.to_string(),
                    s.id.clone(),
                    kind.to_string(),
                    topic.to_string(),
                    parts,
                ]);
            };
            for x in &s.source_topics {
                push("source", x, opt(counts.get(x.as_str())));
            }
            for x in &s.source_topic_regex {
                push("source-regex", x, "-".into());
            }
            for x in &s.repartition_source_topics {
                push("repartition-source", &x.name, x.partitions.to_string());
            }
            for x in &s.repartition_sink_topics {
                push("repartition-sink", x, opt(internal.get(x.as_str())));
            }
            for x in &s.state_changelog_topics {
                push("changelog", &x.name, x.partitions.to_string());
            }
        }
    }
    table::render(&t)
}

/// One-line warnings about what the user should know (printed to stderr).
pub fn warnings(s: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for g in &s.groups {
        for m in &g.members {
            if m.topology_epoch < g.topology.epoch {
                out.push(format!(
                    "group `{}`: member {} (process {}) runs topology epoch {} but the group is at \
                     epoch {}; KIP-1071 says it should be fenced (STREAMS_TOPOLOGY_FENCED), shipped \
                     brokers (4.1-4.4) let it keep working with status STALE_TOPOLOGY",
                    g.group_id, m.member_id, m.process_id, m.topology_epoch, g.topology.epoch
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::assignment::Assignment;
    use model::group::{CoordinatorNode, DescribedTopology, PartitionOffsets};
    use model::task::TaskId;
    use model::topology::{Subtopology, TopicInfo};

    fn snapshot() -> Snapshot {
        let ts = |v: &[(&str, i32)]| -> TaskSet { v.iter().copied().collect() };
        let member = |id: &str, p: &str, te: i32, a: TaskSet, target: TaskSet| MemberDescription {
            member_id: id.into(),
            member_epoch: 5,
            instance_id: None,
            rack_id: None,
            client_id: format!("{p}-client"),
            client_host: "/10.0.0.1".into(),
            topology_epoch: te,
            process_id: p.into(),
            user_endpoint: None,
            client_tags: Default::default(),
            task_offsets: [(TaskId::new("1", 0), 80)].into_iter().collect(),
            task_end_offsets: [(TaskId::new("1", 0), 100)].into_iter().collect(),
            assignment: Assignment {
                active: a,
                ..Assignment::default()
            },
            target_assignment: Assignment {
                active: target,
                ..Assignment::default()
            },
            is_classic: false,
            endpoint_partitions: None,
        };
        let off = |t: &str, p: i32, c: Option<i64>, e: i64, l: i64| PartitionOffsets {
            topic: t.into(),
            partition: p,
            committed: c,
            leader_epoch: None,
            end: Some(e),
            lag: Some(l),
        };
        Snapshot {
            kafka_version: None,
            kafka_version_note: None,
            legacy_version_name: None,
            schema_version: 1,
            groups: vec![
                GroupDescription {
                    member_order: Vec::new(),
                    group_id: "app".into(),
                    state: "Reconciling".into(),
                    group_epoch: 4,
                    target_assignment_epoch: 4,
                    coordinator: Some(CoordinatorNode {
                        id: 1,
                        host: "localhost".into(),
                        port: 9092,
                    }),
                    topology: DescribedTopology {
                        epoch: 1,
                        subtopologies: Some(vec![Subtopology {
                            id: "0".into(),
                            source_topics: vec!["in".into()],
                            state_changelog_topics: vec![TopicInfo {
                                name: "app-store-changelog".into(),
                                partitions: 2,
                                ..TopicInfo::default()
                            }],
                            ..Subtopology::default()
                        }]),
                    },
                    members: vec![
                        member("m2", "p2", 0, ts(&[("0", 1)]), ts(&[("0", 1)])),
                        member("m1", "p1", 1, ts(&[("0", 0)]), ts(&[("0", 0), ("0", 1)])),
                    ],
                    offsets: vec![off("in", 1, None, 7, 7), off("in", 0, Some(3), 10, 7)],
                    assignor: None,
                    configs: None,
                },
                GroupDescription {
                    member_order: Vec::new(),
                    group_id: "stopped".into(),
                    state: "Empty".into(),
                    group_epoch: 2,
                    target_assignment_epoch: 2,
                    coordinator: None,
                    topology: DescribedTopology::default(),
                    members: vec![],
                    offsets: vec![off("x", 0, Some(1), 5, 4)],
                    assignor: None,
                    configs: None,
                },
            ],
        }
    }

    #[test]
    fn members_with_endpoints_show_what_they_serve() {
        colored::control::set_override(false);
        let mut s = snapshot();
        let plain = rows(&members_table(&s, false));
        assert!(!plain[0].contains(&"ENDPOINT".to_string()));
        s.groups[0].members[1].user_endpoint = Some(model::heartbeat::Endpoint {
            host: "app-1".into(),
            port: 7070,
        });
        crate::source::endpoints::fill_endpoint_partitions(&mut s);
        let m = rows(&members_table(&s, false));
        let col = |name: &str| m[0].iter().position(|h| h == name).unwrap();
        // Rows in natural process order: p1 (m1, with the endpoint), then p2.
        assert_eq!(m[1][col("ENDPOINT")], "app-1:7070");
        assert_eq!(m[1][col("SERVES-ACTIVE")], "in:[0]");
        assert_eq!(m[1][col("SERVES-STANDBY")], "-");
        assert_eq!(m[2][col("ENDPOINT")], "-");
        assert_eq!(m[1].last().unwrap(), "reconciling");
    }

    fn rows(out: &str) -> Vec<Vec<String>> {
        out.lines()
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect()
    }

    #[test]
    fn one_header_for_many_groups() {
        colored::control::set_override(false);
        let s = snapshot();
        let st = rows(&state_table(&s, false));
        assert_eq!(st.len(), 3);
        assert_eq!(
            st[1],
            [
                "app",
                "localhost:9092",
                "(1)",
                "-",
                "Reconciling",
                "4",
                "4",
                "2"
            ]
        );
        assert_eq!(st[2], ["stopped", "-", "-", "Empty", "2", "2", "0"]);
        let off = rows(&offsets_table(&s, false));
        assert_eq!(
            off[0],
            [
                "GROUP",
                "TOPIC",
                "PARTITION",
                "CURRENT-OFFSET",
                "LOG-END-OFFSET",
                "LAG"
            ]
        );
        assert_eq!(off[1], ["app", "in", "0", "3", "10", "7"]);
        assert_eq!(off[2], ["app", "in", "1", "-", "7", "7"]);
        assert_eq!(off[3], ["app", "in", "TOTAL", "-", "17", "14"]);
        assert_eq!(off[4], ["stopped", "x", "0", "1", "5", "4"]);
        assert_eq!(off.iter().filter(|r| r[0] == "GROUP").count(), 1);
    }

    #[test]
    fn members_are_sorted_and_marked() {
        colored::control::set_override(false);
        let s = snapshot();
        let m = rows(&members_table(&s, false));
        assert_eq!(
            m[1],
            [
                "app",
                "m1",
                "p1",
                "p1-client",
                "1",
                "5",
                "0:[0]",
                "-",
                "-",
                "reconciling"
            ]
        );
        assert_eq!(
            m[2],
            [
                "app",
                "m2",
                "p2",
                "p2-client",
                "0",
                "5",
                "0:[1]",
                "-",
                "-",
                "stale-topology"
            ]
        );
        assert_eq!(
            m[3],
            ["stopped:", "no", "members", "(the", "group", "is", "Empty)"]
        );
        assert_eq!(m.len(), 4);
        let v = rows(&members_table(&s, true));
        // Not an active task: its end offset is the changelog's last offset, 80..=100 to restore.
        assert_eq!(v[1][v[1].len() - 2], "1_0=21");
        assert_eq!(v[1][12], "0:[0,1]");
        let w = warnings(&s);
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("member m2"));
    }

    #[test]
    fn an_empty_group_says_it_has_no_members() {
        let mut s = snapshot();
        s.groups.remove(0);
        assert_eq!(
            members_table(&s, false),
            "stopped: no members (the group is Empty)\n"
        );
        assert_eq!(
            members_table(&s, true),
            "stopped: no members (the group is Empty)\n"
        );
    }

    #[test]
    fn members_and_processes_sort_naturally() {
        colored::control::set_override(false);
        let mut s = snapshot();
        let g = &mut s.groups[0];
        let template = g.members[0].clone();
        g.members = ["p10", "p2", "p1", "p100", "p99"]
            .iter()
            .map(|p| MemberDescription {
                member_id: format!("{p}-t1"),
                process_id: p.to_string(),
                client_id: String::new(),
                ..template.clone()
            })
            .collect();
        let m = rows(&members_table(&s, false));
        let processes: Vec<&str> = m[1..6].iter().map(|r| r[2].as_str()).collect();
        assert_eq!(processes, ["p1", "p2", "p10", "p99", "p100"]);
    }

    #[test]
    fn topology_rows() {
        let s = snapshot();
        let t = rows(&topology_table(&s));
        assert_eq!(t[1], ["app", "1", "0", "source", "in", "2"]);
        assert_eq!(
            t[2],
            ["app", "1", "0", "changelog", "app-store-changelog", "2"]
        );
        assert_eq!(
            t[3],
            ["stopped", "0", "-", "(not", "initialised)", "-", "-"]
        );
    }
}
