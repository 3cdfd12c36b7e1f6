//! DescribeConfigs: the configs of any resources at one broker, and a group's with its
//! coordinator's own.

use std::collections::BTreeMap;

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::{ApiKey, DescribeConfigsRequest, DescribeConfigsResponse};
use kafka_protocol::protocol::StrBytes;

use super::retry::Op;
use super::Cluster;
use crate::error::{KafkaError, KafkaResult};

impl Cluster {
    /// DescribeConfigs at broker `node` for `resources` (resource type, name), in order: each
    /// resource's configs (name to value; configs without a value left out) or its error.
    pub async fn describe_configs(
        &mut self,
        node: i32,
        resources: &[(i8, String)],
    ) -> KafkaResult<Vec<Result<BTreeMap<String, String>, KafkaError>>> {
        let req = DescribeConfigsRequest::default().with_resources(
            resources
                .iter()
                .map(|(t, name)| {
                    DescribeConfigsResource::default()
                        .with_resource_type(*t)
                        .with_resource_name(StrBytes::from_string(name.clone()))
                        .with_configuration_keys(None)
                })
                .collect(),
        );
        let conn = self.conn(node).await?;
        let (_, resp): (i16, DescribeConfigsResponse) =
            conn.negotiated(ApiKey::DescribeConfigs, 1, &req).await?;
        let mut answers: Vec<_> = resources
            .iter()
            .map(|(_, name)| {
                Err(KafkaError::Protocol {
                    addr: format!("node {node}"),
                    detail: format!("DescribeConfigs did not answer for `{name}`"),
                })
            })
            .collect();
        for r in resp.results {
            let Some(i) = resources
                .iter()
                .position(|(t, n)| *t == r.resource_type && *n == r.resource_name.as_str())
            else {
                continue;
            };
            answers[i] = match r.error_code {
                0 => Ok(r
                    .configs
                    .into_iter()
                    .filter_map(|c| Some((c.name.to_string(), c.value?.to_string())))
                    .collect()),
                code => Err(KafkaError::broker(
                    code,
                    r.error_message.map(|m| m.to_string()),
                    format!("the configs of `{}`", r.resource_name),
                )),
            };
        }
        Ok(answers)
    }

    /// DescribeConfigs at `group`'s coordinator (`coordinator`, or the one found again when it
    /// cannot be reached) of the group (resource type `group_type`) and of the broker asked
    /// (`broker_type`, named by its id), in that order: each one's configs or error.
    pub async fn configs_at_coordinator(
        &mut self,
        coordinator: i32,
        group: &str,
        group_type: i8,
        broker_type: i8,
    ) -> KafkaResult<Vec<Result<BTreeMap<String, String>, KafkaError>>> {
        let op = GroupConfigs {
            group,
            group_type,
            broker_type,
        };
        self.at_coordinator(group, Some(coordinator), &op).await
    }
}

/// One DescribeConfigs at a coordinator: its groups' configs and its own.
#[derive(Debug)]
pub struct CoordinatorConfigs {
    /// Each group's configs (name to value) or its error, by group id.
    pub groups: BTreeMap<String, Result<BTreeMap<String, String>, KafkaError>>,
    /// The coordinator's own configs or the error.
    pub broker: Result<BTreeMap<String, String>, KafkaError>,
}

impl Cluster {
    /// DescribeConfigs at coordinator `node` of all of `groups` (resource type `group_type`)
    /// and of `node` itself (`broker_type`), in one request: one round trip for the groups a
    /// coordinator holds, and the broker's configs read once for all of them. No retry: a
    /// caller falls back to [`Cluster::configs_at_coordinator`] group by group.
    pub async fn configs_at_coordinator_of(
        &mut self,
        node: i32,
        groups: &[String],
        group_type: i8,
        broker_type: i8,
    ) -> KafkaResult<CoordinatorConfigs> {
        let mut resources: Vec<(i8, String)> =
            groups.iter().map(|g| (group_type, g.clone())).collect();
        resources.push((broker_type, node.to_string()));
        let mut answers = self.describe_configs(node, &resources).await?;
        let broker = answers.pop().unwrap_or_else(|| {
            Err(KafkaError::Protocol {
                addr: format!("node {node}"),
                detail: "DescribeConfigs did not answer for the broker".into(),
            })
        });
        Ok(CoordinatorConfigs {
            groups: groups.iter().cloned().zip(answers).collect(),
            broker,
        })
    }
}

/// DescribeConfigs of a group and of the broker asked (see [`Cluster::configs_at_coordinator`]).
struct GroupConfigs<'a> {
    group: &'a str,
    group_type: i8,
    broker_type: i8,
}

impl Op for GroupConfigs<'_> {
    type Out = Vec<Result<BTreeMap<String, String>, KafkaError>>;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<Self::Out> {
        let resources = [
            (self.group_type, self.group.to_string()),
            (self.broker_type, node.to_string()),
        ];
        cluster.describe_configs(node, &resources).await
    }
}
