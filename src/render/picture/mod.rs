//! Pictures of a topology ([`Picture`]): [`text`] for a terminal, [`dot`] for Graphviz and
//! [`mermaid`] for Markdown renderers. DOT and Mermaid draw the same `Drawing`, made here once:
//! what is a box, what is in which cluster, which line joins what. Ids are made up (`t0`,
//! `s1_n2`) so that no name needs to be a valid id in either language; names only ever appear
//! in quoted labels, escaped by each language's own rules.

pub mod dot;
pub mod mermaid;
pub mod text;

use crate::topology::picture::{Picture, SubtopologyBox, TopicBox, TopicRole};
use model::processor_graph::NodeKind;

/// What a drawn element looks like; each language picks its shape for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Topic(TopicRole),
    /// A source pattern (regex) instead of topic names.
    Pattern,
    Source,
    Processor,
    Sink,
    Store,
    /// A subtopology whose processors are unknown: one element stands for them.
    Tasks,
}

pub(crate) struct Item {
    pub id: String,
    /// Label lines; the first is the name.
    pub label: Vec<String>,
    pub shape: Shape,
}

pub(crate) struct Group {
    pub id: String,
    pub title: String,
    pub dashed: bool,
    pub items: Vec<Item>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// Records flow this way.
    Flow,
    /// A processor uses a store.
    StoreUse,
    /// A store (or a stateful subtopology) backs up to its changelog.
    Changelog,
}

pub(crate) struct Link {
    pub from: String,
    pub to: String,
    pub line: Line,
}

pub(crate) struct Drawing {
    pub title: String,
    /// Topics and patterns, outside every cluster.
    pub topics: Vec<Item>,
    pub groups: Vec<Group>,
    pub links: Vec<Link>,
}

/// The title line of every format.
pub(crate) fn title(p: &Picture) -> String {
    let tasks: Option<i32> = p
        .subtopologies
        .iter()
        .filter(|c| !c.global)
        .map(|c| c.tasks)
        .sum();
    let subs = p.subtopologies.iter().filter(|c| !c.global).count();
    let mut t = format!(
        "{}: topology epoch {}, {subs} subtopolog{}",
        p.title,
        p.epoch,
        if subs == 1 { "y" } else { "ies" }
    );
    if let Some(n) = tasks {
        t.push_str(&format!(", {n} tasks"));
    }
    t
}

/// The second label line of a topic: its role and partition count.
pub(crate) fn topic_facts(t: &TopicBox) -> String {
    match t.partitions {
        Some(1) => format!("{}, 1 partition", t.role.name()),
        Some(n) => format!("{}, {n} partitions", t.role.name()),
        None => t.role.name().to_string(),
    }
}

pub(crate) fn drawing(p: &Picture) -> Drawing {
    let topic_id = |name: &str| {
        let i = p.topics.keys().position(|k| k == name).unwrap_or(0);
        format!("t{i}")
    };
    let mut topics: Vec<Item> = p
        .topics
        .values()
        .enumerate()
        .map(|(i, t)| Item {
            id: format!("t{i}"),
            label: vec![t.name.clone(), topic_facts(t)],
            shape: Shape::Topic(t.role),
        })
        .collect();
    let mut groups = Vec::new();
    let mut links = Vec::new();
    for (i, c) in p.subtopologies.iter().enumerate() {
        let s = format!("s{i}");
        for (k, pattern) in c.patterns.iter().enumerate() {
            topics.push(Item {
                id: format!("{s}_p{k}"),
                label: vec![pattern.clone(), "source pattern".to_string()],
                shape: Shape::Pattern,
            });
        }
        let pattern_id = |pat: &str| {
            let k = c.patterns.iter().position(|x| x == pat).unwrap_or(0);
            format!("{s}_p{k}")
        };
        let ids = Ids {
            s: &s,
            topic: &topic_id,
            pattern: &pattern_id,
        };
        let items = match c.nodes.is_empty() {
            true => tasks_items(c, &ids, &mut links),
            false => node_items(c, &ids, &mut links),
        };
        let mut title = c.title();
        let facts = c.facts();
        if !facts.is_empty() {
            title = format!("{title}: {}", facts.join(", "));
        }
        groups.push(Group {
            id: s.clone(),
            title,
            dashed: c.global,
            items,
        });
    }
    Drawing {
        title: title(p),
        topics,
        groups,
        links,
    }
}

