//! One cleaned line of describe text into the items it holds, recognised by keyword, never by
//! column. A line holds one item, except a node line with its arrows on the same line (the
//! pre-1.1 format, `Source: s(topics: a) --> p`) and an arrow line with both arrows.

use crate::topology::ParseError;
use model::topic_name::is_valid_topic_name;

use super::lines::Line;

#[derive(Debug)]
pub(super) enum NodeKind {
    Source(SourceTopics),
    Processor(Vec<String>),
    Sink(SinkTarget),
}

impl NodeKind {
    pub fn keyword(&self) -> &'static str {
        match self {
            NodeKind::Source(_) => "Source:",
            NodeKind::Processor(_) => "Processor:",
            NodeKind::Sink(_) => "Sink:",
        }
    }
}

#[derive(Debug)]
pub(super) enum SourceTopics {
    List(Vec<String>),
    Pattern(String),
}

#[derive(Debug)]
pub(super) enum SinkTarget {
    Topic(String),
    Extractor(String),
}

/// A node name in an arrow list, with where it was written.
#[derive(Debug)]
pub(super) struct NameRef {
    pub name: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    /// `-->`: successors.
    Out,
    /// `<--`: predecessors.
    In,
}

impl Dir {
    pub fn arrow(self) -> &'static str {
        match self {
            Dir::Out => "-->",
            Dir::In => "<--",
        }
    }
}

#[derive(Debug)]
pub(super) enum Item {
    /// A bare `Topology` title line that some copies carry above the text.
    Title,
    /// `Topologies:`, or the pre-1.1 `Sub-topologies:` (`legacy`).
    Topologies {
        legacy: bool,
    },
    /// `Topology: NAME:`.
    Named(String),
    /// The pre-1.1 `Global Stores:` section header.
    GlobalStores,
    /// `none` under a pre-1.1 section header: the section is empty.
    NoneMarker,
    Sub {
        id: String,
        global: bool,
    },
    Node {
        name: String,
        kind: NodeKind,
    },
    Arrow {
        dir: Dir,
        names: Vec<NameRef>,
    },
    /// Pre-1.1 `GlobalStore: SRC(topic: T) -> PROC(store: S)`.
    OldGlobal {
        topic: String,
        store: String,
    },
    /// Not a line of describe text; what was expected depends on where it is.
    Unknown,
}

#[derive(Debug)]
pub(super) struct Located {
    pub line: usize,
    pub col: usize,
    pub item: Item,
}

/// Position helper: the 1-based column of a byte offset in the line's content.
struct At<'a> {
    line: &'a Line,
}

impl At<'_> {
    fn col(&self, byte: usize) -> usize {
        let t = &self.line.text;
        self.line.col + t[..byte.min(t.len())].chars().count()
    }
    fn err(&self, byte: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line.no, self.col(byte), message)
    }
    fn item(&self, byte: usize, item: Item) -> Located {
        Located {
            line: self.line.no,
            col: self.col(byte),
            item,
        }
    }
}

pub(super) fn classify(line: &Line) -> Result<Vec<Located>, ParseError> {
    let t = line.text.as_str();
    let at = At { line };
    let single = |item| Ok(vec![at.item(0, item)]);
    match t {
        "Topology" => return single(Item::Title),
        "Topologies:" => return single(Item::Topologies { legacy: false }),
        "Sub-topologies:" => return single(Item::Topologies { legacy: true }),
        "Global Stores:" => return single(Item::GlobalStores),
        "none" => return single(Item::NoneMarker),
        _ => {}
    }
    if let Some(rest) = t.strip_prefix("Sub-topology:") {
        return sub_header(rest, &at).map(|i| vec![at.item(0, i)]);
    }
    if let Some(rest) = t.strip_prefix("Topology:") {
        let name = rest.trim().strip_suffix(':').map(str::trim).unwrap_or("");
        if name.is_empty() || name.contains(' ') {
            return Err(at.err(0, "expected `Topology: NAME:`"));
        }
        return single(Item::Named(name.to_string()));
    }
    if let Some(rest) = t.strip_prefix("GlobalStore:") {
        return old_global(rest, &at).map(|i| vec![at.item(0, i)]);
    }
    if t.starts_with("-->") || t.starts_with("<--") {
        return arrows(&at, 0, false);
    }
    if ["Source:", "Processor:", "Sink:"]
        .iter()
        .any(|k| t.starts_with(k))
    {
        return node(&at);
    }
    single(Item::Unknown)
}

