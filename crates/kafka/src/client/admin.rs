//! The admin writes, as the Java Admin's streams-group methods send them: OffsetCommit as an
//! admin (generation -1, empty member id: the broker accepts it only while the group has no
//! members), OffsetDelete, DeleteGroups (to each group's coordinator) and DeleteTopics; and the
//! reads they need: group types, partitions and offsets by timestamp.

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::offset_commit_request::{
    OffsetCommitRequestPartition, OffsetCommitRequestTopic,
};
use kafka_protocol::messages::offset_delete_request::{
    OffsetDeleteRequestPartition, OffsetDeleteRequestTopic,
};
use kafka_protocol::messages::{
    ApiKey, DeleteGroupsRequest, DeleteGroupsResponse, DeleteTopicsRequest, DeleteTopicsResponse,
    GroupId, OffsetCommitRequest, OffsetCommitResponse, OffsetDeleteRequest, OffsetDeleteResponse,
    TopicName,
};
use kafka_protocol::protocol::StrBytes;

use super::retry::{coordinator_moved, Op};
use super::{Cluster, LeaderlessOr};
use crate::error::{KafkaError, KafkaResult};
use model::ErrorCode;

use model::TopicPartition;

fn name(s: &str) -> StrBytes {
    StrBytes::from_string(s.to_string())
}

/// Partitions grouped by topic, in order.
fn by_topic<'a>(
    parts: impl IntoIterator<Item = &'a TopicPartition>,
) -> BTreeMap<&'a str, Vec<i32>> {
    let mut out: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
    for (t, p) in parts {
        out.entry(t.as_str()).or_default().push(*p);
    }
    out
}

impl Cluster {
    /// ListOffsets for `parts` at `timestamp` (-2 earliest, -1 latest, else by record
    /// timestamp: -1 when no record is that recent), batched per leader. A partition that
    /// does not exist is absent.
    pub async fn offsets_for(
        &mut self,
        parts: &BTreeSet<TopicPartition>,
        timestamp: i64,
    ) -> KafkaResult<BTreeMap<TopicPartition, Result<i64, LeaderlessOr>>> {
        let topics: BTreeSet<String> = parts.iter().map(|(t, _)| t.clone()).collect();
        let leaders = self.leaders(&topics).await?;
        let with_leader: BTreeMap<TopicPartition, i32> = parts
            .iter()
            .filter_map(|(t, p)| {
                let l = leaders.get(t)?.get(p)?;
                Some(((t.clone(), *p), *l))
            })
            .collect();
        self.list_offsets_at(&with_leader, timestamp).await
    }

    /// OffsetCommit as an admin (generation -1, empty member id, no instance id) at the
    /// group's coordinator (`coordinator`, or the one found again when it moved or cannot be
    /// reached: the whole commit is sent again, which writes the same offsets): each
    /// partition's answer, or the last error when the deadline came first.
    pub async fn commit_offsets(
        &mut self,
        coordinator: i32,
        group: &str,
        offsets: &BTreeMap<TopicPartition, i64>,
    ) -> KafkaResult<BTreeMap<TopicPartition, ErrorCode>> {
        let op = Commit { group, offsets };
        self.at_coordinator(group, Some(coordinator), &op).await
    }

    /// OffsetDelete v0 at the group's coordinator (found again when it moved or cannot be
    /// reached): the group-level answer and each partition's.
    pub async fn delete_offsets(
        &mut self,
        coordinator: i32,
        group: &str,
        parts: &BTreeSet<TopicPartition>,
    ) -> KafkaResult<(ErrorCode, BTreeMap<TopicPartition, ErrorCode>)> {
        let op = DeleteOffsets { group, parts };
        self.at_coordinator(group, Some(coordinator), &op).await
    }

    async fn commit_offsets_at(
        &mut self,
        coordinator: i32,
        group: &str,
        offsets: &BTreeMap<TopicPartition, i64>,
    ) -> KafkaResult<BTreeMap<TopicPartition, ErrorCode>> {
        let topics = by_topic(offsets.keys())
            .into_iter()
            .map(|(t, ps)| {
                let partitions = ps
                    .iter()
                    .map(|p| {
                        OffsetCommitRequestPartition::default()
                            .with_partition_index(*p)
                            .with_committed_offset(offsets[&(t.to_string(), *p)])
                            .with_committed_leader_epoch(-1)
                            .with_committed_metadata(Some(StrBytes::from_static_str("")))
                    })
                    .collect();
                OffsetCommitRequestTopic::default()
                    .with_name(TopicName(name(t)))
                    .with_partitions(partitions)
            })
            .collect();
        let req = OffsetCommitRequest::default()
            .with_group_id(GroupId(name(group)))
            .with_generation_id_or_member_epoch(-1)
            .with_member_id(StrBytes::from_static_str(""))
            .with_group_instance_id(None)
            .with_retention_time_ms(-1)
            .with_topics(topics);
        let conn = self.conn(coordinator).await?;
        let (_, resp): (i16, OffsetCommitResponse) =
            conn.negotiated(ApiKey::OffsetCommit, 2, &req).await?;
        let mut out = BTreeMap::new();
        for t in resp.topics {
            for p in t.partitions {
                if coordinator_moved(p.error_code) {
                    return Err(KafkaError::broker(
                        p.error_code,
                        None,
                        format!("committing offsets of `{group}`"),
                    ));
                }
                out.insert(
                    (t.name.to_string(), p.partition_index),
                    ErrorCode::from_code(p.error_code),
                );
            }
        }
        Ok(out)
    }

