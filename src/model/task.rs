//! Tasks and task sets.
//!
//! A task is one partition of one subtopology. Task sets are kept ordered (subtopology id, then
//! partition) so that every output built from them is deterministic.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One task: a subtopology id and a partition number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

/// A set of tasks grouped by subtopology, as the protocol carries them (`TaskIds`).
///
/// Serialized as `[{"subtopology": "0", "partitions": [0, 1]}, ...]`, the JSON contract of every
/// report. Empty subtopology entries are never kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TaskSet {
    by_subtopology: BTreeMap<String, BTreeSet<i32>>,
}

impl TaskSet {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, subtopology: &str, partition: i32) -> bool {
        match self.by_subtopology.get_mut(subtopology) {
            Some(p) => p.insert(partition),
            None => {
                self.by_subtopology
                    .insert(subtopology.to_string(), BTreeSet::from([partition]));
                true
            }
        }
    }

    pub fn insert_task(&mut self, task: &TaskId) -> bool {
        self.insert(&task.subtopology, task.partition)
    }

    pub fn remove(&mut self, subtopology: &str, partition: i32) -> bool {
        let Some(p) = self.by_subtopology.get_mut(subtopology) else {
            return false;
        };
        let removed = p.remove(&partition);
        if p.is_empty() {
            self.by_subtopology.remove(subtopology);
        }
        removed
    }

    pub fn remove_task(&mut self, task: &TaskId) -> bool {
        self.remove(&task.subtopology, task.partition)
    }

    pub fn contains(&self, subtopology: &str, partition: i32) -> bool {
        self.by_subtopology
            .get(subtopology)
            .is_some_and(|p| p.contains(&partition))
    }

    pub fn contains_task(&self, task: &TaskId) -> bool {
        self.contains(&task.subtopology, task.partition)
    }

    pub fn len(&self) -> usize {
        self.by_subtopology.values().map(BTreeSet::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_subtopology.is_empty()
    }

    /// Tasks in order: subtopology id, then partition.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> + '_ {
        self.by_subtopology
            .iter()
            .flat_map(|(s, ps)| ps.iter().map(move |p| (s.as_str(), *p)))
    }

    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.iter().map(|(s, p)| TaskId::new(s, p))
    }

    pub fn subtopologies(&self) -> impl Iterator<Item = (&str, &BTreeSet<i32>)> + '_ {
        self.by_subtopology.iter().map(|(s, p)| (s.as_str(), p))
    }

    pub fn partitions(&self, subtopology: &str) -> Option<&BTreeSet<i32>> {
        self.by_subtopology.get(subtopology)
    }

    pub fn union(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        out.extend(other);
        out
    }

    pub fn extend(&mut self, other: &TaskSet) {
        for (s, p) in other.iter() {
            self.insert(s, p);
        }
    }

    pub fn difference(&self, other: &TaskSet) -> TaskSet {
        let mut out = TaskSet::new();
        for (s, p) in self.iter() {
            if !other.contains(s, p) {
                out.insert(s, p);
            }
        }
        out
    }

    pub fn intersection(&self, other: &TaskSet) -> TaskSet {
        let mut out = TaskSet::new();
        for (s, p) in self.iter() {
            if other.contains(s, p) {
                out.insert(s, p);
            }
        }
        out
    }

    pub fn is_disjoint(&self, other: &TaskSet) -> bool {
        self.iter().all(|(s, p)| !other.contains(s, p))
    }

    /// `0:[0,1]; 1:[2]` as `kafka-streams-groups.sh` prints task lists.
    pub fn compact(&self) -> String {
        self.by_subtopology
            .iter()
            .map(|(s, ps)| {
                let ps: Vec<String> = ps.iter().map(i32::to_string).collect();
                format!("{s}:[{}]", ps.join(","))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl FromIterator<TaskId> for TaskSet {
    fn from_iter<I: IntoIterator<Item = TaskId>>(iter: I) -> Self {
        let mut set = TaskSet::new();
        for t in iter {
            set.insert(&t.subtopology, t.partition);
        }
        set
    }
}

impl<'a> FromIterator<(&'a str, i32)> for TaskSet {
    fn from_iter<I: IntoIterator<Item = (&'a str, i32)>>(iter: I) -> Self {
        let mut set = TaskSet::new();
        for (s, p) in iter {
            set.insert(s, p);
        }
        set
    }
}

/// Built from whole (subtopology, partitions) groups, without a lookup per task; empty groups
/// are left out, a repeated subtopology keeps its last group.
impl FromIterator<(String, BTreeSet<i32>)> for TaskSet {
    fn from_iter<I: IntoIterator<Item = (String, BTreeSet<i32>)>>(iter: I) -> Self {
        let mut set = TaskSet::new();
        for (s, p) in iter {
            if !p.is_empty() {
                set.by_subtopology.insert(s, p);
            }
        }
        set
    }
}

/// The protocol's `TaskIds` entry, also the JSON shape of a task set entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskIds {
    pub subtopology: String,
    pub partitions: Vec<i32>,
}

impl TaskSet {
    pub fn to_task_ids(&self) -> Vec<TaskIds> {
        self.by_subtopology
            .iter()
            .map(|(s, ps)| TaskIds {
                subtopology: s.clone(),
                partitions: ps.iter().copied().collect(),
            })
            .collect()
    }

    pub fn from_task_ids(ids: &[TaskIds]) -> TaskSet {
        let mut set = TaskSet::new();
        for e in ids {
            for p in &e.partitions {
                set.insert(&e.subtopology, *p);
            }
        }
        set
    }
}

impl Serialize for TaskSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_task_ids().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TaskSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let ids = Vec::<TaskIds>::deserialize(deserializer)?;
        Ok(TaskSet::from_task_ids(&ids))
    }
}

