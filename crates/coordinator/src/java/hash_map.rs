//! The iteration order of a `java.util.HashMap` (and so of a `HashSet`, which is one).
//!
//! A HashMap is a power-of-two table of bins; a key goes to bin `spread(hashCode) & (cap - 1)`
//! with `spread(h) = h ^ (h >>> 16)`, and iteration walks the bins in index order, each bin from
//! its first node to its last. So the order depends on the keys' hash codes, on the capacity
//! (set by the constructor and by every resize) and, inside one bin, on the insertion history:
//! `put` appends to the bin's tail, `computeIfAbsent` pushes on its head. A resize splits every
//! bin into a "lo" list (same index) and a "hi" list (index + old capacity), each keeping the
//! nodes' relative order.
//!
//! A bin that grows to 8 nodes (`TREEIFY_THRESHOLD`) in a table of at least 64 bins
//! (`MIN_TREEIFY_CAPACITY`) becomes a red-black tree of `TreeNode`s; a smaller table is resized
//! instead. Tree bins iterate along their `next` links too, but inserts link a node right after
//! its tree parent and every rebalance moves the tree's root to the front, see `tree`.
//! This emulation keeps those trees, so the order is exact in that case as well. A tree orders
//! its nodes by hash, then by `compareTo`; keys that are not `Comparable` (or compare equal) go
//! by `tieBreakOrder`, their identity hash codes, which [`JavaHashMap::put_with_tie_break`]
//! takes from the caller (plain [`JavaHashMap::put`] sends them left, as equal identity hashes
//! do).
//!
//! Constructors (the capacity rules of JDK 17, `java/util/HashMap.java`):
//! - [`JavaHashMap::new`]: `new HashMap<>()` / `new HashSet<>()` / `Collectors.toSet()`:
//!   no table until the first insertion, then 16 bins, threshold 12.
//! - [`JavaHashMap::with_capacity`]: `new HashMap<>(n)`: the first insertion allocates
//!   `tableSizeFor(n)` bins (the next power of two ≥ n, at least 1), threshold `0.75 * cap`.
//! - [`JavaHashMap::for_collection_copy`]: `new HashSet<>(collection)`, `new HashMap<>(map)`:
//!   sized for `n` entries before the copy.
//!
//! Growth: `put` resizes *after* an insertion that makes `size > threshold`; `computeIfAbsent`
//! resizes *before* looking the key up when `size > threshold` (so a table can hold
//! `threshold + 1` entries unresized until the next `computeIfAbsent`, present key or not).

use super::string_hash::java_string_hash;

mod tree;

/// `TREEIFY_THRESHOLD`: a bin of this many nodes becomes a tree.
const TREEIFY_THRESHOLD: usize = 8;
/// `UNTREEIFY_THRESHOLD`: a tree half of at most this many nodes becomes a list on resize.
const UNTREEIFY_THRESHOLD: usize = 6;
/// `MIN_TREEIFY_CAPACITY`: below this table size, a long bin resizes the table instead.
const MIN_TREEIFY_CAPACITY: usize = 64;
const MAXIMUM_CAPACITY: usize = 1 << 30;
pub(crate) const NIL: u32 = u32::MAX;

/// `HashMap.tieBreakOrder(new key, node key)` as a callback: see
/// [`JavaHashMap::put_with_tie_break`].
pub type TieBreak<'t, K> = &'t mut dyn FnMut(&K, &K) -> std::cmp::Ordering;

/// The tie break of keys whose identity hash codes are equal (or unknowable): -1, "left".
fn default_tie_break<K>(_: &K, _: &K) -> std::cmp::Ordering {
    std::cmp::Ordering::Less
}

/// A key's `hashCode()` as Java computes it.
pub trait JavaHash {
    fn java_hash_code(&self) -> i32;
    /// `compareTo` for keys that are `Comparable` in Java (String, Integer). Tree bins order
    /// nodes of equal hash by it; `None` means "not comparable" (Java then uses class names and
    /// identity hash codes, which no emulation can know).
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering>;
}

impl JavaHash for str {
    fn java_hash_code(&self) -> i32 {
        java_string_hash(self)
    }
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(super::string_hash::java_string_cmp(self, other))
    }
}

impl JavaHash for String {
    fn java_hash_code(&self) -> i32 {
        java_string_hash(self)
    }
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(super::string_hash::java_string_cmp(self, other))
    }
}

