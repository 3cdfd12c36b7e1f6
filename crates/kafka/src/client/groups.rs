//! The group reads: ListGroups on every broker, and StreamsGroupDescribe batched per
//! coordinator (with the topology descriptions brokers store, when asked for).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use kafka_protocol::messages::{ApiKey, ListGroupsRequest, ListGroupsResponse};
use kafka_protocol::protocol::StrBytes;

use model::group::{CoordinatorNode, GroupDescription};
use model::processor_graph::StoredDescription;
use model::wait::Awaited;

use super::fanout::Answer;
use super::locate::Metadata;
use super::retry::{coordinator_moved, transient};
use super::{s, Asked, Cluster};
use crate::codec::describe::{DescribeRequest, DescribeResponse, WireDescribedGroup};
use crate::conn::{Connection, API_STREAMS_GROUP_DESCRIBE};
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

/// What ListGroups answered: the groups of the brokers that answered, and for each broker that
/// did not within the time it had, a [`KafkaError::NotAnswered`] naming it.
#[derive(Debug)]
pub struct ListedGroups {
    pub groups: Vec<ListedGroup>,
    pub unanswered: Vec<KafkaError>,
}

type RawDescribed = BTreeMap<String, Result<(WireDescribedGroup, CoordinatorNode), KafkaError>>;

impl Cluster {
    /// ListGroups v5 on every broker, merged and sorted by group id: the groups of `types`
    /// (every type when empty) in `states` (every state when empty). A broker that cannot be
    /// reached (or is loading) is asked again after the broker list is read again, until the
    /// deadline: a broker that left the cluster meanwhile is not asked any more. Any broker
    /// that never answered makes it an error: the list would not be whole.
    pub async fn list_groups(
        &mut self,
        types: &[&str],
        states: &[String],
    ) -> KafkaResult<Vec<ListedGroup>> {
        let mut listed = self
            .list_groups_leaving(types, states, Duration::ZERO)
            .await?;
        match listed.unanswered.pop() {
            Some(e) => Err(e),
            None => Ok(listed.groups),
        }
    }

    /// [`Cluster::list_groups`], all brokers asked at once, leaving `leave` of the session's
    /// time for the requests that follow, and keeping what the brokers that answered said
    /// when others did not (when none answered, it is an error).
    pub async fn list_groups_leaving(
        &mut self,
        types: &[&str],
        states: &[String],
        leave: Duration,
    ) -> KafkaResult<ListedGroups> {
        let req = list_groups_request(types, states);
        let types: Vec<String> = types.iter().map(|t| t.to_string()).collect();
        let _step = self.waits.begin(Awaited::Broker);
        let mut out: BTreeMap<String, ListedGroup> = BTreeMap::new();
        let mut pending: BTreeSet<i32> = self.broker_ids().into_iter().collect();
        let mut asked = BTreeSet::new();
        let mut failed: BTreeMap<i32, KafkaError> = BTreeMap::new();
        let mut attempt = 0;
        loop {
            let budget = self.remaining().saturating_sub(leave);
            let work = std::mem::take(&mut pending)
                .into_iter()
                .map(|id| (id, (req.clone(), types.clone())));
            let answers = self
                .fan_out(work, budget, Asked::Broker, |id, conn, (req, types)| {
                    list_groups_at(conn, id, req, types)
                })
                .await;
            for (id, answer) in answers {
                match answer {
                    Ok(groups) => {
                        crate::trace::line(|| {
                            let ids: Vec<&str> =
                                groups.iter().map(|g| g.group_id.as_str()).collect();
                            format!(
                                "broker {id} lists {} group(s) [{}]",
                                ids.len(),
                                ids.join(", ")
                            )
                        });
                        asked.insert(id);
                        failed.remove(&id);
                        out.extend(groups.into_iter().map(|g| (g.group_id.clone(), g)));
                    }
                    Err(e) if transient(&e) => {
                        self.note(format!("ListGroups on broker {id}: {e}; retrying"));
                        failed.insert(id, e);
                    }
                    Err(e) => return Err(e),
                }
            }
            if failed.is_empty() || !self.backoff_leaving(attempt, leave).await {
                break;
            }
            attempt += 1;
            // Who is in the cluster now: a broker that left is not asked again, a new one is.
            let _ = self.at_any(&Metadata(None)).await;
            let known: BTreeSet<i32> = self.broker_ids().into_iter().collect();
            failed.retain(|id, _| known.contains(id));
            pending = known.into_iter().filter(|id| !asked.contains(id)).collect();
        }
        if asked.is_empty() {
            if let Some((_, e)) = failed.pop_first() {
                return Err(e);
            }
        }
        // `the streams groups it coordinates are missing`, with the one type asked for.
        let what = match types.as_slice() {
            [one] => format!("the {one} groups it coordinates are"),
            _ => "the groups it coordinates are".to_string(),
        };
        let unanswered = failed
            .into_iter()
            .map(|(id, e)| KafkaError::NotAnswered {
                broker: self.node(id).map_or(format!("broker {id}"), |n| n.named()),
                what: what.clone(),
                cause: e.to_string(),
            })
            .collect();
        Ok(ListedGroups {
            groups: out.into_values().collect(),
            unanswered,
        })
    }

