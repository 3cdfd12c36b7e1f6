//! One streams group: its epochs, topology, members, target assignment and timers. This file
//! holds the `StreamsGroup` type, its state and the answers read from it; the jobs that change
//! it are in `group/`:
//!
//! - `heartbeat.rs`: the heartbeat of a member that joins or is in the group, in Apache's order
//!   (validate, plan, apply, reconcile, respond); `checks.rs`: the checks it runs first;
//! - `leave.rs`: a member leaving by its own heartbeat (epoch -1, or -2 for a static member);
//! - `members.rs`: the member table and what is kept in step with it (the ownership index, the
//!   counts of unreconciled members and of members with endpoints), and fencing a member;
//! - `metadata.rs`: the topic metadata the group has seen and when it looks again (Apache's
//!   metadata hash and its refresh deadline);
//! - `target.rs`: computing and installing the group's target assignment;
//! - `timers.rs`: session, rebalance, assignment-interval and initial-rebalance-delay timers;
//! - `restore.rs`: a group rebuilt from a described group (a snapshot);
//! - `describe.rs`: the group as StreamsGroupDescribe shows it back.

mod checks;
mod describe;
mod heartbeat;
mod leave;
mod members;
mod metadata;
mod restore;
mod target;
mod timers;

use crate::profile::Profile;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::topics::{Configuration, CreatableTopic};
use model::heartbeat::EndpointPartitions;
use model::{ErrorCode, HeartbeatResponse, Topology};

use crate::config::GroupConfig;
use crate::member::Member;
use crate::member_order::MemberOrder;
use crate::ownership::Ownership;
use crate::refined_cache::RefinedCache;
use crate::target::TargetAssignment;
use metadata::RefreshDeadline;
use model::KafkaVersion;

/// Group states, named as Kafka names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GroupState {
    Empty,
    NotReady,
    Assigning,
    Reconciling,
    Stable,
}

impl GroupState {
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::NotReady => "NotReady",
            GroupState::Assigning => "Assigning",
            GroupState::Reconciling => "Reconciling",
            GroupState::Stable => "Stable",
        }
    }
}

impl std::fmt::Display for GroupState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the request layer knows that the request body does not carry.
#[derive(Clone, Debug, Default)]
pub struct RequestContext {
    pub now_ms: i64,
    pub client_id: String,
    pub client_host: String,
}

/// The response, plus the internal topics the broker should create for the group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeartbeatOutcome {
    pub response: HeartbeatResponse,
    pub topics_to_create: Vec<CreatableTopic>,
}

/// Why a member left the group other than by its own heartbeat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Removal {
    SessionTimeout { member_id: String },
    RebalanceTimeout { member_id: String },
}

/// A rejected heartbeat. `fence` removes the member (the KIP text on a fenced member epoch).
struct Rejection {
    error: ErrorCode,
    message: Option<String>,
    fence: bool,
}

fn reject(error: ErrorCode, message: impl Into<String>) -> Rejection {
    Rejection {
        error,
        message: Some(message.into()),
        fence: false,
    }
}

/// Apache answers an unexpected exception with UNKNOWN_SERVER_ERROR and no message.
fn server_error() -> Rejection {
    Rejection {
        error: ErrorCode::UnknownServerError,
        message: None,
        fence: false,
    }
}

fn error_response(error: ErrorCode, message: Option<String>) -> HeartbeatResponse {
    HeartbeatResponse {
        error: Some(error),
        error_message: message,
        ..HeartbeatResponse::default()
    }
}

#[derive(Clone)]
pub struct StreamsGroup {
    pub group_id: String,
    version: KafkaVersion,
    config: GroupConfig,
    group_epoch: i32,
    target_assignment_epoch: i32,
    /// When the current target was computed (0: unknown, so the next one may come at once).
    target_assignment_timestamp_ms: i64,
    topology: Option<Topology>,
    /// The topology configured against the topic metadata last seen (soft state).
    configuration: Option<Configuration>,
    /// Partition counts of the topology's required topics that the last epoch bump of a
    /// heartbeat recorded: the local stand-in for Apache's stored metadata hash.
    metadata_seen: BTreeMap<String, Option<i32>>,
    /// When the heartbeat next recomputes that hash (Apache's soft `metadataRefreshDeadline`).
    metadata_refresh: RefreshDeadline,
    /// The required topics of the stored topology as this group last saw them: a change is
    /// Apache's `onMetadataUpdate` asking the groups subscribed to a topic for a refresh.
    metadata_observed: BTreeMap<String, Option<i32>>,
    /// The topology epoch for which the configuration was ready, or -1.
    validated_topology_epoch: i32,
    last_assignment_configs: (u32, Vec<String>),
    members: BTreeMap<String, Member>,
    /// Static members: instance id → member id.
    static_members: BTreeMap<String, String>,
    target: TargetAssignment,
    ownership: Ownership,
    unreconciled: usize,
    shutdown_requested_by: Option<String>,
    initial_delay_deadline: Option<i64>,
    endpoint_information_epoch: i32,
    /// Each member's entry of the interactive-query map as last built (Apache's
    /// `endpointToPartitionsCache`, 4.2+, soft state): reused until the member's records are
    /// written or the topology is configured again, so an entry can lag behind the metadata.
    endpoint_cache: BTreeMap<String, EndpointPartitions>,
    /// How many members have an interactive-query endpoint: with none, the endpoint map is
    /// empty without a walk over the members (which every heartbeat after a change would do).
    endpoint_members: usize,
    /// False until the first successful heartbeat has created the group.
    persisted: bool,
    /// How many target assignments this group computed (rebalances), for reports.
    targets_computed: u64,
    /// The order Apache's coordinator walks the members in (its assignor's tie-breaks).
    member_order: MemberOrder,
    /// 4.4's refined-assignment cache (soft state).
    refined: RefinedCache,
    /// What the assignor warned about when it computed the current target.
    assignor_warnings: Vec<String>,
    /// No member's session or rebalance timeout is due before this: a lower bound, lowered
    /// whenever a member is written and made exact by each scan, so that `expire` looks at the
    /// members only when one may be due (a heartbeat only moves a deadline later).
    member_deadlines_from: i64,
}

