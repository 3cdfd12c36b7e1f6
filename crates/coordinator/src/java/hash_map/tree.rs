//! Tree bins (`HashMap.TreeNode`): only their effect on iteration order matters here.
//!
//! A tree bin still iterates along `next` links. Three things reorder those links:
//! - `treeify` keeps the list order, then moves the red-black root to the front;
//! - `putTreeVal` links a new node right after its tree parent, rebalances, and moves the
//!   (possibly new) root to the front;
//! - a resize splits the list in order-preserving halves; a half of at most 6 nodes becomes a
//!   plain list, a larger half is treeified again (unless it got every node: then the old tree
//!   stays as it was).
//!
//! So the emulation keeps the red-black tree itself (parent/left/right/red per node), ordered
//! like Java's: by hash (signed), then by `compareTo` for comparable keys, then by the caller's
//! `tieBreakOrder` (identity hash codes).

use std::cmp::Ordering;
use std::collections::HashSet;

use super::{JavaHash, JavaHashMap, TieBreak, NIL};

pub(crate) type TreeSet = HashSet<usize>;

/// The red-black structure of the tree bins, indexed by entry.
#[derive(Clone, Debug, Default)]
pub(crate) struct Trees {
    bins: TreeSet,
    parent: Vec<u32>,
    left: Vec<u32>,
    right: Vec<u32>,
    red: Vec<bool>,
    ever: bool,
    /// A removal from a tree bin happened: Java's `removeTreeNode` rebalancing is not
    /// emulated, so later orders of that bin may differ.
    pub(crate) inexact: bool,
}

impl Trees {
    pub(crate) fn is_tree(&self, bin: usize) -> bool {
        !self.bins.is_empty() && self.bins.contains(&bin)
    }

    pub(crate) fn ever_used(&self) -> bool {
        self.ever
    }

    pub(crate) fn take_all(&mut self) -> TreeSet {
        std::mem::take(&mut self.bins)
    }

    /// A resize moved a whole tree from `old_bin` to `bin`.
    pub(crate) fn adopt(&mut self, old: &TreeSet, old_bin: usize, bin: usize) {
        if old.contains(&old_bin) {
            self.bins.insert(bin);
        }
    }

    fn grow(&mut self, n: usize) {
        if self.parent.len() < n {
            self.parent.resize(n, NIL);
            self.left.resize(n, NIL);
            self.right.resize(n, NIL);
            self.red.resize(n, false);
        }
    }

    fn rotate_left(&mut self, mut root: u32, p: u32) -> u32 {
        let r = self.right[p as usize];
        if r == NIL {
            return root;
        }
        let rl = self.left[r as usize];
        self.right[p as usize] = rl;
        if rl != NIL {
            self.parent[rl as usize] = p;
        }
        let pp = self.parent[p as usize];
        self.parent[r as usize] = pp;
        if pp == NIL {
            root = r;
            self.red[r as usize] = false;
        } else if self.left[pp as usize] == p {
            self.left[pp as usize] = r;
        } else {
            self.right[pp as usize] = r;
        }
        self.left[r as usize] = p;
        self.parent[p as usize] = r;
        root
    }

    fn rotate_right(&mut self, mut root: u32, p: u32) -> u32 {
        let l = self.left[p as usize];
        if l == NIL {
            return root;
        }
        let lr = self.right[l as usize];
        self.left[p as usize] = lr;
        if lr != NIL {
            self.parent[lr as usize] = p;
        }
        let pp = self.parent[p as usize];
        self.parent[l as usize] = pp;
        if pp == NIL {
            root = l;
            self.red[l as usize] = false;
        } else if self.right[pp as usize] == p {
            self.right[pp as usize] = l;
        } else {
            self.left[pp as usize] = l;
        }
        self.right[l as usize] = p;
        self.parent[p as usize] = l;
        root
    }

    /// `TreeNode.balanceInsertion`: returns the new root.
    fn balance_insertion(&mut self, mut root: u32, mut x: u32) -> u32 {
        self.red[x as usize] = true;
        loop {
            let mut xp = self.parent[x as usize];
            if xp == NIL {
                self.red[x as usize] = false;
                return x;
            }
            let mut xpp = self.parent[xp as usize];
            if !self.red[xp as usize] || xpp == NIL {
                return root;
            }
            let xppl = self.left[xpp as usize];
            if xp == xppl {
                let xppr = self.right[xpp as usize];
                if xppr != NIL && self.red[xppr as usize] {
                    self.red[xppr as usize] = false;
                    self.red[xp as usize] = false;
                    self.red[xpp as usize] = true;
                    x = xpp;
                } else {
                    if x == self.right[xp as usize] {
                        x = xp;
                        root = self.rotate_left(root, x);
                        xp = self.parent[x as usize];
                        xpp = if xp == NIL {
                            NIL
                        } else {
                            self.parent[xp as usize]
                        };
                    }
                    if xp != NIL {
                        self.red[xp as usize] = false;
                        if xpp != NIL {
                            self.red[xpp as usize] = true;
                            root = self.rotate_right(root, xpp);
                        }
                    }
                }
            } else if xppl != NIL && self.red[xppl as usize] {
                self.red[xppl as usize] = false;
                self.red[xp as usize] = false;
                self.red[xpp as usize] = true;
                x = xpp;
            } else {
                if x == self.left[xp as usize] {
                    x = xp;
                    root = self.rotate_right(root, x);
                    xp = self.parent[x as usize];
                    xpp = if xp == NIL {
                        NIL
                    } else {
                        self.parent[xp as usize]
                    };
                }
                if xp != NIL {
                    self.red[xp as usize] = false;
                    if xpp != NIL {
                        self.red[xpp as usize] = true;
                        root = self.rotate_left(root, xpp);
                    }
                }
            }
        }
    }
}

