//! Apache Kafka's own `StickyTaskAssignor` ("sticky"), exactly as shipped in 4.1.2, 4.2.2,
//! 4.3.1, 4.3.2 and 4.4.0
//! (`org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor`).
//!
//! "Exactly" includes every tie: Apache breaks ties by `HashMap` iteration order (of member ids
//! and process ids) and by `PriorityQueue` pop order, which [`crate::java`] reproduces. The
//! steps of 4.2 and later, one module each:
//! 1. [`state`]: quotas, the per-process state (`ProcessState`) and who held each task before;
//! 2. [`actives`]: active tasks in three passes (previous owner, previous standby, least-loaded
//!    process);
//! 3. [`standbys`]: standby tasks of stateful subtopologies (previous active owner, previous
//!    standby, least-loaded process that lacks the task), with a warning when none fits;
//! 4. [`candidates`]: the version-specific choice among previous standbys.
//!
//! 4.1 ran an older algorithm under the same class name (task pairs, one quota, least load by
//! scanning `HashSet`s): [`v41`], on the same [`state`]. Its `HashSet`s hold objects without a
//! `hashCode` of their own, so its ties also follow HotSpot identity hash codes, which
//! [`StickyAssignor::identity_hashes`] seeds.
//!
//! Rack and client tags are ignored by every shipped version (4.4.0 has the config but its
//! assignor does not read it).
//!
//! # Input order
//! `GroupSpec::members` is read as the sequence of `put`s into the `new HashMap<>()` that the
//! broker's `TargetAssignmentBuilder` builds (4.1-4.3: `memberSpecs`, 4.4:
//! `memberMetadataMap`), with no removals. Apache iterates that map in HashMap order, so the
//! Vec order only matters for member ids that share a bin. Subtopologies are read the way the
//! broker's `TopologyMetadata.subtopologies()` lists them: sorted by id (`TreeMap` keys);
//! the order of `GroupSpec::subtopologies` does not matter. A member's `current` tasks are
//! what the broker passes: the previous *target* assignment in 4.1-4.3, the *current*
//! assignment in 4.4 (`member.assignedTasks()`); task offsets are read by 4.4 only.

mod actives;
mod candidates;
mod standbys;
mod state;
mod v41;

#[cfg(test)]
mod tests;

use super::{
    AssignOutcome, AssignorError, GroupAssignment, GroupSpec, ShippedVersion, TaskAssignor,
};
use crate::java::IdentityHashes;

/// Apache's sticky assignor of one Kafka version. Stateless: one value serves any number of
/// calls and threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StickyAssignor {
    pub version: ShippedVersion,
    /// 4.1 only: the state of the JVM thread's identity-hash generator when `assign` starts.
    /// 4.1 breaks ties between equally loaded processes by the identity hashes of objects it
    /// allocates, so a real 4.1 broker's choice depends on its thread's history; every call
    /// starts from this state, [`IdentityHashes::fixed`] unless set (the oracle test sets the
    /// JVM's own). Later versions ignore it.
    pub identity_hashes: IdentityHashes,
}

impl StickyAssignor {
    pub fn new(version: ShippedVersion) -> Self {
        StickyAssignor {
            version,
            identity_hashes: IdentityHashes::fixed(),
        }
    }

    /// The same assignor, with 4.1's identity hashes drawn from `hashes`.
    pub fn with_identity_hashes(self, hashes: IdentityHashes) -> Self {
        StickyAssignor {
            identity_hashes: hashes,
            ..self
        }
    }
}

impl Default for StickyAssignor {
    /// The newest shipped version.
    fn default() -> Self {
        StickyAssignor::new(ShippedVersion::V4_4)
    }
}

impl TaskAssignor for StickyAssignor {
    fn name(&self) -> &'static str {
        "sticky"
    }

    fn assign(&self, spec: &GroupSpec) -> Result<GroupAssignment, AssignorError> {
        self.assign_with_warnings(spec).map(|o| o.assignment)
    }

    fn assign_with_warnings(&self, spec: &GroupSpec) -> Result<AssignOutcome, AssignorError> {
        let mut st = state::State::build(spec, self.version);
        if self.version == ShippedVersion::V4_1 {
            v41::assign(&mut st, self.identity_hashes)?;
        } else {
            actives::assign_active(&mut st)?;
            if st.num_standby_replicas > 0 {
                standbys::assign_standby(&mut st);
            }
        }
        Ok(AssignOutcome {
            assignment: st.output(),
            warnings: std::mem::take(&mut st.warnings),
        })
    }
}
