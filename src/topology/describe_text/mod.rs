//! Parse Kafka Streams `Topology#describe()` output into a [`Topology`].
//!
//! What Kafka Streams prints (`InternalTopologyBuilder.TopologyDescription#toString`, and the
//! `toString` of its `Subtopology`, `GlobalStore`, `Source`, `Processor` and `Sink`):
//!
//! ```text
//! Topologies:                                or   Topology: <name>:
//!    Sub-topology: 0
//!     Source: <name> (topics: [a, b])             or   (topics: <regex>)
//!       --> <names>|none
//!     Processor: <name> (stores: [s1, s2])
//!       --> <names>|none
//!       <-- <names>|none
//!     Sink: <name> (topic: <topic>)              or   (extractor class: <class>)
//!       <-- <names>|none
//!
//!   Sub-topology: 1 for global store (will not generate tasks)
//!     ...
//! ```
//!
//! and before Kafka 1.1 (`Sub-topologies:`, one line per node, empty arrow lists, and global
//! stores in a section of their own):
//!
//! ```text
//! Sub-topologies:
//!   Sub-topology: 0
//!     Source: <name>(topics: a, b) --> <names>
//!     Processor: <name>(stores: [s]) --> <names> <-- <names>
//!     Sink: <name>(topic: <topic>) <-- <names>
//! Global Stores:
//!   GlobalStore: <source>(topic: <topic>) -> <processor>(store: <store>)      or   none
//! ```
//!
//! Pasted copies lose the layout, so lines are recognised by their keywords, never by their
//! column (`lines` removes what carries no structure: indentation of any kind or none, CRLF,
//! trailing blanks, blank lines anywhere, code fences, a log prefix on the first line). The
//! `Topologies:` header may be missing. Only a truncated or contradictory text is an error,
//! naming its line (`grammar`): a node without the arrows its kind prints, an arrow naming a
//! node that is not there, two ends of an edge that disagree, a second header.
//!
//! How the text becomes a topology:
//! * every `Sub-topology: N` becomes subtopology `"N"`; global-store sub-topologies make no
//!   tasks and are left out (with a note), and their stores get no changelog;
//! * `(topics: [a, b])` gives source topics, `(topics: <regex>)` a source pattern;
//! * a topic that the application both writes (a `Sink:` with a fixed topic) and reads (a
//!   `Source:`) is an internal repartition topic when its name ends in `-repartition`, or in
//!   `-topic` with `subscription-registration` / `subscription-response` in it (foreign-key join
//!   topics). Other written-and-read topics are user topics (with a note);
//! * internal topic names are decorated with `<application_id>-` (describe prints them bare);
//!   for a named topology (`Topology: NAME:`) the prefix is `<application_id>-NAME-`;
//! * every store of a `Processor:` gives a changelog `<prefix><store>-changelog` (partitions 0);
//! * a sub-topology with a join processor (name containing `JOIN`, `OUTERTHIS`, `OUTEROTHER`,
//!   `LEFTTHIS` or `LEFTOTHER`, any case, `-` ignored) and two or more input topics gets one
//!   copartition group with all its input topics;
//! * sinks with a topic name extractor are dynamic: they are noted and left out;
//! * one `Topologies:` block, or one named topology: ids as printed. Several named topologies:
//!   ids become `NAME-N` so that they stay unique.
//!
//! What describe text cannot show: user-fixed repartition partition counts
//! (`Repartitioned.withNumberOfPartitions`), stores with logging disabled (they get a changelog
//! here), and the source-topic-as-changelog optimisation (a changelog is made here).

mod grammar;
mod items;
mod lines;

use std::collections::BTreeSet;

use model::processor_graph::{
    NodeKind as GraphNode, ProcessorGraph, ProcessorNode, SubtopologyGraph,
};
use model::topology::{Subtopology, TopicInfo, Topology};

use super::ParseError;
use grammar::Block;
use items::{NodeKind, SinkTarget, SourceTopics};