impl<K: JavaHash> JavaHashMap<K> {
    /// Java's tree order between a new key (entry `x`) and a node `p`: -1 goes left.
    fn tree_dir(&self, x: u32, p: u32, tie: TieBreak<'_, K>) -> Ordering {
        let (h, ph) = (self.hash[x as usize], self.hash[p as usize]);
        match ph.cmp(&h) {
            Ordering::Greater => Ordering::Less,
            Ordering::Less => Ordering::Greater,
            // Equal hashes: compareTo (distinct comparable keys never compare equal), else
            // tieBreakOrder by identity hash codes (by default unknowable: "left").
            Ordering::Equal => {
                let (k, pk) = (&self.keys[x as usize], &self.keys[p as usize]);
                match k.java_compare(pk) {
                    Some(o) if o != Ordering::Equal => o,
                    _ => tie(k, pk),
                }
            }
        }
    }

    /// `TreeNode.treeify` over the bin's nodes in list order, then `moveRootToFront`.
    pub(super) fn treeify(&mut self, bin: usize, nodes: &[u32], tie: TieBreak<'_, K>) {
        self.trees.grow(self.keys.len());
        self.trees.ever = true;
        self.trees.bins.insert(bin);
        let mut root = NIL;
        for &x in nodes {
            let t = &mut self.trees;
            t.left[x as usize] = NIL;
            t.right[x as usize] = NIL;
            if root == NIL {
                t.parent[x as usize] = NIL;
                t.red[x as usize] = false;
                root = x;
                continue;
            }
            let mut p = root;
            loop {
                let left = self.tree_dir(x, p, tie) != Ordering::Greater;
                let t = &mut self.trees;
                let child = if left {
                    t.left[p as usize]
                } else {
                    t.right[p as usize]
                };
                if child == NIL {
                    t.parent[x as usize] = p;
                    if left {
                        t.left[p as usize] = x;
                    } else {
                        t.right[p as usize] = x;
                    }
                    root = t.balance_insertion(root, x);
                    break;
                }
                p = child;
            }
        }
        self.move_root_to_front(bin, root);
    }

    fn tree_root(&self, bin: usize) -> u32 {
        let mut r = self.table[bin];
        while self.trees.parent[r as usize] != NIL {
            r = self.trees.parent[r as usize];
        }
        r
    }

    /// `putTreeVal` for a key known to be absent: attach under its tree parent, link it right
    /// after that parent in the list, rebalance, move the root to the front.
    pub(super) fn tree_insert(&mut self, bin: usize, x: u32, tie: TieBreak<'_, K>) {
        self.trees.grow(self.keys.len());
        let root = self.tree_root(bin);
        let mut p = root;
        loop {
            let left = self.tree_dir(x, p, tie) != Ordering::Greater;
            let child = if left {
                self.trees.left[p as usize]
            } else {
                self.trees.right[p as usize]
            };
            if child == NIL {
                let t = &mut self.trees;
                if left {
                    t.left[p as usize] = x;
                } else {
                    t.right[p as usize] = x;
                }
                t.parent[x as usize] = p;
                t.left[x as usize] = NIL;
                t.right[x as usize] = NIL;
                self.next[x as usize] = self.next[p as usize];
                self.next[p as usize] = x;
                let root = self.trees.balance_insertion(root, x);
                self.move_root_to_front(bin, root);
                return;
            }
            p = child;
        }
    }

    /// Removal from a tree bin: the list link is removed as Java does, the tree rebalancing is
    /// not emulated (no caller removes from maps large enough to have tree bins).
    pub(super) fn tree_remove(&mut self, bin: usize, e: u32) {
        self.trees.inexact = true;
        self.unlink(bin, e);
    }

    /// `moveRootToFront`: the root becomes the bin's first node; the others keep their order.
    fn move_root_to_front(&mut self, bin: usize, root: u32) {
        if self.table[bin] == root {
            return;
        }
        self.unlink(bin, root);
        self.next[root as usize] = self.table[bin];
        self.table[bin] = root;
    }
}
