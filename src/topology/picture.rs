//! What a picture of a topology shows, before any drawing syntax: each subtopology as a
//! cluster with the topics it reads and writes, its state stores and their changelogs, and its
//! processors when the input has them; every topic once, with its role, the subtopologies that
//! write and read it, and its partition count where known. `render::picture` draws it as text,
//! Graphviz DOT or Mermaid; all three come from this one value, so they never disagree.

use std::collections::{BTreeMap, BTreeSet};

use model::natural;
use model::processor_graph::{NodeKind, ProcessorGraph, SubtopologyGraph};
use model::topology::{Subtopology, Topology};

use coordinator::topics::TopicMetadata;

/// The whole picture; subtopologies in natural id order, topics by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// What was drawn: the file, or `group:ID`.
    pub title: String,
    pub epoch: i32,
    pub subtopologies: Vec<SubtopologyBox>,
    pub topics: BTreeMap<String, TopicBox>,
    /// True when the clusters hold processors (describe text, a stored description).
    pub has_processors: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TopicRole {
    /// A user topic the application reads.
    Source,
    /// An internal topic that links a writing subtopology to a reading one.
    Repartition,
    /// The changelog of a state store.
    Changelog,
    /// A user topic the application only writes (known from processors only).
    Output,
}

impl TopicRole {
    pub fn name(self) -> &'static str {
        match self {
            TopicRole::Source => "source",
            TopicRole::Repartition => "repartition",
            TopicRole::Changelog => "changelog",
            TopicRole::Output => "output",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicBox {
    pub name: String,
    pub role: TopicRole,
    pub partitions: Option<i32>,
    /// Subtopology ids, natural order.
    pub written_by: Vec<String>,
    pub read_by: Vec<String>,
}

/// One subtopology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtopologyBox {
    pub id: String,
    /// A global-store sub-topology (processors only; it makes no tasks).
    pub global: bool,
    pub tasks: Option<i32>,
    /// Topics read, sorted: sources and repartition sources.
    pub reads: Vec<String>,
    /// Source patterns (regex).
    pub patterns: Vec<String>,
    /// Topics written, sorted: repartition sinks, and output topics when processors are known.
    pub writes: Vec<String>,
    /// State stores, sorted; each with its changelog when it has one.
    pub stores: Vec<Store>,
    /// Changelog topics no known store owns (inputs without processors).
    pub changelogs: Vec<String>,
    /// Processors in input order; empty when the input has none.
    pub nodes: Vec<Node>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub name: String,
    pub changelog: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub name: String,
    pub kind: NodeKind,
    /// Successors that are nodes of the same sub-topology, in input order.
    pub successors: Vec<String>,
}

impl SubtopologyBox {
    /// How a heading names it: `sub-topology 0`, or `global store 2`.
    pub fn title(&self) -> String {
        match self.global {
            true => format!("global store sub-topology {}", self.id),
            false => format!("sub-topology {}", self.id),
        }
    }

    /// `8 tasks`, `stateful`, ... for a heading; empty when nothing is known.
    pub fn facts(&self) -> Vec<String> {
        let mut out = Vec::new();
        match (self.global, self.tasks) {
            (true, _) => out.push("no tasks".to_string()),
            (false, Some(1)) => out.push("1 task".to_string()),
            (false, Some(n)) => out.push(format!("{n} tasks")),
            (false, None) => {}
        }
        if !self.global && (!self.stores.is_empty() || !self.changelogs.is_empty()) {
            out.push("stateful".to_string());
        }
        out
    }
}

/// The picture of `topology`, with its processors from `graph` when there is one, partition
/// counts from `partitions` (only the known ones) and tasks per subtopology from `tasks`.
pub fn picture(
    title: &str,
    topology: &Topology,
    graph: Option<&ProcessorGraph>,
    partitions: &TopicMetadata,
    tasks: &BTreeMap<String, i32>,
) -> Picture {
    let mut subs: Vec<&Subtopology> = topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| natural::cmp(&a.id, &b.id));
    let mut clusters: Vec<SubtopologyBox> = subs
        .iter()
        .map(|s| cluster(s, graph.and_then(|g| g.subtopology(&s.id)), tasks))
        .collect();
    let globals = graph.into_iter().flat_map(|g| &g.subtopologies);
    clusters.extend(
        globals
            .filter(|g| g.global && topology.subtopology(&g.id).is_none())
            .map(global_cluster),
    );
    clusters.sort_by(|a, b| natural::cmp(&a.id, &b.id));
    let topics = topics(topology, &clusters, partitions);
    Picture {
        title: title.to_string(),
        epoch: topology.epoch,
        subtopologies: clusters,
        topics,
        has_processors: graph.is_some_and(|g| !g.subtopologies.is_empty()),
    }
}

