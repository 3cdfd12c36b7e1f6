//! `check-epoch`: would the coordinator accept a member joining with this topology at this
//! topology epoch? Decided by the local coordinator of the group's Kafka version, with the
//! KIP-1071 verdict always computed as information (and cross-checked with `kip_verdict`).

pub mod dry_run;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;
use crate::topology::diff::{diff_with_metadata, Hazard, TopologyDiff};
use crate::topology::topic_counts::TopicCounts;
use crate::topology::ResolvedTopology;
use coordinator::topics::{topics_to_create, CreatableTopic, TopicMetadata, TopicProblem};
use coordinator::topology_epoch::{broker_verdict, kip_verdict, BrokerVerdict, TopologyVerdict};
use model::group::{DescribedTopology, GroupDescription};
use model::KafkaVersion;
use model::{ErrorCode, StatusCode, Topology};

/// Which rules decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// KIP-1071's topology epoch rules
    Kip,
    /// What shipped Apache Kafka brokers (4.1 to 4.4) do
    Broker,
}

/// The answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accepted,
    Rejected,
}

/// The group the check ran against.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GroupSummary {
    pub group_id: String,
    pub state: String,
    /// -1 when the group has no topology.
    pub topology_epoch: i32,
    pub members: usize,
    pub source: String,
}

/// What a shipped broker does, with the way to deploy there.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BrokerReport {
    pub versions: &'static str,
    #[serde(flatten)]
    pub verdict: BrokerVerdict,
    pub accepted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusCode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

/// The `check-epoch` report.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CheckReport {
    /// By the coordinator profile that ran.
    pub verdict: Verdict,
    /// The coordinator profile that decided (serialised as its exact release, "4.3.2", or "kip").
    pub kafka_version: KafkaVersion,
    /// `kip` when the KIP-1071 rules decided, `broker` when a release did.
    pub rules: Rules,
    /// The error name when rejected (e.g. `STREAMS_TOPOLOGY_FENCED`).
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub group: GroupSummary,
    pub topology: String,
    pub topology_epoch: i32,
    /// The KIP-1071 verdict, as the local coordinator gave it.
    pub kip: TopologyVerdict,
    pub broker: BrokerReport,
    /// The change against the group's topology (null when the group has none).
    pub diff: Option<TopologyDiff>,
    pub internal_topics_to_create: Vec<CreatableTopic>,
    pub hazards: Vec<Hazard>,
    /// Why the new topology would not be ready on this cluster, if so.
    pub topic_problem: Option<TopicProblem>,
    /// The group's and the new topology, for the human rendering.
    #[serde(skip)]
    pub topologies: Option<(Topology, Topology)>,
}

/// What the check runs on.
#[derive(Clone, Debug)]
pub struct CheckInput {
    /// The group; `None` when the cluster has no such group yet (`group_id` names it then).
    pub group: Option<GroupDescription>,
    pub group_id: String,
    /// Where the group came from (a file, or `group:ID`).
    pub source: String,
    pub kafka_version: KafkaVersion,
    pub topology: ResolvedTopology,
    pub topology_epoch: i32,
    /// Counts of source topics the group does not show.
    pub topics: TopicCounts,
}

