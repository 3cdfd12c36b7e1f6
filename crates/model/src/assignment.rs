//! A member's tasks by role (current or target). Task sets are kept ordered (subtopology id,
//! then partition) so that every output built from them is deterministic.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::task::TaskRole;
use crate::task_set::TaskSet;

/// Active, standby and warm-up tasks of one member (current or target).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Assignment {
    #[serde(default)]
    pub active: TaskSet,
    #[serde(default)]
    pub standby: TaskSet,
    #[serde(default)]
    pub warmup: TaskSet,
}

impl Assignment {
    pub fn get(&self, role: TaskRole) -> &TaskSet {
        match role {
            TaskRole::Active => &self.active,
            TaskRole::Standby => &self.standby,
            TaskRole::Warmup => &self.warmup,
        }
    }

    pub fn get_mut(&mut self, role: TaskRole) -> &mut TaskSet {
        match role {
            TaskRole::Active => &mut self.active,
            TaskRole::Standby => &mut self.standby,
            TaskRole::Warmup => &mut self.warmup,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.active.is_empty() && self.standby.is_empty() && self.warmup.is_empty()
    }

    pub fn len(&self) -> usize {
        self.active.len() + self.standby.len() + self.warmup.len()
    }

    /// Role by role union.
    pub fn union(&self, other: &Assignment) -> Assignment {
        Assignment {
            active: self.active.union(&other.active),
            standby: self.standby.union(&other.standby),
            warmup: self.warmup.union(&other.warmup),
        }
    }

    /// Every task in any role.
    pub fn all_tasks(&self) -> TaskSet {
        self.active.union(&self.standby).union(&self.warmup)
    }
}
