//! Parse Kafka Streams `Topology#describe()` output into a [`Topology`].
//!
//! Grammar (as printed by `InternalTopologyBuilder.TopologyDescription#toString`):
//!
//! ```text
//! Topologies:                      or   Topology: <name>:
//!    Sub-topology: 0                    (first one 3 spaces, later ones 2; 0..=3 accepted)
//!     Source: <name> (topics: [a, b])   (nodes: exactly 4 spaces)
//!       --> <names>|none                (arrows: exactly 6 spaces)
//!     Processor: <name> (stores: [s1, s2])
//!       --> <names>|none
//!       <-- <names>|none
//!     Sink: <name> (topic: <topic>)     or   (extractor class: <class>)
//!       <-- <names>|none
//!
//!   Sub-topology: 1 for global store (will not generate tasks)
//!     ...
//! ```
//!
//! Blank lines are ignored. How the text becomes a topology:
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

use std::collections::BTreeSet;

use crate::model::topology::{Subtopology, TopicInfo, Topology};

use super::ParseError;

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
    if application_id.is_empty() {
        return Err(ParseError::general("the application id must not be empty"));
    }
    let blocks = Parser::new(text).parse()?;
    let mut notes = Vec::new();
    let several = blocks.len() > 1;
    let mut subtopologies = Vec::new();
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
    }
    Ok((
        Topology {
            epoch: 0,
            subtopologies,
        },
        notes,
    ))
}

// ---------------------------------------------------------------------------------------------
// Raw syntax

#[derive(Debug)]
struct Block {
    name: Option<String>,
    subs: Vec<RawSub>,
}

#[derive(Debug)]
struct RawSub {
    id: String,
    global: bool,
    nodes: Vec<RawNode>,
}

#[derive(Debug)]
struct RawNode {
    name: String,
    kind: NodeKind,
}

#[derive(Debug)]
enum NodeKind {
    Source(SourceTopics),
    Processor(Vec<String>),
    Sink(SinkTarget),
}

#[derive(Debug)]
enum SourceTopics {
    List(Vec<String>),
    Pattern(String),
}

#[derive(Debug)]
enum SinkTarget {
    Topic(String),
    Extractor(String),
}

/// A node name in an arrow list, with where it was written.
struct NameRef {
    name: String,
    line: usize,
    column: usize,
}

struct Parser<'a> {
    /// Lines without the trailing `\r` and trailing whitespace.
    lines: Vec<&'a str>,
    i: usize,
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

