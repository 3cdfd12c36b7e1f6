//! Who to ask: FindCoordinator for the groups' coordinators, Metadata for the brokers and the
//! partitions' leaders.

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::find_coordinator_response::Coordinator;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ApiKey, FindCoordinatorRequest, FindCoordinatorResponse, MetadataRequest, MetadataResponse,
    TopicName,
};
use kafka_protocol::protocol::StrBytes;

use model::group::CoordinatorNode;
use model::wait::Awaited;

use super::retry::{coordinator_moved, Op};
use super::{s, Asked, BrokerAddr, Cluster};
use crate::error::{KafkaError, KafkaResult};

impl Cluster {
    /// FindCoordinator (key type 0, batched v4) at any broker that answers, with retries on
    /// the coordinator codes until the deadline.
    pub async fn find_coordinators(
        &mut self,
        groups: &[String],
    ) -> KafkaResult<BTreeMap<String, CoordinatorNode>> {
        let mut found = BTreeMap::new();
        let mut pending = Vec::new();
        for g in groups {
            // Answered beside the bootstrap Metadata: taken once, so a coordinator that moves
            // later is asked for again.
            match self.located.remove(g) {
                Some(node) => {
                    self.asking(node.id, Asked::Coordinator);
                    found.insert(g.clone(), node);
                }
                None => pending.push(g.clone()),
            }
        }
        if pending.is_empty() {
            return Ok(found);
        }
        let _step = self.waits.begin(Awaited::Coordinator {
            groups: pending.clone(),
        });
        let mut attempt = 0;
        while !pending.is_empty() {
            let resp = self.at_any(&FindCoordinators(pending.clone())).await?;
            let mut retry = Vec::new();
            for c in resp.coordinators {
                let key = s(&c.key);
                match c.error_code {
                    0 => {
                        let node = self.coordinator_found(&c);
                        self.asking(node.id, Asked::Coordinator);
                        found.insert(key, node);
                    }
                    code if coordinator_moved(code) => {
                        let why = model::ErrorCode::from_code(code).name();
                        self.note(format!("the coordinator of `{key}`: {why}; retrying"));
                        retry.push(key)
                    }
                    code => {
                        return Err(KafkaError::broker(
                            code,
                            c.error_message.map(|m| m.to_string()),
                            format!("finding the coordinator of group `{key}`"),
                        ))
                    }
                }
            }
            pending = retry;
            if !pending.is_empty() && !self.backoff(attempt).await {
                return Err(KafkaError::Timeout {
                    addr: "the cluster".into(),
                    what: format!("coordinator of {}", pending.join(", ")),
                });
            }
            attempt += 1;
        }
        Ok(found)
    }

    /// A coordinator FindCoordinator answered: its broker learnt (it may be new to the
    /// metadata), its node returned.
    pub(super) fn coordinator_found(&mut self, c: &Coordinator) -> CoordinatorNode {
        crate::trace::line(|| {
            format!(
                "coordinator of `{}`: node {} at {}",
                s(&c.key),
                c.node_id.0,
                model::group::address(&s(&c.host), c.port)
            )
        });
        self.brokers.entry(c.node_id.0).or_insert(BrokerAddr {
            host: s(&c.host),
            port: c.port,
        });
        CoordinatorNode {
            id: c.node_id.0,
            host: s(&c.host),
            port: c.port,
        }
    }

    /// Partition leaders per topic (topics that do not exist are left out), as any broker
    /// that answers knows them.
    pub async fn leaders(
        &mut self,
        topics: &BTreeSet<String>,
    ) -> KafkaResult<BTreeMap<String, BTreeMap<i32, i32>>> {
        let mut out = BTreeMap::new();
        if topics.is_empty() {
            return Ok(out);
        }
        let _step = self.waits.begin(Awaited::Broker);
        let md = self
            .at_any(&Metadata(Some(topics.iter().cloned().collect())))
            .await?;
        for t in md.topics {
            let Some(name) = t.name else { continue };
            if t.error_code != 0 {
                continue;
            }
            let parts: BTreeMap<i32, i32> = t
                .partitions
                .iter()
                .map(|p| (p.partition_index, p.leader_id.0))
                .collect();
            out.insert(name.to_string(), parts);
        }
        Ok(out)
    }
}

/// FindCoordinator v4 for some groups.
struct FindCoordinators(Vec<String>);

/// FindCoordinator of `groups` (key type 0, v4+: many keys in one request).
pub(crate) fn find_coordinators_request(groups: &[String]) -> FindCoordinatorRequest {
    FindCoordinatorRequest::default()
        .with_key_type(0)
        .with_coordinator_keys(
            groups
                .iter()
                .map(|g| StrBytes::from_string(g.clone()))
                .collect(),
        )
}

impl Op for FindCoordinators {
    type Out = FindCoordinatorResponse;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<FindCoordinatorResponse> {
        let req = find_coordinators_request(&self.0);
        let conn = cluster.conn(node).await?;
        let (_, resp) = conn.negotiated(ApiKey::FindCoordinator, 4, &req).await?;
        Ok(resp)
    }
}

/// Metadata for some topics (None: none, just the brokers).
pub(crate) struct Metadata(pub Option<Vec<String>>);

impl Op for Metadata {
    type Out = MetadataResponse;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<MetadataResponse> {
        let topics = self.0.as_ref().map(|ts| {
            ts.iter()
                .map(|t| {
                    MetadataRequestTopic::default()
                        .with_name(Some(TopicName(StrBytes::from_string(t.clone()))))
                })
                .collect()
        });
        let req = MetadataRequest::default()
            .with_topics(Some(topics.unwrap_or_default()))
            .with_allow_auto_topic_creation(false);
        let conn = cluster.conn(node).await?;
        let (_, md): (i16, MetadataResponse) = conn.negotiated(ApiKey::Metadata, 1, &req).await?;
        cluster.learn_brokers(&md, self.0.is_none());
        Ok(md)
    }
}
