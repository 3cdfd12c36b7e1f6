//! Task sets: the tasks a member holds in one role, ordered (subtopology id, then partition) so
//! that every output built from them is deterministic.
//!
//! A set is one sorted vector of (subtopology, partition) with the subtopology id shared
//! (`Arc<str>`): a target assignment of 10,000 members is 20,000 sets of a few tasks each, and
//! one allocation per set (instead of a tree node per subtopology and per set of partitions) is
//! what makes building and dropping one cheap. Lookups are binary searches; inserts in order
//! (the common case: sets are built by walking other sets) are appends, and unions merge.
//!
//! The vector is shared, copy on write: the coordinator copies a member (with its assigned,
//! pending and target sets) several times per heartbeat to plan without writing, and most
//! heartbeats change no task, so a copy of a set is a reference count, and only a set that
//! changes is copied. An empty set holds no vector at all.

use std::cmp::Ordering;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::task::TaskId;

/// A set of tasks grouped by subtopology, as the protocol carries them (`TaskIds`).
///
/// Serialized as `[{"subtopology": "0", "partitions": [0, 1]}, ...]`, the JSON contract of every
/// report. Empty subtopology entries are never kept.
#[derive(Clone, Debug, Default)]
pub struct TaskSet {
    shared: Option<Arc<Vec<Entry>>>,
}

type Entry = (Arc<str>, i32);

impl PartialEq for TaskSet {
    fn eq(&self, other: &Self) -> bool {
        match (&self.shared, &other.shared) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => true,
            _ => self.entries() == other.entries(),
        }
    }
}

impl Eq for TaskSet {}

impl std::hash::Hash for TaskSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.entries().hash(state);
    }
}

/// The partitions of one subtopology in a set, ascending.
#[derive(Clone, Copy, Debug)]
pub struct Partitions<'a>(&'a [Entry]);

impl<'a> Partitions<'a> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = i32> + 'a {
        self.0.iter().map(|(_, p)| *p)
    }

    pub fn contains(&self, partition: i32) -> bool {
        self.0.binary_search_by(|(_, p)| p.cmp(&partition)).is_ok()
    }
}

fn order(entry: &Entry, subtopology: &str, partition: i32) -> Ordering {
    (&*entry.0, entry.1).cmp(&(subtopology, partition))
}

impl TaskSet {
    pub fn new() -> Self {
        Self::default()
    }

    fn of(tasks: Vec<Entry>) -> TaskSet {
        TaskSet {
            shared: (!tasks.is_empty()).then(|| Arc::new(tasks)),
        }
    }

    /// The entries, in order.
    fn entries(&self) -> &[Entry] {
        self.shared.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The entries to change: this set's own copy, made now if the vector is shared.
    fn entries_mut(&mut self) -> &mut Vec<Entry> {
        Arc::make_mut(self.shared.get_or_insert_with(Default::default))
    }

    fn find(&self, subtopology: &str, partition: i32) -> Result<usize, usize> {
        // Appending in order is the common case: answer it without a search.
        let tasks = self.entries();
        match tasks.last() {
            None => Err(0),
            Some(last) if order(last, subtopology, partition) == Ordering::Less => Err(tasks.len()),
            _ => tasks.binary_search_by(|e| order(e, subtopology, partition)),
        }
    }

    /// The shared id for `subtopology` at insertion point `at`: a neighbour's, if it has the same
    /// subtopology.
    fn id_at(&self, at: usize, subtopology: &str) -> Arc<str> {
        let same = |i: usize| {
            self.entries()
                .get(i)
                .filter(|(s, _)| &**s == subtopology)
                .map(|(s, _)| Arc::clone(s))
        };
        at.checked_sub(1)
            .and_then(same)
            .or_else(|| same(at))
            .unwrap_or_else(|| Arc::from(subtopology))
    }

    pub fn insert(&mut self, subtopology: &str, partition: i32) -> bool {
        match self.find(subtopology, partition) {
            Ok(_) => false,
            Err(at) => {
                let id = self.id_at(at, subtopology);
                self.entries_mut().insert(at, (id, partition));
                true
            }
        }
    }

    pub fn insert_task(&mut self, task: &TaskId) -> bool {
        self.insert(&task.subtopology, task.partition)
    }

    pub fn remove(&mut self, subtopology: &str, partition: i32) -> bool {
        match self.find(subtopology, partition) {
            Ok(at) => {
                let tasks = self.entries_mut();
                tasks.remove(at);
                if tasks.is_empty() {
                    self.shared = None;
                }
                true
            }
            Err(_) => false,
        }
    }

    pub fn remove_task(&mut self, task: &TaskId) -> bool {
        self.remove(&task.subtopology, task.partition)
    }

    pub fn contains(&self, subtopology: &str, partition: i32) -> bool {
        self.find(subtopology, partition).is_ok()
    }

    pub fn contains_task(&self, task: &TaskId) -> bool {
        self.contains(&task.subtopology, task.partition)
    }

    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// Tasks in order: subtopology id, then partition.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> + '_ {
        self.entries().iter().map(|(s, p)| (&**s, *p))
    }

