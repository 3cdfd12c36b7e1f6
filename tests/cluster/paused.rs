//! A cluster that answers some coordinators and not others (issue #36): one node is paused
//! (SIGSTOP: the kernel still accepts its connections, the broker answers nothing). Before the
//! controller fences it, `list`, `describe --all-groups` and `describe` of named groups print
//! what the other coordinators answered, name the paused broker (or each group's coordinator)
//! on stderr, one line each, and exit 4 within their `--timeout`.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use serde_json::Value;

use crate::support::{streams_group_guarded, Broker, CommandOutput};

/// Short enough that the three commands, run at once, end before the controller fences the
/// paused node (`broker.session.timeout.ms`, 9 s) and its groups move.
const TIMEOUT_MS: &str = "3000";
/// Hang guard only.
const GUARD: Duration = Duration::from_secs(60);

/// Every streams group and its coordinator, as `describe --all-groups` reads them.
fn coordinators(boot: &str) -> BTreeMap<String, u32> {
    let out = streams_group_guarded(
        &[
            "--bootstrap-server",
            boot,
            "describe",
            "--all-groups",
            "-o",
            "json",
        ],
        GUARD,
    );
    assert!(out.status.success(), "{out}");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let id = g["group_id"].as_str().unwrap().to_string();
            (id, g["coordinator"]["id"].as_u64().unwrap() as u32)
        })
        .collect()
}

/// Groups on more than one coordinator: the load maker adds groups until there are.
fn spread_groups(cluster: &Broker) -> BTreeMap<String, u32> {
    for round in 1..=3 {
        let by_group = coordinators(&cluster.bootstrap);
        let nodes: BTreeSet<u32> = by_group.values().copied().collect();
        if nodes.len() > 1 {
            return by_group;
        }
        let prefix = format!("spread{round}");
        cluster.load_groups(&prefix, 4, 1, &["--leave"]);
    }
    panic!("every streams group stayed on one coordinator after 12 more groups");
}

fn sg(boot: &str, args: &[&str]) -> std::thread::JoinHandle<CommandOutput> {
    // --debug: should a check below fail, its message shows which broker was asked what and
    // what it answered (run 50 of issue #35 listed a group of the paused broker).
    let mut all: Vec<String> = [
        "--bootstrap-server",
        boot,
        "--timeout",
        TIMEOUT_MS,
        "--debug",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    all.extend(args.iter().map(|s| s.to_string()));
    std::thread::spawn(move || {
        let args: Vec<&str> = all.iter().map(String::as_str).collect();
        streams_group_guarded(&args, GUARD)
    })
}

/// The lines of stderr a user reads: all but the `--debug` trace.
fn said(out: &CommandOutput) -> Vec<&str> {
    out.stderr
        .lines()
        .filter(|l| !l.starts_with("debug: "))
        .collect()
}

fn group_ids(out: &CommandOutput) -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is no JSON document ({e}): {out}"));
    doc["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("no groups: {out}"))
        .iter()
        .map(|g| g["group_id"].as_str().unwrap().to_string())
        .collect()
}

pub(crate) fn a_paused_coordinator(cluster: &Broker) {
    let by_group = spread_groups(cluster);
    // The node coordinating the fewest groups, so that most are still answered.
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for n in by_group.values() {
        *count.entry(*n).or_default() += 1;
    }
    let (&paused, _) = count.iter().min_by_key(|(_, c)| **c).unwrap();
    let on_paused: BTreeSet<String> = by_group
        .iter()
        .filter(|(_, n)| **n == paused)
        .map(|(g, _)| g.clone())
        .collect();
    let answered: BTreeSet<String> = by_group
        .keys()
        .filter(|g| !on_paused.contains(*g))
        .cloned()
        .collect();
    let one_paused = on_paused.iter().next().unwrap().clone();
    let one_answered = answered.iter().next().unwrap().clone();
    // A live node first: the bootstrap itself answers.
    let live = cluster
        .nodes
        .iter()
        .filter(|(n, _)| **n != paused)
        .map(|(_, a)| a.clone())
        .collect::<Vec<_>>()
        .join(",");
    let paused_addr = cluster.nodes[&paused].clone();
    eprintln!(
        "pausing node {paused} ({paused_addr}), coordinator of {on_paused:?}; the others: {answered:?}"
    );
    cluster.pause_node(paused);
    let runs = [
        sg(&live, &["list", "-o", "json"]),
        sg(&live, &["describe", "--all-groups", "-o", "json"]),
        sg(
            &live,
            &[
                "describe",
                "--group",
                &one_paused,
                "--group",
                &one_answered,
                "-o",
                "json",
            ],
        ),
    ]
    .map(|h| h.join().expect("a command thread"));
    cluster.resume_node(paused);

    let [list, all, named] = runs;
    let broker = format!("broker {paused} at {paused_addr}");
    for out in [&list, &all] {
        assert_eq!(out.status.code(), Some(4), "{out}");
        let shown = group_ids(out);
        assert!(answered.is_subset(&shown), "{answered:?} not all in {out}");
        let lines: Vec<&str> = said(out)
            .into_iter()
            .filter(|l| l.contains(&broker))
            .collect();
        assert_eq!(lines.len(), 1, "one line naming {broker}: {out}");
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains("did not answer"),
            "{out}"
        );
        // Whichever deadline ends the wait first says so: the step's budget (`ADDR (node N): no
        // answer within`) or the connection's own (`ADDR no answer to ApiVersions v3 #1 after`),
        // both --timeout when nothing is left for later steps (run 68 had the second).
        assert!(
            out.stderr.lines().any(|l| l.starts_with("debug: +")
                && l.contains(&format!("{paused_addr} "))
                && l.contains("no answer")),
            "the trace says {paused_addr} did not answer: {out}"
        );
    }
    assert_eq!(named.status.code(), Some(4), "{named}");
    assert_eq!(
        group_ids(&named),
        BTreeSet::from([one_answered.clone()]),
        "{named}"
    );
    let coordinator = format!("coordinator {paused} at {paused_addr}");
    let lines: Vec<&str> = said(&named)
        .into_iter()
        .filter(|l| l.contains(&coordinator) && l.contains(&format!("`{one_paused}`")))
        .collect();
    assert_eq!(lines.len(), 1, "one line naming {coordinator}: {named}");
    eprintln!("paused coordinator: {}", lines[0]);
}