/// `Integer.hashCode()` is the value itself.
impl JavaHash for i32 {
    fn java_hash_code(&self) -> i32 {
        *self
    }
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: JavaHash + ?Sized> JavaHash for &T {
    fn java_hash_code(&self) -> i32 {
        (**self).java_hash_code()
    }
    fn java_compare(&self, other: &Self) -> Option<std::cmp::Ordering> {
        (**self).java_compare(*other)
    }
}

/// `HashMap.hash(key)`: the hash code with its high half folded into the low half.
pub fn spread(h: i32) -> i32 {
    h ^ ((h as u32) >> 16) as i32
}

/// `HashMap.tableSizeFor(cap)`: the next power of two ≥ `cap`, at least 1.
pub fn table_size_for(cap: usize) -> usize {
    cap.max(1).next_power_of_two().min(MAXIMUM_CAPACITY)
}

/// The key order of one `java.util.HashMap` (values are the caller's business: every key gets
/// an entry index, its position in insertion order, returned by the operations).
#[derive(Clone, Debug)]
pub struct JavaHashMap<K> {
    keys: Vec<K>,
    /// `spread(hashCode)` of each entry.
    hash: Vec<i32>,
    /// The next node in the same bin (`Node.next`), or NIL.
    next: Vec<u32>,
    /// First node of each bin; empty until the table is allocated.
    table: Vec<u32>,
    /// Bins that are trees, with their red-black structure.
    trees: tree::Trees,
    /// Entries that were removed (their index is never reused).
    removed: Vec<bool>,
    threshold: usize,
    size: usize,
}

impl<K: JavaHash> Default for JavaHashMap<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: JavaHash> JavaHashMap<K> {
    /// `new HashMap<>()`.
    pub fn new() -> Self {
        Self::with_threshold(0)
    }

    /// `new HashMap<>(initialCapacity)`: the threshold field holds `tableSizeFor(n)` until the
    /// first insertion allocates that many bins.
    pub fn with_capacity(initial_capacity: usize) -> Self {
        Self::with_threshold(table_size_for(initial_capacity))
    }

    /// `new HashSet<>(c)` (capacity `max(c.size() / .75f + 1, 16)`) and `new HashMap<>(m)`
    /// (`putMapEntries`: `tableSizeFor(m.size() / 0.75f + 1)`) for a source of `n` entries;
    /// insert the source's keys in its iteration order afterwards.
    pub fn for_collection_copy(n: usize, hash_set: bool) -> Self {
        let ft = (n as f32 / 0.75f32 + 1.0f32) as usize;
        if hash_set {
            Self::with_capacity(ft.max(16))
        } else if n == 0 {
            Self::new()
        } else {
            Self::with_threshold(table_size_for(ft))
        }
    }

    fn with_threshold(threshold: usize) -> Self {
        JavaHashMap {
            keys: Vec::new(),
            hash: Vec::new(),
            next: Vec::new(),
            table: Vec::new(),
            trees: tree::Trees::default(),
            removed: Vec::new(),
            threshold,
            size: 0,
        }
    }

    /// Number of bins (0 before the first insertion).
    pub fn capacity(&self) -> usize {
        self.table.len()
    }

