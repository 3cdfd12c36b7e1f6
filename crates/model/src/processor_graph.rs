//! The processors of a topology and their edges: what `Topology#describe()` text prints, and
//! what a Kafka 4.4 broker with a topology description plugin (KIP-1331) returns. The member's
//! [`Topology`](super::Topology) keeps only topics; pictures want the processors too.
//!
//! Topic names are the real ones: internal topics carry the application id prefix, as in the
//! `Topology` of the same input, so that the two can be drawn together.

/// Every sub-topology's nodes, in the order of the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProcessorGraph {
    pub subtopologies: Vec<SubtopologyGraph>,
}

/// The nodes of one sub-topology.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubtopologyGraph {
    /// The id of the matching subtopology of the `Topology` (with a named topology's prefix).
    pub id: String,
    /// A global-store sub-topology: it makes no tasks, and the `Topology` has no such id.
    pub global: bool,
    pub nodes: Vec<ProcessorNode>,
}

/// One node and the nodes it forwards to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessorNode {
    pub name: String,
    pub kind: NodeKind,
    pub successors: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Reads topics, or the topics a pattern matches.
    Source {
        topics: Vec<String>,
        pattern: Option<String>,
    },
    /// Processes records, with the state stores it uses.
    Processor { stores: Vec<String> },
    /// Writes to a topic; `None` when a topic-name extractor picks it at run time.
    Sink { topic: Option<String> },
}

impl ProcessorGraph {
    pub fn subtopology(&self, id: &str) -> Option<&SubtopologyGraph> {
        self.subtopologies.iter().find(|s| s.id == id)
    }
}

/// What a broker says of the topology description it stores for a group (KIP-1331,
/// StreamsGroupDescribe v1 `TopologyDescriptionStatus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredDescription {
    /// Not asked for, or the broker speaks only v0 (Kafka 4.1 to 4.3).
    NotRequested,
    /// No description for the group's current topology epoch: the broker has no description
    /// plugin (the default), or the members have not pushed one yet.
    NotStored,
    /// The broker's plugin failed to read it.
    Failed,
    Available(ProcessorGraph),
}
