//! Cluster-level operations: bootstrap, coordinators, ListGroups on every broker,
//! StreamsGroupDescribe batched per coordinator, committed offsets, and offsets batched per
//! leader. It answers with protocol values; features compose them (`describe::live`).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kafka_protocol::messages::offset_fetch_request::OffsetFetchRequestGroup;
use kafka_protocol::messages::{
    ApiKey, BrokerId, DescribeConfigsRequest, DescribeConfigsResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, GroupId, ListGroupsRequest, ListGroupsResponse, ListOffsetsRequest,
    ListOffsetsResponse, MetadataRequest, MetadataResponse, OffsetFetchRequest,
    OffsetFetchResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;

use model::group::{CommittedOffsets, CoordinatorNode, GroupDescription};
use model::processor_graph::StoredDescription;

use super::codec::describe::{DescribeRequest, DescribeResponse, WireDescribedGroup};
use super::codec::fetch::{
    self, FetchRequest, FetchedPartition, API_FETCH, VERSION as FETCH_VERSION,
};
use super::config::ClientConfig;
use super::conn::{Connection, API_STREAMS_GROUP_DESCRIBE};
use super::error::{KafkaError, KafkaResult, HINT_OLD_BROKER};

mod admin;
mod retry;

use retry::{coordinator_moved, retriable_partition_code, transient, Metadata, Op};

/// Why a partition's offset could not be listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderlessOr {
    /// The partition has no leader to ask.
    NoLeader,
    /// Its leader answered with this error.
    Code(model::ErrorCode),
    /// Its leader could not be reached (until the deadline).
    Unreachable,
}

/// A group as ListGroups reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGroup {
    pub group_id: String,
    pub state: String,
    /// `consumer`, `classic`, `share` or `streams`.
    pub group_type: String,
}

#[derive(Clone, Debug)]
struct BrokerAddr {
    host: String,
    port: i32,
}

