//! The coordinator's records, encoded as Apache's coordinator writes them: the inverse of
//! [`decode`](super::records::decode), for tests and fixtures. `tests/oracles/records.rs` checks
//! its bytes against Apache's own serializer.
//!
//! A nullable list whose default is empty (17's `LastAssignmentConfigs`, 22's
//! `AssignmentEpochs`) is written when null or not empty, as Apache writes it.
//!
//! Lists come out in the model's order: task sets by subtopology and partition (as Apache
//! sorts them), configs and client tags by key, each copartition group's topics by name (then
//! as indexes, source topics first, then regexes, then repartition sources). A tagged field at
//! its default is not written, as in Apache's generated writers.

use std::collections::BTreeMap;

use kafka::wire::Writer;
use model::assignment::Assignment;
use model::task_set::TaskSet;
use model::topology::{Subtopology, TopicInfo, Topology};

use super::records::{
    CoordinatorRecord, CurrentMemberAssignmentValue, MemberMetadataValue, OffsetCommitValue,
    StreamsGroupMetadataValue, TargetAssignmentMetadataValue,
};

/// The key and value bytes of `record` (the value `None` for a tombstone); `None` for an
/// `Unknown` record, which carries nothing to write.
pub fn encode(record: &CoordinatorRecord) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
    let mut k = Writer::new();
    k.i16(record.record_type());
    k.nullable_string(record.group_id());
    let value = match record {
        CoordinatorRecord::OffsetCommit {
            topic,
            partition,
            value,
            ..
        } => {
            k.nullable_string(Some(topic));
            k.i32(*partition);
            value.as_ref().map(offset_commit)
        }
        CoordinatorRecord::StreamsGroupMetadata { value, .. } => {
            value.as_ref().map(|v| versioned(|w| group_metadata(w, v)))
        }
        CoordinatorRecord::MemberMetadata {
            member_id, value, ..
        } => {
            k.nullable_string(Some(member_id));
            value.as_ref().map(|v| versioned(|w| member_metadata(w, v)))
        }
        CoordinatorRecord::TargetAssignmentMetadata { value, .. } => {
            value.as_ref().map(|v| versioned(|w| target_metadata(w, v)))
        }
        CoordinatorRecord::TargetAssignmentMember {
            member_id, value, ..
        } => {
            k.nullable_string(Some(member_id));
            value.as_ref().map(|v| versioned(|w| target_member(w, v)))
        }
        CoordinatorRecord::CurrentMemberAssignment {
            member_id, value, ..
        } => {
            k.nullable_string(Some(member_id));
            value
                .as_ref()
                .map(|v| versioned(|w| current_assignment(w, v)))
        }
        CoordinatorRecord::Topology { value, .. } => {
            value.as_ref().map(|v| versioned(|w| topology(w, v)))
        }
        CoordinatorRecord::Unknown { .. } => return None,
    };
    Some((k.into_bytes(), value))
}

/// A version-0 value: the int16 version, then the struct.
fn versioned(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    w.i16(0);
    f(&mut w);
    w.into_bytes()
}

/// A tagged-field section of `(tag, bytes)` fields, in tag order.
fn tagged(w: &mut Writer, fields: Vec<(u32, Vec<u8>)>) {
    w.uvarint(fields.len() as u32);
    for (tag, bytes) in fields {
        w.uvarint(tag);
        w.uvarint(bytes.len() as u32);
        w.buf.extend_from_slice(&bytes);
    }
}

fn field(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    f(&mut w);
    w.into_bytes()
}

fn key_values(w: &mut Writer, kvs: &BTreeMap<String, String>) {
    let kvs: Vec<(&String, &String)> = kvs.iter().collect();
    w.compact_array(&kvs, |w, (k, v)| {
        w.compact_string(k);
        w.compact_string(v);
        w.empty_tagged_fields();
    });
}

fn offset_commit(v: &OffsetCommitValue) -> Vec<u8> {
    let mut w = Writer::new();
    w.i16(v.version);
    w.i64(v.offset);
    if v.version >= 3 {
        w.i32(v.leader_epoch);
    }
    if v.version >= 4 {
        w.compact_string(&v.metadata);
    } else {
        w.nullable_string(Some(&v.metadata));
    }
    w.i64(v.commit_timestamp_ms);
    if v.version == 1 {
        w.i64(v.expire_timestamp_ms);
    }
    if v.version >= 4 {
        let id = v.topic_id.map(|id| (0, id.to_vec()));
        tagged(&mut w, id.into_iter().collect());
    }
    w.into_bytes()
}

fn group_metadata(w: &mut Writer, v: &StreamsGroupMetadataValue) {
    w.i32(v.epoch);
    w.i64(v.metadata_hash);
    let mut tags = Vec::new();
    if v.validated_topology_epoch != -1 {
        tags.push((0, v.validated_topology_epoch.to_be_bytes().to_vec()));
    }
    // The default is an empty list; null is written (as a null array).
    match &v.last_assignment_configs {
        None => tags.push((1, vec![0])),
        Some(configs) if !configs.is_empty() => tags.push((1, field(|w| key_values(w, configs)))),
        Some(_) => {}
    }
    if v.stored_description_topology_epoch != -1 {
        tags.push((
            2,
            v.stored_description_topology_epoch.to_be_bytes().to_vec(),
        ));
    }
    if v.failed_description_topology_epoch != -1 {
        tags.push((
            3,
            v.failed_description_topology_epoch.to_be_bytes().to_vec(),
        ));
    }
    tagged(w, tags);
}

