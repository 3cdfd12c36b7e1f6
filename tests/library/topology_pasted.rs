//! `Topology#describe()` text as people paste it (tests/data/pasted/): every mangled copy parses
//! to the same topology as the clean text, and only a truncated or contradictory text fails,
//! naming its line.

use std::path::{Path, PathBuf};

use coordinator::topics::{configure, TopicMetadata};
use model::topology::Topology;
use streams_group::topology::{parse_topology_with_notes, ParseError};

const KINDS: [&str; 9] = [
    "log-prefix",
    "tabs",
    "no-indent",
    "indent-4",
    "blank-lines",
    "no-header",
    "crlf",
    "trailing-ws",
    "everything",
];

/// A clean description and what it must come to.
struct Base {
    name: &'static str,
    app: &'static str,
    partitions: &'static [(&'static str, i32)],
    subtopologies: usize,
    tasks: i64,
    notes: usize,
}

const BASES: [Base; 3] = [
    Base {
        name: "wordcount",
        app: "streams-wordcount",
        partitions: &[("streams-plaintext-input", 4)],
        subtopologies: 2,
        tasks: 8,
        notes: 0,
    },
    Base {
        name: "join-repartition",
        app: "orders-app",
        partitions: &[("orders", 6), ("customers", 3)],
        subtopologies: 3,
        // 6 for the re-key; the join's repartition topic is copartitioned with customers (3);
        // the aggregation's repartition topic is computed before that coercion, from the
        // re-key's 6, as Apache's RepartitionTopics does: 6 + 3 + 6.
        tasks: 15,
        notes: 0,
    },
    Base {
        name: "global-stores",
        app: "payments-app",
        partitions: &[("payments", 5)],
        subtopologies: 2,
        tasks: 10,
        notes: 2,
    },
];

fn path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pasted")
        .join(file)
}

fn read(file: &str) -> String {
    std::fs::read_to_string(path(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn parse(text: &str, app: &str) -> Result<(Topology, Vec<String>), ParseError> {
    parse_topology_with_notes(text, Some(app))
}

/// Tasks once the internal topics the coordinator asks for exist.
fn tasks(t: &Topology, partitions: &[(&str, i32)]) -> i64 {
    let mut md: TopicMetadata = partitions
        .iter()
        .map(|(n, p)| (n.to_string(), *p))
        .collect();
    let first = configure(t, &md).expect("a valid topology");
    for topic in first.internal_topics {
        md.insert(topic.name, topic.partitions);
    }
    let c = configure(t, &md).expect("a valid topology");
    assert!(c.is_ready(), "{c:?}");
    c.total_tasks()
}

#[test]
fn clean_texts_have_the_expected_counts() {
    for b in &BASES {
        let (t, notes) = parse(&read(&format!("{}.clean.txt", b.name)), b.app).unwrap();
        assert_eq!(t.subtopologies.len(), b.subtopologies, "{}", b.name);
        assert_eq!(tasks(&t, b.partitions), b.tasks, "{}", b.name);
        assert_eq!(notes.len(), b.notes, "{}: {notes:?}", b.name);
    }
}

#[test]
fn every_pasted_copy_parses_as_the_clean_text() {
    for b in &BASES {
        let clean = parse(&read(&format!("{}.clean.txt", b.name)), b.app).unwrap();
        for kind in KINDS {
            let file = format!("{}.{kind}.txt", b.name);
            let text = read(&file);
            assert_ne!(
                text,
                read(&format!("{}.clean.txt", b.name)),
                "{file} is mangled"
            );
            let got = parse(&text, b.app).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(got, clean, "{file}");
            assert_eq!(got.0.subtopologies.len(), b.subtopologies, "{file}");
            assert_eq!(tasks(&got.0, b.partitions), b.tasks, "{file}");
        }
    }
}

#[test]
fn pre_1_1_format() {
    let clean = parse(&read("wordcount.clean.txt"), "streams-wordcount").unwrap();
    let old = parse(&read("wordcount.pre-1.1.txt"), "streams-wordcount").unwrap();
    assert_eq!(old, clean);

    let (t, notes) = parse(&read("global-stores.pre-1.1.txt"), "pay").unwrap();
    assert_eq!(t.subtopologies.len(), 1);
    assert_eq!(t.subtopologies[0].source_topics, vec!["payments"]);
    assert_eq!(tasks(&t, &[("payments", 5)]), 5);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("global store currency-rates-STATE-STORE-0000000000"));
    assert!(notes[0].contains("topic: currency-rates"));
}

/// The 1-based number of the first meaningful line after `lines[..k]`, if any.
fn next_meaningful(lines: &[&str], k: usize) -> Option<&'static str> {
    let next = lines[k..]
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())?;
    Some(if next.starts_with("Sub-topology:") {
        "sub"
    } else {
        "other"
    })
}

#[test]
fn a_text_cut_short_fails_unless_cut_between_sub_topologies() {
    for b in &BASES {
        let clean = read(&format!("{}.clean.txt", b.name));
        let lines: Vec<&str> = clean.split('\n').collect();
        for k in 1..lines.len() {
            let cut = lines[..k].join("\n");
            let between = matches!(next_meaningful(&lines, k), Some("sub") | None);
            match parse(&cut, b.app) {
                Ok((t, _)) => assert!(
                    between,
                    "{}: cut after line {k} parsed ({} sub-topologies)",
                    b.name,
                    t.subtopologies.len()
                ),
                Err(e) => {
                    assert!(!between || k == 1, "{}: cut after line {k}: {e}", b.name);
                    let line = e.line.expect("a line number");
                    assert!((1..=k + 1).contains(&line), "{}: {k}: {e}", b.name);
                }
            }
            // Cut in the middle of line k as well.
            let half = lines[k - 1].trim_end();
            if half.trim().len() > 1 {
                let mid = half.len() - half.trim().len() / 2;
                let mut cut_lines = lines[..k - 1].to_vec();
                cut_lines.push(&half[..mid]);
                let cut = cut_lines.join("\n");
                let e = parse(&cut, b.app).expect_err(&format!("{}: mid-line {k}", b.name));
                // The cut line, or an earlier one whose arrow names a node that is now gone.
                let line = e.line.expect("a line number");
                assert!((1..=k).contains(&line), "{}: mid-line {k}: {e}", b.name);
            }
        }
    }
}

#[test]
fn contradictory_texts_name_the_line() {
    let clean = read("wordcount.clean.txt");
    // An edge whose two ends disagree.
    let edited = clean.replacen(
        "      <-- KSTREAM-SOURCE-0000000000",
        "      <-- KSTREAM-KEY-SELECT-0000000002",
        1,
    );
    let e = parse(&edited, "app").unwrap_err();
    assert_eq!(e.line, Some(4), "{e}");
    assert!(e.message.contains("contradicts itself"), "{e}");

    // Two descriptions pasted one after the other.
    let twice = format!("{clean}{clean}");
    let e = parse(&twice, "app").unwrap_err();
    assert_eq!(e.line, Some(clean.split('\n').count()), "{e}");
    assert!(e.message.contains("a second topology header"), "{e}");

    // A sink with successors.
    let edited = clean.replacen(
        "      <-- KTABLE-TOSTREAM-0000000007\n",
        "      <-- KTABLE-TOSTREAM-0000000007\n      --> KSTREAM-SOURCE-0000000006\n",
        1,
    );
    let e = parse(&edited, "app").unwrap_err();
    assert_eq!(e.line, Some(28), "{e}");
    assert!(e.message.starts_with("a Sink: has no `-->` line"), "{e}");
}
