//! 4.1's `TaskPairs`: the unordered pairs of distinct tasks that have shared a process.
//!
//! A `HashSet<Pair>`, and `Pair` (hash `Objects.hash(task1, task2)`) is not `Comparable`: when
//! several pairs with the same hash code share a tree bin, `HashMap` orders them by
//! `tieBreakOrder`, i.e. by their identity hash codes, drawn from the thread's generator the
//! first time each pair is compared. Same-subtopology pairs collide a lot (`(p, q)` and
//! `(p + 1, q - 31)` have one hash), so on larger topologies these draws happen, and they move
//! the sequence the `Member` objects draw from. The set is emulated bin for bin for that
//! reason alone; membership is all the assignor asks of it.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::HashSet;

use super::objects::Objects;
use super::AssignorError;
use crate::java::hash_map::table_size_for;
use crate::java::{JavaHash, JavaHashMap};

/// One `Pair` object in the set: its tasks (`lo` before `hi` in `TaskId` order), its hash code
/// and its identity hash (0 until drawn; HotSpot never hands out 0).
#[derive(Clone, Debug)]
struct PairKey {
    lo: u32,
    hi: u32,
    hash: i32,
    identity: Cell<i32>,
}

impl PartialEq for PairKey {
    fn eq(&self, other: &Self) -> bool {
        self.lo == other.lo && self.hi == other.hi
    }
}

impl JavaHash for PairKey {
    fn java_hash_code(&self) -> i32 {
        self.hash
    }

    /// Not `Comparable`: equal hashes go to `tieBreakOrder`.
    fn java_compare(&self, _other: &Self) -> Option<Ordering> {
        None
    }
}

/// The largest pair set laid out as Java lays it out: 2^24 bins (64 MiB here; from 5,793 tasks
/// Java's own `new HashSet<>(maxPairs)` asks for more, up to 2^30). Beyond it only membership
/// is kept, so the tie breaks' identity-hash draws are skipped: later `Member` objects get other
/// identity hashes than on a JVM in the same state, which no one can know for a real broker
/// anyway; the algorithm is otherwise the same.
const MAX_LAYOUT_BINS: usize = 1 << 24;

pub(super) struct TaskPairs {
    /// The set as Java lays it out (for the draws; `None` past [`MAX_LAYOUT_BINS`]), and an
    /// index of its pairs (for lookups: bins of equal hash codes grow long).
    layout: Option<JavaHashMap<PairKey>>,
    known: HashSet<u64>,
    /// `allTasks * (allTasks - 1) / 2` at `initialize`, in Java `int` arithmetic: once that
    /// many pairs are known, no pair counts as new.
    max_pairs: i32,
}

impl TaskPairs {
    /// `new TaskPairs(maxPairs)`: its `new HashSet<>(maxPairs)` rejects a negative capacity
    /// (an `int` overflow past 46,341 tasks).
    pub fn new(all_tasks: i32) -> Result<TaskPairs, AssignorError> {
        let max_pairs = all_tasks.wrapping_mul(all_tasks.wrapping_sub(1)) / 2;
        if max_pairs < 0 {
            return Err(AssignorError::new(format!(
                "Illegal initial capacity: {max_pairs}"
            )));
        }
        let bins = table_size_for(max_pairs as usize);
        Ok(TaskPairs {
            layout: (bins <= MAX_LAYOUT_BINS)
                .then(|| JavaHashMap::with_capacity(max_pairs as usize)),
            known: HashSet::new(),
            max_pairs,
        })
    }

    /// `pair(a, b)`: the two tasks in `TaskId` order (task indices follow it), hashed as
    /// `Objects.hash(task1, task2)`.
    fn key(a: u32, b: u32, task_hash: &[i32]) -> PairKey {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let hash = 31i32
            .wrapping_add(task_hash[lo as usize])
            .wrapping_mul(31)
            .wrapping_add(task_hash[hi as usize]);
        PairKey {
            lo,
            hi,
            hash,
            identity: Cell::new(0),
        }
    }

    /// `hasNewPair(task, assigned)`: whether `task` would share a process with a task it never
    /// shared one with (always, for a process with no tasks; never, once every pair is known).
    /// A task paired with itself is never known, so it counts as new.
    pub fn has_new_pair(&self, task: u32, assigned: &[u32]) -> bool {
        if self.known.len() as i64 == i64::from(self.max_pairs) {
            return false;
        }
        if assigned.is_empty() {
            return true;
        }
        assigned
            .iter()
            .any(|&t| t == task || !self.known.contains(&pair_id(task, t)))
    }

    /// `addPairs(task, assigned)`: `task` with each other task of the process, in the order
    /// of `assigned` (the process's `assignedTasks()` set), drawing identity hashes for the
    /// tie breaks of tree bins.
    pub fn add_pairs(
        &mut self,
        task: u32,
        assigned: &[u32],
        task_hash: &[i32],
        objects: &mut Objects,
    ) {
        let mut tie = |a: &PairKey, b: &PairKey| {
            // tieBreakOrder: identityHashCode(a) <= identityHashCode(b), a's drawn first.
            let ia = identity(a, objects);
            let ib = identity(b, objects);
            if ia <= ib {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        };
        for &t in assigned {
            if t != task && self.known.insert(pair_id(t, task)) {
                if let Some(layout) = &mut self.layout {
                    layout.put_absent_with_tie_break(Self::key(t, task, task_hash), &mut tie);
                }
            }
        }
    }
}

/// The pair's tasks, lower index first, in one number.
fn pair_id(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// `System.identityHashCode(pair)`: drawn on first use.
fn identity(p: &PairKey, objects: &mut Objects) -> i32 {
    if p.identity.get() == 0 {
        p.identity.set(objects.draw());
    }
    p.identity.get()
}
