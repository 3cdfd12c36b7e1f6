//! Parser tests on saved `Topology#describe()` outputs (tests/data/topologies/).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use coordinator::topics::{configure, TopicMetadata};
use model::topology::{TopicInfo, Topology};
use streams_group::topology::diff::{diff, HazardKind};
use streams_group::topology::{
    load_topology_file, parse_describe_with_notes, parse_topology, ParseError,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/topologies")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture exists")
}

fn parse(name: &str, app: &str) -> (Topology, Vec<String>) {
    parse_describe_with_notes(&read(name), app).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn names(infos: &[TopicInfo]) -> Vec<&str> {
    infos.iter().map(|t| t.name.as_str()).collect()
}

fn group(topics: &[&str]) -> BTreeSet<String> {
    topics.iter().map(|t| t.to_string()).collect()
}

#[test]
fn word_count_named_store_matches_the_json_file() {
    let (text, notes) = parse("wordcount-named-store.txt", "streams-wordcount");
    assert!(notes.is_empty());
    let json = load_topology_file(&fixture("wordcount.json"), None).unwrap();
    assert_eq!(text, json);
    // The internal topic names that public READMEs report for this demo.
    assert_eq!(
        text.subtopologies[1].state_changelog_topics[0].name,
        "streams-wordcount-counts-store-changelog"
    );
    assert_eq!(
        text.subtopologies[1].repartition_source_topics[0].name,
        "streams-wordcount-counts-store-repartition"
    );
}

#[test]
fn word_count_generated_names() {
    let (t, _) = parse("wordcount-generated.txt", "wc");
    let s0 = &t.subtopologies[0];
    assert_eq!(s0.source_topics, vec!["streams-plaintext-input"]);
    assert_eq!(
        s0.repartition_sink_topics,
        vec!["wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"]
    );
    let s1 = &t.subtopologies[1];
    assert!(s1.source_topics.is_empty());
    assert_eq!(
        names(&s1.repartition_source_topics),
        vec!["wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition"]
    );
    assert_eq!(
        names(&s1.state_changelog_topics),
        vec!["wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"]
    );
    assert!(s1.is_stateful() && !s0.is_stateful());
}

#[test]
fn stream_stream_join() {
    let (t, notes) = parse("stream-stream-join.txt", "ads");
    assert!(notes.is_empty());
    assert_eq!(t.subtopologies.len(), 1);
    let s = &t.subtopologies[0];
    assert_eq!(s.source_topics, vec!["ad-clicks", "ad-impressions"]);
    // Each windowed store is listed by two processors: one changelog each.
    assert_eq!(
        names(&s.state_changelog_topics),
        vec![
            "ads-KSTREAM-JOINOTHER-0000000005-store-changelog",
            "ads-KSTREAM-JOINTHIS-0000000004-store-changelog"
        ]
    );
    assert_eq!(
        s.copartition_groups,
        vec![group(&["ad-clicks", "ad-impressions"])]
    );
    assert!(s.repartition_sink_topics.is_empty());
}

#[test]
fn stream_table_join_after_rekey() {
    let (t, _) = parse("stream-table-join.txt", "shop");
    let rep = "shop-KSTREAM-KEY-SELECT-0000000004-repartition";
    assert_eq!(t.subtopologies[0].repartition_sink_topics, vec![rep]);
    assert!(t.subtopologies[0].copartition_groups.is_empty());
    let s1 = &t.subtopologies[1];
    assert_eq!(s1.source_topics, vec!["customers"]);
    assert_eq!(names(&s1.repartition_source_topics), vec![rep]);
    assert_eq!(
        names(&s1.state_changelog_topics),
        vec!["shop-customers-STATE-STORE-0000000001-changelog"]
    );
    assert_eq!(s1.copartition_groups, vec![group(&[rep, "customers"])]);

    // The repartition topic is not sized by the user, so copartitioning coerces it to the
    // table's count (3), whatever `orders` has (8).
    let md: TopicMetadata = [("orders".to_string(), 8), ("customers".to_string(), 3)].into();
    let c = configure(&t, &md).unwrap();
    let created: Vec<(String, i32)> = c
        .internal_topics
        .iter()
        .map(|t| (t.name.clone(), t.partitions))
        .collect();
    assert_eq!(
        created,
        vec![
            (rep.to_string(), 3),
            (
                "shop-customers-STATE-STORE-0000000001-changelog".to_string(),
                3
            )
        ]
    );
    let mut md2 = md.clone();
    for (name, n) in created {
        md2.insert(name, n);
    }
    let c = configure(&t, &md2).unwrap();
    assert!(c.is_ready(), "{c:?}");
    assert_eq!(c.num_tasks("0"), Some(8));
    assert_eq!(c.num_tasks("1"), Some(3));
}

#[test]
fn global_store_is_skipped_with_a_note() {
    let (t, notes) = parse("global-store.txt", "pay");
    assert_eq!(t.subtopologies.len(), 1);
    let s = &t.subtopologies[0];
    assert_eq!(s.id, "1");
    assert_eq!(s.source_topics, vec!["payments"]);
    assert!(
        s.state_changelog_topics.is_empty(),
        "no changelog for a global store"
    );
    assert!(
        s.copartition_groups.is_empty(),
        "one input: nothing to copartition"
    );
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("sub-topology 0 is a global store"));
    assert!(notes[0].contains("currency-rates"));
}

