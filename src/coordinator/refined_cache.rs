//! Kafka 4.4's refined-assignment cache (`StreamsGroup.refinedAssignment`).
//!
//! 4.4 reconciles each member towards the *refined* target of the current assignment epoch.
//! Its refiner returns the target unchanged, but the result is cached per assignment epoch the
//! first time a heartbeat needs it (only while `streams.num.warmup.replicas` > 0), and read
//! from the cache for the rest of that epoch. The cache and the live target differ in one way:
//! a member removed after the cache was filled (session timeout, leave, fencing) keeps its old
//! target there, so if it rejoins under the same member id in the same epoch, as a fenced Kafka
//! Streams client does, it is given back its old tasks instead of none.
//!
//! Instead of copying the whole target per epoch, this keeps only the removed members' entries.

use std::collections::BTreeMap;

use crate::model::Assignment;

#[derive(Clone, Debug, Default)]
pub struct RefinedCache {
    /// The assignment epoch the cache was filled for.
    epoch: Option<i32>,
    /// Targets of members removed since the cache was filled.
    removed: BTreeMap<String, Assignment>,
}

impl RefinedCache {
    /// The tasks a member reconciles towards at `epoch`, given its live target. `fill` says
    /// whether Apache would cache the refined assignment (warm-up replicas configured).
    pub fn tasks_for(
        &mut self,
        member_id: &str,
        epoch: i32,
        live: Assignment,
        fill: bool,
    ) -> Assignment {
        if self.epoch == Some(epoch) {
            return match self.removed.get(member_id) {
                Some(old) => old.clone(),
                None => live,
            };
        }
        if fill {
            self.epoch = Some(epoch);
            self.removed.clear();
        }
        live
    }

    /// A member left the target while the assignment epoch was `target_epoch`.
    pub fn member_removed(&mut self, member_id: &str, target_epoch: i32, tasks: Assignment) {
        if self.epoch == Some(target_epoch) {
            self.removed.insert(member_id.to_string(), tasks);
        }
    }

    /// A static member's replacement takes over the cached entry too.
    pub fn relabel(&mut self, old_id: &str, new_id: &str) {
        if let Some(t) = self.removed.remove(old_id) {
            self.removed.insert(new_id.to_string(), t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TaskSet;

    fn tasks(p: i32) -> Assignment {
        let mut a = Assignment::default();
        let mut s = TaskSet::new();
        s.insert("0", p);
        a.active = s;
        a
    }

    #[test]
    fn a_member_removed_after_the_fill_gets_its_old_target_back_in_that_epoch() {
        let mut c = RefinedCache::default();
        assert_eq!(c.tasks_for("a", 3, tasks(0), true), tasks(0));
        c.member_removed("a", 3, tasks(0));
        assert_eq!(c.tasks_for("a", 3, Assignment::default(), true), tasks(0));
        // A new epoch forgets it.
        assert_eq!(
            c.tasks_for("a", 4, Assignment::default(), true),
            Assignment::default()
        );
    }

    #[test]
    fn a_removal_before_the_fill_is_not_remembered() {
        let mut c = RefinedCache::default();
        c.member_removed("a", 3, tasks(0));
        assert_eq!(
            c.tasks_for("a", 3, Assignment::default(), true),
            Assignment::default()
        );
    }

    #[test]
    fn without_warmups_nothing_is_cached() {
        let mut c = RefinedCache::default();
        c.tasks_for("a", 3, tasks(0), false);
        c.member_removed("a", 3, tasks(0));
        assert_eq!(
            c.tasks_for("a", 3, Assignment::default(), false),
            Assignment::default()
        );
    }
}
