//! Many groups at once (issue #36): 200 streams groups of 2 members each, made by the harness's
//! load maker (one JVM heartbeating for all 400 members), then `list` and `describe
//! --all-groups --members -o json` find every one with its members, and Apache's
//! `kafka-streams-groups --list` names the same groups.

use std::collections::BTreeSet;

use crate::support::{stdout_of, Broker};

const GROUPS: u32 = 200;
const MEMBERS: usize = 2;
const PREFIX: &str = "scale";

fn ours(broker: &Broker, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--timeout", "30000"];
    all.extend_from_slice(args);
    broker.ours_json(&all)
}

fn expected() -> BTreeSet<String> {
    (1..=GROUPS).map(|i| format!("{PREFIX}-{i}")).collect()
}

#[test]
fn two_hundred_groups_are_listed_and_described_with_their_members() {
    let broker = Broker::start();
    let loaded = broker.load_groups(PREFIX, GROUPS, MEMBERS as u32, &["--partitions", "2"]);
    assert!(loaded.contains("groups=200"), "{loaded}");

    let list = ours(&broker, &["list", "-o", "json"]);
    let listed: BTreeSet<String> = list["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("list -o json has no groups array: {list}"))
        .iter()
        .filter(|g| g["state"] == "Stable")
        .map(|g| g["group_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, expected(), "list: the Stable groups");

    let described = ours(
        &broker,
        &["describe", "--all-groups", "--members", "-o", "json"],
    );
    let groups = described["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("describe -o json has no groups array"));
    let mut seen = BTreeSet::new();
    for g in groups {
        let id = g["group_id"].as_str().unwrap().to_string();
        let members = g["members"].as_array().map_or(0, Vec::len);
        assert_eq!(members, MEMBERS, "{id}: members in describe --all-groups");
        assert_eq!(g["state"], "Stable", "{id}");
        seen.insert(id);
    }
    assert_eq!(seen, expected(), "describe --all-groups: the groups");

    let apache = broker.tool(&["--list"]);
    assert!(
        apache.status.success(),
        "kafka-streams-groups --list failed"
    );
    let apache: BTreeSet<String> = stdout_of(&apache)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    assert_eq!(apache, expected(), "Apache's --list");
}
