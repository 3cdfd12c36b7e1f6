//! DescribeConfigs: the configs of any resources at one broker, and a group's with its
//! coordinator's own.

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::{ApiKey, DescribeConfigsRequest, DescribeConfigsResponse};
use kafka_protocol::protocol::StrBytes;

use super::fanout::Answer;
use super::retry::Op;
use super::{Asked, Cluster};
use crate::conn::Connection;
use crate::error::{KafkaError, KafkaResult};

/// DescribeConfigs' config source of a config set on the group itself
/// (`DescribeConfigsResponse.ConfigSource.GROUP_CONFIG`).
const GROUP_CONFIG: i8 = 8;

/// One resource's configs as DescribeConfigs answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceConfigs {
    /// Name to value; configs without a value left out.
    pub values: BTreeMap<String, String>,
    /// The names of the configs set on a group itself (config source GROUP_CONFIG), not
    /// defaults: Kafka 4.1 and 4.2 run a group that has none with the broker's settings, and
    /// one that has any with the static defaults for the rest (what they report).
    pub set_on_group: BTreeSet<String>,
}

impl Cluster {
    /// DescribeConfigs at broker `node` for `resources` (resource type, name), in order: each
    /// resource's configs or its error.
    pub async fn describe_configs(
        &mut self,
        node: i32,
        resources: &[(i8, String)],
    ) -> KafkaResult<Vec<Result<ResourceConfigs, KafkaError>>> {
        let conn = self.conn(node).await?;
        let (_, resp): (i16, DescribeConfigsResponse) = conn
            .negotiated(ApiKey::DescribeConfigs, 1, &configs_request(resources))
            .await?;
        Ok(answers_of(node, resources, resp))
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
    ) -> KafkaResult<Vec<Result<ResourceConfigs, KafkaError>>> {
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
    pub groups: BTreeMap<String, Result<ResourceConfigs, KafkaError>>,
    /// The coordinator's own configs or the error.
    pub broker: Result<ResourceConfigs, KafkaError>,
}

impl Cluster {
    /// DescribeConfigs at each coordinator of `by_node` (node to its groups), all at once: of
    /// its groups (resource type `group_type`) and of itself (`broker_type`), in one request
    /// each, so the broker's configs are read once for all its groups. No retry: a caller
    /// falls back to [`Cluster::configs_at_coordinator`] group by group.
    pub async fn configs_at_coordinators_of(
        &mut self,
        by_node: &BTreeMap<i32, Vec<String>>,
        group_type: i8,
        broker_type: i8,
    ) -> BTreeMap<i32, KafkaResult<CoordinatorConfigs>> {
        let work = by_node.iter().map(|(n, gs)| (*n, gs.clone()));
        self.fan_out(
            work,
            self.remaining(),
            Asked::Coordinator,
            move |node, conn, groups| configs_on(conn, node, groups, group_type, broker_type),
        )
        .await
    }
}

/// One DescribeConfigs on coordinator `node`'s connection, of `groups` and of `node` itself.
async fn configs_on(
    mut conn: Connection,
    node: i32,
    groups: Vec<String>,
    group_type: i8,
    broker_type: i8,
) -> Answer<CoordinatorConfigs> {
    let mut resources: Vec<(i8, String)> = groups.iter().map(|g| (group_type, g.clone())).collect();
    resources.push((broker_type, node.to_string()));
    let resp: DescribeConfigsResponse = match conn
        .negotiated(ApiKey::DescribeConfigs, 1, &configs_request(&resources))
        .await
    {
        Ok((_, resp)) => resp,
        Err(e) => return (None, Err(e)),
    };
    let mut answers = answers_of(node, &resources, resp);
    let broker = answers.pop().unwrap_or_else(|| {
        Err(KafkaError::Protocol {
            addr: format!("node {node}"),
            detail: "DescribeConfigs did not answer for the broker".into(),
        })
    });
    let configs = CoordinatorConfigs {
        groups: groups.into_iter().zip(answers).collect(),
        broker,
    };
    (Some(conn), Ok(configs))
}

/// DescribeConfigs of every config of `resources` (resource type, name).
fn configs_request(resources: &[(i8, String)]) -> DescribeConfigsRequest {
    DescribeConfigsRequest::default().with_resources(
        resources
            .iter()
            .map(|(t, name)| {
                DescribeConfigsResource::default()
                    .with_resource_type(*t)
                    .with_resource_name(StrBytes::from_string(name.clone()))
                    .with_configuration_keys(None)
            })
            .collect(),
    )
}

/// Each of `resources`' configs in `resp` or its error, in order.
fn answers_of(
    node: i32,
    resources: &[(i8, String)],
    resp: DescribeConfigsResponse,
) -> Vec<Result<ResourceConfigs, KafkaError>> {
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
            0 => Ok(ResourceConfigs {
                set_on_group: r
                    .configs
                    .iter()
                    .filter(|c| c.config_source == GROUP_CONFIG)
                    .map(|c| c.name.to_string())
                    .collect(),
                values: r
                    .configs
                    .into_iter()
                    .filter_map(|c| Some((c.name.to_string(), c.value?.to_string())))
                    .collect(),
            }),
            code => Err(KafkaError::broker(
                code,
                r.error_message.map(|m| m.to_string()),
                format!("the configs of `{}`", r.resource_name),
            )),
        };
    }
    answers
}

/// DescribeConfigs of a group and of the broker asked (see [`Cluster::configs_at_coordinator`]).
struct GroupConfigs<'a> {
    group: &'a str,
    group_type: i8,
    broker_type: i8,
}

impl Op for GroupConfigs<'_> {
    type Out = Vec<Result<ResourceConfigs, KafkaError>>;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<Self::Out> {
        let resources = [
            (self.group_type, self.group.to_string()),
            (self.broker_type, node.to_string()),
        ];
        cluster.describe_configs(node, &resources).await
    }
}