/// `graph` with its topic names as `topology` has them: a stored description (KIP-1331) has
/// the names `Topology#describe()` prints, internal ones without the `<application id>-`.
pub fn named_as_in(
    mut graph: ProcessorGraph,
    topology: &Topology,
    application_id: &str,
) -> ProcessorGraph {
    let known = topology.required_topics();
    let real = |t: &mut String| {
        let prefixed = format!("{application_id}-{t}");
        if !known.contains(t.as_str()) && known.contains(&prefixed) {
            *t = prefixed;
        }
    };
    let rep_sinks: BTreeSet<String> = topology
        .subtopologies
        .iter()
        .flat_map(|s| s.repartition_sink_topics.iter().cloned())
        .collect();
    for node in graph
        .subtopologies
        .iter_mut()
        .flat_map(|s| s.nodes.iter_mut())
    {
        match &mut node.kind {
            NodeKind::Source { topics, .. } => topics.iter_mut().for_each(real),
            NodeKind::Sink { topic: Some(t) } => {
                let prefixed = format!("{application_id}-{t}");
                if rep_sinks.contains(&prefixed) && !rep_sinks.contains(t.as_str()) {
                    *t = prefixed;
                }
            }
            _ => {}
        }
    }
    graph
}

fn cluster(
    s: &Subtopology,
    graph: Option<&SubtopologyGraph>,
    tasks: &BTreeMap<String, i32>,
) -> SubtopologyBox {
    let sorted = |v: Vec<String>| -> Vec<String> {
        v.into_iter().collect::<BTreeSet<_>>().into_iter().collect()
    };
    let changelogs: Vec<String> = sorted(
        s.state_changelog_topics
            .iter()
            .map(|t| t.name.clone())
            .collect(),
    );
    let nodes = graph.map(nodes).unwrap_or_default();
    let store_names: BTreeSet<&str> = nodes.iter().flat_map(stores_of).collect();
    let stores: Vec<Store> = store_names
        .iter()
        .map(|name| Store {
            name: name.to_string(),
            changelog: changelogs
                .iter()
                .find(|c| is_changelog_of(c, name))
                .cloned(),
        })
        .collect();
    let owned: BTreeSet<&str> = stores
        .iter()
        .filter_map(|s| s.changelog.as_deref())
        .collect();
    let mut writes: Vec<String> = s.repartition_sink_topics.clone();
    writes.extend(nodes.iter().filter_map(|n| match &n.kind {
        NodeKind::Sink { topic } => topic.clone(),
        _ => None,
    }));
    SubtopologyBox {
        id: s.id.clone(),
        global: false,
        tasks: tasks.get(&s.id).copied(),
        reads: sorted(s.input_topics().map(str::to_string).collect()),
        patterns: sorted(s.source_topic_regex.clone()),
        writes: sorted(writes),
        changelogs: changelogs
            .iter()
            .filter(|c| !owned.contains(c.as_str()))
            .cloned()
            .collect(),
        stores,
        nodes,
    }
}