fn member_metadata(w: &mut Writer, v: &MemberMetadataValue) {
    let who = &v.identity;
    w.compact_nullable_string(who.instance_id.as_deref());
    w.compact_nullable_string(who.rack_id.as_deref());
    w.compact_string(&who.client_id);
    w.compact_string(&who.client_host);
    w.i32(v.rebalance_timeout_ms);
    w.i32(v.topology_epoch);
    w.compact_string(&who.process_id);
    match &who.user_endpoint {
        None => w.i8(-1),
        Some(e) => {
            w.i8(1);
            w.compact_string(&e.host);
            w.u16(e.port);
            w.empty_tagged_fields();
        }
    }
    key_values(w, &who.client_tags);
    w.empty_tagged_fields();
}

fn target_metadata(w: &mut Writer, v: &TargetAssignmentMetadataValue) {
    w.i32(v.assignment_epoch);
    let ts = (v.assignment_timestamp_ms != 0)
        .then(|| (0, v.assignment_timestamp_ms.to_be_bytes().to_vec()));
    tagged(w, ts.into_iter().collect());
}

/// A `TaskIds` list; with `epochs`, an entry whose every partition has one carries them in tag 0.
fn task_ids(
    w: &mut Writer,
    tasks: &TaskSet,
    epochs: Option<&BTreeMap<String, BTreeMap<i32, i32>>>,
) {
    let ids = tasks.to_task_ids();
    w.compact_array(&ids, |w, e| {
        w.compact_string(&e.subtopology);
        w.compact_array(&e.partitions, |w, p| w.i32(*p));
        let of = epochs.and_then(|m| m.get(&e.subtopology));
        let all: Option<Vec<i32>> =
            of.and_then(|of| e.partitions.iter().map(|p| of.get(p).copied()).collect());
        match all {
            Some(all) => tagged(
                w,
                vec![(0, field(|w| w.compact_array(&all, |w, x| w.i32(*x))))],
            ),
            None => w.empty_tagged_fields(),
        }
    });
}

fn target_member(w: &mut Writer, v: &Assignment) {
    task_ids(w, &v.active, None);
    task_ids(w, &v.standby, None);
    task_ids(w, &v.warmup, None);
    w.empty_tagged_fields();
}

fn current_assignment(w: &mut Writer, v: &CurrentMemberAssignmentValue) {
    w.i32(v.member_epoch);
    w.i32(v.previous_member_epoch);
    w.i8(v.state);
    task_ids(w, &v.assigned.active, Some(&v.active_task_epochs));
    task_ids(w, &v.assigned.standby, None);
    task_ids(w, &v.assigned.warmup, None);
    task_ids(w, &v.pending_revocation.active, None);
    task_ids(w, &v.pending_revocation.standby, None);
    task_ids(w, &v.pending_revocation.warmup, None);
    w.empty_tagged_fields();
}

fn topology(w: &mut Writer, v: &Topology) {
    w.i32(v.epoch);
    w.compact_array(&v.subtopologies, subtopology);
    w.empty_tagged_fields();
}

fn topic_info(w: &mut Writer, t: &TopicInfo) {
    w.compact_string(&t.name);
    w.i32(t.partitions);
    w.i16(t.replication_factor);
    key_values(w, &t.topic_configs);
    w.empty_tagged_fields();
}

fn strings(w: &mut Writer, v: &[String]) {
    w.compact_array(v, |w, s| w.compact_string(s));
}

fn subtopology(w: &mut Writer, s: &Subtopology) {
    w.compact_string(&s.id);
    strings(w, &s.source_topics);
    strings(w, &s.source_topic_regex);
    w.compact_array(&s.state_changelog_topics, topic_info);
    strings(w, &s.repartition_sink_topics);
    w.compact_array(&s.repartition_source_topics, topic_info);
    let repartition: Vec<&str> = s
        .repartition_source_topics
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    let index = |list: &[&str], name: &str| {
        list.iter()
            .position(|x| *x == name)
            .and_then(|i| i16::try_from(i).ok())
    };
    let sources: Vec<&str> = s.source_topics.iter().map(String::as_str).collect();
    let regexes: Vec<&str> = s.source_topic_regex.iter().map(String::as_str).collect();
    w.compact_array(&s.copartition_groups, |w, group| {
        let mut lists: [Vec<i16>; 3] = Default::default();
        for name in group {
            // A name that is none of the subtopology's inputs is left out.
            if let Some(i) = index(&sources, name) {
                lists[0].push(i);
            } else if let Some(i) = index(&regexes, name) {
                lists[1].push(i);
            } else if let Some(i) = index(&repartition, name) {
                lists[2].push(i);
            }
        }
        for list in &lists {
            w.compact_array(list, |w, i| w.i16(*i));
        }
        w.empty_tagged_fields();
    });
    w.empty_tagged_fields();
}