/// Whether `text` looks like describe text (its first meaningful line, after any log prefix,
/// starts with one of its keywords), so that format detection and the parser agree.
pub fn looks_like_describe(text: &str) -> bool {
    lines::looks_like_describe(text)
}

/// Parse describe text; see the module documentation for the rules.
pub fn parse_describe(text: &str, application_id: &str) -> Result<Topology, ParseError> {
    parse_describe_with_notes(text, application_id).map(|(t, _)| t)
}

/// Parse describe text and also return notes about what was skipped or guessed (global stores,
/// dynamic sinks, topics that are both written and read but not internal).
pub fn parse_describe_with_notes(
    text: &str,
    application_id: &str,
) -> Result<(Topology, Vec<String>), ParseError> {
    parse_describe_graph(text, application_id).map(|(t, notes, _)| (t, notes))
}

/// Parse describe text into the topology, the notes, and the processors with their edges
/// (global-store sub-topologies included there), for pictures.
pub fn parse_describe_graph(
    text: &str,
    application_id: &str,
) -> Result<(Topology, Vec<String>, ProcessorGraph), ParseError> {
    if application_id.is_empty() {
        return Err(ParseError::general("the application id must not be empty"));
    }
    let blocks = grammar::parse(&lines::clean(text))?;
    if blocks.iter().all(|b| b.subs.is_empty()) {
        // At the end of the text: that is where a sub-topology was still expected.
        return Err(ParseError {
            line: Some(text.lines().count().max(1)),
            ..ParseError::general(
                "no sub-topology found: the input holds no topology (Topology#describe() \
                 prints `Sub-topology: 0` and its nodes)",
            )
        });
    }
    let mut notes = Vec::new();
    let several = blocks.len() > 1;
    let mut subtopologies = Vec::new();
    let mut graph = ProcessorGraph::default();
    for block in &blocks {
        let prefix = match &block.name {
            Some(name) => format!("{application_id}-{name}-"),
            None => format!("{application_id}-"),
        };
        let id_prefix = match (&block.name, several) {
            (Some(name), true) => format!("{name}-"),
            _ => String::new(),
        };
        subtopologies.extend(build_block(block, &prefix, &id_prefix, &mut notes));
        let internal = internal_topics(block, &mut Vec::new());
        graph.subtopologies.extend(
            block
                .subs
                .iter()
                .map(|sub| sub_graph(sub, &internal, &prefix, &id_prefix)),
        );
    }
    let topology = Topology {
        epoch: 0,
        subtopologies,
    };
    Ok((topology, notes, graph))
}

/// One sub-topology's nodes, with internal topic names decorated as in the topology.
fn sub_graph(
    sub: &grammar::RawSub,
    internal: &BTreeSet<&str>,
    prefix: &str,
    id_prefix: &str,
) -> SubtopologyGraph {
    let topic = |t: &String| match internal.contains(t.as_str()) {
        true => format!("{prefix}{t}"),
        false => t.clone(),
    };
    let nodes = sub
        .nodes
        .iter()
        .map(|n| ProcessorNode {
            name: n.name.clone(),
            kind: match &n.kind {
                NodeKind::Source(SourceTopics::List(ts)) => GraphNode::Source {
                    topics: ts.iter().map(topic).collect(),
                    pattern: None,
                },
                NodeKind::Source(SourceTopics::Pattern(p)) => GraphNode::Source {
                    topics: Vec::new(),
                    pattern: Some(p.clone()),
                },
                NodeKind::Processor(stores) => GraphNode::Processor {
                    stores: stores.clone(),
                },
                NodeKind::Sink(SinkTarget::Topic(t)) => GraphNode::Sink {
                    topic: Some(topic(t)),
                },
                NodeKind::Sink(SinkTarget::Extractor(_)) => GraphNode::Sink { topic: None },
            },
            successors: n.successors(),
        })
        .collect();
    SubtopologyGraph {
        id: format!("{id_prefix}{}", sub.id),
        global: sub.global,
        nodes,
    }
}

// ---------------------------------------------------------------------------------------------
// From syntax to the topology