/// A global-store sub-topology: its topics are read to fill the store, which has no changelog
/// (the topic is its changelog).
fn global_cluster(g: &SubtopologyGraph) -> SubtopologyBox {
    let nodes = nodes(g);
    let mut reads = BTreeSet::new();
    let mut patterns = BTreeSet::new();
    for n in &nodes {
        if let NodeKind::Source { topics, pattern } = &n.kind {
            reads.extend(topics.iter().cloned());
            patterns.extend(pattern.iter().cloned());
        }
    }
    let stores: BTreeSet<&str> = nodes.iter().flat_map(stores_of).collect();
    SubtopologyBox {
        id: g.id.clone(),
        global: true,
        tasks: None,
        reads: reads.into_iter().collect(),
        patterns: patterns.into_iter().collect(),
        writes: Vec::new(),
        stores: stores
            .into_iter()
            .map(|name| Store {
                name: name.to_string(),
                changelog: None,
            })
            .collect(),
        changelogs: Vec::new(),
        nodes,
    }
}

/// The nodes in the order records reach them: sources first, then breadth first along the
/// edges; a broker's stored description lists them in an order of its own.
fn nodes(g: &SubtopologyGraph) -> Vec<Node> {
    let names: BTreeSet<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
    let by_name: BTreeMap<&str, &model::processor_graph::ProcessorNode> =
        g.nodes.iter().map(|n| (n.name.as_str(), n)).collect();
    let mut queue: std::collections::VecDeque<&str> = g
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Source { .. }))
        .map(|n| n.name.as_str())
        .collect();
    let mut order: Vec<&str> = Vec::new();
    let mut seen = BTreeSet::new();
    while let Some(name) = queue.pop_front() {
        if !seen.insert(name) {
            continue;
        }
        order.push(name);
        let successors = by_name.get(name).into_iter().flat_map(|n| &n.successors);
        queue.extend(successors.map(String::as_str).filter(|s| names.contains(s)));
    }
    order.extend(
        g.nodes
            .iter()
            .map(|n| n.name.as_str())
            .filter(|n| !seen.contains(n)),
    );
    order
        .into_iter()
        .filter_map(|name| by_name.get(name).copied())
        .map(|n| Node {
            name: n.name.clone(),
            kind: n.kind.clone(),
            successors: n
                .successors
                .iter()
                .filter(|s| names.contains(s.as_str()))
                .cloned()
                .collect(),
        })
        .collect()
}

fn stores_of(n: &Node) -> impl Iterator<Item = &str> {
    let stores: &[String] = match &n.kind {
        NodeKind::Processor { stores } => stores,
        _ => &[],
    };
    stores.iter().map(String::as_str)
}

/// Kafka Streams names a store's changelog `<application id>[-<topology name>]-<store>-changelog`.
fn is_changelog_of(changelog: &str, store: &str) -> bool {
    changelog
        .strip_suffix("-changelog")
        .and_then(|c| c.strip_suffix(store))
        .is_some_and(|prefix| prefix.is_empty() || prefix.ends_with('-'))
}

