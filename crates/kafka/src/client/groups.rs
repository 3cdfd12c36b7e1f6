//! The group reads: ListGroups on every broker, and StreamsGroupDescribe batched per
//! coordinator (with the topology descriptions brokers store, when asked for).

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::{ApiKey, ListGroupsRequest, ListGroupsResponse};
use kafka_protocol::protocol::StrBytes;

use model::group::{CoordinatorNode, GroupDescription};
use model::processor_graph::StoredDescription;
use model::wait::Awaited;

use super::locate::Metadata;
use super::retry::{coordinator_moved, transient};
use super::{s, Asked, Cluster};
use crate::codec::describe::{DescribeRequest, DescribeResponse, WireDescribedGroup};
use crate::conn::API_STREAMS_GROUP_DESCRIBE;
use crate::error::{KafkaError, KafkaResult, HINT_OLD_BROKER};

/// A group as ListGroups reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGroup {
    pub group_id: String,
    pub state: String,
    /// `consumer`, `classic`, `share` or `streams`.
    pub group_type: String,
}

/// What StreamsGroupDescribe answered for several groups.
#[derive(Debug)]
pub struct DescribedGroups {
    /// StreamsGroupDescribe version used (1 = Kafka 4.4+).
    pub version: i16,
    /// Per group id: the group (coordinator filled in) with the topology description the
    /// broker stores, or the group's error.
    pub groups: BTreeMap<String, Result<(GroupDescription, StoredDescription), KafkaError>>,
}

type RawDescribed = BTreeMap<String, Result<(WireDescribedGroup, CoordinatorNode), KafkaError>>;

impl Cluster {
    /// ListGroups v5 on every broker, merged and sorted by group id: the groups of `types`
    /// (every type when empty) in `states` (every state when empty). A broker that cannot be
    /// reached (or is loading) is asked again after the broker list is read again, until the
    /// deadline: a broker that left the cluster meanwhile is not asked any more.
    pub async fn list_groups(
        &mut self,
        types: &[&str],
        states: &[String],
    ) -> KafkaResult<Vec<ListedGroup>> {
        let req = ListGroupsRequest::default()
            .with_types_filter(
                types
                    .iter()
                    .map(|t| StrBytes::from_string(t.to_string()))
                    .collect(),
            )
            .with_states_filter(
                states
                    .iter()
                    .map(|x| StrBytes::from_string(x.clone()))
                    .collect(),
            );
        let _step = self.waits.begin(Awaited::Broker);
        let mut out: BTreeMap<String, ListedGroup> = BTreeMap::new();
        let mut pending: BTreeSet<i32> = self.broker_ids().into_iter().collect();
        let mut asked = BTreeSet::new();
        let mut attempt = 0;
        loop {
            let mut failed = None;
            for id in std::mem::take(&mut pending) {
                match self.list_groups_at(id, &req, types).await {
                    Ok(groups) => {
                        asked.insert(id);
                        out.extend(groups.into_iter().map(|g| (g.group_id.clone(), g)));
                    }
                    Err(e) if transient(&e) => {
                        self.note(format!("ListGroups on broker {id}: {e}; retrying"));
                        self.forget(id);
                        failed = Some(e);
                    }
                    Err(e) => return Err(e),
                }
            }
            let Some(e) = failed else { break };
            if !self.backoff(attempt).await {
                return Err(e);
            }
            attempt += 1;
            // Who is in the cluster now: a broker that left is not asked again, a new one is.
            let _ = self.at_any(&Metadata(None)).await;
            pending = self
                .broker_ids()
                .into_iter()
                .filter(|id| !asked.contains(id))
                .collect();
        }
        Ok(out.into_values().collect())
    }

    async fn list_groups_at(
        &mut self,
        id: i32,
        req: &ListGroupsRequest,
        types: &[&str],
    ) -> KafkaResult<Vec<ListedGroup>> {
        let conn = self.conn(id).await?;
        let (_, resp): (i16, ListGroupsResponse) =
            conn.negotiated(ApiKey::ListGroups, 5, req).await?;
        if resp.error_code != 0 {
            return Err(KafkaError::broker(
                resp.error_code,
                None,
                format!("ListGroups on broker {id}"),
            ));
        }
        let mut out = Vec::new();
        for g in resp.groups {
            let group_type = s(&g.group_type);
            // A broker before ListGroups v5's type filter would answer with every type.
            if !types.is_empty() && !types.iter().any(|t| t.eq_ignore_ascii_case(&group_type)) {
                continue;
            }
            out.push(ListedGroup {
                group_id: g.group_id.to_string(),
                state: s(&g.group_state),
                group_type,
            });
        }
        Ok(out)
    }

    /// Make [`Cluster::describe_groups`] ask for the topology descriptions brokers store (Kafka 4.4+
    /// with a description plugin); off by default, as it makes the broker call its plugin.
    pub fn ask_topology_descriptions(&mut self) {
        self.topology_descriptions = true;
    }

