//! Rack / client-tag aware standby placement.
//!
//! Processes are bucketed by their tuple of tag values (the tags of the process's first member
//! in member-id order, restricted to the configured keys). All processes of a bucket are equal
//! for the tag rules, so each decision walks the buckets, not the processes; each bucket keeps a
//! lazy least-loaded heap of its processes.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::process_state::{Load, State, NONE};
use super::GroupSpec;

struct Bucket {
    /// Interned value per tag key (`NONE` = the process has no such tag).
    values: Vec<u32>,
    /// Lazy min-heap of (load, process, version).
    heap: BinaryHeap<Reverse<(Load, u32, u32)>>,
}

pub(super) struct RackState {
    num_keys: usize,
    buckets: Vec<Bucket>,
    proc_bucket: Vec<u32>,
    /// Per key: tag values already used by holders of the current task.
    used: Vec<Vec<u32>>,
}

/// (previous-holder rank, load, process, preferred member)
type Pick = (u32, Load, u32, u32);

impl RackState {
    /// Builds the buckets from the members' client tags. `state` must already hold the actives.
    pub(super) fn build(spec: &GroupSpec, state: &State) -> RackState {
        let keys = &spec.configs.rack_aware_assignment_tags;
        let num_keys = keys.len();
        // Tags of each member by member id, to find each process's first member's tags.
        let by_id: BTreeMap<&str, &BTreeMap<String, String>> = spec
            .members
            .iter()
            .map(|m| (m.member_id.as_str(), &m.client_tags))
            .collect();
        let mut interned: Vec<BTreeMap<&str, u32>> = vec![BTreeMap::new(); num_keys];
        let mut bucket_of: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
        let mut buckets: Vec<Bucket> = Vec::new();
        let mut proc_bucket = Vec::with_capacity(state.num_procs as usize);
        for p in 0..state.num_procs {
            let first = state.proc_start[p as usize] as usize;
            let tags = by_id.get(state.member_ids[first].as_str());
            let values: Vec<u32> = keys
                .iter()
                .enumerate()
                .map(|(k, key)| match tags.and_then(|t| t.get(key)) {
                    Some(v) => {
                        let next = interned[k].len() as u32;
                        *interned[k].entry(v.as_str()).or_insert(next)
                    }
                    None => NONE,
                })
                .collect();
            let next = buckets.len() as u32;
            let b = *bucket_of.entry(values.clone()).or_insert(next);
            if b == next {
                buckets.push(Bucket {
                    values,
                    heap: BinaryHeap::new(),
                });
            }
            buckets[b as usize].heap.push(Reverse((
                state.load(p),
                p,
                state.proc_version[p as usize],
            )));
            proc_bucket.push(b);
        }
        RackState {
            num_keys,
            buckets,
            proc_bucket,
            used: vec![Vec::new(); num_keys],
        }
    }

    /// Records a load change of process `p` (call after every standby placement).
    pub(super) fn touch(&mut self, state: &State, p: u32) {
        let b = self.proc_bucket[p as usize] as usize;
        self.buckets[b]
            .heap
            .push(Reverse((state.load(p), p, state.proc_version[p as usize])));
    }

    fn mark_used(&mut self, p: u32) {
        let b = self.proc_bucket[p as usize] as usize;
        for k in 0..self.num_keys {
            let v = self.buckets[b].values[k];
            if v != NONE && !self.used[k].contains(&v) {
                self.used[k].push(v);
            }
        }
    }

    fn is_new(&self, b: usize, k: usize) -> bool {
        let v = self.buckets[b].values[k];
        v != NONE && !self.used[k].contains(&v)
    }

    /// Whether some member of `p` is under the total quota.
    fn has_room(state: &mut State, p: u32) -> bool {
        let m = state.least_loaded_member(p);
        state.q_total.allows(state.member_total[m as usize])
    }

    /// The least-loaded process of bucket `b` that does not hold `t` and has room.
    fn least_loaded_in(&mut self, state: &mut State, b: usize, t: u32) -> Option<(Load, u32)> {
        let mut aside = Vec::new();
        let mut found = None;
        while let Some(&Reverse((load, p, version))) = self.buckets[b].heap.peek() {
            if version != state.proc_version[p as usize] {
                self.buckets[b].heap.pop();
                continue;
            }
            if !Self::has_room(state, p) {
                // The total quota never increases and loads never decrease: drop for good.
                self.buckets[b].heap.pop();
                continue;
            }
            if state.holds(p, t) {
                if let Some(e) = self.buckets[b].heap.pop() {
                    aside.push(e);
                }
                continue;
            }
            found = Some((load, p));
            break;
        }
        self.buckets[b].heap.extend(aside);
        found
    }

    /// The process of bucket `b` that should get a standby of `t`: the best-ranked previous
    /// holder with room, else the least loaded process, as (rank, load, process, member).
    fn pick_in_bucket(
        &mut self,
        state: &mut State,
        b: usize,
        t: u32,
        prev: &[u32],
    ) -> Option<Pick> {
        for (rank, &m) in prev.iter().enumerate() {
            let p = state.member_proc[m as usize];
            if self.proc_bucket[p as usize] as usize != b
                || state.holds(p, t)
                || !Self::has_room(state, p)
            {
                continue;
            }
            return Some((rank as u32, state.load(p), p, m));
        }
        self.least_loaded_in(state, b, t)
            .map(|(load, p)| (u32::MAX, load, p, NONE))
    }

    /// Places up to `wanted` standbys of `t` following the tag rules; returns how many it placed.
    pub(super) fn place_standbys(&mut self, state: &mut State, t: u32, wanted: u32) -> u32 {
        for u in &mut self.used {
            u.clear();
        }
        let owner = state.active_owner[t as usize];
        if owner != NONE {
            self.mark_used(state.member_proc[owner as usize]);
        }
        // Previous holders in rank order: the previous active first, then the ranked candidates.
        let mut prev: Vec<u32> = Vec::new();
        let pa = state.prev_active[t as usize];
        if pa != NONE {
            prev.push(pa);
        }
        prev.extend_from_slice(state.candidates(t));

        let mut placed = 0;
        let mut key = 0;
        while placed < wanted && key < self.num_keys {
            // Best over buckets: largest new-value bit vector over lower-priority keys, then
            // smallest (rank, load, process).
            let mut best: Option<(Vec<bool>, Pick)> = None;
            for b in 0..self.buckets.len() {
                if !self.is_new(b, key) {
                    continue;
                }
                let pick = self.pick_in_bucket(state, b, t, &prev);
                let Some(pick) = pick else {
                    continue;
                };
                let bits: Vec<bool> = (key + 1..self.num_keys)
                    .map(|k| self.is_new(b, k))
                    .collect();
                let better = match &best {
                    None => true,
                    Some((best_bits, best_pick)) => match bits.cmp(best_bits) {
                        std::cmp::Ordering::Greater => true,
                        std::cmp::Ordering::Less => false,
                        std::cmp::Ordering::Equal => {
                            (pick.0, pick.1, pick.2) < (best_pick.0, best_pick.1, best_pick.2)
                        }
                    },
                };
                if better {
                    best = Some((bits, pick));
                }
            }
            let Some((_, (_, _, p, preferred))) = best else {
                key += 1;
                continue;
            };
            let m = if preferred != NONE
                && state.q_total.allows(state.member_total[preferred as usize])
            {
                preferred
            } else {
                state.least_loaded_member(p)
            };
            state.assign_standby(m, t);
            self.touch(state, p);
            self.mark_used(p);
            placed += 1;
        }
        placed
    }
}
