//! `list` and `describe`: the streams groups of a cluster, and what each is doing. The reports
//! and the pure steps are here; `live` asks the cluster, through `crate::source::live`.

use schemars::JsonSchema;
use serde::Serialize;

pub mod live;

/// The `list` report. JSON: `{"groups": [{"group_id": ..., "state": ...}]}`; with `verbose`
/// also the epochs and member count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ListReport {
    pub groups: Vec<ListRow>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ListRow {
    pub group_id: String,
    pub state: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_epoch: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_assignment_epoch: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<usize>,
}
