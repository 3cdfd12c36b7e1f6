//! A described streams group: what StreamsGroupDescribe returns, plus committed offsets and lag.
//!
//! `describe --output json` prints a [`Snapshot`]; the offline commands (`diff`, `check-epoch`,
//! `simulate --from-snapshot`) read the same file back. Field names are a contract (README,
//! "JSON output").

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::KafkaVersion;

use super::assignment::Assignment;
use super::heartbeat::{Endpoint, TopicPartitions};
use super::member::MemberIdentity;
use super::task::TaskId;
use super::topology::Subtopology;

/// The snapshot schema version written by this build.
pub const SNAPSHOT_SCHEMA_VERSION: u32 = 1;

/// The top-level JSON document of `describe --output json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Snapshot {
    pub schema_version: u32,
    /// The coordinator profile of the described broker, by its exact release ("4.3.2",
    /// "4.4.0"), detected from the StreamsGroupDescribe versions it serves. Absent in snapshots
    /// of the first builds; builds before 4.3.2 was modelled wrote the minor version ("4.3").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<KafkaVersion>,
    /// What is not certain about `kafka_version` (e.g. a 4.3 broker whose configs could not be
    /// read to tell 4.3.1 from 4.3.2): printed when the snapshot is simulated from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version_note: Option<String>,
    pub groups: Vec<GroupDescription>,
    /// The profile name as the file wrote it, when it is a name whose meaning has changed
    /// since ("4.3" then meant 4.3.1): set by the snapshot reader, never written.
    #[serde(skip)]
    #[schemars(skip)]
    pub legacy_version_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
// The JSON Schema keeps the name it was published with.
#[schemars(rename = "Coordinator")]
pub struct CoordinatorNode {
    pub id: i32,
    pub host: String,
    pub port: i32,
}

impl CoordinatorNode {
    /// `host:port`, an IPv6 host in brackets.
    pub fn address(&self) -> String {
        address(&self.host, self.port)
    }

    /// `broker 2 at localhost:9093`.
    pub fn named(&self) -> String {
        format!("broker {} at {}", self.id, self.address())
    }
}

/// `host:port` as a broker address is written, an IPv6 host in brackets.
pub fn address(host: &str, port: i32) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// The topology a group has, as describe returns it. `subtopologies` is null while the group is
/// not initialised or its topics are missing or mis-partitioned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DescribedTopology {
    pub epoch: i32,
    pub subtopologies: Option<Vec<Subtopology>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupDescription {
    pub group_id: String,
    /// `Empty`, `NotReady`, `Assigning`, `Reconciling`, `Stable` or `Dead`.
    pub state: String,
    pub group_epoch: i32,
    pub target_assignment_epoch: i32,
    #[serde(default)]
    pub coordinator: Option<CoordinatorNode>,
    pub topology: DescribedTopology,
    pub members: Vec<MemberDescription>,
    /// The member ids in the order the group coordinator listed them: the iteration order of
    /// its member table, which decides the assignor's ties (`members` is sorted for reading).
    /// Empty in snapshots recorded before this was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub member_order: Vec<String>,
    /// Committed offsets and lag per source and repartition-source topic partition.
    #[serde(default)]
    pub offsets: Vec<PartitionOffsets>,
    /// The assignor name (describe v1, Kafka 4.4+), if the broker says.
    #[serde(default)]
    pub assignor: Option<String>,
    /// The settings the coordinator applies to the group, as DescribeConfigs answered when the
    /// group was described (absent offline, and in snapshots recorded before they were read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configs: Option<ClusterSettings>,
}

/// What DescribeConfigs said of a group and its coordinator. Kafka's names and values, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ClusterSettings {
    /// The group's `streams.*` configs, defaults included (DescribeConfigs on the GROUP
    /// resource); absent when they could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<BTreeMap<String, String>>,
    /// The names of the group's configs set on the group itself (any prefix; DescribeConfigs'
    /// config source GROUP_CONFIG): empty for a group without a config of its own, which Kafka
    /// 4.1 and 4.2 run with the broker's settings whatever `group` reports. Absent in
    /// recordings made before it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_on_group: Option<BTreeSet<String>>,
    /// The coordinator broker's `group.streams.*` settings (DescribeConfigs on its BROKER
    /// resource); absent when they could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<BTreeMap<String, String>>,
    /// Why a part could not be read (one line each), e.g. no DescribeConfigs permission.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// Whether the coordinator's configs list `max.decompressed.message.bytes` (4.3.2's do,
    /// 4.3.1's do not): what tells those two releases apart. Read, not recorded.
    #[serde(skip)]
    #[schemars(skip)]
    pub lists_max_decompressed: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MemberDescription {
    pub member_id: String,
    pub member_epoch: i32,
    #[serde(default)]
    pub instance_id: Option<String>,
    #[serde(default)]
    pub rack_id: Option<String>,
    #[serde(default)]
    pub client_id: String,
    #[serde(default)]
    pub client_host: String,
    /// The topology epoch of this member's own topology.
    pub topology_epoch: i32,
    pub process_id: String,
    #[serde(default)]
    pub user_endpoint: Option<Endpoint>,
    #[serde(default)]
    pub client_tags: BTreeMap<String, String>,
    /// Cumulative changelog offsets per task (Kafka 4.4+ fills them).
    #[serde(default, with = "crate::task::task_offsets_json")]
    #[schemars(with = "Vec<crate::task::task_offsets_json::Entry>")]
    pub task_offsets: BTreeMap<TaskId, i64>,
    #[serde(default, with = "crate::task::task_offsets_json")]
    #[schemars(with = "Vec<crate::task::task_offsets_json::Entry>")]
    pub task_end_offsets: BTreeMap<TaskId, i64>,
    pub assignment: Assignment,
    pub target_assignment: Assignment,
    #[serde(default)]
    pub is_classic: bool,
    /// The topic partitions `user_endpoint` serves (interactive queries): what the group
    /// coordinator tells every member with the endpoint map, computed from the assignment, the
    /// topology and the topics' partition counts. Absent without an endpoint or a topology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint_partitions: Option<ServedPartitions>,
}

