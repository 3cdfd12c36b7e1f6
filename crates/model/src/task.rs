//! Tasks: a task is one partition of one subtopology; the role a member plays for it.
//! Sets of tasks are in `task_set`, a member's tasks by role in `assignment`.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One task: a subtopology id and a partition number.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub struct TaskId {
    pub subtopology: String,
    pub partition: i32,
}

impl TaskId {
    pub fn new(subtopology: impl Into<String>, partition: i32) -> Self {
        TaskId {
            subtopology: subtopology.into(),
            partition,
        }
    }
}

impl fmt::Display for TaskId {
    /// Kafka Streams prints task ids as `<subtopology>_<partition>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// The role a member plays for a task.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum TaskRole {
    Active,
    Standby,
    Warmup,
}

impl TaskRole {
    pub const ALL: [TaskRole; 3] = [TaskRole::Active, TaskRole::Standby, TaskRole::Warmup];

    pub fn name(self) -> &'static str {
        match self {
            TaskRole::Active => "active",
            TaskRole::Standby => "standby",
            TaskRole::Warmup => "warmup",
        }
    }
}

impl fmt::Display for TaskRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Serde for per-task offsets (`BTreeMap<TaskId, i64>`) as a JSON list of
/// `{"subtopology": "0", "partition": 1, "offset": 42}`: JSON object keys must be strings, and
/// this is also the protocol's `TaskOffset` shape.
pub mod task_offsets_json {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::TaskId;

    /// One task's offset in the JSON list.
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "TaskOffset")]
    pub struct Entry {
        subtopology: String,
        partition: i32,
        offset: i64,
    }

    pub fn serialize<S: Serializer>(m: &BTreeMap<TaskId, i64>, s: S) -> Result<S::Ok, S::Error> {
        let v: Vec<Entry> = m
            .iter()
            .map(|(t, o)| Entry {
                subtopology: t.subtopology.clone(),
                partition: t.partition,
                offset: *o,
            })
            .collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<TaskId, i64>, D::Error> {
        let v = Vec::<Entry>::deserialize(d)?;
        Ok(v.into_iter()
            .map(|e| (TaskId::new(e.subtopology, e.partition), e.offset))
            .collect())
    }
}