/// Run the check.
pub fn check(input: CheckInput) -> Result<CheckReport, Error> {
    let group = input.group.unwrap_or_else(|| absent_group(&input.group_id));
    // A file carries no wire order, and the broker compares lists in the order the client sends
    // them (the same build sends the same order): both sides are compared order-free.
    let mut new = input.topology.topology.normalized();
    new.epoch = input.topology_epoch;
    let group_topology = current_topology(&group, &new)?.map(|t| t.normalized());
    let mut metadata =
        crate::topology::topic_counts::topic_metadata(&group, input.topics.partitions);
    for t in new
        .subtopologies
        .iter()
        .flat_map(|s| s.source_topics.iter())
    {
        metadata.entry(t.clone()).or_insert(input.topics.partitions);
    }
    input.topics.apply(&mut metadata);

    let (error, message) = decide(
        input.kafka_version,
        &group.group_id,
        group_topology.as_ref(),
        &new,
        &metadata,
    )?;
    let kip = kip_verdict(group_topology.as_ref(), &new);
    let version = input.kafka_version;
    let broker = broker_report(
        &group.group_id,
        broker_verdict(group_topology.as_ref(), &new),
    );
    let diff = group_topology
        .as_ref()
        .map(|old| diff_with_metadata(old, &new, &metadata));
    let hazards = diff.as_ref().map(|d| d.hazards.clone()).unwrap_or_default();
    let (internal_topics_to_create, topic_problem) = topics_to_create(&new, &metadata);
    Ok(CheckReport {
        verdict: if error.is_none() {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        },
        kafka_version: version,
        rules: if version == KafkaVersion::Kip {
            Rules::Kip
        } else {
            Rules::Broker
        },
        error_code: error.map(|e| e.name()),
        error_message: message,
        group: GroupSummary {
            group_id: group.group_id.clone(),
            state: group.state.clone(),
            topology_epoch: group_topology.as_ref().map_or(-1, |t| t.epoch),
            members: group.members.len(),
            source: input.source,
        },
        topology: input.topology.label,
        topology_epoch: input.topology_epoch,
        kip,
        broker,
        diff,
        internal_topics_to_create,
        hazards,
        topic_problem,
        topologies: group_topology.map(|g| (g, new)),
    })
}

/// The answer of the coordinator of `version`: the error and its message, if it rejects. The
/// KIP's run is always made and must agree with the KIP's rules (`kip_verdict`).
fn decide(
    version: KafkaVersion,
    group_id: &str,
    current: Option<&Topology>,
    new: &Topology,
    metadata: &TopicMetadata,
) -> Result<(Option<ErrorCode>, Option<String>), Error> {
    let join = |version| {
        dry_run::join_with(version, group_id, current, new, metadata)
            .map_err(|e| Error::input(e.to_string()))
    };
    let (kip_error, kip_message) = join(KafkaVersion::Kip)?;
    let kip = kip_verdict(current, new);
    if !dry_run::agrees(&kip, kip_error) {
        return Err(Error::Internal(format!(
            "the local coordinator ({}) and the topology epoch rules ({kip:?}) disagree",
            kip_error.map_or("accepted".to_string(), |e| e.name())
        )));
    }
    if version == KafkaVersion::Kip {
        Ok((kip_error, kip_message))
    } else {
        join(version)
    }
}

/// A group the cluster does not have: the first member to join creates it.
fn absent_group(id: &str) -> GroupDescription {
    GroupDescription {
        member_order: Vec::new(),
        group_id: id.to_string(),
        state: "absent".into(),
        group_epoch: 0,
        target_assignment_epoch: 0,
        coordinator: None,
        topology: DescribedTopology {
            epoch: -1,
            subtopologies: None,
        },
        members: Vec::new(),
        offsets: Vec::new(),
        assignor: None,
        configs: None,
    }
}

/// The group's topology as its members sent it, or `None` when it has none.
fn current_topology(g: &GroupDescription, new: &Topology) -> Result<Option<Topology>, Error> {
    match crate::topology::described::topology_of(g) {
        Some(mut t) => {
            crate::topology::described::align_decided_counts(&mut t, new);
            Ok(Some(t))
        }
        None if g.topology.epoch < 0 => Ok(None),
        None => Err(Error::input(format!(
            "group {} has topology epoch {} but shows no subtopologies (its topics are missing \
             or mis-partitioned), so its topology cannot be compared",
            g.group_id, g.topology.epoch
        ))),
    }
}

fn broker_report(group_id: &str, verdict: BrokerVerdict) -> BrokerReport {
    let (status, advice) = match &verdict {
        BrokerVerdict::AcceptedStale => (
            Some(StatusCode::StaleTopology),
            Some(
                "the member joins but runs the group's topology, and every heartbeat carries \
                 status STALE_TOPOLOGY"
                    .to_string(),
            ),
        ),
        BrokerVerdict::Rejected { .. } => (
            None,
            Some(format!(
                "topology changes are not supported there: deploy under a new application.id, \
                 or stop every instance, delete the (then empty) group with \
                 `kafka-streams-groups.sh --bootstrap-server <broker> --delete --group {group_id}` \
                 and start the new version"
            )),
        ),
        _ => (None, None),
    };
    BrokerReport {
        versions: "Apache Kafka 4.1 to 4.4",
        accepted: verdict.is_accepted(),
        verdict,
        status,
        advice,
    }
}