const NODE_INDENT: usize = 4;
const ARROW_INDENT: usize = 6;

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Parser {
            lines: text.split('\n').map(|l| l.trim_end()).collect(),
            i: 0,
        }
    }

    /// 1-based number of the current line.
    fn line_no(&self) -> usize {
        self.i + 1
    }

    fn skip_blank(&mut self) {
        while self.i < self.lines.len() && self.lines[self.i].is_empty() {
            self.i += 1;
        }
    }

    fn at_end(&self) -> bool {
        self.i >= self.lines.len()
    }

    fn eof_error(&self, expected: &str) -> ParseError {
        let line = self.lines.len().max(1);
        ParseError::at(
            line,
            1,
            format!("unexpected end of input: expected {expected}"),
        )
    }

    fn parse(mut self) -> Result<Vec<Block>, ParseError> {
        let mut blocks: Vec<Block> = Vec::new();
        self.skip_blank();
        if self.at_end() {
            return Err(self.eof_error("`Topologies:` or `Topology: NAME:`"));
        }
        while !self.at_end() {
            let line = self.lines[self.i];
            let indent = indent_of(line);
            let content = &line[indent..];
            let name = if content == "Topologies:" {
                None
            } else if let Some(rest) = content.strip_prefix("Topology:") {
                let name = rest.trim().strip_suffix(':').map(str::trim).unwrap_or("");
                if name.is_empty() {
                    return Err(ParseError::at(
                        self.line_no(),
                        indent + 1,
                        "expected `Topology: NAME:`",
                    ));
                }
                Some(name.to_string())
            } else {
                return Err(ParseError::at(
                    self.line_no(),
                    indent + 1,
                    "expected `Topologies:` or `Topology: NAME:`",
                ));
            };
            if !blocks.is_empty() && (name.is_none() || blocks.iter().any(|b| b.name.is_none())) {
                return Err(ParseError::at(
                    self.line_no(),
                    indent + 1,
                    "a second topology header: expected a single `Topologies:` block, or only \
                     named topologies (`Topology: NAME:`)",
                ));
            }
            if let Some(n) = &name {
                if blocks.iter().any(|b| b.name.as_ref() == Some(n)) {
                    return Err(ParseError::at(
                        self.line_no(),
                        indent + 1,
                        format!("named topology {n} appears twice"),
                    ));
                }
            }
            self.i += 1;
            let subs = self.parse_block_body()?;
            blocks.push(Block { name, subs });
            self.skip_blank();
        }
        Ok(blocks)
    }

    /// Sub-topologies until the next topology header or the end.
    fn parse_block_body(&mut self) -> Result<Vec<RawSub>, ParseError> {
        let mut subs: Vec<RawSub> = Vec::new();
        loop {
            self.skip_blank();
            if self.at_end() {
                return Ok(subs);
            }
            let line = self.lines[self.i];
            let indent = indent_of(line);
            let content = &line[indent..];
            if content.starts_with("Topology:") || content == "Topologies:" {
                return Ok(subs);
            }
            if !content.starts_with("Sub-topology:") {
                let what = if node_keyword(content).is_some() {
                    "expected `Sub-topology: N` before the first node"
                } else {
                    "expected `Sub-topology: N`"
                };
                return Err(ParseError::at(self.line_no(), indent + 1, what));
            }
            if indent >= NODE_INDENT {
                return Err(ParseError::at(
                    self.line_no(),
                    1,
                    format!(
                        "`Sub-topology:` is indented by {indent} spaces: expected at most 3 \
                         (nodes take 4)"
                    ),
                ));
            }
            let header_line = self.line_no();
            let (id, global) = parse_sub_header(content, header_line, indent)?;
            if subs.iter().any(|s| s.id == id) {
                return Err(ParseError::at(
                    header_line,
                    indent + 1,
                    format!("duplicate sub-topology id {id}"),
                ));
            }
            self.i += 1;
            let sub = self.parse_nodes(id, global, header_line, indent)?;
            subs.push(sub);
        }
    }

    /// The nodes of one sub-topology, with their arrow lines.
    fn parse_nodes(
        &mut self,
        id: String,
        global: bool,
        header_line: usize,
        header_indent: usize,
    ) -> Result<RawSub, ParseError> {
        let mut nodes: Vec<RawNode> = Vec::new();
        let mut refs: Vec<NameRef> = Vec::new();
        loop {
            self.skip_blank();
            if self.at_end() {
                break;
            }
            let line = self.lines[self.i];
            let indent = indent_of(line);
            let content = &line[indent..];
            if content.starts_with("Sub-topology:")
                || content.starts_with("Topology:")
                || content == "Topologies:"
            {
                break;
            }
            let Some(keyword) = node_keyword(content) else {
                let expected = if content.starts_with("-->") || content.starts_with("<--") {
                    "an arrow line out of place: expected `Source:`, `Processor:` or `Sink:`"
                } else if nodes.is_empty() {
                    "expected `Source:`, `Processor:` or `Sink:`"
                } else {
                    "expected `Source:`, `Processor:`, `Sink:` or `Sub-topology:`"
                };
                return Err(ParseError::at(self.line_no(), indent + 1, expected));
            };
            if indent != NODE_INDENT {
                return Err(ParseError::at(
                    self.line_no(),
                    1,
                    format!("`{keyword}` is indented by {indent} spaces: expected {NODE_INDENT}"),
                ));
            }
            let node_line = self.line_no();
            let (name, kind) = parse_node(content, node_line, indent)?;
            if nodes.iter().any(|n| n.name == name) {
                return Err(ParseError::at(
                    node_line,
                    indent + 1,
                    format!("duplicate node name {name} in sub-topology {id}"),
                ));
            }
            self.i += 1;
            let what = format!("{keyword} {name}");
            match kind {
                NodeKind::Source(_) => refs.extend(self.arrow("-->", &what)?),
                NodeKind::Processor(_) => {
                    refs.extend(self.arrow("-->", &what)?);
                    refs.extend(self.arrow("<--", &what)?);
                }
                NodeKind::Sink(_) => refs.extend(self.arrow("<--", &what)?),
            }
            nodes.push(RawNode { name, kind });
        }
        if nodes.is_empty() {
            return Err(ParseError::at(
                header_line,
                header_indent + 1,
                format!("sub-topology {id} has no nodes (truncated input?)"),
            ));
        }
        if !nodes.iter().any(|n| matches!(n.kind, NodeKind::Source(_))) {
            return Err(ParseError::at(
                header_line,
                header_indent + 1,
                format!("sub-topology {id} has no `Source:` node"),
            ));
        }
        let names: BTreeSet<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
        if let Some(r) = refs.iter().find(|r| !names.contains(r.name.as_str())) {
            return Err(ParseError::at(
                r.line,
                r.column,
                format!(
                    "node {} is not in sub-topology {id} (truncated input?)",
                    r.name
                ),
            ));
        }
        Ok(RawSub { id, global, nodes })
    }

    /// One arrow line (`      --> a, b` or `      <-- a`), right after the node.
    fn arrow(&mut self, arrow: &str, what: &str) -> Result<Vec<NameRef>, ParseError> {
        let expected = format!("`{arrow} ` with the node names of {what}");
        if self.at_end() {
            return Err(self.eof_error(&expected));
        }
        let line = self.lines[self.i];
        let line_no = self.line_no();
        if line.is_empty() && self.i + 1 == self.lines.len() {
            return Err(ParseError::at(
                line_no,
                1,
                format!("unexpected end of input: expected {expected}"),
            ));
        }
        let indent = indent_of(line);
        let content = &line[indent..];
        let Some(rest) = content.strip_prefix(arrow) else {
            return Err(ParseError::at(
                line_no,
                indent + 1,
                format!("expected {expected}"),
            ));
        };
        if indent != ARROW_INDENT {
            return Err(ParseError::at(
                line_no,
                1,
                format!("`{arrow}` is indented by {indent} spaces: expected {ARROW_INDENT}"),
            ));
        }
        self.i += 1;
        let list_col = indent + arrow.len() + 1 + (rest.len() - rest.trim_start().len());
        let rest = rest.trim_start();
        if rest.is_empty() {
            return Err(ParseError::at(
                line_no,
                list_col,
                format!("expected node names or `none` after `{arrow}`"),
            ));
        }
        if rest == "none" {
            return Ok(Vec::new());
        }
        Ok(split_list(rest)
            .into_iter()
            .map(|(offset, name)| NameRef {
                name: name.to_string(),
                line: line_no,
                column: list_col + rest[..offset].chars().count(),
            })
            .collect())
    }
}