    async fn delete_offsets_at(
        &mut self,
        coordinator: i32,
        group: &str,
        parts: &BTreeSet<TopicPartition>,
    ) -> KafkaResult<(ErrorCode, BTreeMap<TopicPartition, ErrorCode>)> {
        let topics = by_topic(parts)
            .into_iter()
            .map(|(t, ps)| {
                OffsetDeleteRequestTopic::default()
                    .with_name(TopicName(name(t)))
                    .with_partitions(
                        ps.iter()
                            .map(|p| {
                                OffsetDeleteRequestPartition::default().with_partition_index(*p)
                            })
                            .collect(),
                    )
            })
            .collect();
        let req = OffsetDeleteRequest::default()
            .with_group_id(GroupId(name(group)))
            .with_topics(topics);
        let conn = self.conn(coordinator).await?;
        let (_, resp): (i16, OffsetDeleteResponse) =
            conn.negotiated(ApiKey::OffsetDelete, 0, &req).await?;
        if coordinator_moved(resp.error_code) {
            return Err(KafkaError::broker(
                resp.error_code,
                None,
                format!("deleting offsets of `{group}`"),
            ));
        }
        let mut out = BTreeMap::new();
        for t in resp.topics {
            for p in t.partitions {
                out.insert(
                    (t.name.to_string(), p.partition_index),
                    ErrorCode::from_code(p.error_code),
                );
            }
        }
        Ok((ErrorCode::from_code(resp.error_code), out))
    }

    /// DeleteGroups, one request per coordinator: each group's answer.
    pub async fn delete_groups(
        &mut self,
        groups: &[String],
    ) -> KafkaResult<BTreeMap<String, ErrorCode>> {
        let coords = self.find_coordinators(groups).await?;
        let mut by_coord: BTreeMap<i32, Vec<String>> = BTreeMap::new();
        for g in groups {
            if let Some(c) = coords.get(g) {
                by_coord.entry(c.id).or_default().push(g.clone());
            }
        }
        let mut out = BTreeMap::new();
        for (node, gs) in by_coord {
            let req = DeleteGroupsRequest::default()
                .with_groups_names(gs.iter().map(|g| GroupId(name(g))).collect());
            let conn = self.conn(node).await?;
            let (_, resp): (i16, DeleteGroupsResponse) =
                conn.negotiated(ApiKey::DeleteGroups, 0, &req).await?;
            for r in resp.results {
                out.insert(r.group_id.to_string(), ErrorCode::from_code(r.error_code));
            }
        }
        Ok(out)
    }

    /// DeleteTopics by name (any broker forwards it to the controller): each topic's answer,
    /// with the broker's message if it gave one.
    pub async fn delete_topics(
        &mut self,
        topics: &[String],
    ) -> KafkaResult<BTreeMap<String, (ErrorCode, Option<String>)>> {
        let mut out = BTreeMap::new();
        if topics.is_empty() {
            return Ok(out);
        }
        let req = DeleteTopicsRequest::default()
            .with_topic_names(topics.iter().map(|t| TopicName(name(t))).collect())
            .with_timeout_ms(self.remaining().as_millis().min(i32::MAX as u128) as i32);
        let any = self.any_broker().await?;
        let conn = self.conn(any).await?;
        let (_, resp): (i16, DeleteTopicsResponse) =
            conn.negotiated(ApiKey::DeleteTopics, 1, &req).await?;
        for r in resp.responses {
            let Some(t) = r.name else { continue };
            out.insert(
                t.to_string(),
                (
                    ErrorCode::from_code(r.error_code),
                    r.error_message.map(|m| m.to_string()),
                ),
            );
        }
        Ok(out)
    }
}

/// One admin OffsetCommit (see [`Cluster::commit_offsets`]).
struct Commit<'a> {
    group: &'a str,
    offsets: &'a BTreeMap<TopicPartition, i64>,
}

impl Op for Commit<'_> {
    type Out = BTreeMap<TopicPartition, ErrorCode>;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<Self::Out> {
        cluster
            .commit_offsets_at(node, self.group, self.offsets)
            .await
    }
}

/// One OffsetDelete (see [`Cluster::delete_offsets`]).
struct DeleteOffsets<'a> {
    group: &'a str,
    parts: &'a BTreeSet<TopicPartition>,
}

impl Op for DeleteOffsets<'_> {
    type Out = (ErrorCode, BTreeMap<TopicPartition, ErrorCode>);
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<Self::Out> {
        cluster
            .delete_offsets_at(node, self.group, self.parts)
            .await
    }
}