/// The role a member plays for a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

/// Active, standby and warm-up tasks of one member (current or target).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Assignment {
    #[serde(default)]
    pub active: TaskSet,
    #[serde(default)]
    pub standby: TaskSet,
    #[serde(default)]
    pub warmup: TaskSet,
}

impl Assignment {
    pub fn get(&self, role: TaskRole) -> &TaskSet {
        match role {
            TaskRole::Active => &self.active,
            TaskRole::Standby => &self.standby,
            TaskRole::Warmup => &self.warmup,
        }
    }

    pub fn get_mut(&mut self, role: TaskRole) -> &mut TaskSet {
        match role {
            TaskRole::Active => &mut self.active,
            TaskRole::Standby => &mut self.standby,
            TaskRole::Warmup => &mut self.warmup,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    pub fn len(&self) -> usize {
        self.active.len() + self.standby.len() + self.warmup.len()
    }

    /// Role by role union.
    pub fn union(&self, other: &Assignment) -> Assignment {
        Assignment {
            active: self.active.union(&other.active),
            standby: self.standby.union(&other.standby),
            warmup: self.warmup.union(&other.warmup),
        }
    }

    /// Every task in any role.
    pub fn all_tasks(&self) -> TaskSet {
        self.active.union(&self.standby).union(&self.warmup)
    }
}

/// Serde for per-task offsets (`BTreeMap<TaskId, i64>`) as a JSON list of
/// `{"subtopology": "0", "partition": 1, "offset": 42}`: JSON object keys must be strings, and
/// this is also the protocol's `TaskOffset` shape.
pub mod task_offsets_json {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::TaskId;

    #[derive(Serialize, Deserialize)]
    struct Entry {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_keep_order_and_drop_empty_entries() {
        let a: TaskSet = [("1", 2), ("0", 1), ("0", 0)].into_iter().collect();
        let b: TaskSet = [("0", 1)].into_iter().collect();
        assert_eq!(a.len(), 3);
        let d = a.difference(&b);
        assert_eq!(d.compact(), "0:[0]; 1:[2]");
        let mut c = b.clone();
        assert!(c.remove("0", 1));
        assert!(c.is_empty());
        assert_eq!(a.intersection(&b), b);
    }

    #[test]
    fn json_shape_is_the_contract() {
        let a: TaskSet = [("0", 1), ("0", 0), ("1", 3)].into_iter().collect();
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(
            json,
            r#"[{"subtopology":"0","partitions":[0,1]},{"subtopology":"1","partitions":[3]}]"#
        );
        let back: TaskSet = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
    }
}
