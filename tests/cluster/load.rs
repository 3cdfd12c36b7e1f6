//! The harness's load maker on the cluster (issue #36): three groups of two members, played by
//! one JVM that finds each group's coordinator among the three nodes, commit offsets as their
//! members and leave; the groups stay, Empty, with their topology and offsets.

use std::collections::BTreeSet;

use crate::support::Broker;

const PARTITIONS: usize = 3;

pub(crate) fn three_groups_from_one_load_maker(cluster: &Broker) {
    let loaded = cluster.load_groups("load", 3, 2, &["--partitions", "3", "--leave"]);
    assert!(
        loaded.contains("groups=3") && loaded.contains("commits=9"),
        "{loaded}"
    );
    let list = cluster.ours_json(&["list", "-o", "json"]);
    let empty: BTreeSet<&str> = list["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["state"] == "Empty")
        .filter_map(|g| g["group_id"].as_str())
        .filter(|g| g.starts_with("load-"))
        .collect();
    assert_eq!(
        empty,
        BTreeSet::from(["load-1", "load-2", "load-3"]),
        "{list}"
    );
    let mut coordinators = BTreeSet::new();
    for g in ["load-1", "load-2", "load-3"] {
        let d = cluster.ours_json(&["describe", "--group", g, "-o", "json"]);
        let d = &d["groups"][0];
        let source = &d["topology"]["subtopologies"][0]["source_topics"][0];
        assert_eq!(source, &format!("{g}-input").as_str(), "{d}");
        let offsets = d["offsets"].as_array().unwrap();
        assert_eq!(offsets.len(), PARTITIONS, "{g}: {d}");
        assert!(offsets.iter().all(|o| o["committed"] == 0), "{g}: {d}");
        coordinators.insert(d["coordinator"]["id"].to_string());
    }
    eprintln!("load maker: 3 groups on coordinator node(s) {coordinators:?}");
}