    /// Make [`Cluster::describe_groups`] ask for the topology descriptions brokers store (Kafka 4.4+
    /// with a description plugin); off by default, as it makes the broker call its plugin.
    pub fn ask_topology_descriptions(&mut self) {
        self.topology_descriptions = true;
    }

    /// StreamsGroupDescribe for `groups`, each group's coordinator filled in (with the topology
    /// description the broker stores, when asked for).
    pub async fn describe_groups(&mut self, groups: &[String]) -> KafkaResult<DescribedGroups> {
        self.describe_groups_leaving(groups, Duration::ZERO).await
    }

    /// [`Cluster::describe_groups`], leaving `leave` of the session's time for the requests
    /// that follow: a coordinator that does not answer is waited for (and looked for again)
    /// only until then, so that the groups whose coordinators answered can still be read on.
    pub async fn describe_groups_leaving(
        &mut self,
        groups: &[String],
        leave: Duration,
    ) -> KafkaResult<DescribedGroups> {
        crate::limits::check_group_ids(groups)?;
        let (raw, version) = self.describe_raw(groups, leave).await?;
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
    async fn describe_raw(
        &mut self,
        groups: &[String],
        leave: Duration,
    ) -> KafkaResult<(RawDescribed, i16)> {
        let _step = self.waits.begin(Awaited::Coordinator {
            groups: groups.to_vec(),
        });
        let mut results = BTreeMap::new();
        let mut pending: Vec<String> = groups.to_vec();
        let mut attempt = 0;
        let mut used_version = 0;
        while !pending.is_empty() {
            let coords = self.find_coordinators(&pending).await?;
            let budget = self.remaining().saturating_sub(leave);
            let (retry, mut last) = self
                .describe_round(&pending, &coords, &mut results, &mut used_version, budget)
                .await?;
            pending = retry;
            if !pending.is_empty() && !self.backoff_leaving(attempt, leave).await {
                for g in pending.drain(..) {
                    let (broker, cause) = last
                        .remove(&g)
                        .unwrap_or_else(|| ("its coordinator".into(), "no answer".into()));
                    let e = KafkaError::NotAnswered {
                        broker,
                        what: format!("streams group `{g}` is"),
                        cause,
                    };
                    results.insert(g, Err(e));
                }
            }
            attempt += 1;
        }
        Ok((results, used_version))
    }

    /// One StreamsGroupDescribe per coordinator, all at once within `budget`: the groups to
    /// ask again, and for each, its coordinator (`coordinator ID at HOST:PORT`) and why.
    async fn describe_round(
        &mut self,
        pending: &[String],
        coords: &BTreeMap<String, CoordinatorNode>,
        results: &mut RawDescribed,
        used_version: &mut i16,
        budget: std::time::Duration,
    ) -> KafkaResult<(Vec<String>, BTreeMap<String, (String, String)>)> {
        let mut by_coord: BTreeMap<i32, Vec<String>> = BTreeMap::new();
        for g in pending {
            if let Some(c) = coords.get(g) {
                by_coord.entry(c.id).or_default().push(g.clone());
            }
        }
        let descriptions = self.topology_descriptions;
        let work = by_coord.iter().map(|(n, gs)| (*n, gs.clone()));
        let answers = self
            .fan_out(work, budget, Asked::Coordinator, move |_, conn, groups| {
                describe_at(conn, groups, descriptions)
            })
            .await;
        let mut retry = Vec::new();
        let mut last = BTreeMap::new();
        let named = |c: &CoordinatorNode| format!("coordinator {} at {}", c.id, c.address());
        for (node, answer) in answers {
            let gs = by_coord.remove(&node).unwrap_or_default();
            let (version, resp) = match answer {
                Ok(answer) => answer,
                Err(e) if transient(&e) => {
                    let at = gs
                        .first()
                        .and_then(|g| coords.get(g))
                        .map_or(format!("coordinator {node}"), named);
                    self.note(format!("{at}: {e}; finding it again"));
                    for g in &gs {
                        last.insert(g.clone(), (at.clone(), e.to_string()));
                    }
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
                        let why = model::ErrorCode::from_code(code).name();
                        last.insert(g.group_id.clone(), (named(&c), why));
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
}

/// ListGroups of `types` (every type when empty) in `states` (every state when empty).
fn list_groups_request(types: &[&str], states: &[String]) -> ListGroupsRequest {
    ListGroupsRequest::default()
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
        )
}

/// ListGroups on broker `id`, on `conn`: the groups of `types` (every type when empty).
async fn list_groups_at(
    mut conn: Connection,
    id: i32,
    req: ListGroupsRequest,
    types: Vec<String>,
) -> Answer<Vec<ListedGroup>> {
    let resp: ListGroupsResponse = match conn.negotiated(ApiKey::ListGroups, 5, &req).await {
        Ok((_, resp)) => resp,
        Err(e) => return (None, Err(e)),
    };
    if resp.error_code != 0 {
        let e = KafkaError::broker(resp.error_code, None, format!("ListGroups on broker {id}"));
        return (Some(conn), Err(e));
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
    (Some(conn), Ok(out))
}

/// One StreamsGroupDescribe of `group_ids` to their coordinator, on `conn`: the version used
/// and the response.
async fn describe_at(
    mut conn: Connection,
    group_ids: Vec<String>,
    descriptions: bool,
) -> Answer<(i16, DescribeResponse)> {
    let Some(version) = conn.version_for(API_STREAMS_GROUP_DESCRIBE) else {
        let e = KafkaError::Unsupported {
            detail: format!(
                "broker {} does not offer StreamsGroupDescribe (API 89)",
                conn.addr
            ),
            hint: format!("{HINT_OLD_BROKER}; on 4.1 set unstable.api.versions.enable=true"),
        };
        return (Some(conn), Err(e));
    };
    let req = DescribeRequest {
        group_ids,
        include_authorized_operations: false,
        include_topology_description: descriptions && version >= 1,
    };
    let body = match req.encode(version) {
        Ok(b) => b,
        Err(e) => return (Some(conn), Err(KafkaError::Config(e.0))),
    };
    let bytes = match conn
        .roundtrip_raw(API_STREAMS_GROUP_DESCRIBE, version, &body, true, true)
        .await
    {
        Ok(b) => b,
        Err(e) => return (None, Err(e)),
    };
    let answer = DescribeResponse::decode(&bytes, version)
        .map(|resp| (version, resp))
        .map_err(|e| KafkaError::Protocol {
            addr: conn.addr.clone(),
            detail: format!("StreamsGroupDescribe v{version}: {e}"),
        });
    (Some(conn), answer)
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