impl BrokerAddr {
    fn addr(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
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

/// A session with a cluster.
pub struct Cluster {
    cfg: ClientConfig,
    brokers: BTreeMap<i32, BrokerAddr>,
    conns: BTreeMap<i32, Connection>,
    deadline: Instant,
    pub verbose_log: Vec<String>,
    /// Ask StreamsGroupDescribe v1 for stored topology descriptions (KIP-1331).
    topology_descriptions: bool,
    /// Why each broker last failed to answer a request any broker could answer.
    any_errors: BTreeMap<i32, String>,
}

fn s(x: &StrBytes) -> String {
    x.to_string()
}

impl Cluster {
    /// Connect to the first bootstrap server that answers and learn the brokers.
    pub async fn connect(cfg: ClientConfig) -> KafkaResult<Cluster> {
        if cfg.bootstrap.is_empty() {
            return Err(KafkaError::NoBootstrap);
        }
        let deadline = Instant::now() + cfg.timeout;
        let (boot, md) = bootstrap_metadata(&cfg, deadline).await?;
        let brokers: BTreeMap<i32, BrokerAddr> = md
            .brokers
            .iter()
            .map(|b| {
                (
                    b.node_id.0,
                    BrokerAddr {
                        host: s(&b.host),
                        port: b.port,
                    },
                )
            })
            .collect();
        let mut conns = BTreeMap::new();
        if let Some((id, _)) = brokers.iter().find(|(_, b)| b.addr() == boot.addr) {
            conns.insert(*id, boot);
        } else if let Some(id) = brokers.keys().next().copied() {
            // Advertised names differ from the bootstrap name: keep the connection for the
            // first broker only if it is the only one (single-node clusters behind a proxy).
            if brokers.len() == 1 {
                conns.insert(id, boot);
            }
        }
        Ok(Cluster {
            cfg,
            brokers,
            conns,
            deadline,
            verbose_log: Vec::new(),
            topology_descriptions: false,
            any_errors: BTreeMap::new(),
        })
    }

    pub fn broker_ids(&self) -> Vec<i32> {
        self.brokers.keys().copied().collect()
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    async fn conn(&mut self, id: i32) -> KafkaResult<&mut Connection> {
        if !self.conns.contains_key(&id) {
            let addr = self.brokers.get(&id).map(BrokerAddr::addr).ok_or_else(|| {
                KafkaError::Protocol {
                    addr: format!("node {id}"),
                    detail: "broker not in the cluster metadata".into(),
                }
            })?;
            let c = Connection::open(&addr, &self.cfg).await?;
            self.conns.insert(id, c);
        }
        self.conns.get_mut(&id).ok_or_else(|| KafkaError::Protocol {
            addr: format!("node {id}"),
            detail: "connection lost".into(),
        })
    }

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

    /// FindCoordinator (key type 0, batched v4) at any broker that answers, with retries on
    /// the coordinator codes until the deadline.
    pub async fn find_coordinators(
        &mut self,
        groups: &[String],
    ) -> KafkaResult<BTreeMap<String, CoordinatorNode>> {
        let mut found = BTreeMap::new();
        let mut pending: Vec<String> = groups.to_vec();
        let mut attempt = 0;
        while !pending.is_empty() {
            let resp = self.at_any(&FindCoordinators(pending.clone())).await?;
            let mut retry = Vec::new();
            for c in resp.coordinators {
                let key = s(&c.key);
                match c.error_code {
                    0 => {
                        self.brokers.entry(c.node_id.0).or_insert(BrokerAddr {
                            host: s(&c.host),
                            port: c.port,
                        });
                        found.insert(
                            key,
                            CoordinatorNode {
                                id: c.node_id.0,
                                host: s(&c.host),
                                port: c.port,
                            },
                        );
                    }
                    code if coordinator_moved(code) => retry.push(key),
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

    async fn any_broker(&mut self) -> KafkaResult<i32> {
        if let Some(id) = self.conns.keys().next() {
            return Ok(*id);
        }
        self.brokers
            .keys()
            .next()
            .copied()
            .ok_or_else(|| KafkaError::Protocol {
                addr: "the cluster".into(),
                detail: "metadata lists no brokers".into(),
            })
    }

    /// One StreamsGroupDescribe to coordinator `node`: the version used and the response.
    async fn describe_at(
        &mut self,
        node: i32,
        group_ids: Vec<String>,
    ) -> KafkaResult<(i16, DescribeResponse)> {
        let descriptions = self.topology_descriptions;
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

    /// StreamsGroupDescribe for `groups`, batched per coordinator, retried on coordinator moves
    /// and on coordinators that cannot be reached, until the deadline.
    async fn describe_raw(&mut self, groups: &[String]) -> KafkaResult<(RawDescribed, i16)> {
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

    /// Committed offsets of a group (admin-style OffsetFetch, all topics) at its coordinator
    /// (`coordinator`, or the one found again when it moved or cannot be reached).
    pub async fn committed_offsets(
        &mut self,
        coordinator: i32,
        group: &str,
    ) -> KafkaResult<CommittedOffsets> {
        self.at_coordinator(group, Some(coordinator), &FetchCommitted(group.to_string()))
            .await
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

    /// ListOffsets at `timestamp` (-1 latest, -2 earliest), one request per leader; the
    /// partitions that failed become warnings.
    pub async fn offsets_at(
        &mut self,
        parts: &BTreeMap<(String, i32), i32>,
        timestamp: i64,
        warnings: &mut Vec<String>,
    ) -> KafkaResult<BTreeMap<(String, i32), i64>> {
        let mut out = BTreeMap::new();
        for ((t, p), r) in self.list_offsets_at(parts, timestamp).await? {
            match r {
                Ok(offset) => {
                    out.insert((t, p), offset);
                }
                Err(LeaderlessOr::NoLeader) => warnings.push(format!(
                    "no leader for partition {t}-{p}; its end offset is unknown"
                )),
                Err(LeaderlessOr::Code(code)) => {
                    warnings.push(format!("offset of {t}-{p} not available: {}", code.name()))
                }
                Err(LeaderlessOr::Unreachable) => warnings.push(format!(
                    "the leader of {t}-{p} could not be reached; its offset is unknown"
                )),
            }
        }
        Ok(out)
    }

    /// ListOffsets at `timestamp` (-1 latest, -2 earliest, else the first offset whose
    /// record timestamp is at or after it; -1 when there is none), one request per leader
    /// (`parts` maps each partition to its leader), with the answer of every partition. A
    /// partition without a leader, whose leader cannot be reached or answers that it is not
    /// the leader (or not yet), is asked again of the leader the metadata then names, until
    /// the deadline; after it, its last answer stands.
    pub async fn list_offsets_at(
        &mut self,
        parts: &BTreeMap<(String, i32), i32>,
        timestamp: i64,
    ) -> KafkaResult<BTreeMap<(String, i32), Result<i64, LeaderlessOr>>> {
        let mut out = BTreeMap::new();
        let mut pending = parts.clone();
        let mut attempt = 0;
        loop {
            let retry = self
                .list_offsets_round(&pending, timestamp, &mut out)
                .await?;
            if retry.is_empty() || !self.backoff(attempt).await {
                return Ok(out);
            }
            attempt += 1;
            let topics: BTreeSet<String> = retry.iter().map(|(t, _)| t.clone()).collect();
            let leaders = self.leaders(&topics).await?;
            pending = retry
                .into_iter()
                .map(|(t, p)| {
                    let leader = leaders.get(&t).and_then(|ps| ps.get(&p)).copied();
                    ((t, p), leader.unwrap_or(-1))
                })
                .collect();
        }
    }

    /// One ListOffsets per leader; every partition's answer goes into `out`, and the
    /// partitions a retry may fix are returned.
    async fn list_offsets_round(
        &mut self,
        parts: &BTreeMap<(String, i32), i32>,
        timestamp: i64,
        out: &mut BTreeMap<(String, i32), Result<i64, LeaderlessOr>>,
    ) -> KafkaResult<Vec<(String, i32)>> {
        let mut by_leader: BTreeMap<i32, BTreeMap<String, Vec<i32>>> = BTreeMap::new();
        let mut retry = Vec::new();
        for ((t, p), leader) in parts {
            if *leader < 0 {
                out.insert((t.clone(), *p), Err(LeaderlessOr::NoLeader));
                retry.push((t.clone(), *p));
                continue;
            }
            by_leader
                .entry(*leader)
                .or_default()
                .entry(t.clone())
                .or_default()
                .push(*p);
        }
        for (leader, topics) in by_leader {
            let resp = match self
                .list_offsets_at_leader(leader, &topics, timestamp)
                .await
            {
                Ok(resp) => resp,
                Err(e) if transient(&e) => {
                    self.note(format!("ListOffsets at broker {leader}: {e}; retrying"));
                    self.forget(leader);
                    for (t, ps) in topics {
                        for p in ps {
                            out.insert((t.clone(), p), Err(LeaderlessOr::Unreachable));
                            retry.push((t.clone(), p));
                        }
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            for t in resp.topics {
                for p in t.partitions {
                    let key = (t.name.to_string(), p.partition_index);
                    let r = match p.error_code {
                        0 => Ok(p.offset),
                        code => {
                            if retriable_partition_code(code) {
                                retry.push(key.clone());
                            }
                            Err(LeaderlessOr::Code(model::ErrorCode::from_code(code)))
                        }
                    };
                    out.insert(key, r);
                }
            }
        }
        Ok(retry)
    }

    async fn list_offsets_at_leader(
        &mut self,
        leader: i32,
        topics: &BTreeMap<String, Vec<i32>>,
        timestamp: i64,
    ) -> KafkaResult<ListOffsetsResponse> {
        let req = ListOffsetsRequest::default()
            .with_replica_id(BrokerId(-1))
            .with_isolation_level(0)
            .with_timeout_ms(self.remaining().as_millis().min(i32::MAX as u128) as i32)
            .with_topics(
                topics
                    .iter()
                    .map(|(t, ps)| {
                        ListOffsetsTopic::default()
                            .with_name(TopicName(StrBytes::from_string(t.clone())))
                            .with_partitions(
                                ps.iter()
                                    .map(|p| {
                                        ListOffsetsPartition::default()
                                            .with_partition_index(*p)
                                            .with_current_leader_epoch(-1)
                                            .with_timestamp(timestamp)
                                    })
                                    .collect(),
                            )
                    })
                    .collect(),
            );
        let conn = self.conn(leader).await?;
        let (_, resp): (i16, ListOffsetsResponse) =
            conn.negotiated(ApiKey::ListOffsets, 1, &req).await?;
        Ok(resp)
    }

    /// The log end offsets (the next offset to be written) of every partition of `topics`, as
    /// the partition leaders answer now; topics that do not exist are left out, and partitions
    /// without a leader or with an error are named in the warnings.
    pub async fn log_end_offsets(
        &mut self,
        topics: &BTreeSet<String>,
    ) -> KafkaResult<(BTreeMap<(String, i32), i64>, Vec<String>)> {
        let leaders = self.leaders(topics).await?;
        let parts: BTreeMap<(String, i32), i32> = leaders
            .into_iter()
            .flat_map(|(t, ps)| ps.into_iter().map(move |(p, l)| ((t.clone(), p), l)))
            .collect();
        let mut warnings = Vec::new();
        let ends = self.offsets_at(&parts, -1, &mut warnings).await?;
        Ok((ends, warnings))
    }

    /// Fetch v11 of one partition from its `leader`, read committed, from `offset`: at most
    /// `max_bytes` of record batches (always at least one whole batch), waiting at most
    /// `max_wait_ms` for data.
    pub async fn fetch(
        &mut self,
        leader: i32,
        request: &FetchRequest,
    ) -> KafkaResult<FetchedPartition> {
        let body = request.encode().map_err(|e| KafkaError::Config(e.0))?;
        let conn = self.conn(leader).await?;
        if conn.version_for(API_FETCH).is_none() {
            return Err(KafkaError::Unsupported {
                detail: format!("broker {} does not offer Fetch v{FETCH_VERSION}", conn.addr),
                hint: HINT_OLD_BROKER.into(),
            });
        }
        let bytes = conn
            .roundtrip_raw(API_FETCH, FETCH_VERSION, &body, false, false)
            .await?;
        let addr = conn.addr.clone();
        let decoded =
            fetch::decode_response(&bytes, &request.topic, request.partition).map_err(|e| {
                KafkaError::Protocol {
                    addr: addr.clone(),
                    detail: format!("Fetch v{FETCH_VERSION}: {e}"),
                }
            })?;
        decoded.ok_or_else(|| KafkaError::Protocol {
            addr,
            detail: format!(
                "Fetch v{FETCH_VERSION} answered without partition {}-{}",
                request.topic, request.partition
            ),
        })
    }

    /// Fetch like [`Cluster::fetch`] from the partition's leader, `leader` first: when it
    /// cannot be reached or answers that it is not (or no longer, or not yet) the leader, the
    /// leader the metadata then names is asked, until the deadline. The leader that answered,
    /// and its answer (any other partition error stays in it for the caller).
    pub async fn fetch_from_leader(
        &mut self,
        leader: i32,
        request: &FetchRequest,
    ) -> KafkaResult<(i32, FetchedPartition)> {
        let topics = BTreeSet::from([request.topic.clone()]);
        let mut node = leader;
        let mut attempt = 0;
        loop {
            let why = match self.fetch(node, request).await {
                Ok(f) if !retriable_partition_code(f.error_code) => return Ok((node, f)),
                Ok(f) => KafkaError::broker(f.error_code, None, format!("Fetch at broker {node}")),
                Err(e) if transient(&e) => e,
                Err(e) => return Err(e),
            };
            self.note(format!(
                "{}-{}: {why}; asking its leader again",
                request.topic, request.partition
            ));
            self.forget(node);
            if !self.backoff(attempt).await {
                return Err(why);
            }
            attempt += 1;
            let leaders = self.leaders(&topics).await?;
            let found = leaders
                .get(&request.topic)
                .and_then(|ps| ps.get(&request.partition));
            node = found.copied().filter(|l| *l >= 0).unwrap_or(node);
        }
    }

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

    /// Make [`Cluster::describe_groups`] ask for the topology descriptions brokers store (Kafka 4.4+
    /// with a description plugin); off by default, as it makes the broker call its plugin.
    pub fn ask_topology_descriptions(&mut self) {
        self.topology_descriptions = true;
    }

    /// StreamsGroupDescribe for `groups`, each group's coordinator filled in (with the topology
    /// description the broker stores, when asked for).
    pub async fn describe_groups(&mut self, groups: &[String]) -> KafkaResult<DescribedGroups> {
        super::limits::check_group_ids(groups)?;
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
}

/// FindCoordinator v4 for some groups.
struct FindCoordinators(Vec<String>);

impl Op for FindCoordinators {
    type Out = FindCoordinatorResponse;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<FindCoordinatorResponse> {
        let req = FindCoordinatorRequest::default()
            .with_key_type(0)
            .with_coordinator_keys(
                self.0
                    .iter()
                    .map(|g| StrBytes::from_string(g.clone()))
                    .collect(),
            );
        let conn = cluster.conn(node).await?;
        let (_, resp) = conn.negotiated(ApiKey::FindCoordinator, 4, &req).await?;
        Ok(resp)
    }
}

/// OffsetFetch (admin-style, all topics) of one group: its committed offsets, or the group's
/// error (a coordinator code makes [`Cluster::at_coordinator`] find the coordinator again).
struct FetchCommitted(String);

impl Op for FetchCommitted {
    type Out = CommittedOffsets;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<CommittedOffsets> {
        let group = &self.0;
        let conn = cluster.conn(node).await?;
        let req = OffsetFetchRequest::default()
            .with_groups(vec![OffsetFetchRequestGroup::default()
                .with_group_id(GroupId(StrBytes::from_string(group.to_string())))
                .with_member_id(None)
                .with_member_epoch(-1)
                .with_topics(None)])
            .with_require_stable(false);
        let (_, resp): (i16, OffsetFetchResponse) =
            conn.negotiated(ApiKey::OffsetFetch, 8, &req).await?;
        let mut out = BTreeMap::new();
        for g in resp.groups {
            if g.error_code != 0 {
                return Err(KafkaError::broker(
                    g.error_code,
                    None,
                    format!("committed offsets of `{group}`"),
                ));
            }
            for t in g.topics {
                for p in t.partitions {
                    if p.error_code == 0 && p.committed_offset >= 0 {
                        out.insert(
                            (t.name.to_string(), p.partition_index),
                            (p.committed_offset, p.committed_leader_epoch),
                        );
                    }
                }
            }
        }
        Ok(out)
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

/// A bootstrap connection and the cluster's brokers as it answers them. A bootstrap server
/// that goes away between answering ApiVersions and Metadata (a broker shutting down) is no
/// answer: the bootstrap list is tried again, until the deadline.
async fn bootstrap_metadata(
    cfg: &ClientConfig,
    deadline: Instant,
) -> KafkaResult<(Connection, MetadataResponse)> {
    let req = MetadataRequest::default()
        .with_topics(Some(Vec::new()))
        .with_allow_auto_topic_creation(false);
    let mut attempt = 0;
    loop {
        let mut boot = super::bootstrap::open_first(cfg).await?;
        match boot
            .negotiated::<_, MetadataResponse>(ApiKey::Metadata, 1, &req)
            .await
        {
            Ok((_, md)) => return Ok((boot, md)),
            Err(e) if transient(&e) => {
                let wait = retry::backoff_wait(attempt);
                if deadline.saturating_duration_since(Instant::now()) <= wait {
                    return Err(e);
                }
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
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

/// Run a future on a current-thread runtime (used by the commands).
pub fn block_on<F: std::future::Future>(fut: F) -> std::io::Result<F::Output> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(fut))
}