#[test]
fn pattern_source_and_dynamic_sink() {
    let (t, notes) = parse("pattern-source.txt", "router");
    let s = &t.subtopologies[0];
    assert!(s.source_topics.is_empty());
    assert_eq!(s.source_topic_regex, vec!["orders-.*"]);
    assert!(s.repartition_sink_topics.is_empty());
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("extractor class: com.example.RegionRouter@5b37e0d2"));
    // The coordinator refuses source patterns.
    let e = configure(&t, &TopicMetadata::new()).unwrap_err();
    assert!(e.message.contains("regular expressions"));
}

#[test]
fn named_topology_decorates_with_its_name() {
    let (t, _) = parse("named-topology.txt", "app");
    assert_eq!(t.subtopologies.len(), 1);
    assert_eq!(t.subtopologies[0].id, "0");
    assert_eq!(
        names(&t.subtopologies[0].state_changelog_topics),
        vec!["app-inventory-stock-levels-changelog"]
    );
}

#[test]
fn two_named_topologies_prefix_ids() {
    let (t, _) = parse("named-topologies-two.txt", "app");
    let ids: Vec<&str> = t.subtopologies.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, vec!["inventory-0", "pricing-0"]);
    assert_eq!(t.subtopologies[1].source_topics, vec!["price-updates"]);
}

fn error_of(name: &str) -> ParseError {
    load_topology_file(&fixture(name), Some("app")).unwrap_err()
}

#[test]
fn odd_indentation_is_read_by_keyword() {
    // A processor indented by 5 spaces instead of 4: still a processor (the parser once
    // refused it by its column).
    let odd = parse("odd-indent.txt", "app").0;
    let text = read("odd-indent.txt").replace("     Processor:", "    Processor:");
    assert_ne!(text, read("odd-indent.txt"));
    assert_eq!(parse_topology(&text, Some("app")).unwrap(), odd);
    assert_eq!(odd.subtopologies.len(), 1);
    assert_eq!(odd.subtopologies[0].source_topics, vec!["input"]);
}

#[test]
fn broken_unknown_node_kind() {
    let e = error_of("broken-unknown-node.txt");
    assert_eq!((e.line, e.column), (Some(5), Some(5)));
    assert_eq!(
        e.message,
        "expected `Source:`, `Processor:`, `Sink:` or `Sub-topology:`"
    );
}

#[test]
fn broken_truncated() {
    // Six lines and a final newline: the missing `<--` line would be line 7.
    let e = error_of("broken-truncated.txt");
    assert_eq!((e.line, e.column), (Some(7), Some(1)));
    assert!(
        e.message
            .starts_with("unexpected end of input: expected `<-- `"),
        "{e}"
    );
    // Cut in the middle of a line.
    let text = read("wordcount-named-store.txt");
    let cut = &text[..text.find("(stores: [counts-store])").unwrap() + 12];
    let e = parse_topology(cut, Some("app")).unwrap_err();
    assert_eq!((e.line, e.column), (Some(20), Some(57)));
    assert_eq!(
        e.message,
        "expected `)` at the end of the line (truncated input?)"
    );
}

#[test]
fn first_subtopology_three_spaces_later_two_any_up_to_three() {
    // The 4.4 CLI prints every header with 3 spaces: same result.
    let text =
        read("wordcount-named-store.txt").replace("\n  Sub-topology: 1", "\n   Sub-topology: 1");
    assert_eq!(
        parse_topology(&text, Some("streams-wordcount")).unwrap(),
        parse("wordcount-named-store.txt", "streams-wordcount").0
    );
}

#[test]
fn generated_name_shift_is_a_hazard_between_fixtures() {
    let (old, _) = parse("wordcount-generated.txt", "wc");
    let text =
        read("wordcount-generated.txt").replace("STATE-STORE-0000000003", "STATE-STORE-0000000004");
    let new = parse_topology(&text, Some("wc")).unwrap();
    let d = diff(&old, &new);
    assert!(!d.is_empty());
    assert_eq!(d.hazards.len(), 2);
    assert!(d
        .hazards
        .iter()
        .all(|h| h.kind == HazardKind::GeneratedNameShifted));
    // Named store: renaming it is a StoreRenamed hazard.
    let (a, _) = parse("wordcount-named-store.txt", "wc");
    let b = parse_topology(
        &read("wordcount-named-store.txt").replace("counts-store", "word-counts"),
        Some("wc"),
    )
    .unwrap();
    let kinds: Vec<HazardKind> = diff(&a, &b).hazards.iter().map(|h| h.kind).collect();
    assert_eq!(
        kinds,
        vec![
            HazardKind::StoreRenamed,
            HazardKind::RepartitionTopicAdded,
            HazardKind::RepartitionTopicRemoved
        ]
    );
}