struct Ids<'a> {
    s: &'a str,
    topic: &'a dyn Fn(&str) -> String,
    pattern: &'a dyn Fn(&str) -> String,
}

fn store_items(c: &SubtopologyBox, ids: &Ids, links: &mut Vec<Link>) -> Vec<Item> {
    let mut items = Vec::new();
    for (k, st) in c.stores.iter().enumerate() {
        let id = format!("{}_st{k}", ids.s);
        if let Some(changelog) = &st.changelog {
            links.push(link(&id, &(ids.topic)(changelog), Line::Changelog));
        }
        items.push(Item {
            id,
            label: vec![st.name.clone(), "state store".to_string()],
            shape: Shape::Store,
        });
    }
    items
}

/// A subtopology without processors: one element for its tasks, linked to its topics.
fn tasks_items(c: &SubtopologyBox, ids: &Ids, links: &mut Vec<Link>) -> Vec<Item> {
    let id = format!("{}_tasks", ids.s);
    for t in &c.reads {
        links.push(link(&(ids.topic)(t), &id, Line::Flow));
    }
    for p in &c.patterns {
        links.push(link(&(ids.pattern)(p), &id, Line::Flow));
    }
    for t in &c.writes {
        links.push(link(&id, &(ids.topic)(t), Line::Flow));
    }
    for t in &c.changelogs {
        links.push(link(&id, &(ids.topic)(t), Line::Changelog));
    }
    // The cluster's title has the task count already.
    let mut items = vec![Item {
        id,
        label: vec!["processors not in the input".to_string()],
        shape: Shape::Tasks,
    }];
    items.extend(store_items(c, ids, links));
    items
}

/// A subtopology with processors: sources, processors and sinks with their edges, and stores.
fn node_items(c: &SubtopologyBox, ids: &Ids, links: &mut Vec<Link>) -> Vec<Item> {
    let node_id = |name: &str| {
        let j = c.nodes.iter().position(|n| n.name == name).unwrap_or(0);
        format!("{}_n{j}", ids.s)
    };
    let store_id = |name: &str| {
        let k = c.stores.iter().position(|s| s.name == name).unwrap_or(0);
        format!("{}_st{k}", ids.s)
    };
    let mut items = Vec::new();
    for n in &c.nodes {
        let id = node_id(&n.name);
        let (shape, kind) = match &n.kind {
            NodeKind::Source { topics, pattern } => {
                for t in topics {
                    links.push(link(&(ids.topic)(t), &id, Line::Flow));
                }
                if let Some(p) = pattern {
                    links.push(link(&(ids.pattern)(p), &id, Line::Flow));
                }
                (Shape::Source, "source")
            }
            NodeKind::Processor { stores } => {
                for s in stores {
                    links.push(link(&id, &store_id(s), Line::StoreUse));
                }
                (Shape::Processor, "processor")
            }
            NodeKind::Sink { topic } => {
                if let Some(t) = topic {
                    links.push(link(&id, &(ids.topic)(t), Line::Flow));
                }
                let kind = match topic {
                    Some(_) => "sink",
                    None => "sink, topic chosen at run time",
                };
                (Shape::Sink, kind)
            }
        };
        for s in &n.successors {
            links.push(link(&id, &node_id(s), Line::Flow));
        }
        items.push(Item {
            id,
            label: vec![n.name.clone(), kind.to_string()],
            shape,
        });
    }
    items.extend(store_items(c, ids, links));
    items
}

fn link(from: &str, to: &str, line: Line) -> Link {
    Link {
        from: from.to_string(),
        to: to.to_string(),
        line,
    }
}