fn is_join_processor(name: &str) -> bool {
    let upper: String = name
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_uppercase)
        .collect();
    ["JOIN", "OUTERTHIS", "OUTEROTHER", "LEFTTHIS", "LEFTOTHER"]
        .iter()
        .any(|k| upper.contains(k))
}

fn is_internal_name(topic: &str) -> bool {
    if topic.ends_with("-repartition") {
        return true;
    }
    let lower = topic.to_lowercase();
    topic.ends_with("-topic")
        && (lower.contains("subscription-registration") || lower.contains("subscription-response"))
}

fn build_block(
    block: &Block,
    prefix: &str,
    id_prefix: &str,
    notes: &mut Vec<String>,
) -> Vec<Subtopology> {
    let label = |id: &str| match &block.name {
        Some(n) => format!("sub-topology {id} of topology {n}"),
        None => format!("sub-topology {id}"),
    };
    let internal = internal_topics(block, notes);
    for (topic, store) in &block.old_globals {
        notes.push(format!(
            "global store {store} (topic: {topic}) makes no tasks and is not part of the \
             streams-group topology"
        ));
    }
    let mut out = Vec::new();
    for sub in &block.subs {
        if sub.global {
            notes.push(global_note(sub, &label(&sub.id)));
            continue;
        }
        let ctx = SubContext {
            internal: &internal,
            prefix,
            label: label(&sub.id),
        };
        let mut s = build_sub(sub, &ctx, notes);
        s.id = format!("{id_prefix}{}", sub.id);
        out.push(s);
    }
    out
}

/// Topics written by fixed-topic sinks and read by sources of task-making sub-topologies that
/// are internal by name (see the module documentation), with notes on the doubtful ones.
fn internal_topics<'b>(block: &'b Block, notes: &mut Vec<String>) -> BTreeSet<&'b str> {
    let mut written = BTreeSet::new();
    let mut read = BTreeSet::new();
    for sub in block.subs.iter().filter(|s| !s.global) {
        for node in &sub.nodes {
            match &node.kind {
                NodeKind::Sink(SinkTarget::Topic(t)) => {
                    written.insert(t.as_str());
                }
                NodeKind::Source(SourceTopics::List(ts)) => {
                    read.extend(ts.iter().map(String::as_str));
                }
                _ => {}
            }
        }
    }
    let mut internal = BTreeSet::new();
    for t in &written {
        match (read.contains(t), is_internal_name(t)) {
            (true, true) => {
                internal.insert(*t);
            }
            (true, false) => notes.push(format!(
                "topic {t} is both written and read by the application, but its name does not \
                 end in -repartition: treated as a user topic"
            )),
            // Kafka Streams always reads back what it repartitions: the reader is missing.
            (false, true) => notes.push(format!(
                "topic {t} is written but no sub-topology reads it: treated as a user topic; \
                 if the text was cut short, paste the whole description"
            )),
            (false, false) => {}
        }
    }
    internal
}

fn global_note(sub: &grammar::RawSub, label: &str) -> String {
    let mut topics = BTreeSet::new();
    let mut stores = BTreeSet::new();
    for n in &sub.nodes {
        match &n.kind {
            NodeKind::Source(SourceTopics::List(ts)) => {
                topics.extend(ts.iter().map(String::as_str))
            }
            NodeKind::Processor(ss) => stores.extend(ss.iter().map(String::as_str)),
            _ => {}
        }
    }
    format!(
        "{label} is a global store (topics: {}; stores: {}): it makes no tasks and is not part \
         of the streams-group topology",
        join_or_none(&topics),
        join_or_none(&stores)
    )
}

struct SubContext<'a> {
    internal: &'a BTreeSet<&'a str>,
    /// What internal topic names are decorated with.
    prefix: &'a str,
    label: String,
}

