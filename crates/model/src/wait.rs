//! What a cluster session is waiting for at a given moment: the bootstrap servers, a group's
//! coordinator, or a broker's answer. The client fills it in as it goes (and retries); a long
//! wait can then be told while it lasts (`describe --watch`) instead of as a silent gap.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::group::CoordinatorNode;

/// What is awaited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Awaited {
    /// A first answer from one of the bootstrap servers (the session is not open yet).
    Bootstrap { servers: Vec<String> },
    /// The groups' coordinator: finding it (FindCoordinator) and its answer, retried as it
    /// moves, as one wait.
    Coordinator { groups: Vec<String> },
    /// A broker's answer to a request any broker, or a partition's leader, answers (Metadata,
    /// ListGroups, ListOffsets).
    Broker,
}

/// One wait of a session: since when, for what, at which broker, and the retries so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Wait {
    /// When the wait began, in milliseconds since the Unix epoch.
    pub since_ms: i64,
    #[serde(rename = "for")]
    pub awaited: Awaited,
    /// The broker asked last: for a coordinator, the one named coordinator; unknown before the
    /// first request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<CoordinatorNode>,
    /// Every broker asked during the wait, in the order first asked: a coordinator that moved
    /// while it was awaited is the first of two.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub brokers: Vec<CoordinatorNode>,
    /// Requests retried during this wait.
    #[serde(default)]
    pub retries: u32,
    /// Why the last retry was needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_retry: Option<String>,
}

impl Wait {
    pub fn new(since_ms: i64, awaited: Awaited) -> Self {
        Wait {
            since_ms,
            awaited,
            broker: None,
            brokers: Vec::new(),
            retries: 0,
            last_retry: None,
        }
    }
}