fn node_keyword(content: &str) -> Option<&'static str> {
    ["Source:", "Processor:", "Sink:"]
        .into_iter()
        .find(|k| content.starts_with(k))
}

/// `Sub-topology: N` or `Sub-topology: N for global store (will not generate tasks)`.
fn parse_sub_header(
    content: &str,
    line: usize,
    indent: usize,
) -> Result<(String, bool), ParseError> {
    let rest = content.strip_prefix("Sub-topology:").unwrap_or("");
    let id_col = indent + 1 + "Sub-topology:".len() + (rest.len() - rest.trim_start().len());
    let rest = rest.trim_start();
    let (id, tail) = match rest.find(' ') {
        Some(p) => (&rest[..p], rest[p..].trim()),
        None => (rest, ""),
    };
    if id.is_empty() {
        return Err(ParseError::at(line, id_col, "expected a sub-topology id"));
    }
    if tail.is_empty() {
        return Ok((id.to_string(), false));
    }
    if tail.starts_with("for global store") {
        return Ok((id.to_string(), true));
    }
    Err(ParseError::at(
        line,
        id_col + id.chars().count() + 1,
        "expected end of line or `for global store (will not generate tasks)`",
    ))
}

/// Split `a, b, c` into names with their byte offsets.
fn split_list(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in s.split(',') {
        let lead = part.len() - part.trim_start().len();
        let name = part.trim();
        if !name.is_empty() {
            out.push((start + lead, name));
        }
        start += part.len() + 1;
    }
    out
}