fn build_sub(sub: &grammar::RawSub, ctx: &SubContext, notes: &mut Vec<String>) -> Subtopology {
    let decorate = |t: &str| format!("{}{t}", ctx.prefix);
    let mut sources = BTreeSet::new();
    let mut patterns = BTreeSet::new();
    let mut rep_sources = BTreeSet::new();
    let mut rep_sinks = BTreeSet::new();
    let mut stores = BTreeSet::new();
    let mut has_join = false;
    for node in &sub.nodes {
        match &node.kind {
            NodeKind::Source(SourceTopics::List(ts)) => {
                for t in ts {
                    if ctx.internal.contains(t.as_str()) {
                        rep_sources.insert(decorate(t));
                    } else {
                        sources.insert(t.clone());
                    }
                }
            }
            NodeKind::Source(SourceTopics::Pattern(p)) => {
                patterns.insert(p.clone());
            }
            NodeKind::Processor(ss) => {
                stores.extend(ss.iter().cloned());
                has_join |= is_join_processor(&node.name);
            }
            NodeKind::Sink(SinkTarget::Topic(t)) if ctx.internal.contains(t.as_str()) => {
                rep_sinks.insert(decorate(t));
            }
            NodeKind::Sink(SinkTarget::Topic(_)) => {}
            NodeKind::Sink(SinkTarget::Extractor(class)) => notes.push(format!(
                "sink {} in {} chooses its topic at run time (extractor class: {class}); \
                 its topics are not part of the topology",
                node.name, ctx.label
            )),
        }
    }
    let inputs: BTreeSet<String> = sources.iter().chain(rep_sources.iter()).cloned().collect();
    let copartition_groups = if has_join && inputs.len() >= 2 {
        vec![inputs]
    } else {
        Vec::new()
    };
    Subtopology {
        id: sub.id.clone(),
        source_topics: sources.into_iter().collect(),
        source_topic_regex: patterns.into_iter().collect(),
        repartition_sink_topics: rep_sinks.into_iter().collect(),
        repartition_source_topics: rep_sources.into_iter().map(TopicInfo::named).collect(),
        state_changelog_topics: stores
            .iter()
            .map(|s| TopicInfo::named(format!("{}{s}-changelog", ctx.prefix)))
            .collect(),
        copartition_groups,
    }
}

