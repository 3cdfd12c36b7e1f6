//! Kafka 4.4's refined-assignment cache (`StreamsGroup.refinedAssignment`).
//!
//! 4.4 reconciles each member towards the *refined* target of the current assignment epoch.
//! Its refiner returns the target unchanged, but the result is cached per assignment epoch the
//! first time a heartbeat needs it (only while `streams.num.warmup.replicas` > 0), and read
//! from the cache for the rest of that epoch. The cache is soft state, so it can hold what the
//! live target no longer says:
//! - a member removed after the cache was filled (session timeout, leave, fencing) keeps its old
//!   target there, so if it rejoins under the same member id in the same epoch, as a fenced Kafka
//!   Streams client does, it is given back its old tasks instead of none;
//! - a heartbeat that computed a target and then failed (its records never written) leaves its
//!   target cached under the epoch it would have written; when a later heartbeat writes that
//!   epoch with another target, members are reconciled towards the failed one (a member that
//!   only the later target knows gets nothing).

use model::Assignment;

use super::target::TargetAssignment;

#[derive(Clone, Debug, Default)]
pub struct RefinedCache {
    /// The assignment epoch the cache was filled for, and the target it was filled with.
    cached: Option<(i32, TargetAssignment)>,
}

impl RefinedCache {
    /// The tasks a member reconciles towards at `epoch`, given the group's target map then.
    /// `fill` says whether Apache caches the refined assignment (warm-up replicas configured).
    pub fn tasks_for(
        &mut self,
        member_id: &str,
        epoch: i32,
        target: &TargetAssignment,
        fill: bool,
    ) -> Assignment {
        self.lookup(member_id, epoch, target, fill)
            .cloned()
            .unwrap_or_default()
    }

    /// As [`Self::tasks_for`], without copying the tasks; `None` for a member without any.
    pub fn lookup<'a>(
        &'a mut self,
        member_id: &str,
        epoch: i32,
        target: &'a TargetAssignment,
        fill: bool,
    ) -> Option<&'a Assignment> {
        let hit = matches!(&self.cached, Some((e, _)) if *e == epoch);
        if !hit && fill {
            self.cached = Some((epoch, target.clone()));
        }
        match &self.cached {
            Some((_, cached)) if hit => cached.get(member_id),
            _ => target.get(member_id),
        }
    }

    /// A static member's replacement takes over the cached entry too.
    pub fn relabel(&mut self, old_id: &str, new_id: &str) {
        if let Some((_, cached)) = &mut self.cached {
            if let Some(t) = cached.remove(old_id) {
                cached.insert(new_id.to_string(), t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::TaskSet;

    fn tasks(p: i32) -> Assignment {
        let mut a = Assignment::default();
        let mut s = TaskSet::new();
        s.insert("0", p);
        a.active = s;
        a
    }

    fn target(entries: &[(&str, i32)]) -> TargetAssignment {
        entries
            .iter()
            .map(|(m, p)| (m.to_string(), tasks(*p)))
            .collect()
    }

    #[test]
    fn a_member_removed_after_the_fill_gets_its_old_target_back_in_that_epoch() {
        let mut c = RefinedCache::default();
        assert_eq!(c.tasks_for("a", 3, &target(&[("a", 0)]), true), tasks(0));
        assert_eq!(c.tasks_for("a", 3, &target(&[]), true), tasks(0));
        // A new epoch forgets it.
        assert_eq!(
            c.tasks_for("a", 4, &target(&[]), true),
            Assignment::default()
        );
    }

    #[test]
    fn a_target_cached_by_a_failed_heartbeat_wins_over_the_written_one() {
        let mut c = RefinedCache::default();
        // The failed heartbeat's target at epoch 5 knew only "a".
        c.tasks_for("a", 5, &target(&[("a", 0)]), true);
        // Epoch 5 is then written with "b" holding task 1: "b" gets nothing, "a" its old task.
        let written = target(&[("a", 2), ("b", 1)]);
        assert_eq!(c.tasks_for("b", 5, &written, true), Assignment::default());
        assert_eq!(c.tasks_for("a", 5, &written, true), tasks(0));
    }

    #[test]
    fn a_static_replacement_takes_over_the_cached_entry() {
        let mut c = RefinedCache::default();
        c.tasks_for("old", 2, &target(&[("old", 3)]), true);
        c.relabel("old", "new");
        assert_eq!(c.tasks_for("new", 2, &target(&[]), true), tasks(3));
        assert_eq!(
            c.tasks_for("old", 2, &target(&[]), true),
            Assignment::default()
        );
    }

    #[test]
    fn without_warmups_nothing_is_cached() {
        let mut c = RefinedCache::default();
        c.tasks_for("a", 3, &target(&[("a", 0)]), false);
        assert_eq!(
            c.tasks_for("a", 3, &target(&[]), false),
            Assignment::default()
        );
    }
}
