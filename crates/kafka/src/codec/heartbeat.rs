//! StreamsGroupHeartbeat (API key 88), versions 0 and 1: request and response codecs in the
//! schema's wire order (wire-protocol reference §1.1), and conversion to and from the model's
//! [`HeartbeatRequest`] / [`HeartbeatResponse`].
//!
//! The model's copartition groups name their topics; the wire carries int16 indexes into the
//! subtopology's SourceTopics, SourceTopicRegex and RepartitionSourceTopics lists.

use std::collections::{BTreeMap, BTreeSet};

use model::codes::{ErrorCode, StatusCode};
use model::heartbeat::{
    Endpoint, EndpointPartitions, HeartbeatRequest, HeartbeatResponse, Status, TopicPartitions,
};
use model::task::TaskId;
use model::task_set::{TaskIds, TaskSet};
use model::topology::{Subtopology, Topology};

use super::super::wire::{DecodeError, DecodeResult, Reader, Writer};
use super::describe::{
    read_key_value, read_nullable_endpoint, read_task_ids, read_task_offset, read_topic_info,
    task_set_to_wire, topic_info, topic_info_to_wire, write_endpoint, write_key_values,
    write_nullable_endpoint, write_task_ids, write_task_offset, write_topic_info, WireTaskIds,
    WireTaskOffset, WireTopicInfo,
};
use super::EncodeError;

