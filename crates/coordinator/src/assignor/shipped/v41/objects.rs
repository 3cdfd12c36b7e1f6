//! 4.1's `StickyTaskAssignor.Member` objects and the `HashSet`s that hold them.
//!
//! The class has no `equals`/`hashCode`, so a set of them is ordered by identity hash codes:
//! each object draws one from the thread's generator when first hashed, i.e. when first added
//! to a set. Apache creates one such object per member in `initialize` (hashed only if the
//! member had standby tasks), and fresh ones for every member each time it collects "all
//! members" (each remaining active task) or "the members of the available processes" (each
//! standby that falls through to the least-loaded choice).

use crate::java::{IdentityHashes, JavaHash, JavaHashMap};

/// One `Member` object: whose it is, its identity hash and an object number (identity).
#[derive(Clone, Copy, Debug)]
pub(super) struct MemberObject {
    pub member: u32,
    hash: i32,
    object: u32,
}

impl PartialEq for MemberObject {
    /// `Object.equals`: the same object.
    fn eq(&self, other: &Self) -> bool {
        self.object == other.object
    }
}

impl JavaHash for MemberObject {
    fn java_hash_code(&self) -> i32 {
        self.hash
    }

    /// Not `Comparable`: a tree bin breaks equal hashes by `tieBreakOrder`, which answers -1
    /// ("left") for equal identity hashes, as `JavaHashMap::put`'s default tie break does.
    fn java_compare(&self, _other: &Self) -> Option<std::cmp::Ordering> {
        None
    }
}

/// The thread's identity-hash generator and the members' own objects.
pub(super) struct Objects {
    hashes: IdentityHashes,
    /// The identity hash of member `m`'s `initialize` object, once drawn.
    member_hash: Vec<Option<i32>>,
    /// Object numbers for fresh objects (the members' own are `0..n`).
    next_object: u32,
}

impl Objects {
    pub fn new(hashes: IdentityHashes, members: usize) -> Objects {
        Objects {
            hashes,
            member_hash: vec![None; members],
            next_object: members as u32,
        }
    }

    /// Member `m`'s own object is hashed (its first `HashSet.add`).
    pub fn hash_member(&mut self, m: u32) {
        if self.member_hash[m as usize].is_none() {
            self.member_hash[m as usize] = Some(self.hashes.next_hash());
        }
    }

    /// Member `m`'s own object (already hashed: only hashed ones enter sets).
    pub fn member(&self, m: u32) -> MemberObject {
        MemberObject {
            member: m,
            hash: self.member_hash[m as usize].expect("hashed when first added to a set"),
            object: m,
        }
    }

    /// The identity hash of the next object hashed on the thread (a `Pair`, see
    /// [`super::pairs`]).
    pub fn draw(&mut self) -> i32 {
        self.hashes.next_hash()
    }

    /// `new Member(...)` added to a set right away: a new object, a new identity hash.
    pub fn fresh(&mut self, m: u32) -> MemberObject {
        let object = self.next_object;
        self.next_object += 1;
        MemberObject {
            member: m,
            hash: self.hashes.next_hash(),
            object,
        }
    }
}

/// The iteration order of a `new HashSet<>()` (or `Collectors.toSet()`) after adding `objs` in
/// order.
pub(super) fn hash_set_order(objs: &[MemberObject]) -> Vec<MemberObject> {
    if objs.len() < 2 {
        return objs.to_vec();
    }
    let mut set: JavaHashMap<MemberObject> = JavaHashMap::new();
    for &o in objs {
        set.put(o);
    }
    set.order().into_iter().map(|e| *set.key(e)).collect()
}
