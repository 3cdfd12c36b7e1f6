//! One sample of a watch: the describe snapshot and when it was taken. A recording
//! (`describe --watch --record FILE`) holds one sample per line, as JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::change::Change;
use crate::time;
use model::group::{GroupDescription, Snapshot, SNAPSHOT_SCHEMA_VERSION};
use model::wait::Wait;

/// One sample: the `describe --output json` document plus the time it was taken. When the
/// cluster could not be described at all, `error` says why and `groups` is empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Sample {
    /// When the sample was taken, RFC 3339 in UTC (`2026-12-02T17:20:01.123Z`).
    pub sampled_at: String,
    /// The same instant in milliseconds since the Unix epoch.
    pub sampled_at_ms: i64,
    /// Why nothing could be described (the broker is unreachable, or refused the session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Groups that could not be described in this sample (e.g. not found), with the error.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_errors: Vec<GroupError>,
    /// What the watch was waiting for while this sample was late (no sample for more than an
    /// interval after it was due).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited: Option<Waited>,
    #[serde(flatten)]
    pub snapshot: Snapshot,
}

/// A wait that made a sample late: the longest of its describe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Waited {
    /// When the wait began, RFC 3339 in UTC (`since_ms` in milliseconds).
    pub since: String,
    /// How long it lasted.
    pub waited_ms: i64,
    #[serde(flatten)]
    pub wait: Wait,
}

impl Waited {
    /// `wait`, which ended at `ended_ms`.
    pub fn until(wait: Wait, ended_ms: i64) -> Self {
        Waited {
            since: time::rfc3339(wait.since_ms),
            waited_ms: ended_ms - wait.since_ms,
            wait,
        }
    }
}

/// A group the sample has no description of, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupError {
    /// Empty for a broker that did not answer the listing of `--all-groups`: the groups it
    /// coordinates are unknown (`error` names it).
    pub group_id: String,
    pub error: String,
}

impl Sample {
    /// A sample of `snapshot` taken at `at_ms`.
    pub fn new(at_ms: i64, snapshot: Snapshot, group_errors: Vec<GroupError>) -> Self {
        Sample {
            sampled_at: time::rfc3339(at_ms),
            sampled_at_ms: at_ms,
            error: None,
            group_errors,
            waited: None,
            snapshot,
        }
    }

    /// A sample that could not be taken, and why.
    pub fn failed(at_ms: i64, error: impl Into<String>) -> Self {
        let empty = Snapshot {
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            kafka_version: None,
            kafka_version_note: None,
            legacy_version_name: None,
            groups: vec![],
        };
        Sample {
            error: Some(error.into()),
            ..Sample::new(at_ms, empty, vec![])
        }
    }

    pub fn group(&self, id: &str) -> Option<&GroupDescription> {
        self.snapshot.groups.iter().find(|g| g.group_id == id)
    }

    pub fn is_reachable(&self) -> bool {
        self.error.is_none()
    }
}

/// One object of `describe --watch --output json`: the sample and what changed since the
/// previous one (absent when nothing did, so a recording line is one of these too).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WatchLine {
    #[serde(flatten)]
    pub sample: Sample,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
}
