//! Offsets: a group's committed offsets (OffsetFetch at its coordinator) and the partitions'
//! offsets by time (ListOffsets, one request per leader).

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kafka_protocol::messages::offset_fetch_request::OffsetFetchRequestGroup;
use kafka_protocol::messages::{
    ApiKey, BrokerId, GroupId, ListOffsetsRequest, ListOffsetsResponse, OffsetFetchRequest,
    OffsetFetchResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;

use model::group::CommittedOffsets;

use super::fanout::Answer;
use super::retry::{retriable_partition_code, transient, Op};
use super::{Asked, Cluster};
use crate::conn::Connection;
use crate::error::{KafkaError, KafkaResult};
use model::wait::Awaited;

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

impl Cluster {
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

    /// Committed offsets of many groups (`groups` maps each to its coordinator): one
    /// OffsetFetch per coordinator for all its groups, as v8+ allows, instead of one round
    /// trip per group. A group whose coordinator moved or could not be reached is asked again
    /// alone, the way [`Cluster::committed_offsets`] asks; any other error is the answer.
    pub async fn committed_offsets_of(
        &mut self,
        groups: &BTreeMap<String, i32>,
    ) -> KafkaResult<BTreeMap<String, CommittedOffsets>> {
        let mut by_coordinator: BTreeMap<i32, Vec<String>> = BTreeMap::new();
        for (g, c) in groups {
            by_coordinator.entry(*c).or_default().push(g.clone());
        }
        let mut out = BTreeMap::new();
        let mut alone = Vec::new();
        // Every coordinator at once.
        let work = by_coordinator
            .iter()
            .map(|(n, gs)| (*n, offset_fetch_request(gs)));
        let answers = self
            .fan_out(
                work,
                self.remaining(),
                Asked::Coordinator,
                |_, conn, req| fetch_committed_on(conn, req),
            )
            .await;
        for (node, answer) in answers {
            let gs = by_coordinator.remove(&node).unwrap_or_default();
            match answer {
                Ok(answers) => {
                    for (g, r) in answers {
                        match r {
                            Ok(offsets) => {
                                out.insert(g, offsets);
                            }
                            Err(e) if transient(&e) => alone.push((g, node)),
                            Err(e) => return Err(e),
                        }
                    }
                }
                Err(e) if transient(&e) => {
                    self.note(format!("OffsetFetch at coordinator {node}: {e}; retrying"));
                    alone.extend(gs.into_iter().map(|g| (g, node)));
                }
                Err(e) => return Err(e),
            }
        }
        for (g, node) in alone {
            let offsets = self.committed_offsets(node, &g).await?;
            out.insert(g, offsets);
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
        let _step = self.waits.begin(Awaited::Broker);
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
        // Every leader at once: one that does not answer leaves its partitions unknown, not
        // the others'.
        let timeout_ms = self.remaining().as_millis().min(i32::MAX as u128) as i32;
        let work = by_leader
            .iter()
            .map(|(n, topics)| (*n, list_offsets_request(topics, timestamp, timeout_ms)));
        let answers = self
            .fan_out(work, self.remaining(), Asked::Broker, |_, conn, req| {
                list_offsets_at(conn, req)
            })
            .await;
        for (leader, answer) in answers {
            let topics = by_leader.remove(&leader).unwrap_or_default();
            let resp = match answer {
                Ok(resp) => resp,
                Err(e) if transient(&e) => {
                    self.note(format!("ListOffsets at broker {leader}: {e}; retrying"));
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
}

/// OffsetFetch (admin-style, all topics) of one group: its committed offsets, or the group's
/// error (a coordinator code makes [`Cluster::at_coordinator`] find the coordinator again).
struct FetchCommitted(String);

impl Op for FetchCommitted {
    type Out = CommittedOffsets;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<CommittedOffsets> {
        let group = &self.0;
        let mut answers = fetch_committed(cluster, node, std::slice::from_ref(group)).await?;
        answers.remove(group).unwrap_or_else(|| {
            Err(KafkaError::Protocol {
                addr: format!("node {node}"),
                detail: format!("OffsetFetch did not answer for `{group}`"),
            })
        })
    }
}

/// One OffsetFetch (admin-style, all topics) at `node` for `groups`: each group's committed
/// offsets or its error. A group the broker did not answer for is left out.
async fn fetch_committed(
    cluster: &mut Cluster,
    node: i32,
    groups: &[String],
) -> KafkaResult<BTreeMap<String, KafkaResult<CommittedOffsets>>> {
    let conn = cluster.conn(node).await?;
    let (_, resp): (i16, OffsetFetchResponse) = conn
        .negotiated(ApiKey::OffsetFetch, 8, &offset_fetch_request(groups))
        .await?;
    Ok(committed_of(resp))
}

/// [`fetch_committed`] on a connection of its own (for [`Cluster::fan_out`]).
async fn fetch_committed_on(
    mut conn: Connection,
    req: OffsetFetchRequest,
) -> Answer<BTreeMap<String, KafkaResult<CommittedOffsets>>> {
    match conn.negotiated(ApiKey::OffsetFetch, 8, &req).await {
        Ok((_, resp)) => (Some(conn), Ok(committed_of(resp))),
        Err(e) => (None, Err(e)),
    }
}

/// OffsetFetch of every topic of `groups`, for an admin (no member id or epoch).
fn offset_fetch_request(groups: &[String]) -> OffsetFetchRequest {
    OffsetFetchRequest::default()
        .with_groups(
            groups
                .iter()
                .map(|g| {
                    OffsetFetchRequestGroup::default()
                        .with_group_id(GroupId(StrBytes::from_string(g.clone())))
                        .with_member_id(None)
                        .with_member_epoch(-1)
                        .with_topics(None)
                })
                .collect(),
        )
        .with_require_stable(false)
}

/// Each group's committed offsets in `resp`, or its error.
fn committed_of(resp: OffsetFetchResponse) -> BTreeMap<String, KafkaResult<CommittedOffsets>> {
    let mut out = BTreeMap::new();
    for g in resp.groups {
        let group = g.group_id.to_string();
        if g.error_code != 0 {
            let what = format!("committed offsets of `{group}`");
            out.insert(group, Err(KafkaError::broker(g.error_code, None, what)));
            continue;
        }
        let mut offsets = CommittedOffsets::new();
        for t in g.topics {
            for p in t.partitions {
                if p.error_code == 0 && p.committed_offset >= 0 {
                    offsets.insert(
                        (t.name.to_string(), p.partition_index),
                        (p.committed_offset, p.committed_leader_epoch),
                    );
                }
            }
        }
        out.insert(group, Ok(offsets));
    }
    out
}

/// ListOffsets at `timestamp` of `topics`' partitions, asking the broker to answer within
/// `timeout_ms`.
fn list_offsets_request(
    topics: &BTreeMap<String, Vec<i32>>,
    timestamp: i64,
    timeout_ms: i32,
) -> ListOffsetsRequest {
    ListOffsetsRequest::default()
        .with_replica_id(BrokerId(-1))
        .with_isolation_level(0)
        .with_timeout_ms(timeout_ms)
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
        )
}

/// One ListOffsets on a leader's connection.
async fn list_offsets_at(
    mut conn: Connection,
    req: ListOffsetsRequest,
) -> Answer<ListOffsetsResponse> {
    match conn.negotiated(ApiKey::ListOffsets, 1, &req).await {
        Ok((_, resp)) => (Some(conn), Ok(resp)),
        Err(e) => (None, Err(e)),
    }
}
