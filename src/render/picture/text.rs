//! The picture as indented text for a terminal: per subtopology, what it reads (and from which
//! subtopology a repartition topic comes), what it writes (and who reads it), its stores and
//! changelogs, then its processors with their successors.

use std::fmt::Write;

use crate::topology::picture::{Node, Picture, SubtopologyBox, TopicRole};
use model::processor_graph::NodeKind;

pub fn text(p: &Picture) -> String {
    let mut out = super::title(p);
    out.push('\n');
    for c in &p.subtopologies {
        out.push('\n');
        cluster(&mut out, p, c);
    }
    if !p.has_processors {
        out.push_str("\n(no processors in the input: Topology#describe() text has them)\n");
    }
    out
}

fn cluster(out: &mut String, p: &Picture, c: &SubtopologyBox) {
    let facts = c.facts();
    let _ = match facts.is_empty() {
        true => writeln!(out, "{}", c.title()),
        false => writeln!(out, "{} ({})", c.title(), facts.join(", ")),
    };
    for t in &c.reads {
        let _ = writeln!(out, "  reads   {}", topic(p, t, &c.id, Side::Read));
    }
    for pattern in &c.patterns {
        let _ = writeln!(out, "  reads   topics matching {pattern}");
    }
    for t in &c.writes {
        let _ = writeln!(out, "  writes  {}", topic(p, t, &c.id, Side::Write));
    }
    for s in &c.stores {
        let _ = match &s.changelog {
            Some(t) => writeln!(
                out,
                "  store   {} -> {}",
                s.name,
                topic(p, t, &c.id, Side::Write)
            ),
            None => writeln!(out, "  store   {}", s.name),
        };
    }
    for t in &c.changelogs {
        let _ = writeln!(out, "  writes  {}", topic(p, t, &c.id, Side::Write));
    }
    if !c.nodes.is_empty() {
        out.push_str("  processors:\n");
        for n in &c.nodes {
            let _ = writeln!(out, "    {}", node(n));
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Read,
    Write,
}

/// `name (repartition, 8 partitions, from sub-topology 0)`.
fn topic(p: &Picture, name: &str, own: &str, side: Side) -> String {
    let Some(t) = p.topics.get(name) else {
        return name.to_string();
    };
    let mut facts = vec![super::topic_facts(t)];
    if t.role == TopicRole::Repartition {
        let (word, others) = match side {
            Side::Read => ("from", &t.written_by),
            Side::Write => ("to", &t.read_by),
        };
        let others: Vec<&str> = others
            .iter()
            .map(String::as_str)
            .filter(|o| *o != own)
            .collect();
        if !others.is_empty() {
            facts.push(format!("{word} sub-topology {}", others.join(", ")));
        }
    }
    format!("{name} ({})", facts.join(", "))
}

/// `SOURCE name <- topics -> successors`, `PROCESSOR name [stores] -> successors`, ...
fn node(n: &Node) -> String {
    let mut s = match &n.kind {
        NodeKind::Source { topics, pattern } => {
            let from: Vec<&str> = topics
                .iter()
                .map(String::as_str)
                .chain(pattern.as_deref())
                .collect();
            format!("source    {} <- {}", n.name, from.join(", "))
        }
        NodeKind::Processor { stores } if stores.is_empty() => format!("processor {}", n.name),
        NodeKind::Processor { stores } => {
            format!("processor {} [{}]", n.name, stores.join(", "))
        }
        NodeKind::Sink { topic: Some(t) } => format!("sink      {} -> {t}", n.name),
        NodeKind::Sink { topic: None } => {
            format!("sink      {} -> (topic chosen at run time)", n.name)
        }
    };
    if !n.successors.is_empty() {
        s.push_str(&format!(" -> {}", n.successors.join(", ")));
    }
    s
}