/// One node line (without its arrows). `indent` is where `content` starts.
fn parse_node(content: &str, line: usize, indent: usize) -> Result<(String, NodeKind), ParseError> {
    let col = |byte: usize| indent + 1 + content[..byte.min(content.len())].chars().count();
    let end_col = col(content.len());
    let (keyword, openers): (&str, &[&str]) = if content.starts_with("Source:") {
        ("Source:", &[" (topics: ", " (topicPattern: "])
    } else if content.starts_with("Processor:") {
        ("Processor:", &[" (stores: "])
    } else {
        ("Sink:", &[" (topic: ", " (extractor class: "])
    };
    let name_start = keyword.len()
        + (content[keyword.len()..].len() - content[keyword.len()..].trim_start().len());
    let found = openers
        .iter()
        .filter_map(|o| content[name_start..].find(o).map(|p| (name_start + p, *o)))
        .min_by_key(|(p, _)| *p);
    let Some((open_at, opener)) = found else {
        let want = openers
            .iter()
            .map(|o| format!("`{}...)`", o.trim_start()))
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(ParseError::at(
            line,
            end_col,
            format!("expected {want} after the node name"),
        ));
    };
    let name = content[name_start..open_at].trim();
    if name.is_empty() {
        return Err(ParseError::at(
            line,
            col(name_start),
            "expected a node name",
        ));
    }
    let inner_start = open_at + opener.len();
    let Some(inner) = content[inner_start..].strip_suffix(')') else {
        return Err(ParseError::at(
            line,
            end_col,
            "expected `)` at the end of the line (truncated input?)",
        ));
    };
    let inner_col = col(inner_start);
    let kind = match opener {
        " (topics: " | " (topicPattern: " => {
            if inner.is_empty() {
                return Err(ParseError::at(line, inner_col, "expected topics"));
            }
            if opener == " (topics: " && inner.starts_with('[') && inner.ends_with(']') {
                let topics: Vec<String> = split_list(&inner[1..inner.len() - 1])
                    .into_iter()
                    .map(|(_, t)| t.to_string())
                    .collect();
                if topics.is_empty() {
                    return Err(ParseError::at(
                        line,
                        inner_col,
                        format!("source {name} has no topics"),
                    ));
                }
                NodeKind::Source(SourceTopics::List(topics))
            } else {
                NodeKind::Source(SourceTopics::Pattern(inner.to_string()))
            }
        }
        " (stores: " => {
            let Some(list) = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
                return Err(ParseError::at(
                    line,
                    inner_col,
                    "expected a store list `[s1, s2]`",
                ));
            };
            NodeKind::Processor(
                split_list(list)
                    .into_iter()
                    .map(|(_, s)| s.to_string())
                    .collect(),
            )
        }
        " (topic: " => {
            let topic = inner.trim();
            if topic.is_empty() {
                return Err(ParseError::at(line, inner_col, "expected a topic name"));
            }
            NodeKind::Sink(SinkTarget::Topic(topic.to_string()))
        }
        _ => NodeKind::Sink(SinkTarget::Extractor(inner.to_string())),
    };
    Ok((name.to_string(), kind))
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
    // Topics written by fixed-topic sinks and read by sources, in task-generating sub-topologies.
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
    for t in written.intersection(&read) {
        if is_internal_name(t) {
            internal.insert(*t);
        } else {
            notes.push(format!(
                "topic {t} is both written and read by the application, but its name does not \
                 end in -repartition: treated as a user topic"
            ));
        }
    }
    let decorate = |t: &str| format!("{prefix}{t}");

    let mut out = Vec::new();
    for sub in &block.subs {
        if sub.global {
            let topics: BTreeSet<&str> = sub
                .nodes
                .iter()
                .filter_map(|n| match &n.kind {
                    NodeKind::Source(SourceTopics::List(ts)) => Some(ts.iter().map(String::as_str)),
                    _ => None,
                })
                .flatten()
                .collect();
            let stores: BTreeSet<&str> = sub
                .nodes
                .iter()
                .filter_map(|n| match &n.kind {
                    NodeKind::Processor(s) => Some(s.iter().map(String::as_str)),
                    _ => None,
                })
                .flatten()
                .collect();
            notes.push(format!(
                "{} is a global store (topics: {}; stores: {}): it makes no tasks and is not part \
                 of the streams-group topology",
                label(&sub.id),
                join_or_none(&topics),
                join_or_none(&stores)
            ));
            continue;
        }
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
                        if internal.contains(t.as_str()) {
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
                NodeKind::Sink(SinkTarget::Topic(t)) => {
                    if internal.contains(t.as_str()) {
                        rep_sinks.insert(decorate(t));
                    }
                }
                NodeKind::Sink(SinkTarget::Extractor(class)) => notes.push(format!(
                    "sink {} in {} chooses its topic at run time (extractor class: {class}); \
                     its topics are not part of the topology",
                    node.name,
                    label(&sub.id)
                )),
            }
        }
        let inputs: BTreeSet<String> = sources.iter().chain(rep_sources.iter()).cloned().collect();
        let copartition_groups = if has_join && inputs.len() >= 2 {
            vec![inputs]
        } else {
            Vec::new()
        };
        out.push(Subtopology {
            id: format!("{id_prefix}{}", sub.id),
            source_topics: sources.into_iter().collect(),
            source_topic_regex: patterns.into_iter().collect(),
            repartition_sink_topics: rep_sinks.into_iter().collect(),
            repartition_source_topics: rep_sources.into_iter().map(TopicInfo::named).collect(),
            state_changelog_topics: stores
                .iter()
                .map(|s| TopicInfo::named(format!("{prefix}{s}-changelog")))
                .collect(),
            copartition_groups,
        });
    }
    out
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
            "Topologies:\n   Sub-topology: 0\n     Source: s (topics: [a])\n",
            "a",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(1)));
        assert!(
            e.message.contains("indented by 5 spaces: expected 4"),
            "{e}"
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