/// The partitions whose records an interactive-query endpoint serves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ServedPartitions {
    /// Source and repartition-source partitions of the member's active tasks.
    pub active: Vec<TopicPartitions>,
    /// The same for its standby tasks (and, on Kafka 4.4, warm-up tasks).
    pub standby: Vec<TopicPartitions>,
}

impl MemberDescription {
    /// A member as described, with nothing assigned yet.
    pub fn new(
        member_id: &str,
        member_epoch: i32,
        identity: MemberIdentity,
        topology_epoch: i32,
    ) -> MemberDescription {
        let MemberIdentity {
            instance_id,
            rack_id,
            client_id,
            client_host,
            process_id,
            user_endpoint,
            client_tags,
        } = identity;
        MemberDescription {
            member_id: member_id.to_string(),
            member_epoch,
            instance_id,
            rack_id,
            client_id,
            client_host,
            topology_epoch,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets: BTreeMap::new(),
            task_end_offsets: BTreeMap::new(),
            assignment: Assignment::default(),
            target_assignment: Assignment::default(),
            is_classic: false,
            endpoint_partitions: None,
        }
    }

    /// Who the member is. The description keeps these fields flat, in StreamsGroupDescribe's
    /// order (the topology epoch stands between the client host and the process id), because
    /// its JSON is the snapshot contract.
    pub fn identity(&self) -> MemberIdentity {
        MemberIdentity {
            instance_id: self.instance_id.clone(),
            rack_id: self.rack_id.clone(),
            client_id: self.client_id.clone(),
            client_host: self.client_host.clone(),
            process_id: self.process_id.clone(),
            user_endpoint: self.user_endpoint.clone(),
            client_tags: self.client_tags.clone(),
        }
    }

    /// Reconciled: its current assignment equals its target.
    pub fn is_reconciled(&self) -> bool {
        self.assignment == self.target_assignment
    }

    /// Why the member deserves attention in group `g`: not reconciled, and/or running an older
    /// topology epoch than the group's. Empty when all is well.
    pub fn statuses(&self, g: &GroupDescription) -> Vec<MemberStatus> {
        let mut out = Vec::new();
        if !self.is_reconciled() {
            out.push(MemberStatus::Reconciling);
        }
        if self.topology_epoch < g.topology.epoch {
            out.push(MemberStatus::StaleTopology);
        }
        out
    }
}

/// What deserves attention about a described member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemberStatus {
    /// Its assignment is not yet its target.
    Reconciling,
    /// Its topology epoch is behind the group's.
    StaleTopology,
}

impl MemberStatus {
    pub fn name(self) -> &'static str {
        match self {
            MemberStatus::Reconciling => "reconciling",
            MemberStatus::StaleTopology => "stale-topology",
        }
    }
}

/// What a group has committed, per (topic, partition): the offset and its leader epoch (-1 when
/// not recorded), as OffsetFetch answers.
pub type CommittedOffsets = BTreeMap<super::TopicPartition, (i64, i32)>;

/// Committed offset, end offset and lag of one input partition of the group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PartitionOffsets {
    pub topic: String,
    pub partition: i32,
    /// `null` when the group has committed nothing for this partition.
    pub committed: Option<i64>,
    #[serde(default)]
    pub leader_epoch: Option<i32>,
    /// Log end offset; `null` when it could not be read.
    pub end: Option<i64>,
    /// `end - committed`, or `end - earliest` when nothing is committed (as Kafka's tool does).
    pub lag: Option<i64>,
}

#[cfg(test)]
mod address_tests {
    use super::*;

    #[test]
    fn broker_addresses_bracket_ipv6_hosts() {
        let node = |host: &str| CoordinatorNode {
            id: 2,
            host: host.into(),
            port: 9093,
        };
        assert_eq!(node("localhost").named(), "broker 2 at localhost:9093");
        assert_eq!(node("::1").address(), "[::1]:9093");
    }
}
