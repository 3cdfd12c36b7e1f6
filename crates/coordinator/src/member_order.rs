//! The order in which Apache's coordinator walks a group's members: the iteration order of the
//! `TimelineHashMap` that holds them (server-common's `BaseHashTable` and
//! `SnapshottableHashTable`).
//!
//! It matters because `TargetAssignmentBuilder` copies the members into a `java.util.HashMap`
//! in this order, and the sticky assignor breaks ties by that map's iteration order, which for
//! keys sharing a bucket is their insertion order. Reproducing it keeps our assignments equal
//! to the broker's for any member ids, not only for ids whose hashes never collide.
//!
//! The table has a power-of-two number of slots (at least 2) and doubles before an insertion
//! would take it past a load of 0.75. A key's slot is the top bits of its Java `hashCode`
//! times a fixed odd constant. A slot keeps its keys in insertion order (a replaced key keeps
//! its place, a removed one closes the gap); a resize walks the old slots in ascending order
//! and appends. Iteration goes slot by slot, ascending, and within a slot from the last key to
//! the first.

/// `BaseHashTable.MIN_CAPACITY`.
const MIN_CAPACITY: usize = 2;
/// `BaseHashTable.MAX_CAPACITY`.
const MAX_CAPACITY: usize = 1 << 30;
/// The multiplier of `BaseHashTable.findSlot`.
const SLOT_MULTIPLIER: i64 = -7_046_029_254_386_353_131;

use crate::java::java_string_hash;

/// Member ids in the order Apache's `TimelineHashMap` of members iterates them.
#[derive(Clone, Debug)]
pub struct MemberOrder {
    slots: Vec<Vec<(i32, String)>>,
    len: usize,
}

impl Default for MemberOrder {
    fn default() -> Self {
        MemberOrder {
            slots: vec![Vec::new(); MIN_CAPACITY],
            len: 0,
        }
    }
}

/// `BaseHashTable.findSlot`.
fn slot_of(hash: i32, capacity: usize) -> usize {
    let log2size = usize::BITS - capacity.leading_zeros();
    let shift = 65 - log2size;
    ((i64::from(hash).wrapping_mul(SLOT_MULTIPLIER) as u64) >> shift) as usize
}

impl MemberOrder {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, id: &str) -> bool {
        let hash = java_string_hash(id);
        self.slots[slot_of(hash, self.slots.len())]
            .iter()
            .any(|(_, k)| k == id)
    }

    /// `put`, for a new member record or a changed one: a new id goes to the end of its slot,
    /// a known one keeps its place. Apache checks whether the table must grow before it looks
    /// for the key, so replacing a member's record can resize the table (and reorder it) too.
    pub fn put(&mut self, id: &str) {
        if (self.len + 1) as f64 * 0.75 > self.slots.len() as f64 && self.slots.len() < MAX_CAPACITY
        {
            self.rehash(self.slots.len() * 2);
        }
        if self.contains(id) {
            return;
        }
        let hash = java_string_hash(id);
        let slot = slot_of(hash, self.slots.len());
        self.slots[slot].push((hash, id.to_string()));
        self.len += 1;
    }

    pub fn remove(&mut self, id: &str) {
        let hash = java_string_hash(id);
        let slot = slot_of(hash, self.slots.len());
        if let Some(i) = self.slots[slot].iter().position(|(_, k)| k == id) {
            self.slots[slot].remove(i);
            self.len -= 1;
        }
    }

    fn rehash(&mut self, capacity: usize) {
        let old = std::mem::replace(&mut self.slots, vec![Vec::new(); capacity]);
        for (hash, id) in old.into_iter().flatten() {
            let slot = slot_of(hash, capacity);
            self.slots[slot].push((hash, id));
        }
    }

    /// The table that iterates as `order` does (a coordinator lists a group's members in its
    /// table's order): the smallest capacity at which `order` goes through the slots in
    /// ascending order and at which putting one more member does not grow the table (every
    /// member heartbeat puts its record, so a live table never sits at that edge). `None` when
    /// no capacity up to 2^20 fits, e.g. an order that is not a table's.
    pub fn from_iteration(order: &[String]) -> Option<MemberOrder> {
        let hashes: Vec<i32> = order.iter().map(|id| java_string_hash(id)).collect();
        let mut capacity = MIN_CAPACITY;
        while (order.len() + 1) as f64 * 0.75 > capacity as f64 {
            capacity *= 2;
        }
        while capacity <= 1 << 20 {
            let slots: Vec<usize> = hashes.iter().map(|h| slot_of(*h, capacity)).collect();
            if slots.windows(2).all(|w| w[0] <= w[1]) {
                let mut table = MemberOrder {
                    slots: vec![Vec::new(); capacity],
                    len: order.len(),
                };
                // A slot iterates last-inserted first: insert its keys in reverse.
                for (i, id) in order.iter().enumerate().rev() {
                    table.slots[slots[i]].push((hashes[i], id.clone()));
                }
                return Some(table);
            }
            capacity *= 2;
        }
        None
    }

    /// The iteration order: slots ascending, each slot's keys last-inserted first.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.slots
            .iter()
            .flat_map(|s| s.iter().rev().map(|(_, k)| k.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_rebuilt_from_its_iteration_order_iterates_and_grows_alike() {
        let mut o = MemberOrder::default();
        let ids: Vec<String> = (0..37).map(|i| format!("member-{i}")).collect();
        for id in &ids {
            o.put(id);
        }
        for id in ids.iter().step_by(5) {
            o.remove(id);
        }
        let listed: Vec<String> = o.iter().map(String::from).collect();
        let mut rebuilt = MemberOrder::from_iteration(&listed).expect("a table's own order");
        assert_eq!(rebuilt.iter().collect::<Vec<_>>(), listed);
        for id in ["x", "y", "z", "member-5"] {
            o.put(id);
            rebuilt.put(id);
        }
        assert_eq!(
            rebuilt.iter().collect::<Vec<_>>(),
            o.iter().collect::<Vec<_>>()
        );
        let mut shuffled = listed.clone();
        shuffled.reverse();
        assert!(
            MemberOrder::from_iteration(&shuffled)
                .is_none_or(|t| t.iter().eq(shuffled.iter().map(String::as_str))),
            "whatever table it finds iterates as given"
        );
    }

    #[test]
    fn a_table_keeps_every_key_once_and_grows() {
        let mut o = MemberOrder::default();
        for i in 0..100 {
            o.put(&format!("m{i}"));
            o.put(&format!("m{i}"));
        }
        assert_eq!(o.len(), 100);
        assert_eq!(o.iter().count(), 100);
        for i in (0..100).step_by(3) {
            o.remove(&format!("m{i}"));
        }
        assert_eq!(o.iter().count(), 66);
        assert!(!o.contains("m0") && o.contains("m1"));
    }
}
