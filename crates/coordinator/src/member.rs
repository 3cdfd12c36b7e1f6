//! A member of a streams group as the coordinator keeps it.

use std::collections::BTreeMap;

use serde::Serialize;

use model::MemberIdentity;
use model::{Assignment, TaskId};

/// Where a member is in its reconciliation towards the target assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MemberState {
    /// At its target epoch with all of its target tasks.
    Stable,
    /// Waiting for the member to confirm that it released revoked tasks.
    UnrevokedTasks,
    /// At the target epoch, but some target tasks are still held by other members.
    UnreleasedTasks,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub member_id: String,
    /// Who it is (instance, rack, client, process, endpoint, tags), as its heartbeats declared.
    pub identity: MemberIdentity,
    /// The epoch of the topology this member runs.
    pub topology_epoch: i32,
    pub rebalance_timeout_ms: i32,

    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: MemberState,
    /// Tasks the member may run now.
    pub assigned: Assignment,
    /// Tasks the member must give up before it gets anything new.
    pub pending_revocation: Assignment,

    pub task_offsets: BTreeMap<TaskId, i64>,
    pub task_end_offsets: BTreeMap<TaskId, i64>,

    /// When the session expires unless a heartbeat comes first.
    pub session_deadline_ms: i64,
    /// When the member is fenced unless it releases its revoked tasks, and the member epoch
    /// that the deadline was armed for.
    pub rebalance_deadline: Option<(i64, i32)>,
}

impl Member {
    pub fn new(member_id: &str) -> Member {
        Member {
            member_id: member_id.to_string(),
            identity: MemberIdentity::default(),
            topology_epoch: 0,
            rebalance_timeout_ms: -1,
            member_epoch: 0,
            previous_member_epoch: 0,
            state: MemberState::Stable,
            assigned: Assignment::default(),
            pending_revocation: Assignment::default(),
            task_offsets: BTreeMap::new(),
            task_end_offsets: BTreeMap::new(),
            session_deadline_ms: i64::MAX,
            rebalance_deadline: None,
        }
    }

    /// Reconciled to the given target epoch: stable there, nothing pending.
    pub fn is_reconciled(&self, target_epoch: i32) -> bool {
        self.state == MemberState::Stable && self.member_epoch == target_epoch
    }

    /// The member record's metadata: for a dynamic member, any change asks for a new target
    /// assignment (Apache compares the whole record).
    pub fn metadata(&self) -> MemberMetadata<'_> {
        MemberMetadata {
            identity: &self.identity,
            rebalance_timeout_ms: self.rebalance_timeout_ms,
            topology_epoch: self.topology_epoch,
        }
    }

    /// The part whose change asks for a new target for a static member (Kafka 4.4's
    /// `hasEpochRelevantMemberConfigChanged`): a restart with a new client host is no reason.
    pub fn epoch_relevant_metadata(&self) -> (i32, Option<&str>, &BTreeMap<String, String>, &str) {
        (
            self.topology_epoch,
            self.identity.rack_id.as_deref(),
            &self.identity.client_tags,
            &self.identity.process_id,
        )
    }
}

/// A member record's metadata, compared to decide whether the group epoch goes up.
#[derive(Debug, PartialEq, Eq)]
pub struct MemberMetadata<'a> {
    pub identity: &'a MemberIdentity,
    pub rebalance_timeout_ms: i32,
    pub topology_epoch: i32,
}
