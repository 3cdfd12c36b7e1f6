//! StreamsGroupDescribe (API key 89), versions 0 and 1: request and response codecs, exactly in
//! the schema's wire order (see the wire-protocol reference, §1.2), and conversion of a described
//! group to the model's [`GroupDescription`].

use std::collections::BTreeMap;

use model::assignment::Assignment;
use model::group::{DescribedTopology, GroupDescription, MemberDescription};
use model::heartbeat::Endpoint;
use model::processor_graph::{
    NodeKind, ProcessorGraph, ProcessorNode, StoredDescription, SubtopologyGraph,
};
use model::task::TaskId;
use model::task_set::{TaskIds, TaskSet};
use model::topology::{Subtopology, TopicInfo};

use super::super::wire::{DecodeResult, Reader, Writer};
use super::EncodeError;

pub const API_KEY: i16 = 89;
/// Highest version this codec speaks.
pub const MAX_VERSION: i16 = 1;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DescribeRequest {
    pub group_ids: Vec<String>,
    pub include_authorized_operations: bool,
    /// Version 1 only.
    pub include_topology_description: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DescribeResponse {
    pub throttle_time_ms: i32,
    pub groups: Vec<WireDescribedGroup>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireDescribedGroup {
    pub error_code: i16,
    pub error_message: Option<String>,
    pub group_id: String,
    pub group_state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub topology: Option<WireDescribedTopology>,
    pub members: Vec<WireMember>,
    pub authorized_operations: i32,
    /// Version 1 only.
    pub topology_description: Option<TopologyDescription>,
    /// Version 1 only: 0 NOT_REQUESTED, 1 NOT_STORED, 2 ERROR, 3 AVAILABLE.
    pub topology_description_status: i8,
    /// Version 1 only (ignorable).
    pub assignor_name: Option<String>,
}

impl Default for WireDescribedGroup {
    fn default() -> Self {
        WireDescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::new(),
            group_state: String::new(),
            group_epoch: 0,
            assignment_epoch: 0,
            topology: None,
            members: Vec::new(),
            authorized_operations: i32::MIN,
            topology_description: None,
            topology_description_status: 0,
            assignor_name: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireDescribedTopology {
    pub epoch: i32,
    pub subtopologies: Option<Vec<WireDescribedSubtopology>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireDescribedSubtopology {
    pub subtopology_id: String,
    pub source_topics: Vec<String>,
    pub repartition_sink_topics: Vec<String>,
    pub state_changelog_topics: Vec<WireTopicInfo>,
    pub repartition_source_topics: Vec<WireTopicInfo>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireTopicInfo {
    pub name: String,
    pub partitions: i32,
    pub replication_factor: i16,
    pub topic_configs: Vec<(String, String)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireTaskOffset {
    pub subtopology_id: String,
    pub partition: i32,
    pub offset: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireTaskIds {
    pub subtopology_id: String,
    pub partitions: Vec<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireAssignment {
    pub active_tasks: Vec<WireTaskIds>,
    pub standby_tasks: Vec<WireTaskIds>,
    pub warmup_tasks: Vec<WireTaskIds>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WireMember {
    pub member_id: String,
    pub member_epoch: i32,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub topology_epoch: i32,
    pub process_id: String,
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: Vec<(String, String)>,
    pub task_offsets: Vec<WireTaskOffset>,
    pub task_end_offsets: Vec<WireTaskOffset>,
    pub assignment: WireAssignment,
    pub target_assignment: WireAssignment,
    pub is_classic: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopologyDescription {
    pub subtopologies: Vec<TopologyDescriptionSubtopology>,
    pub global_stores: Vec<TopologyDescriptionGlobalStore>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopologyDescriptionSubtopology {
    pub subtopology_id: String,
    pub nodes: Vec<TopologyDescriptionNode>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopologyDescriptionNode {
    pub name: String,
    /// 1 SOURCE, 2 PROCESSOR, 3 SINK.
    pub node_type: i8,
    pub source_topics: Vec<String>,
    pub sink_topic: Option<String>,
    pub stores: Vec<String>,
    pub successors: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopologyDescriptionGlobalStore {
    pub source: TopologyDescriptionNode,
    pub processor: TopologyDescriptionNode,
}

fn check_version(version: i16) -> Result<(), EncodeError> {
    if !(0..=MAX_VERSION).contains(&version) {
        return Err(EncodeError(format!(
            "StreamsGroupDescribe version {version} is not supported (0-{MAX_VERSION})"
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------- shared struct helpers

pub(crate) fn write_key_values(w: &mut Writer, kvs: &[(String, String)]) {
    w.compact_array(kvs, |w, (k, v)| {
        w.compact_string(k);
        w.compact_string(v);
        w.empty_tagged_fields();
    });
}

pub(crate) fn read_key_value(r: &mut Reader) -> DecodeResult<(String, String)> {
    let k = r.compact_string()?;
    let v = r.compact_string()?;
    r.skip_tagged_fields()?;
    Ok((k, v))
}

pub(crate) fn write_topic_info(w: &mut Writer, t: &WireTopicInfo) {
    w.compact_string(&t.name);
    w.i32(t.partitions);
    w.i16(t.replication_factor);
    write_key_values(w, &t.topic_configs);
    w.empty_tagged_fields();
}

pub(crate) fn read_topic_info(r: &mut Reader) -> DecodeResult<WireTopicInfo> {
    let name = r.compact_string()?;
    let partitions = r.i32()?;
    let replication_factor = r.i16()?;
    let topic_configs = r.compact_array(read_key_value)?;
    r.skip_tagged_fields()?;
    Ok(WireTopicInfo {
        name,
        partitions,
        replication_factor,
        topic_configs,
    })
}

pub(crate) fn write_endpoint(w: &mut Writer, e: &Endpoint) {
    w.compact_string(&e.host);
    w.u16(e.port);
    w.empty_tagged_fields();
}

pub(crate) fn read_endpoint(r: &mut Reader) -> DecodeResult<Endpoint> {
    let host = r.compact_string()?;
    let port = r.u16()?;
    r.skip_tagged_fields()?;
    Ok(Endpoint { host, port })
}

pub(crate) fn write_nullable_endpoint(w: &mut Writer, e: Option<&Endpoint>) {
    match e {
        None => w.i8(-1),
        Some(e) => {
            w.i8(1);
            write_endpoint(w, e);
        }
    }
}

pub(crate) fn read_nullable_endpoint(r: &mut Reader) -> DecodeResult<Option<Endpoint>> {
    if r.struct_present()? {
        Ok(Some(read_endpoint(r)?))
    } else {
        Ok(None)
    }
}

pub(crate) fn write_task_offset(w: &mut Writer, t: &WireTaskOffset) {
    w.compact_string(&t.subtopology_id);
    w.i32(t.partition);
    w.i64(t.offset);
    w.empty_tagged_fields();
}

pub(crate) fn read_task_offset(r: &mut Reader) -> DecodeResult<WireTaskOffset> {
    let subtopology_id = r.compact_string()?;
    let partition = r.i32()?;
    let offset = r.i64()?;
    r.skip_tagged_fields()?;
    Ok(WireTaskOffset {
        subtopology_id,
        partition,
        offset,
    })
}

pub(crate) fn write_task_ids(w: &mut Writer, t: &WireTaskIds) {
    w.compact_string(&t.subtopology_id);
    w.compact_array(&t.partitions, |w, p| w.i32(*p));
    w.empty_tagged_fields();
}

pub(crate) fn read_task_ids(r: &mut Reader) -> DecodeResult<WireTaskIds> {
    let subtopology_id = r.compact_string()?;
    let partitions = r.compact_array(|r| r.i32())?;
    r.skip_tagged_fields()?;
    Ok(WireTaskIds {
        subtopology_id,
        partitions,
    })
}

fn write_strings(w: &mut Writer, v: &[String]) {
    w.compact_array(v, |w, s| w.compact_string(s));
}

fn read_strings(r: &mut Reader) -> DecodeResult<Vec<String>> {
    r.compact_array(|r| r.compact_string())
}

// ---------------------------------------------------------------- request

impl DescribeRequest {
    pub fn encode(&self, version: i16) -> Result<Vec<u8>, EncodeError> {
        check_version(version)?;
        if version < 1 && self.include_topology_description {
            return Err(EncodeError(
                "IncludeTopologyDescription needs StreamsGroupDescribe v1 (Kafka 4.4+)".into(),
            ));
        }
        let mut w = Writer::new();
        write_strings(&mut w, &self.group_ids);
        w.bool(self.include_authorized_operations);
        if version >= 1 {
            w.bool(self.include_topology_description);
        }
        w.empty_tagged_fields();
        Ok(w.into_bytes())
    }

    pub fn decode(bytes: &[u8], version: i16) -> DecodeResult<Self> {
        let mut r = Reader::new(bytes);
        let group_ids = read_strings(&mut r)?;
        let include_authorized_operations = r.bool()?;
        let include_topology_description = if version >= 1 { r.bool()? } else { false };
        r.skip_tagged_fields()?;
        r.expect_end()?;
        Ok(DescribeRequest {
            group_ids,
            include_authorized_operations,
            include_topology_description,
        })
    }
}

// ---------------------------------------------------------------- response

fn write_assignment(w: &mut Writer, a: &WireAssignment) {
    w.compact_array(&a.active_tasks, write_task_ids);
    w.compact_array(&a.standby_tasks, write_task_ids);
    w.compact_array(&a.warmup_tasks, write_task_ids);
    w.empty_tagged_fields();
}

fn read_assignment(r: &mut Reader) -> DecodeResult<WireAssignment> {
    let active_tasks = r.compact_array(read_task_ids)?;
    let standby_tasks = r.compact_array(read_task_ids)?;
    let warmup_tasks = r.compact_array(read_task_ids)?;
    r.skip_tagged_fields()?;
    Ok(WireAssignment {
        active_tasks,
        standby_tasks,
        warmup_tasks,
    })
}

fn write_member(w: &mut Writer, m: &WireMember) {
    w.compact_string(&m.member_id);
    w.i32(m.member_epoch);
    w.compact_nullable_string(m.instance_id.as_deref());
    w.compact_nullable_string(m.rack_id.as_deref());
    w.compact_string(&m.client_id);
    w.compact_string(&m.client_host);
    w.i32(m.topology_epoch);
    w.compact_string(&m.process_id);
    write_nullable_endpoint(w, m.user_endpoint.as_ref());
    write_key_values(w, &m.client_tags);
    w.compact_array(&m.task_offsets, write_task_offset);
    w.compact_array(&m.task_end_offsets, write_task_offset);
    write_assignment(w, &m.assignment);
    write_assignment(w, &m.target_assignment);
    w.bool(m.is_classic);
    w.empty_tagged_fields();
}

fn read_member(r: &mut Reader) -> DecodeResult<WireMember> {
    let m = WireMember {
        member_id: r.compact_string()?,
        member_epoch: r.i32()?,
        instance_id: r.compact_nullable_string()?,
        rack_id: r.compact_nullable_string()?,
        client_id: r.compact_string()?,
        client_host: r.compact_string()?,
        topology_epoch: r.i32()?,
        process_id: r.compact_string()?,
        user_endpoint: read_nullable_endpoint(r)?,
        client_tags: r.compact_array(read_key_value)?,
        task_offsets: r.compact_array(read_task_offset)?,
        task_end_offsets: r.compact_array(read_task_offset)?,
        assignment: read_assignment(r)?,
        target_assignment: read_assignment(r)?,
        is_classic: r.bool()?,
    };
    r.skip_tagged_fields()?;
    Ok(m)
}

fn write_subtopology(w: &mut Writer, s: &WireDescribedSubtopology) {
    w.compact_string(&s.subtopology_id);
    write_strings(w, &s.source_topics);
    write_strings(w, &s.repartition_sink_topics);
    w.compact_array(&s.state_changelog_topics, write_topic_info);
    w.compact_array(&s.repartition_source_topics, write_topic_info);
    w.empty_tagged_fields();
}

fn read_subtopology(r: &mut Reader) -> DecodeResult<WireDescribedSubtopology> {
    let s = WireDescribedSubtopology {
        subtopology_id: r.compact_string()?,
        source_topics: read_strings(r)?,
        repartition_sink_topics: read_strings(r)?,
        state_changelog_topics: r.compact_array(read_topic_info)?,
        repartition_source_topics: r.compact_array(read_topic_info)?,
    };
    r.skip_tagged_fields()?;
    Ok(s)
}

fn write_node(w: &mut Writer, n: &TopologyDescriptionNode) {
    w.compact_string(&n.name);
    w.i8(n.node_type);
    write_strings(w, &n.source_topics);
    w.compact_nullable_string(n.sink_topic.as_deref());
    write_strings(w, &n.stores);
    write_strings(w, &n.successors);
    w.empty_tagged_fields();
}

fn read_node(r: &mut Reader) -> DecodeResult<TopologyDescriptionNode> {
    let n = TopologyDescriptionNode {
        name: r.compact_string()?,
        node_type: r.i8()?,
        source_topics: read_strings(r)?,
        sink_topic: r.compact_nullable_string()?,
        stores: read_strings(r)?,
        successors: read_strings(r)?,
    };
    r.skip_tagged_fields()?;
    Ok(n)
}

fn write_topology_description(w: &mut Writer, d: &TopologyDescription) {
    w.compact_array(&d.subtopologies, |w, s| {
        w.compact_string(&s.subtopology_id);
        w.compact_array(&s.nodes, write_node);
        w.empty_tagged_fields();
    });
    w.compact_array(&d.global_stores, |w, g| {
        write_node(w, &g.source);
        write_node(w, &g.processor);
        w.empty_tagged_fields();
    });
    w.empty_tagged_fields();
}

fn read_topology_description(r: &mut Reader) -> DecodeResult<TopologyDescription> {
    let subtopologies = r.compact_array(|r| {
        let subtopology_id = r.compact_string()?;
        let nodes = r.compact_array(read_node)?;
        r.skip_tagged_fields()?;
        Ok(TopologyDescriptionSubtopology {
            subtopology_id,
            nodes,
        })
    })?;
    let global_stores = r.compact_array(|r| {
        let source = read_node(r)?;
        let processor = read_node(r)?;
        r.skip_tagged_fields()?;
        Ok(TopologyDescriptionGlobalStore { source, processor })
    })?;
    r.skip_tagged_fields()?;
    Ok(TopologyDescription {
        subtopologies,
        global_stores,
    })
}

fn write_group(w: &mut Writer, g: &WireDescribedGroup, version: i16) -> Result<(), EncodeError> {
    w.i16(g.error_code);
    w.compact_nullable_string(g.error_message.as_deref());
    w.compact_string(&g.group_id);
    w.compact_string(&g.group_state);
    w.i32(g.group_epoch);
    w.i32(g.assignment_epoch);
    match &g.topology {
        None => w.i8(-1),
        Some(t) => {
            w.i8(1);
            w.i32(t.epoch);
            w.compact_nullable_array(t.subtopologies.as_deref(), write_subtopology);
            w.empty_tagged_fields();
        }
    }
    w.compact_array(&g.members, write_member);
    w.i32(g.authorized_operations);
    if version >= 1 {
        match &g.topology_description {
            None => w.i8(-1),
            Some(d) => {
                w.i8(1);
                write_topology_description(w, d);
            }
        }
        w.i8(g.topology_description_status);
        w.compact_nullable_string(g.assignor_name.as_deref());
    } else if g.topology_description.is_some() || g.topology_description_status != 0 {
        return Err(EncodeError(
            "TopologyDescription needs StreamsGroupDescribe v1".into(),
        ));
    }
    // AssignorName is ignorable: silently dropped below v1.
    w.empty_tagged_fields();
    Ok(())
}

fn read_group(r: &mut Reader, version: i16) -> DecodeResult<WireDescribedGroup> {
    let error_code = r.i16()?;
    let error_message = r.compact_nullable_string()?;
    let group_id = r.compact_string()?;
    let group_state = r.compact_string()?;
    let group_epoch = r.i32()?;
    let assignment_epoch = r.i32()?;
    let topology = if r.struct_present()? {
        let epoch = r.i32()?;
        let subtopologies = r.compact_nullable_array(read_subtopology)?;
        r.skip_tagged_fields()?;
        Some(WireDescribedTopology {
            epoch,
            subtopologies,
        })
    } else {
        None
    };
    let members = r.compact_array(read_member)?;
    let authorized_operations = r.i32()?;
    let (topology_description, topology_description_status, assignor_name) = if version >= 1 {
        let d = if r.struct_present()? {
            Some(read_topology_description(r)?)
        } else {
            None
        };
        (d, r.i8()?, r.compact_nullable_string()?)
    } else {
        (None, 0, None)
    };
    r.skip_tagged_fields()?;
    Ok(WireDescribedGroup {
        error_code,
        error_message,
        group_id,
        group_state,
        group_epoch,
        assignment_epoch,
        topology,
        members,
        authorized_operations,
        topology_description,
        topology_description_status,
        assignor_name,
    })
}

impl DescribeResponse {
    pub fn encode(&self, version: i16) -> Result<Vec<u8>, EncodeError> {
        check_version(version)?;
        let mut w = Writer::new();
        w.i32(self.throttle_time_ms);
        w.compact_array_try(&self.groups, |w, g| write_group(w, g, version))?;
        w.empty_tagged_fields();
        Ok(w.into_bytes())
    }

    pub fn decode(bytes: &[u8], version: i16) -> DecodeResult<Self> {
        let mut r = Reader::new(bytes);
        let throttle_time_ms = r.i32()?;
        let groups = r.compact_array(|r| read_group(r, version))?;
        r.skip_tagged_fields()?;
        r.expect_end()?;
        Ok(DescribeResponse {
            throttle_time_ms,
            groups,
        })
    }
}

impl Writer {
    /// A compact array whose elements may fail to encode.
    pub fn compact_array_try<T>(
        &mut self,
        items: &[T],
        mut f: impl FnMut(&mut Writer, &T) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        self.uvarint(u32::try_from(items.len() + 1).unwrap_or(u32::MAX));
        for it in items {
            f(self, it)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- conversion to the model

fn task_set(ids: &[WireTaskIds]) -> TaskSet {
    let ids: Vec<TaskIds> = ids
        .iter()
        .map(|t| TaskIds {
            subtopology: t.subtopology_id.clone(),
            partitions: t.partitions.clone(),
        })
        .collect();
    TaskSet::from_task_ids(&ids)
}

pub(crate) fn task_set_to_wire(set: &TaskSet) -> Vec<WireTaskIds> {
    set.to_task_ids()
        .into_iter()
        .map(|t| WireTaskIds {
            subtopology_id: t.subtopology,
            partitions: t.partitions,
        })
        .collect()
}

fn assignment(a: &WireAssignment) -> Assignment {
    Assignment {
        active: task_set(&a.active_tasks),
        standby: task_set(&a.standby_tasks),
        warmup: task_set(&a.warmup_tasks),
    }
}

pub(crate) fn task_offsets(v: &[WireTaskOffset]) -> BTreeMap<TaskId, i64> {
    v.iter()
        .map(|t| (TaskId::new(t.subtopology_id.clone(), t.partition), t.offset))
        .collect()
}

pub(crate) fn topic_info(t: &WireTopicInfo) -> TopicInfo {
    TopicInfo {
        name: t.name.clone(),
        partitions: t.partitions,
        replication_factor: t.replication_factor,
        topic_configs: t.topic_configs.iter().cloned().collect(),
    }
}

pub(crate) fn topic_info_to_wire(t: &TopicInfo) -> WireTopicInfo {
    WireTopicInfo {
        name: t.name.clone(),
        partitions: t.partitions,
        replication_factor: t.replication_factor,
        topic_configs: t
            .topic_configs
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    }
}

impl WireMember {
    pub fn to_model(&self) -> MemberDescription {
        MemberDescription {
            member_id: self.member_id.clone(),
            member_epoch: self.member_epoch,
            instance_id: self.instance_id.clone(),
            rack_id: self.rack_id.clone(),
            client_id: self.client_id.clone(),
            client_host: self.client_host.clone(),
            topology_epoch: self.topology_epoch,
            process_id: self.process_id.clone(),
            user_endpoint: self.user_endpoint.clone(),
            client_tags: self.client_tags.iter().cloned().collect(),
            task_offsets: task_offsets(&self.task_offsets),
            task_end_offsets: task_offsets(&self.task_end_offsets),
            assignment: assignment(&self.assignment),
            target_assignment: assignment(&self.target_assignment),
            is_classic: self.is_classic,
            endpoint_partitions: None,
        }
    }

    /// The wire form of a model member (used by tests and the oracle comparison).
    pub fn from_model(m: &MemberDescription) -> WireMember {
        let offs = |o: &BTreeMap<TaskId, i64>| {
            o.iter()
                .map(|(t, off)| WireTaskOffset {
                    subtopology_id: t.subtopology.clone(),
                    partition: t.partition,
                    offset: *off,
                })
                .collect()
        };
        let asg = |a: &Assignment| WireAssignment {
            active_tasks: task_set_to_wire(&a.active),
            standby_tasks: task_set_to_wire(&a.standby),
            warmup_tasks: task_set_to_wire(&a.warmup),
        };
        WireMember {
            member_id: m.member_id.clone(),
            member_epoch: m.member_epoch,
            instance_id: m.instance_id.clone(),
            rack_id: m.rack_id.clone(),
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            topology_epoch: m.topology_epoch,
            process_id: m.process_id.clone(),
            user_endpoint: m.user_endpoint.clone(),
            client_tags: m
                .client_tags
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            task_offsets: offs(&m.task_offsets),
            task_end_offsets: offs(&m.task_end_offsets),
            assignment: asg(&m.assignment),
            target_assignment: asg(&m.target_assignment),
            is_classic: m.is_classic,
        }
    }
}

impl WireDescribedSubtopology {
    pub fn to_model(&self) -> Subtopology {
        Subtopology {
            id: self.subtopology_id.clone(),
            source_topics: self.source_topics.clone(),
            source_topic_regex: Vec::new(),
            repartition_sink_topics: self.repartition_sink_topics.clone(),
            repartition_source_topics: self
                .repartition_source_topics
                .iter()
                .map(topic_info)
                .collect(),
            state_changelog_topics: self.state_changelog_topics.iter().map(topic_info).collect(),
            copartition_groups: Vec::new(),
        }
    }
}

impl TopologyDescriptionNode {
    fn to_model(&self) -> ProcessorNode {
        let kind = match self.node_type {
            1 => NodeKind::Source {
                topics: self.source_topics.clone(),
                pattern: None,
            },
            3 => NodeKind::Sink {
                topic: self.sink_topic.clone(),
            },
            _ => NodeKind::Processor {
                stores: self.stores.clone(),
            },
        };
        ProcessorNode {
            name: self.name.clone(),
            kind,
            successors: self.successors.clone(),
        }
    }
}

impl TopologyDescription {
    /// The processor graph; global stores become sub-topologies `global-0`, `global-1`, ...
    /// (the description gives them no id).
    pub fn to_model(&self) -> ProcessorGraph {
        let subs = self.subtopologies.iter().map(|s| SubtopologyGraph {
            id: s.subtopology_id.clone(),
            global: false,
            nodes: s
                .nodes
                .iter()
                .map(TopologyDescriptionNode::to_model)
                .collect(),
        });
        let globals = self
            .global_stores
            .iter()
            .enumerate()
            .map(|(i, g)| SubtopologyGraph {
                id: format!("global-{i}"),
                global: true,
                nodes: vec![g.source.to_model(), g.processor.to_model()],
            });
        ProcessorGraph {
            subtopologies: subs.chain(globals).collect(),
        }
    }
}

impl WireDescribedGroup {
    /// The stored topology description, as the status says (v1; `NotRequested` below).
    pub fn stored_description(&self) -> StoredDescription {
        match (self.topology_description_status, &self.topology_description) {
            (3, Some(d)) => StoredDescription::Available(d.to_model()),
            (1, _) => StoredDescription::NotStored,
            (2, _) => StoredDescription::Failed,
            _ => StoredDescription::NotRequested,
        }
    }

    /// The model form; coordinator and offsets are filled in by the caller.
    pub fn to_model(&self) -> GroupDescription {
        let topology = match &self.topology {
            Some(t) => DescribedTopology {
                epoch: t.epoch,
                subtopologies: t
                    .subtopologies
                    .as_ref()
                    .map(|v| v.iter().map(WireDescribedSubtopology::to_model).collect()),
            },
            None => DescribedTopology::default(),
        };
        let mut members: Vec<MemberDescription> =
            self.members.iter().map(WireMember::to_model).collect();
        let member_order = members.iter().map(|m| m.member_id.clone()).collect();
        members.sort_by(|a, b| (&a.process_id, &a.member_id).cmp(&(&b.process_id, &b.member_id)));
        GroupDescription {
            member_order,
            group_id: self.group_id.clone(),
            state: self.group_state.clone(),
            group_epoch: self.group_epoch,
            target_assignment_epoch: self.assignment_epoch,
            coordinator: None,
            topology,
            members,
            offsets: Vec::new(),
            assignor: self.assignor_name.clone(),
            configs: None,
        }
    }
}