    pub fn tasks(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.iter().map(|(s, p)| TaskId::new(s, p))
    }

    /// Each subtopology with its partitions, in order.
    pub fn subtopologies(&self) -> impl Iterator<Item = (&str, Partitions<'_>)> + '_ {
        self.entries()
            .chunk_by(|a, b| a.0 == b.0)
            .map(|run| (&*run[0].0, Partitions(run)))
    }

    pub fn partitions(&self, subtopology: &str) -> Option<Partitions<'_>> {
        let tasks = self.entries();
        let lo = tasks.partition_point(|(s, _)| &**s < subtopology);
        let hi = lo + tasks[lo..].partition_point(|(s, _)| &**s == subtopology);
        (hi > lo).then(|| Partitions(&tasks[lo..hi]))
    }

    pub fn union(&self, other: &TaskSet) -> TaskSet {
        let mut out = self.clone();
        out.extend(other);
        out
    }

    /// Adds every task of `other`, as one merge of the two sorted lists.
    pub fn extend(&mut self, other: &TaskSet) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            self.shared.clone_from(&other.shared);
            return;
        }
        let mine = self.entries();
        let mut merged = Vec::with_capacity(mine.len() + other.len());
        let mut theirs = other.entries().iter().peekable();
        for entry in mine.iter().cloned() {
            while let Some(t) = theirs.next_if(|t| order(t, &entry.0, entry.1) == Ordering::Less) {
                merged.push(t.clone());
            }
            theirs.next_if(|t| order(t, &entry.0, entry.1) == Ordering::Equal);
            merged.push(entry);
        }
        merged.extend(theirs.cloned());
        *self = TaskSet::of(merged);
    }

    pub fn difference(&self, other: &TaskSet) -> TaskSet {
        self.filtered(|s, p| !other.contains(s, p))
    }

    pub fn intersection(&self, other: &TaskSet) -> TaskSet {
        self.filtered(|s, p| other.contains(s, p))
    }

    fn filtered(&self, keep: impl Fn(&str, i32) -> bool) -> TaskSet {
        TaskSet::of(
            self.entries()
                .iter()
                .filter(|(s, p)| keep(s, *p))
                .cloned()
                .collect(),
        )
    }

    pub fn is_disjoint(&self, other: &TaskSet) -> bool {
        self.iter().all(|(s, p)| !other.contains(s, p))
    }

    /// `0:[0,1]; 1:[2]` as `kafka-streams-groups.sh` prints task lists.
    pub fn compact(&self) -> String {
        self.subtopologies()
            .map(|(s, ps)| {
                let ps: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                format!("{s}:[{}]", ps.join(","))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A set from (shared id, partition) pairs, for builders that already share the ids (the
    /// assignors' output). Pairs in order are taken as they are; any others are sorted.
    pub fn from_shared(mut tasks: Vec<Entry>) -> TaskSet {
        let ordered = tasks
            .windows(2)
            .all(|w| order(&w[0], &w[1].0, w[1].1) == Ordering::Less);
        if !ordered {
            tasks.sort_by(|a, b| order(a, &b.0, b.1));
            tasks.dedup_by(|a, b| order(a, &b.0, b.1) == Ordering::Equal);
        }
        TaskSet::of(tasks)
    }

    /// A set from (subtopology, partition) pairs in any order, sharing one id per subtopology.
    fn from_pairs<S: AsRef<str> + Ord>(mut pairs: Vec<(S, i32)>) -> TaskSet {
        pairs.sort_unstable_by(|a, b| (a.0.as_ref(), a.1).cmp(&(b.0.as_ref(), b.1)));
        pairs.dedup_by(|a, b| a.0.as_ref() == b.0.as_ref() && a.1 == b.1);
        let mut tasks: Vec<Entry> = Vec::with_capacity(pairs.len());
        for (s, p) in pairs {
            let id = match tasks.last() {
                Some((last, _)) if &**last == s.as_ref() => Arc::clone(last),
                _ => Arc::from(s.as_ref()),
            };
            tasks.push((id, p));
        }
        TaskSet::of(tasks)
    }
}

impl FromIterator<TaskId> for TaskSet {
    fn from_iter<I: IntoIterator<Item = TaskId>>(iter: I) -> Self {
        TaskSet::from_pairs(
            iter.into_iter()
                .map(|t| (t.subtopology, t.partition))
                .collect(),
        )
    }
}

impl<'a> FromIterator<(&'a str, i32)> for TaskSet {
    fn from_iter<I: IntoIterator<Item = (&'a str, i32)>>(iter: I) -> Self {
        TaskSet::from_pairs(iter.into_iter().collect())
    }
}

/// The protocol's `TaskIds` entry, also the JSON shape of a task set entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskIds {
    pub subtopology: String,
    pub partitions: Vec<i32>,
}

impl TaskSet {
    pub fn to_task_ids(&self) -> Vec<TaskIds> {
        self.subtopologies()
            .map(|(s, ps)| TaskIds {
                subtopology: s.to_string(),
                partitions: ps.iter().collect(),
            })
            .collect()
    }

    pub fn from_task_ids(ids: &[TaskIds]) -> TaskSet {
        TaskSet::from_pairs(
            ids.iter()
                .flat_map(|e| e.partitions.iter().map(|&p| (e.subtopology.as_str(), p)))
                .collect(),
        )
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

/// A task set is serialised as its `TaskIds` entries (one per subtopology with tasks).
impl schemars::JsonSchema for TaskSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TaskSet".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let entry = generator.subschema_for::<TaskIds>();
        schemars::json_schema!({
            "description": "Tasks grouped by subtopology, in subtopology id order; a subtopology without tasks has no entry.",
            "type": "array",
            "items": entry,
        })
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

    /// Every operation agrees with the obvious model (a BTreeSet of pairs), whatever the order
    /// of inserts and removals.
    #[test]
    fn agrees_with_an_ordered_set_of_pairs() {
        use std::collections::BTreeSet;
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let subs = ["0", "1", "10", "2", "a"];
        for _ in 0..200 {
            let (mut set, mut model) = (TaskSet::new(), BTreeSet::new());
            let mut other = TaskSet::new();
            for _ in 0..next(60) {
                let (s, p) = (subs[next(5) as usize], next(12) as i32);
                match next(4) {
                    0 => assert_eq!(set.remove(s, p), model.remove(&(s, p))),
                    1 => {
                        other.insert(s, p);
                    }
                    _ => assert_eq!(set.insert(s, p), model.insert((s, p))),
                }
            }
            let listed: Vec<(&str, i32)> = set.iter().collect();
            assert_eq!(listed, model.iter().copied().collect::<Vec<_>>());
            assert_eq!(set.len(), model.len());
            for s in subs {
                let want: Vec<i32> = model.iter().filter(|t| t.0 == s).map(|t| t.1).collect();
                let got: Vec<i32> = set
                    .partitions(s)
                    .map(|p| p.iter().collect())
                    .unwrap_or_default();
                assert_eq!(got, want, "partitions of {s}");
            }
            let other_model: BTreeSet<(&str, i32)> = other.iter().collect();
            let listed_of = |t: TaskSet| -> Vec<(String, i32)> {
                t.iter().map(|(s, p)| (s.to_string(), p)).collect()
            };
            let model_of = |m: Vec<&(&str, i32)>| -> Vec<(String, i32)> {
                m.into_iter().map(|(s, p)| (s.to_string(), *p)).collect()
            };
            assert_eq!(
                listed_of(set.union(&other)),
                model_of(model.union(&other_model).collect())
            );
            assert_eq!(
                listed_of(set.intersection(&other)),
                model_of(model.intersection(&other_model).collect())
            );
            assert_eq!(
                listed_of(set.difference(&other)),
                model_of(model.difference(&other_model).collect())
            );
            let mut backwards: Vec<(&str, i32)> = set.iter().collect();
            backwards.reverse();
            let rebuilt: TaskSet = backwards.into_iter().collect();
            assert_eq!(rebuilt, set);
            assert_eq!(TaskSet::from_task_ids(&set.to_task_ids()), set);
        }
    }
}