    /// StreamsGroupDescribe for `groups`, each group's coordinator filled in (with the topology
    /// description the broker stores, when asked for).
    pub async fn describe_groups(&mut self, groups: &[String]) -> KafkaResult<DescribedGroups> {
        crate::limits::check_group_ids(groups)?;
        let (raw, version) = self.describe_raw(groups).await?;
        let groups = raw
            .into_iter()
            .map(|(g, r)| {
                let r = r.map(|(w, coord)| {
                    let stored = w.stored_description();
                    let mut d = w.to_model();
                    d.coordinator = Some(coord);
                    (d, stored)
                });
                (g, r)
            })
            .collect();
        Ok(DescribedGroups { version, groups })
    }

    /// StreamsGroupDescribe for `groups`, batched per coordinator, retried on coordinator moves
    /// and on coordinators that cannot be reached, until the deadline.
    async fn describe_raw(&mut self, groups: &[String]) -> KafkaResult<(RawDescribed, i16)> {
        let _step = self.waits.begin(Awaited::Coordinator {
            groups: groups.to_vec(),
        });
        let mut results = BTreeMap::new();
        let mut pending: Vec<String> = groups.to_vec();
        let mut attempt = 0;
        let mut used_version = 0;
        while !pending.is_empty() {
            let coords = self.find_coordinators(&pending).await?;
            let (retry, last) = self
                .describe_round(&pending, &coords, &mut results, &mut used_version)
                .await?;
            pending = retry;
            if !pending.is_empty() && !self.backoff(attempt).await {
                for g in pending.drain(..) {
                    results.insert(
                        g.clone(),
                        Err(KafkaError::Timeout {
                            addr: "the cluster".into(),
                            what: format!("a coordinator of `{g}` that answers; last: {last}"),
                        }),
                    );
                }
            }
            attempt += 1;
        }
        Ok((results, used_version))
    }

    /// One StreamsGroupDescribe per coordinator: the groups to ask again, and why.
    async fn describe_round(
        &mut self,
        pending: &[String],
        coords: &BTreeMap<String, CoordinatorNode>,
        results: &mut RawDescribed,
        used_version: &mut i16,
    ) -> KafkaResult<(Vec<String>, String)> {
        let mut by_coord: BTreeMap<i32, Vec<String>> = BTreeMap::new();
        for g in pending {
            if let Some(c) = coords.get(g) {
                by_coord.entry(c.id).or_default().push(g.clone());
            }
        }
        let mut retry = Vec::new();
        let mut last = String::new();
        for (node, gs) in by_coord {
            let (version, resp) = match self.describe_at(node, gs.clone()).await {
                Ok(answer) => answer,
                Err(e) if transient(&e) => {
                    self.note(format!("coordinator {node}: {e}; finding it again"));
                    self.forget(node);
                    last = e.to_string();
                    retry.extend(gs);
                    continue;
                }
                Err(e) => return Err(e),
            };
            *used_version = version;
            for g in resp.groups {
                let Some(c) = coords.get(&g.group_id).cloned() else {
                    continue;
                };
                match g.error_code {
                    0 => {
                        results.insert(g.group_id.clone(), Ok((g, c)));
                    }
                    code if coordinator_moved(code) => {
                        self.forget(node);
                        last = model::ErrorCode::from_code(code).name();
                        retry.push(g.group_id.clone());
                    }
                    code => {
                        results.insert(g.group_id.clone(), Err(group_error(code, &g)));
                    }
                }
            }
        }
        Ok((retry, last))
    }

    /// One StreamsGroupDescribe to coordinator `node`: the version used and the response.
    async fn describe_at(
        &mut self,
        node: i32,
        group_ids: Vec<String>,
    ) -> KafkaResult<(i16, DescribeResponse)> {
        let descriptions = self.topology_descriptions;
        self.asking(node, Asked::Coordinator);
        let conn = self.conn(node).await?;
        let Some(version) = conn.version_for(API_STREAMS_GROUP_DESCRIBE) else {
            return Err(KafkaError::Unsupported {
                detail: format!(
                    "broker {} does not offer StreamsGroupDescribe (API 89)",
                    conn.addr
                ),
                hint: format!("{HINT_OLD_BROKER}; on 4.1 set unstable.api.versions.enable=true"),
            });
        };
        let req = DescribeRequest {
            group_ids,
            include_authorized_operations: false,
            include_topology_description: descriptions && version >= 1,
        };
        let body = req.encode(version).map_err(|e| KafkaError::Config(e.0))?;
        let bytes = conn
            .roundtrip_raw(API_STREAMS_GROUP_DESCRIBE, version, &body, true, true)
            .await?;
        let resp = DescribeResponse::decode(&bytes, version).map_err(|e| KafkaError::Protocol {
            addr: conn.addr.clone(),
            detail: format!("StreamsGroupDescribe v{version}: {e}"),
        })?;
        Ok((version, resp))
    }
}

/// The error a group's describe answered with (not a retriable coordinator error).
fn group_error(code: i16, g: &WireDescribedGroup) -> KafkaError {
    let id = &g.group_id;
    match code {
        69 => KafkaError::Broker {
            code: model::ErrorCode::GroupIdNotFound,
            message: Some(
                g.error_message
                    .clone()
                    .filter(|m| !m.is_empty())
                    .unwrap_or_else(|| format!("Group {id} not found.")),
            ),
            context: format!("streams group `{id}`"),
        },
        _ => KafkaError::broker(
            code,
            g.error_message.clone(),
            format!("describing streams group `{id}`"),
        ),
    }
}