/// `Sub-topology: N` or `Sub-topology: N for global store (will not generate tasks)`.
fn sub_header(rest: &str, at: &At) -> Result<Item, ParseError> {
    let id_at = at.line.text.len() - rest.trim_start().len();
    let rest = rest.trim();
    let (id, tail) = match rest.find(' ') {
        Some(p) => (&rest[..p], rest[p..].trim()),
        None => (rest, ""),
    };
    if id.is_empty() {
        return Err(at.err(id_at, "expected a sub-topology id after `Sub-topology:`"));
    }
    if tail.is_empty() || tail.starts_with("for global store") {
        return Ok(Item::Sub {
            id: id.to_string(),
            global: !tail.is_empty(),
        });
    }
    Err(at.err(
        id_at + id.len() + 1,
        "expected end of line or `for global store (will not generate tasks)`",
    ))
}

/// Pre-1.1 global store line; only its topic and store matter (it makes no tasks).
fn old_global(rest: &str, at: &At) -> Result<Item, ParseError> {
    let inner = |label: &str| {
        let from = rest.find(label)? + label.len();
        let to = from + rest[from..].find(')')?;
        Some(rest[from..to].trim().to_string())
    };
    match (inner("(topic:"), inner("(store:")) {
        (Some(topic), Some(store)) if !topic.is_empty() && !store.is_empty() => {
            Ok(Item::OldGlobal { topic, store })
        }
        _ => Err(at.err(
            0,
            "expected `GlobalStore: NAME(topic: TOPIC) -> NAME(store: STORE)`",
        )),
    }
}

/// The labels that may follow a node name, per keyword.
fn labels(keyword: &str) -> &'static [&'static str] {
    match keyword {
        "Source:" => &["(topics:", "(topicPattern:"],
        "Processor:" => &["(stores:"],
        _ => &["(topic:", "(extractor class:"],
    }
}

/// A node line: `KEYWORD NAME (LABEL: INNER)`, then maybe arrows on the same line.
fn node(at: &At) -> Result<Vec<Located>, ParseError> {
    let t = at.line.text.as_str();
    let keyword = ["Source:", "Processor:", "Sink:"]
        .into_iter()
        .find(|k| t.starts_with(k))
        .unwrap_or("Sink:");
    let name_at =
        keyword.len() + (t[keyword.len()..].len() - t[keyword.len()..].trim_start().len());
    let found = labels(keyword)
        .iter()
        .filter_map(|l| t[name_at..].find(l).map(|p| (name_at + p, *l)))
        .min_by_key(|(p, _)| *p);
    let Some((open, label)) = found else {
        let want: Vec<String> = labels(keyword)
            .iter()
            .map(|l| format!("`{l} ...)`"))
            .collect();
        return Err(at.err(
            t.len(),
            format!("expected {} after the node name", want.join(" or ")),
        ));
    };
    let name = t[name_at..open].trim();
    if name.is_empty() {
        return Err(at.err(name_at, "expected a node name"));
    }
    let inner_at = open
        + label.len()
        + (t[open + label.len()..].len() - t[open + label.len()..].trim_start().len());
    let (close, arrows_at) = closing_paren(t, inner_at).ok_or_else(|| {
        at.err(
            t.len(),
            "expected `)` at the end of the line (truncated input?)",
        )
    })?;
    let inner = t[inner_at..close].trim_end();
    let legacy = arrows_at.is_some();
    let kind = node_kind(label, inner, name, legacy, at, inner_at)?;
    let mut out = vec![at.item(
        0,
        Item::Node {
            name: name.to_string(),
            kind,
        },
    )];
    if let Some(a) = arrows_at {
        out.extend(arrows(at, a, true)?);
    }
    Ok(out)
}