impl StreamsGroup {
    pub fn new(group_id: &str, config: GroupConfig) -> StreamsGroup {
        StreamsGroup::with_version(group_id, config, KafkaVersion::NEWEST)
    }

    pub fn with_version(
        group_id: &str,
        config: GroupConfig,
        version: KafkaVersion,
    ) -> StreamsGroup {
        // From 4.3 a new group starts at group and assignment epoch 1 (`groupEpoch.set(1)`,
        // `TargetAssignmentMetadata.INITIAL`); 4.2 starts at 0 and jumps to 2 on the first bump.
        let initial_epoch = version.initial_group_epoch();
        StreamsGroup {
            group_id: group_id.to_string(),
            version,
            last_assignment_configs: (
                config.num_standby_replicas,
                config.rack_aware_assignment_tags.clone(),
            ),
            config,
            group_epoch: initial_epoch,
            target_assignment_epoch: initial_epoch,
            target_assignment_timestamp_ms: 0,
            topology: None,
            configuration: None,
            metadata_seen: BTreeMap::new(),
            metadata_refresh: RefreshDeadline::EXPIRED,
            metadata_observed: BTreeMap::new(),
            validated_topology_epoch: -1,
            members: BTreeMap::new(),
            endpoint_members: 0,
            static_members: BTreeMap::new(),
            target: BTreeMap::new(),
            ownership: Ownership::default(),
            unreconciled: 0,
            shutdown_requested_by: None,
            initial_delay_deadline: None,
            endpoint_information_epoch: version.initial_endpoint_information_epoch(),
            endpoint_cache: BTreeMap::new(),
            persisted: false,
            targets_computed: 0,
            member_order: MemberOrder::default(),
            refined: RefinedCache::default(),
            assignor_warnings: Vec::new(),
            member_deadlines_from: i64::MAX,
        }
    }

    pub fn version(&self) -> KafkaVersion {
        self.version
    }

    pub fn config(&self) -> &GroupConfig {
        &self.config
    }

    /// Change group configs (e.g. `streams.num.standby.replicas`); takes effect on the next
    /// heartbeat, which bumps the group epoch if the assignment configs changed.
    pub fn set_config(&mut self, config: GroupConfig) {
        self.config = config;
    }

    pub fn group_epoch(&self) -> i32 {
        self.group_epoch
    }

    /// The warnings of the assignor's last run (e.g. standbys it could not place).
    pub fn assignor_warnings(&self) -> &[String] {
        &self.assignor_warnings
    }

    /// Target assignments computed since the group was created or restored.
    pub fn targets_computed(&self) -> u64 {
        self.targets_computed
    }

    pub fn target_assignment_epoch(&self) -> i32 {
        self.target_assignment_epoch
    }

    pub fn topology(&self) -> Option<&Topology> {
        self.topology.as_ref()
    }

    pub fn configuration(&self) -> Option<&Configuration> {
        self.configuration.as_ref()
    }

    pub fn members(&self) -> &BTreeMap<String, Member> {
        &self.members
    }

    pub fn target(&self) -> &TargetAssignment {
        &self.target
    }

    /// The members in the order Apache's `TimelineHashMap` of members iterates them.
    pub fn member_order(&self) -> Vec<&str> {
        self.member_order.iter().collect()
    }

    pub fn ownership(&self) -> &Ownership {
        &self.ownership
    }

    pub fn state(&self) -> GroupState {
        if self.members.is_empty() {
            GroupState::Empty
        } else if self.not_ready() {
            GroupState::NotReady
        } else if self.group_epoch > self.target_assignment_epoch {
            GroupState::Assigning
        } else if self.unreconciled > 0 {
            GroupState::Reconciling
        } else {
            GroupState::Stable
        }
    }

    /// 4.2 and later: the topology epoch has not been validated against the topics (a stored
    /// fact). 4.1: the topology is not configured and ready, which is soft state: a new group,
    /// or one whose coordinator just loaded it, is NOT_READY until a heartbeat configures it.
    fn not_ready(&self) -> bool {
        if self.version == KafkaVersion::V4_1 {
            self.topology.is_none() || !self.configuration.as_ref().is_some_and(|c| c.is_ready())
        } else {
            self.topology.as_ref().map(|t| t.epoch) != Some(self.validated_topology_epoch)
        }
    }

    fn next_group_epoch(&self) -> i32 {
        if self.group_epoch == 0 && self.version.first_bump_skips_epoch_one() {
            2
        } else {
            self.group_epoch + 1
        }
    }
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}