fn topics(
    topology: &Topology,
    clusters: &[SubtopologyBox],
    partitions: &TopicMetadata,
) -> BTreeMap<String, TopicBox> {
    let repartition: BTreeSet<&str> = topology
        .subtopologies
        .iter()
        .flat_map(|s| s.repartition_source_topics.iter().map(|t| t.name.as_str()))
        .chain(
            topology
                .subtopologies
                .iter()
                .flat_map(|s| s.repartition_sink_topics.iter().map(String::as_str)),
        )
        .collect();
    let mut out: BTreeMap<String, TopicBox> = BTreeMap::new();
    fn entry<'m>(
        out: &'m mut BTreeMap<String, TopicBox>,
        name: &str,
        role: TopicRole,
        partitions: Option<i32>,
    ) -> &'m mut TopicBox {
        out.entry(name.to_string()).or_insert_with(|| TopicBox {
            name: name.to_string(),
            role,
            partitions,
            written_by: Vec::new(),
            read_by: Vec::new(),
        })
    }
    let role = |name: &str, role| match repartition.contains(name) {
        true => TopicRole::Repartition,
        false => role,
    };
    let count = |name: &str| partitions.get(name).copied().filter(|n| *n > 0);
    for c in clusters {
        for t in &c.reads {
            let r = role(t, TopicRole::Source);
            entry(&mut out, t, r, count(t)).read_by.push(c.id.clone());
        }
        for t in &c.writes {
            let r = role(t, TopicRole::Output);
            entry(&mut out, t, r, count(t))
                .written_by
                .push(c.id.clone());
        }
        let changelogs = c.stores.iter().filter_map(|s| s.changelog.as_ref());
        for t in changelogs.chain(&c.changelogs) {
            let r = role(t, TopicRole::Changelog);
            entry(&mut out, t, r, count(t))
                .written_by
                .push(c.id.clone());
        }
    }
    // A topic both read and written by the application is no output.
    for t in out.values_mut() {
        if t.role == TopicRole::Output && !t.read_by.is_empty() {
            t.role = TopicRole::Source;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::parse_describe_graph;

    const TEXT: &str = "Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [in])
      --> KSTREAM-SINK-0000000001
    Sink: KSTREAM-SINK-0000000001 (topic: counts-repartition)
      <-- KSTREAM-SOURCE-0000000000
  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000002 (topics: [counts-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts])
      --> KSTREAM-SINK-0000000004
      <-- KSTREAM-SOURCE-0000000002
    Sink: KSTREAM-SINK-0000000004 (topic: out)
      <-- KSTREAM-AGGREGATE-0000000003
";

    #[test]
    fn repartition_topics_link_writer_to_reader_and_stores_own_their_changelogs() {
        let (t, _, g) = parse_describe_graph(TEXT, "app").unwrap();
        let counts = TopicMetadata::from([("in".to_string(), 4)]);
        let p = picture("t.txt", &t, Some(&g), &counts, &BTreeMap::new());
        let r = &p.topics["app-counts-repartition"];
        assert_eq!(r.role, TopicRole::Repartition);
        assert_eq!(
            (r.written_by.as_slice(), r.read_by.as_slice()),
            (&["0".to_string()][..], &["1".to_string()][..])
        );
        assert_eq!(p.topics["in"].partitions, Some(4));
        assert_eq!(p.topics["out"].role, TopicRole::Output);
        let c1 = &p.subtopologies[1];
        assert_eq!(
            c1.stores[0].changelog.as_deref(),
            Some("app-counts-changelog")
        );
        assert!(c1.changelogs.is_empty());
        assert_eq!(p.topics["app-counts-changelog"].role, TopicRole::Changelog);
        assert!(p.has_processors);
    }

    #[test]
    fn without_processors_changelogs_hang_off_the_subtopology() {
        let (t, _, _) = parse_describe_graph(TEXT, "app").unwrap();
        let p = picture("t.json", &t, None, &TopicMetadata::new(), &BTreeMap::new());
        assert_eq!(p.subtopologies[1].changelogs, vec!["app-counts-changelog"]);
        assert!(p.subtopologies[1].nodes.is_empty());
        assert!(
            !p.topics.contains_key("out"),
            "outputs are known from sinks only"
        );
        assert_eq!(p.topics["in"].partitions, None);
    }

    #[test]
    fn a_stored_description_gets_the_real_internal_topic_names() {
        let (t, _, g) = parse_describe_graph(TEXT, "app").unwrap();
        let mut bare = g.clone();
        for n in bare
            .subtopologies
            .iter_mut()
            .flat_map(|s| s.nodes.iter_mut())
        {
            match &mut n.kind {
                NodeKind::Source { topics, .. } => {
                    for t in topics.iter_mut() {
                        *t = t.trim_start_matches("app-").to_string();
                    }
                }
                NodeKind::Sink { topic: Some(t) } => *t = t.trim_start_matches("app-").to_string(),
                _ => {}
            }
        }
        assert_ne!(bare, g);
        assert_eq!(named_as_in(bare, &t, "app"), g);
    }

    #[test]
    fn changelog_names() {
        assert!(is_changelog_of("app-counts-changelog", "counts"));
        assert!(is_changelog_of("app-named-counts-changelog", "counts"));
        assert!(!is_changelog_of("app-xcounts-changelog", "counts"));
        assert!(!is_changelog_of("app-counts-repartition", "counts"));
    }
}