/// Where the node's `( ... )` closes: the `)` just before the first arrow that follows one, or
/// the `)` that ends the line. Also where the arrows on the same line start.
fn closing_paren(t: &str, from: usize) -> Option<(usize, Option<usize>)> {
    let mut search = from;
    while let Some(p) = find_arrow(&t[search..]).map(|p| p + search) {
        let before = t[from..p].trim_end();
        if let Some(b) = before.strip_suffix(')') {
            return Some((from + b.len(), Some(p)));
        }
        search = p + 3;
    }
    t[from..].strip_suffix(')').map(|b| (from + b.len(), None))
}

fn find_arrow(s: &str) -> Option<usize> {
    match (s.find("-->"), s.find("<--")) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn node_kind(
    label: &str,
    inner: &str,
    name: &str,
    legacy: bool,
    at: &At,
    inner_at: usize,
) -> Result<NodeKind, ParseError> {
    let bracketed = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']'));
    Ok(match label {
        "(topics:" | "(topicPattern:" => {
            if inner.is_empty() {
                return Err(at.err(inner_at, "expected topics"));
            }
            NodeKind::Source(source_topics(
                label, inner, bracketed, legacy, name, at, inner_at,
            )?)
        }
        "(stores:" => {
            let Some(list) = bracketed else {
                return Err(at.err(inner_at, "expected a store list `[s1, s2]`"));
            };
            NodeKind::Processor(names(list))
        }
        "(topic:" => {
            if inner.is_empty() {
                return Err(at.err(inner_at, "expected a topic name"));
            }
            NodeKind::Sink(SinkTarget::Topic(inner.to_string()))
        }
        _ => NodeKind::Sink(SinkTarget::Extractor(inner.to_string())),
    })
}

/// `[a, b]` is a topic list. Without brackets, Kafka 1.1 and later print a pattern; before 1.1
/// (the format with arrows on the node line) a comma-separated list, which is a pattern only
/// when a name could not be a topic.
fn source_topics(
    label: &str,
    inner: &str,
    bracketed: Option<&str>,
    legacy: bool,
    name: &str,
    at: &At,
    inner_at: usize,
) -> Result<SourceTopics, ParseError> {
    let list = match bracketed {
        Some(list) if label == "(topics:" => names(list),
        _ if legacy && label == "(topics:" => {
            let parts = names(inner);
            if !parts.iter().all(|p| is_valid_topic_name(p)) {
                return Ok(SourceTopics::Pattern(inner.to_string()));
            }
            parts
        }
        _ => return Ok(SourceTopics::Pattern(inner.to_string())),
    };
    if list.is_empty() {
        return Err(at.err(inner_at, format!("source {name} has no topics")));
    }
    Ok(SourceTopics::List(list))
}

fn names(list: &str) -> Vec<String> {
    split_list(list)
        .into_iter()
        .map(|(_, n)| n.to_string())
        .collect()
}

/// Split `a, b, c` into names with their byte offsets.
pub(super) fn split_list(s: &str) -> Vec<(usize, &str)> {
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

/// Arrows from byte `from` to the end of the line: `--> a, b`, `<-- c`, or both. On a node
/// line (`inline`, the pre-1.1 format) an empty list means none, as Kafka printed it then.
fn arrows(at: &At, from: usize, inline: bool) -> Result<Vec<Located>, ParseError> {
    let t = at.line.text.as_str();
    let mut out = Vec::new();
    let mut p = from;
    while p < t.len() {
        let dir = if t[p..].starts_with("-->") {
            Dir::Out
        } else if t[p..].starts_with("<--") {
            Dir::In
        } else {
            return Err(at.err(p, "expected `-->` or `<--`"));
        };
        let list_at = p + 3;
        let end = find_arrow(&t[list_at..]).map_or(t.len(), |e| list_at + e);
        let list = &t[list_at..end];
        let refs: Vec<NameRef> = split_list(list)
            .into_iter()
            .map(|(off, name)| NameRef {
                name: name.to_string(),
                line: at.line.no,
                column: at.col(list_at + off),
            })
            .collect();
        let names = match refs.as_slice() {
            [] if inline => Vec::new(),
            [] => {
                let msg = format!("expected node names or `none` after `{}`", dir.arrow());
                return Err(at.err(list_at, msg));
            }
            [only] if only.name == "none" => Vec::new(),
            _ => refs,
        };
        out.push(at.item(p, Item::Arrow { dir, names }));
        p = end;
    }
    Ok(out)
}