fn join_or_none(set: &BTreeSet<&str>) -> String {
    if set.is_empty() {
        "none".to_string()
    } else {
        set.iter().copied().collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDCOUNT: &str = "Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [streams-plaintext-input])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> KSTREAM-FILTER-0000000005
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FILTER-0000000005 (stores: [])
      --> KSTREAM-SINK-0000000004
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: KSTREAM-SINK-0000000004 (topic: counts-store-repartition)
      <-- KSTREAM-FILTER-0000000005

  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000006 (topics: [counts-store-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts-store])
      --> KTABLE-TOSTREAM-0000000007
      <-- KSTREAM-SOURCE-0000000006
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: streams-wordcount-output)
      <-- KTABLE-TOSTREAM-0000000007

";

    #[test]
    fn word_count() {
        let (t, notes) = parse_describe_with_notes(WORDCOUNT, "streams-wordcount").unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(t.epoch, 0);
        assert_eq!(t.subtopologies.len(), 2);
        let s0 = &t.subtopologies[0];
        assert_eq!(s0.id, "0");
        assert_eq!(s0.source_topics, vec!["streams-plaintext-input"]);
        assert_eq!(
            s0.repartition_sink_topics,
            vec!["streams-wordcount-counts-store-repartition"]
        );
        assert!(s0.repartition_source_topics.is_empty());
        assert!(s0.state_changelog_topics.is_empty());
        let s1 = &t.subtopologies[1];
        assert_eq!(s1.id, "1");
        assert!(
            s1.source_topics.is_empty(),
            "the output topic is not a source"
        );
        assert_eq!(
            s1.repartition_source_topics,
            vec![TopicInfo::named(
                "streams-wordcount-counts-store-repartition"
            )]
        );
        assert_eq!(
            s1.state_changelog_topics,
            vec![TopicInfo::named("streams-wordcount-counts-store-changelog")]
        );
        assert!(s1.repartition_sink_topics.is_empty());
        assert!(s1.copartition_groups.is_empty());
    }

    #[test]
    fn crlf_and_no_trailing_newline() {
        let crlf = WORDCOUNT.trim_end().replace('\n', "\r\n");
        let a = parse_describe(&crlf, "app").unwrap();
        let b = parse_describe(WORDCOUNT, "app").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn join_processor_names() {
        for n in [
            "KSTREAM-JOINTHIS-0000000004",
            "KSTREAM-LEFTJOIN-0000000003",
            "KTABLE-OUTERTHIS-0000000010",
            "KTABLE-LEFTOTHER-0000000011",
            "my-join-other",
            "KTABLE-FK-JOIN-OUTPUT-0000000020",
        ] {
            assert!(is_join_processor(n), "{n}");
        }
        for n in ["KSTREAM-MERGE-0000000002", "KSTREAM-AGGREGATE-0000000003"] {
            assert!(!is_join_processor(n), "{n}");
        }
    }

    #[test]
    fn internal_names() {
        assert!(is_internal_name("x-repartition"));
        assert!(is_internal_name(
            "KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic"
        ));
        assert!(is_internal_name("orders-fk-subscription-response-topic"));
        assert!(!is_internal_name("my-topic"));
        assert!(!is_internal_name("repartition"));
    }

    #[test]
    fn user_topic_written_and_read_is_external_with_a_note() {
        let text = "Topologies:
   Sub-topology: 0
    Source: S0 (topics: [in])
      --> K0
    Sink: K0 (topic: middle)
      <-- S0

  Sub-topology: 1
    Source: S1 (topics: [middle])
      --> none
";
        let (t, notes) = parse_describe_with_notes(text, "app").unwrap();
        assert_eq!(t.subtopologies[1].source_topics, vec!["middle"]);
        assert!(t.subtopologies[0].repartition_sink_topics.is_empty());
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("topic middle"), "{notes:?}");
    }

    #[test]
    fn errors_point_at_lines() {
        let e =
            parse_describe("Topologies:\n   Sub-topology: 0\n    Widget: x\n", "a").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(5)));
        assert_eq!(e.message, "expected `Source:`, `Processor:` or `Sink:`");

        let e = parse_describe(
            "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a])\n    Sink: k (topic: b)\n      <-- s\n",
            "a",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (Some(4), Some(5)));
        assert_eq!(
            e.message,
            "expected `--> ` with the node names of Source: s (line 3) before this line"
        );

        let e = parse_describe(
            "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a])\n",
            "a",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("unexpected end of input"), "{e}");

        let e = parse_describe(
            "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a]\n",
            "a",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("expected `)`"), "{e}");

        let e = parse_describe("Hello\n", "a").unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(1)));

        let e = parse_describe(
            "Topologies:\n   Sub-topology: 0\n    Source: s (topics: [a])\n      --> p\n",
            "a",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (Some(4), Some(11)));
        assert!(e.message.contains("node p is not in sub-topology 0"), "{e}");
    }

    #[test]
    fn empty_application_id_is_refused() {
        assert!(parse_describe(WORDCOUNT, "").is_err());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            #[test]
            fn arbitrary_text_never_panics(text in "(Topologies:\n)?[ a-zA-Z:\\[\\](),>\n<-]{0,200}") {
                let _ = parse_describe_with_notes(&text, "app");
            }

            #[test]
            fn edited_fixture_never_panics(
                at in 0usize..WORDCOUNT.len(),
                cut in 0usize..40,
                insert in "[ \n(\\[é,:-]{0,3}",
            ) {
                let mut text = String::new();
                let mut i = at;
                while !WORDCOUNT.is_char_boundary(i) { i -= 1; }
                let mut j = (i + cut).min(WORDCOUNT.len());
                while !WORDCOUNT.is_char_boundary(j) { j -= 1; }
                text.push_str(&WORDCOUNT[..i]);
                text.push_str(&insert);
                text.push_str(&WORDCOUNT[j..]);
                match parse_describe_with_notes(&text, "app") {
                    Ok(_) => {}
                    Err(e) => {
                        let line = e.line.unwrap_or(1);
                        prop_assert!(line >= 1 && line <= text.split('\n').count(), "{}", e);
                    }
                }
            }
        }
    }
}
