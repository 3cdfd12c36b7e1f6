//! The reports of the admin actions: one value per run, shown as a table or JSON (the JSON is
//! a contract: docs/schemas/reset-offsets, delete-offsets, delete). `execute` says whether the
//! cluster was written to; a dry run's rows are `planned`.

use schemars::JsonSchema;
use serde::Serialize;

/// What happened to one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[schemars(rename = "Status")]
pub enum ActionStatus {
    /// Dry run: this is what `--execute` would do.
    Planned,
    /// Done.
    Done,
    /// The broker refused it (`error` says why); the rest of the action went on.
    Failed,
    /// Left alone on purpose (`note` says why).
    Kept,
}

/// `reset-offsets`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ResetReport {
    pub execute: bool,
    /// The scenario, as given (`to-earliest`, `shift-by -5`, `to-datetime 2024-...`).
    pub scenario: String,
    pub groups: Vec<GroupReset>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GroupReset {
    pub group_id: String,
    /// The group's state; `null` when the broker knows no streams group of this id (offsets
    /// committed now are kept when the application first starts).
    pub state: Option<String>,
    /// The topics the plan covers.
    pub topics: Vec<String>,
    /// Notes about the scope: topics of the topology left out, and why.
    pub notes: Vec<String>,
    pub partitions: Vec<ResetRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ResetRow {
    pub topic: String,
    pub partition: i32,
    /// The committed offset before the reset; `null` when nothing was committed.
    pub current_offset: Option<i64>,
    pub new_offset: i64,
    /// `new_offset - current_offset`; `null` when nothing was committed.
    pub change: Option<i64>,
    /// Why the new offset is not what was asked (clamped to the log, no record that recent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub status: ActionStatus,
    /// The broker's error when `status` is `failed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `delete-offsets`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DeleteOffsetsReport {
    pub execute: bool,
    pub group_id: String,
    pub state: Option<String>,
    /// The group-level error of OffsetDelete, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub partitions: Vec<OffsetRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OffsetRow {
    pub topic: String,
    pub partition: i32,
    /// The committed offset that is (or would be) deleted; `null` when there was none.
    pub current_offset: Option<i64>,
    pub status: ActionStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `delete`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DeleteReport {
    pub execute: bool,
    pub groups: Vec<GroupDeletion>,
    /// The internal topics of the deleted groups (with `--delete-internal-topics`).
    pub internal_topics: Vec<TopicDeletion>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GroupDeletion {
    pub group_id: String,
    pub state: String,
    /// How many partitions have committed offsets (deleted with the group).
    pub committed_partitions: usize,
    pub status: ActionStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TopicDeletion {
    pub group_id: String,
    pub topic: String,
    pub status: ActionStatus,
    /// Why a topic is kept (its name does not look internal) or not deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ResetReport {
    /// Some write failed.
    pub fn failed(&self) -> bool {
        self.groups
            .iter()
            .flat_map(|g| &g.partitions)
            .any(|r| r.status == ActionStatus::Failed)
    }
}

impl DeleteOffsetsReport {
    pub fn failed(&self) -> bool {
        self.error.is_some()
            || self
                .partitions
                .iter()
                .any(|r| r.status == ActionStatus::Failed)
    }
}

impl DeleteReport {
    pub fn failed(&self) -> bool {
        self.groups.iter().any(|g| g.status == ActionStatus::Failed)
            || self
                .internal_topics
                .iter()
                .any(|t| t.status == ActionStatus::Failed)
    }
}