    pub fn len(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The key of entry `e`.
    pub fn key(&self, e: usize) -> &K {
        &self.keys[e]
    }

    /// Whether some bin is (or was) a tree: its order comes from the red-black emulation.
    pub fn has_tree_bins(&self) -> bool {
        self.trees.ever_used()
    }

    /// False once an entry was removed from a tree bin (that rebalancing is not emulated).
    pub fn is_exact(&self) -> bool {
        !self.trees.inexact
    }

    fn bin_of(&self, h: i32) -> usize {
        (h as u32 as usize) & (self.table.len() - 1)
    }

    fn find(&self, h: i32, key: &K) -> Option<usize>
    where
        K: PartialEq,
    {
        if self.table.is_empty() {
            return None;
        }
        let mut e = self.table[self.bin_of(h)];
        while e != NIL {
            let i = e as usize;
            if self.hash[i] == h && self.keys[i] == *key {
                return Some(i);
            }
            e = self.next[i];
        }
        None
    }

    /// The entry of `key`, if present.
    pub fn get(&self, key: &K) -> Option<usize>
    where
        K: PartialEq,
    {
        self.find(spread(key.java_hash_code()), key)
    }

    fn new_entry(&mut self, key: K, h: i32) -> u32 {
        let e = self.keys.len() as u32;
        self.keys.push(key);
        self.hash.push(h);
        self.next.push(NIL);
        self.removed.push(false);
        e
    }

    fn bin_len(&self, bin: usize) -> usize {
        let mut n = 0;
        let mut e = self.table[bin];
        while e != NIL {
            n += 1;
            e = self.next[e as usize];
        }
        n
    }

    /// `put(key, value)` (also `putIfAbsent`, `HashSet.add`): a new key goes to its bin's tail;
    /// a present key keeps its place. Returns the key's entry.
    pub fn put(&mut self, key: K) -> usize
    where
        K: PartialEq,
    {
        self.put_with_tie_break(key, &mut default_tie_break)
    }

    /// [`put`](Self::put) for keys that tree bins cannot order by hash and `compareTo` alone:
    /// `tie(new, node)` is `HashMap.tieBreakOrder(new, node)` (by identity hash codes, which the
    /// caller may have to draw; ≤ 0 goes left). Called exactly where Java calls it: on the way
    /// down a tree for a new key, and when a bin is treeified (also by a resize's split).
    pub fn put_with_tie_break(&mut self, key: K, tie: TieBreak<'_, K>) -> usize
    where
        K: PartialEq,
    {
        let h = spread(key.java_hash_code());
        if self.table.is_empty() {
            self.resize(tie);
        }
        if let Some(e) = self.find(h, &key) {
            return e;
        }
        self.insert_absent(key, h, tie)
    }

    /// [`put_with_tie_break`](Self::put_with_tie_break) of a key the caller knows to be absent
    /// (from an index of its own): the same effect, without walking the key's bin to look for
    /// it. Returns the key's entry.
    pub fn put_absent_with_tie_break(&mut self, key: K, tie: TieBreak<'_, K>) -> usize {
        let h = spread(key.java_hash_code());
        if self.table.is_empty() {
            self.resize(tie);
        }
        self.insert_absent(key, h, tie)
    }

    fn insert_absent(&mut self, key: K, h: i32, tie: TieBreak<'_, K>) -> usize {
        let bin = self.bin_of(h);
        let e = self.new_entry(key, h);
        if self.trees.is_tree(bin) {
            self.tree_insert(bin, e, tie);
        } else {
            let existing = self.bin_len(bin);
            self.link_tail(bin, e);
            // putVal: binCount reaches TREEIFY_THRESHOLD - 1 when the bin already had 8 nodes.
            if existing >= TREEIFY_THRESHOLD {
                self.treeify_bin(bin, tie);
            }
        }
        self.size += 1;
        if self.size > self.threshold {
            self.resize(tie);
        }
        e as usize
    }

    /// `computeIfAbsent(key, f)` with an `f` that never returns null: resizes first if the map
    /// is over its threshold, then a new key goes to its bin's head. Returns the key's entry.
    pub fn compute_if_absent(&mut self, key: K) -> usize
    where
        K: PartialEq,
    {
        let h = spread(key.java_hash_code());
        let tie = &mut default_tie_break;
        if self.size > self.threshold || self.table.is_empty() {
            self.resize(tie);
        }
        if let Some(e) = self.find(h, &key) {
            return e;
        }
        let bin = self.bin_of(h);
        let e = self.new_entry(key, h);
        if self.trees.is_tree(bin) {
            self.tree_insert(bin, e, tie);
        } else {
            let existing = self.bin_len(bin);
            self.next[e as usize] = self.table[bin];
            self.table[bin] = e;
            // computeIfAbsent: binCount counts the nodes already there.
            if existing >= TREEIFY_THRESHOLD - 1 {
                self.treeify_bin(bin, tie);
            }
        }
        self.size += 1;
        e as usize
    }

    /// `remove(key)`: unlinks the node; the other nodes keep their order. The table never
    /// shrinks. Returns whether the key was present.
    pub fn remove(&mut self, key: &K) -> bool
    where
        K: PartialEq,
    {
        let h = spread(key.java_hash_code());
        let Some(e) = self.find(h, key) else {
            return false;
        };
        let bin = self.bin_of(h);
        if self.trees.is_tree(bin) {
            self.tree_remove(bin, e as u32);
        } else {
            self.unlink(bin, e as u32);
        }
        self.removed[e] = true;
        self.size -= 1;
        true
    }

    fn link_tail(&mut self, bin: usize, e: u32) {
        let mut p = self.table[bin];
        if p == NIL {
            self.table[bin] = e;
            return;
        }
        while self.next[p as usize] != NIL {
            p = self.next[p as usize];
        }
        self.next[p as usize] = e;
    }

    fn unlink(&mut self, bin: usize, e: u32) {
        let mut p = self.table[bin];
        if p == e {
            self.table[bin] = self.next[e as usize];
        } else {
            while self.next[p as usize] != e {
                p = self.next[p as usize];
            }
            self.next[p as usize] = self.next[e as usize];
        }
        self.next[e as usize] = NIL;
    }

    /// `treeifyBin`: a small table grows instead of building a tree.
    fn treeify_bin(&mut self, bin: usize, tie: TieBreak<'_, K>) {
        if self.table.len() < MIN_TREEIFY_CAPACITY {
            self.resize(tie);
        } else {
            let nodes = self.bin_nodes(bin);
            self.treeify(bin, &nodes, tie);
        }
    }

    fn bin_nodes(&self, bin: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut e = self.table[bin];
        while e != NIL {
            out.push(e);
            e = self.next[e as usize];
        }
        out
    }

    /// `resize()`: allocate or double the table, splitting each bin in order-preserving
    /// lo and hi lists.
    fn resize(&mut self, tie: TieBreak<'_, K>) {
        let old_cap = self.table.len();
        let old_thr = self.threshold;
        let (new_cap, mut new_thr);
        if old_cap > 0 {
            if old_cap >= MAXIMUM_CAPACITY {
                self.threshold = usize::MAX;
                return;
            }
            new_cap = old_cap << 1;
            new_thr = if new_cap < MAXIMUM_CAPACITY && old_cap >= 16 {
                old_thr << 1
            } else {
                0
            };
        } else if old_thr > 0 {
            new_cap = old_thr;
            new_thr = 0;
        } else {
            new_cap = 16;
            new_thr = 12;
        }
        if new_thr == 0 {
            let ft = new_cap as f32 * 0.75f32;
            new_thr = if new_cap < MAXIMUM_CAPACITY && ft < MAXIMUM_CAPACITY as f32 {
                ft as usize
            } else {
                usize::MAX
            };
        }
        self.threshold = new_thr;
        let old = std::mem::replace(&mut self.table, vec![NIL; new_cap]);
        let old_trees = self.trees.take_all();
        for (j, &head) in old.iter().enumerate() {
            if head == NIL {
                continue;
            }
            if self.next[head as usize] == NIL {
                let i = self.bin_of(self.hash[head as usize]);
                self.table[i] = head;
                continue;
            }
            let mut lo = Vec::new();
            let mut hi = Vec::new();
            let mut e = head;
            while e != NIL {
                let nx = self.next[e as usize];
                if (self.hash[e as usize] as u32 as usize) & old_cap == 0 {
                    lo.push(e);
                } else {
                    hi.push(e);
                }
                e = nx;
            }
            if old_trees.contains(&j) {
                // TreeNode.split: each half becomes a list when small, else a new tree
                // (a half that got every node keeps the old tree, which has the same order).
                self.split_half(j, &lo, hi.is_empty(), &old_trees, j, tie);
                self.split_half(j + old_cap, &hi, lo.is_empty(), &old_trees, j, tie);
            } else {
                self.set_list(j, &lo);
                self.set_list(j + old_cap, &hi);
            }
        }
    }

    fn set_list(&mut self, bin: usize, nodes: &[u32]) {
        for w in nodes.windows(2) {
            self.next[w[0] as usize] = w[1];
        }
        if let Some(&last) = nodes.last() {
            self.next[last as usize] = NIL;
            self.table[bin] = nodes[0];
        }
    }

    fn split_half(
        &mut self,
        bin: usize,
        nodes: &[u32],
        whole: bool,
        old_trees: &tree::TreeSet,
        old_bin: usize,
        tie: TieBreak<'_, K>,
    ) {
        if nodes.is_empty() {
            return;
        }
        if nodes.len() <= UNTREEIFY_THRESHOLD {
            self.set_list(bin, nodes);
        } else if whole {
            self.set_list(bin, nodes);
            self.trees.adopt(old_trees, old_bin, bin);
        } else {
            self.set_list(bin, nodes);
            self.treeify(bin, nodes, tie);
        }
    }

    /// Entry indices in iteration order (`keySet()`, `values()`, `entrySet()`, `forEach`).
    pub fn order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.size);
        for &head in &self.table {
            let mut e = head;
            while e != NIL {
                out.push(e as usize);
                e = self.next[e as usize];
            }
        }
        out
    }

    /// Keys in iteration order.
    pub fn iter(&self) -> impl Iterator<Item = &K> + '_ {
        self.order().into_iter().map(move |e| &self.keys[e])
    }

    /// Whether entry `e` was removed.
    pub fn is_removed(&self, e: usize) -> bool {
        self.removed[e]
    }
}