pub const API_KEY: i16 = 88;
pub const MAX_VERSION: i16 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireCopartitionGroup {
    pub source_topics: Vec<i16>,
    pub source_topic_regex: Vec<i16>,
    pub repartition_source_topics: Vec<i16>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireSubtopology {
    pub subtopology_id: String,
    pub source_topics: Vec<String>,
    pub source_topic_regex: Vec<String>,
    pub state_changelog_topics: Vec<WireTopicInfo>,
    pub repartition_sink_topics: Vec<String>,
    pub repartition_source_topics: Vec<WireTopicInfo>,
    pub copartition_groups: Vec<WireCopartitionGroup>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireTopology {
    pub epoch: i32,
    pub subtopologies: Vec<WireSubtopology>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireHeartbeatRequest {
    pub group_id: String,
    pub member_id: String,
    pub member_epoch: i32,
    pub endpoint_information_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub rebalance_timeout_ms: i32,
    pub topology: Option<WireTopology>,
    pub active_tasks: Option<Vec<WireTaskIds>>,
    pub standby_tasks: Option<Vec<WireTaskIds>>,
    pub warmup_tasks: Option<Vec<WireTaskIds>>,
    pub process_id: Option<String>,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Option<Vec<(String, String)>>,
    pub task_offsets: Option<Vec<WireTaskOffset>>,
    pub task_end_offsets: Option<Vec<WireTaskOffset>>,
    pub shutdown_application: bool,
}

impl Default for WireHeartbeatRequest {
    fn default() -> Self {
        WireHeartbeatRequest {
            group_id: String::new(),
            member_id: String::new(),
            member_epoch: 0,
            endpoint_information_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            topology: None,
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            process_id: None,
            user_endpoint: None,
            client_tags: None,
            task_offsets: None,
            task_end_offsets: None,
            shutdown_application: false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireTopicPartition {
    pub topic: String,
    pub partitions: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireEndpointToPartitions {
    pub user_endpoint: Endpoint,
    pub active_partitions: Vec<WireTopicPartition>,
    pub standby_partitions: Vec<WireTopicPartition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireHeartbeatResponse {
    pub throttle_time_ms: i32,
    pub error_code: i16,
    pub error_message: Option<String>,
    pub member_id: String,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    /// Version 0 only (int32).
    pub acceptable_recovery_lag_legacy: i32,
    pub task_offset_interval_ms: i32,
    /// Version 1+ (int64, ignorable, default -1).
    pub acceptable_recovery_lag: i64,
    pub status: Option<Vec<(i8, String)>>,
    pub active_tasks: Option<Vec<WireTaskIds>>,
    pub standby_tasks: Option<Vec<WireTaskIds>>,
    pub warmup_tasks: Option<Vec<WireTaskIds>>,
    /// Version 1+.
    pub topology_description_required: bool,
    pub endpoint_information_epoch: i32,
    pub partitions_by_user_endpoint: Option<Vec<WireEndpointToPartitions>>,
}

impl Default for WireHeartbeatResponse {
    fn default() -> Self {
        WireHeartbeatResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            member_id: String::new(),
            member_epoch: 0,
            heartbeat_interval_ms: 0,
            acceptable_recovery_lag_legacy: 0,
            task_offset_interval_ms: 0,
            acceptable_recovery_lag: -1,
            status: None,
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            topology_description_required: false,
            endpoint_information_epoch: 0,
            partitions_by_user_endpoint: None,
        }
    }
}

fn check_version(version: i16) -> Result<(), EncodeError> {
    if !(0..=MAX_VERSION).contains(&version) {
        return Err(EncodeError(format!(
            "StreamsGroupHeartbeat version {version} is not supported (0-{MAX_VERSION})"
        )));
    }
    Ok(())
}

fn write_strings(w: &mut Writer, v: &[String]) {
    w.compact_array(v, |w, s| w.compact_string(s));
}

fn read_strings(r: &mut Reader) -> DecodeResult<Vec<String>> {
    r.compact_array(|r| r.compact_string())
}

fn write_i16s(w: &mut Writer, v: &[i16]) {
    w.compact_array(v, |w, x| w.i16(*x));
}

fn write_subtopology(w: &mut Writer, s: &WireSubtopology) {
    w.compact_string(&s.subtopology_id);
    write_strings(w, &s.source_topics);
    write_strings(w, &s.source_topic_regex);
    w.compact_array(&s.state_changelog_topics, write_topic_info);
    write_strings(w, &s.repartition_sink_topics);
    w.compact_array(&s.repartition_source_topics, write_topic_info);
    w.compact_array(&s.copartition_groups, |w, g| {
        write_i16s(w, &g.source_topics);
        write_i16s(w, &g.source_topic_regex);
        write_i16s(w, &g.repartition_source_topics);
        w.empty_tagged_fields();
    });
    w.empty_tagged_fields();
}

fn read_subtopology(r: &mut Reader) -> DecodeResult<WireSubtopology> {
    let s = WireSubtopology {
        subtopology_id: r.compact_string()?,
        source_topics: read_strings(r)?,
        source_topic_regex: read_strings(r)?,
        state_changelog_topics: r.compact_array(read_topic_info)?,
        repartition_sink_topics: read_strings(r)?,
        repartition_source_topics: r.compact_array(read_topic_info)?,
        copartition_groups: r.compact_array(|r| {
            let g = WireCopartitionGroup {
                source_topics: r.compact_array(|r| r.i16())?,
                source_topic_regex: r.compact_array(|r| r.i16())?,
                repartition_source_topics: r.compact_array(|r| r.i16())?,
            };
            r.skip_tagged_fields()?;
            Ok(g)
        })?,
    };
    r.skip_tagged_fields()?;
    Ok(s)
}

fn write_task_ids_opt(w: &mut Writer, v: Option<&[WireTaskIds]>) {
    w.compact_nullable_array(v, write_task_ids);
}

impl WireHeartbeatRequest {
    pub fn encode(&self, version: i16) -> Result<Vec<u8>, EncodeError> {
        check_version(version)?;
        let mut w = Writer::new();
        w.compact_string(&self.group_id);
        w.compact_string(&self.member_id);
        w.i32(self.member_epoch);
        w.i32(self.endpoint_information_epoch);
        w.compact_nullable_string(self.instance_id.as_deref());
        w.compact_nullable_string(self.rack_id.as_deref());
        w.i32(self.rebalance_timeout_ms);
        match &self.topology {
            None => w.i8(-1),
            Some(t) => {
                w.i8(1);
                w.i32(t.epoch);
                w.compact_array(&t.subtopologies, write_subtopology);
                w.empty_tagged_fields();
            }
        }
        write_task_ids_opt(&mut w, self.active_tasks.as_deref());
        write_task_ids_opt(&mut w, self.standby_tasks.as_deref());
        write_task_ids_opt(&mut w, self.warmup_tasks.as_deref());
        w.compact_nullable_string(self.process_id.as_deref());
        write_nullable_endpoint(&mut w, self.user_endpoint.as_ref());
        match &self.client_tags {
            None => w.uvarint(0),
            Some(kvs) => write_key_values(&mut w, kvs),
        }
        w.compact_nullable_array(self.task_offsets.as_deref(), write_task_offset);
        w.compact_nullable_array(self.task_end_offsets.as_deref(), write_task_offset);
        w.bool(self.shutdown_application);
        w.empty_tagged_fields();
        Ok(w.into_bytes())
    }

    pub fn decode(bytes: &[u8], _version: i16) -> DecodeResult<Self> {
        let mut r = Reader::new(bytes);
        let group_id = r.compact_string()?;
        let member_id = r.compact_string()?;
        let member_epoch = r.i32()?;
        let endpoint_information_epoch = r.i32()?;
        let instance_id = r.compact_nullable_string()?;
        let rack_id = r.compact_nullable_string()?;
        let rebalance_timeout_ms = r.i32()?;
        let topology = if r.struct_present()? {
            let epoch = r.i32()?;
            let subtopologies = r.compact_array(read_subtopology)?;
            r.skip_tagged_fields()?;
            Some(WireTopology {
                epoch,
                subtopologies,
            })
        } else {
            None
        };
        let active_tasks = r.compact_nullable_array(read_task_ids)?;
        let standby_tasks = r.compact_nullable_array(read_task_ids)?;
        let warmup_tasks = r.compact_nullable_array(read_task_ids)?;
        let process_id = r.compact_nullable_string()?;
        let user_endpoint = read_nullable_endpoint(&mut r)?;
        let client_tags = r.compact_nullable_array(read_key_value)?;
        let task_offsets = r.compact_nullable_array(read_task_offset)?;
        let task_end_offsets = r.compact_nullable_array(read_task_offset)?;
        let shutdown_application = r.bool()?;
        r.skip_tagged_fields()?;
        r.expect_end()?;
        Ok(WireHeartbeatRequest {
            group_id,
            member_id,
            member_epoch,
            endpoint_information_epoch,
            instance_id,
            rack_id,
            rebalance_timeout_ms,
            topology,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            shutdown_application,
        })
    }
}

fn write_topic_partitions(w: &mut Writer, v: &[WireTopicPartition]) {
    w.compact_array(v, |w, tp| {
        w.compact_string(&tp.topic);
        w.compact_array(&tp.partitions, |w, p| w.i32(*p));
        w.empty_tagged_fields();
    });
}

fn read_topic_partitions(r: &mut Reader) -> DecodeResult<Vec<WireTopicPartition>> {
    r.compact_array(|r| {
        let topic = r.compact_string()?;
        let partitions = r.compact_array(|r| r.i32())?;
        r.skip_tagged_fields()?;
        Ok(WireTopicPartition { topic, partitions })
    })
}

impl WireHeartbeatResponse {
    pub fn encode(&self, version: i16) -> Result<Vec<u8>, EncodeError> {
        check_version(version)?;
        let mut w = Writer::new();
        w.i32(self.throttle_time_ms);
        w.i16(self.error_code);
        w.compact_nullable_string(self.error_message.as_deref());
        w.compact_string(&self.member_id);
        w.i32(self.member_epoch);
        w.i32(self.heartbeat_interval_ms);
        if version == 0 {
            w.i32(self.acceptable_recovery_lag_legacy);
        } else if self.acceptable_recovery_lag_legacy != 0 {
            return Err(EncodeError(
                "AcceptableRecoveryLagLegacy (int32) exists only in version 0".into(),
            ));
        }
        w.i32(self.task_offset_interval_ms);
        if version >= 1 {
            w.i64(self.acceptable_recovery_lag);
        }
        match &self.status {
            None => w.uvarint(0),
            Some(st) => w.compact_array(st, |w, (code, detail)| {
                w.i8(*code);
                w.compact_string(detail);
                w.empty_tagged_fields();
            }),
        }
        write_task_ids_opt(&mut w, self.active_tasks.as_deref());
        write_task_ids_opt(&mut w, self.standby_tasks.as_deref());
        write_task_ids_opt(&mut w, self.warmup_tasks.as_deref());
        if version >= 1 {
            w.bool(self.topology_description_required);
        } else if self.topology_description_required {
            return Err(EncodeError(
                "TopologyDescriptionRequired needs StreamsGroupHeartbeat v1".into(),
            ));
        }
        w.i32(self.endpoint_information_epoch);
        w.compact_nullable_array(self.partitions_by_user_endpoint.as_deref(), |w, e| {
            write_endpoint(w, &e.user_endpoint);
            write_topic_partitions(w, &e.active_partitions);
            write_topic_partitions(w, &e.standby_partitions);
            w.empty_tagged_fields();
        });
        w.empty_tagged_fields();
        Ok(w.into_bytes())
    }

    pub fn decode(bytes: &[u8], version: i16) -> DecodeResult<Self> {
        let mut r = Reader::new(bytes);
        let mut out = WireHeartbeatResponse {
            throttle_time_ms: r.i32()?,
            error_code: r.i16()?,
            error_message: r.compact_nullable_string()?,
            member_id: r.compact_string()?,
            member_epoch: r.i32()?,
            heartbeat_interval_ms: r.i32()?,
            ..WireHeartbeatResponse::default()
        };
        if version == 0 {
            out.acceptable_recovery_lag_legacy = r.i32()?;
        }
        out.task_offset_interval_ms = r.i32()?;
        if version >= 1 {
            out.acceptable_recovery_lag = r.i64()?;
        }
        out.status = r.compact_nullable_array(|r| {
            let code = r.i8()?;
            let detail = r.compact_string()?;
            r.skip_tagged_fields()?;
            Ok((code, detail))
        })?;
        out.active_tasks = r.compact_nullable_array(read_task_ids)?;
        out.standby_tasks = r.compact_nullable_array(read_task_ids)?;
        out.warmup_tasks = r.compact_nullable_array(read_task_ids)?;
        if version >= 1 {
            out.topology_description_required = r.bool()?;
        }
        out.endpoint_information_epoch = r.i32()?;
        out.partitions_by_user_endpoint = r.compact_nullable_array(|r| {
            let user_endpoint = super::describe::read_endpoint(r)?;
            let active_partitions = read_topic_partitions(r)?;
            let standby_partitions = read_topic_partitions(r)?;
            r.skip_tagged_fields()?;
            Ok(WireEndpointToPartitions {
                user_endpoint,
                active_partitions,
                standby_partitions,
            })
        })?;
        r.skip_tagged_fields()?;
        r.expect_end()?;
        Ok(out)
    }
}

// ---------------------------------------------------------------- model conversion

fn index_of(list: &[String], name: &str) -> Option<i16> {
    list.iter()
        .position(|x| x == name)
        .and_then(|i| i16::try_from(i).ok())
}

/// Model subtopology → wire: copartition topic names become indexes.
pub fn subtopology_to_wire(s: &Subtopology) -> Result<WireSubtopology, EncodeError> {
    let repart_names: Vec<String> = s
        .repartition_source_topics
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let mut groups = Vec::new();
    for g in &s.copartition_groups {
        let mut wg = WireCopartitionGroup::default();
        for name in g {
            if let Some(i) = index_of(&s.source_topics, name) {
                wg.source_topics.push(i);
            } else if let Some(i) = index_of(&s.source_topic_regex, name) {
                wg.source_topic_regex.push(i);
            } else if let Some(i) = index_of(&repart_names, name) {
                wg.repartition_source_topics.push(i);
            } else {
                return Err(EncodeError(format!(
                    "copartition group of subtopology {} names `{name}`, which is not one of its \
                     source, regex or repartition source topics",
                    s.id
                )));
            }
        }
        groups.push(wg);
    }
    Ok(WireSubtopology {
        subtopology_id: s.id.clone(),
        source_topics: s.source_topics.clone(),
        source_topic_regex: s.source_topic_regex.clone(),
        state_changelog_topics: s
            .state_changelog_topics
            .iter()
            .map(topic_info_to_wire)
            .collect(),
        repartition_sink_topics: s.repartition_sink_topics.clone(),
        repartition_source_topics: s
            .repartition_source_topics
            .iter()
            .map(topic_info_to_wire)
            .collect(),
        copartition_groups: groups,
    })
}

fn lookup(list: &[String], idx: i16, what: &str, sub: &str) -> DecodeResult<String> {
    usize::try_from(idx)
        .ok()
        .and_then(|i| list.get(i))
        .cloned()
        .ok_or_else(|| DecodeError {
            what: format!(
                "copartition group of subtopology {sub}: {what} index {idx} out of range"
            ),
            offset: 0,
        })
}

/// Wire subtopology → model: copartition indexes become topic names.
pub fn subtopology_from_wire(s: &WireSubtopology) -> DecodeResult<Subtopology> {
    let repart_names: Vec<String> = s
        .repartition_source_topics
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let mut groups = Vec::new();
    for g in &s.copartition_groups {
        let mut set = BTreeSet::new();
        for i in &g.source_topics {
            set.insert(lookup(
                &s.source_topics,
                *i,
                "source topic",
                &s.subtopology_id,
            )?);
        }
        for i in &g.source_topic_regex {
            set.insert(lookup(
                &s.source_topic_regex,
                *i,
                "regex",
                &s.subtopology_id,
            )?);
        }
        for i in &g.repartition_source_topics {
            set.insert(lookup(
                &repart_names,
                *i,
                "repartition source topic",
                &s.subtopology_id,
            )?);
        }
        groups.push(set);
    }
    Ok(Subtopology {
        id: s.subtopology_id.clone(),
        source_topics: s.source_topics.clone(),
        source_topic_regex: s.source_topic_regex.clone(),
        repartition_sink_topics: s.repartition_sink_topics.clone(),
        repartition_source_topics: s.repartition_source_topics.iter().map(topic_info).collect(),
        state_changelog_topics: s.state_changelog_topics.iter().map(topic_info).collect(),
        copartition_groups: groups,
    })
}

fn offsets_to_wire(m: &BTreeMap<TaskId, i64>) -> Vec<WireTaskOffset> {
    m.iter()
        .map(|(t, o)| WireTaskOffset {
            subtopology_id: t.subtopology.clone(),
            partition: t.partition,
            offset: *o,
        })
        .collect()
}

fn task_set_from_wire(v: &[WireTaskIds]) -> TaskSet {
    let ids: Vec<TaskIds> = v
        .iter()
        .map(|t| TaskIds {
            subtopology: t.subtopology_id.clone(),
            partitions: t.partitions.clone(),
        })
        .collect();
    TaskSet::from_task_ids(&ids)
}

impl WireHeartbeatRequest {
    pub fn from_model(m: &HeartbeatRequest) -> Result<Self, EncodeError> {
        let topology = match &m.topology {
            None => None,
            Some(t) => Some(WireTopology {
                epoch: t.epoch,
                subtopologies: t
                    .subtopologies
                    .iter()
                    .map(subtopology_to_wire)
                    .collect::<Result<_, _>>()?,
            }),
        };
        Ok(WireHeartbeatRequest {
            group_id: m.group_id.clone(),
            member_id: m.member_id.clone(),
            member_epoch: m.member_epoch,
            endpoint_information_epoch: m.endpoint_information_epoch,
            instance_id: m.instance_id.clone(),
            rack_id: m.rack_id.clone(),
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            topology,
            active_tasks: m.active_tasks.as_ref().map(task_set_to_wire),
            standby_tasks: m.standby_tasks.as_ref().map(task_set_to_wire),
            warmup_tasks: m.warmup_tasks.as_ref().map(task_set_to_wire),
            process_id: m.process_id.clone(),
            user_endpoint: m.user_endpoint.clone(),
            client_tags: m
                .client_tags
                .as_ref()
                .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            task_offsets: m.task_offsets.as_ref().map(offsets_to_wire),
            task_end_offsets: m.task_end_offsets.as_ref().map(offsets_to_wire),
            shutdown_application: m.shutdown_application,
        })
    }

    pub fn to_model(&self) -> DecodeResult<HeartbeatRequest> {
        let topology = match &self.topology {
            None => None,
            Some(t) => Some(Topology {
                epoch: t.epoch,
                subtopologies: t
                    .subtopologies
                    .iter()
                    .map(subtopology_from_wire)
                    .collect::<Result<_, _>>()?,
            }),
        };
        let offs = |v: &Vec<WireTaskOffset>| super::describe::task_offsets(v);
        Ok(HeartbeatRequest {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
            member_epoch: self.member_epoch,
            endpoint_information_epoch: self.endpoint_information_epoch,
            instance_id: self.instance_id.clone(),
            rack_id: self.rack_id.clone(),
            rebalance_timeout_ms: self.rebalance_timeout_ms,
            topology,
            active_tasks: self.active_tasks.as_deref().map(task_set_from_wire),
            standby_tasks: self.standby_tasks.as_deref().map(task_set_from_wire),
            warmup_tasks: self.warmup_tasks.as_deref().map(task_set_from_wire),
            process_id: self.process_id.clone(),
            user_endpoint: self.user_endpoint.clone(),
            client_tags: self
                .client_tags
                .as_ref()
                .map(|v| v.iter().cloned().collect()),
            task_offsets: self.task_offsets.as_ref().map(offs),
            task_end_offsets: self.task_end_offsets.as_ref().map(offs),
            shutdown_application: self.shutdown_application,
        })
    }
}

impl WireHeartbeatResponse {
    /// Wire form of a model response for `version` (v0 carries the recovery lag as int32,
    /// saturated).
    pub fn from_model(m: &HeartbeatResponse, version: i16) -> Self {
        let (legacy, lag) = if version == 0 {
            (
                i32::try_from(m.acceptable_recovery_lag).unwrap_or(
                    if m.acceptable_recovery_lag < 0 {
                        i32::MIN
                    } else {
                        i32::MAX
                    },
                ),
                -1,
            )
        } else {
            (0, m.acceptable_recovery_lag)
        };
        WireHeartbeatResponse {
            throttle_time_ms: m.throttle_time_ms,
            error_code: m.error.map(ErrorCode::code).unwrap_or(0),
            error_message: m.error_message.clone(),
            member_id: m.member_id.clone(),
            member_epoch: m.member_epoch,
            heartbeat_interval_ms: m.heartbeat_interval_ms,
            acceptable_recovery_lag_legacy: legacy,
            task_offset_interval_ms: m.task_offset_interval_ms,
            acceptable_recovery_lag: lag,
            status: m.status.as_ref().map(|v| {
                v.iter()
                    .map(|s| (s.code.code(), s.detail.clone()))
                    .collect()
            }),
            active_tasks: m.active_tasks.as_ref().map(task_set_to_wire),
            standby_tasks: m.standby_tasks.as_ref().map(task_set_to_wire),
            warmup_tasks: m.warmup_tasks.as_ref().map(task_set_to_wire),
            topology_description_required: false,
            endpoint_information_epoch: m.endpoint_information_epoch,
            partitions_by_user_endpoint: m.partitions_by_user_endpoint.as_ref().map(|v| {
                v.iter()
                    .map(|e| WireEndpointToPartitions {
                        user_endpoint: e.endpoint.clone(),
                        active_partitions: topic_partitions_to_wire(&e.active),
                        standby_partitions: topic_partitions_to_wire(&e.standby),
                    })
                    .collect()
            }),
        }
    }

    /// Model form (TopologyDescriptionRequired is not part of the model and is dropped; the
    /// topics of each PartitionsByUserEndpoint list are sorted by name, their partitions
    /// ascending, as the model keeps them).
    pub fn to_model(&self, version: i16) -> HeartbeatResponse {
        HeartbeatResponse {
            throttle_time_ms: self.throttle_time_ms,
            error: if self.error_code == 0 {
                None
            } else {
                Some(ErrorCode::from_code(self.error_code))
            },
            error_message: self.error_message.clone(),
            member_id: self.member_id.clone(),
            member_epoch: self.member_epoch,
            heartbeat_interval_ms: self.heartbeat_interval_ms,
            acceptable_recovery_lag: if version == 0 {
                i64::from(self.acceptable_recovery_lag_legacy)
            } else {
                self.acceptable_recovery_lag
            },
            task_offset_interval_ms: self.task_offset_interval_ms,
            status: self.status.as_ref().map(|v| {
                v.iter()
                    .map(|(c, d)| Status {
                        code: StatusCode::from_code(*c),
                        detail: d.clone(),
                    })
                    .collect()
            }),
            active_tasks: self.active_tasks.as_deref().map(task_set_from_wire),
            standby_tasks: self.standby_tasks.as_deref().map(task_set_from_wire),
            warmup_tasks: self.warmup_tasks.as_deref().map(task_set_from_wire),
            endpoint_information_epoch: self.endpoint_information_epoch,
            partitions_by_user_endpoint: self.partitions_by_user_endpoint.as_ref().map(|v| {
                v.iter()
                    .map(|e| EndpointPartitions {
                        endpoint: e.user_endpoint.clone(),
                        active: topic_partitions_from_wire(&e.active_partitions),
                        standby: topic_partitions_from_wire(&e.standby_partitions),
                    })
                    .collect()
            }),
        }
    }
}

fn topic_partitions_to_wire(v: &[TopicPartitions]) -> Vec<WireTopicPartition> {
    v.iter()
        .map(|t| WireTopicPartition {
            topic: t.topic.clone(),
            partitions: t.partitions.clone(),
        })
        .collect()
}

/// Sorted by topic, partitions ascending: brokers list them in hash-set order.
fn topic_partitions_from_wire(v: &[WireTopicPartition]) -> Vec<TopicPartitions> {
    let mut out: Vec<TopicPartitions> = v
        .iter()
        .map(|t| {
            let mut partitions = t.partitions.clone();
            partitions.sort_unstable();
            TopicPartitions {
                topic: t.topic.clone(),
                partitions,
            }
        })
        .collect();
    out.sort_by(|a, b| (&a.topic, &a.partitions).cmp(&(&b.topic, &b.partitions)));
    out
}

/// Encode a model heartbeat request for `version`.
pub fn encode_request(m: &HeartbeatRequest, version: i16) -> Result<Vec<u8>, EncodeError> {
    WireHeartbeatRequest::from_model(m)?.encode(version)
}

/// Decode a heartbeat response body into the model.
pub fn decode_response(bytes: &[u8], version: i16) -> DecodeResult<HeartbeatResponse> {
    Ok(WireHeartbeatResponse::decode(bytes, version)?.to_model(version))
}
