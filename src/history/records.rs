//! The group coordinator's records, decoded: one `__consumer_offsets` record's key and value
//! bytes in, typed values out. Pure and I/O-free; it never panics, whatever the bytes.
//!
//! Framing (Apache's `CoordinatorRecordSerde`, reference kafka-group-records.md A1):
//! * the **key** is an int16 record type, then the key struct at version 0, not flexible
//!   (int16-length strings, no tagged fields); its first field is always the group id, so
//!   [`group_of`] can drop other groups' records without decoding them;
//! * the **value** is an int16 version, then the value struct. The streams records (types 17 and
//!   19-23) have only version 0, which is flexible: compact strings and arrays (unsigned varint of
//!   length + 1, 0 = null), nullable structs behind an int8 marker, and a tagged-field section at
//!   the end of every struct. Releases added fields as tagged fields without a version bump
//!   (4.2: 17's `ValidatedTopologyEpoch` and `LastAssignmentConfigs`, 22's per-task assignment
//!   epochs; 4.3: 20's `AssignmentTimestamp`; 4.4: 17's topology-description epochs), so a tag
//!   this decoder does not know is skipped and counted ([`Decoded::unknown_tagged_fields`]);
//! * a **tombstone** is the key with no value: what the key names is removed.
//!
//! Offsets are ordinary type-1 records (`OffsetCommitValue` versions 0-4; 4 is flexible).
//! Other record types (classic and consumer groups, share groups) come back as
//! [`CoordinatorRecord::Unknown`], not as errors. Like Apache's deserializer, bytes left after a
//! struct are not an error; they are counted ([`Decoded::trailing_bytes`]).

use std::collections::BTreeMap;
use std::fmt;

use coordinator::member::MemberState;
use kafka::wire::{DecodeError, DecodeResult, Reader};
use model::assignment::Assignment;
use model::heartbeat::Endpoint;
use model::task_set::{TaskIds, TaskSet};
use model::topology::{Subtopology, TopicInfo, Topology};
use model::MemberIdentity;

/// Record type ids (the key's first int16; Apache's generated `CoordinatorRecordType`).
pub mod record_type {
    /// Offsets written by brokers before KIP-915 (never for streams groups).
    pub const LEGACY_OFFSET_COMMIT: i16 = 0;
    pub const OFFSET_COMMIT: i16 = 1;
    /// A classic group's metadata.
    pub const GROUP_METADATA: i16 = 2;
    pub const STREAMS_GROUP_METADATA: i16 = 17;
    pub const STREAMS_GROUP_MEMBER_METADATA: i16 = 19;
    pub const STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA: i16 = 20;
    pub const STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER: i16 = 21;
    pub const STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT: i16 = 22;
    pub const STREAMS_GROUP_TOPOLOGY: i16 = 23;
}

use record_type::*;

/// The kind of group a record type belongs to (Apache's `CoordinatorRecordType`; reference
/// kafka-group-records.md): offset commits (types 0 and 1) belong to every kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    Classic,
    Consumer,
    Share,
    Streams,
}

impl GroupKind {
    /// The kind of group that writes records of `record_type`; `None` for offset commits and
    /// types no release defines.
    pub fn of_record_type(record_type: i16) -> Option<GroupKind> {
        match record_type {
            GROUP_METADATA => Some(GroupKind::Classic),
            3..=8 | 16 => Some(GroupKind::Consumer),
            10..=15 => Some(GroupKind::Share),
            STREAMS_GROUP_METADATA..=STREAMS_GROUP_TOPOLOGY => Some(GroupKind::Streams),
            _ => None,
        }
    }

    /// The kind whose record came last among `record_types` (in log order): what the group
    /// id belongs to now, when it was used for another kind of group before.
    pub fn of_log(record_types: impl IntoIterator<Item = i16>) -> Option<GroupKind> {
        record_types
            .into_iter()
            .filter_map(GroupKind::of_record_type)
            .last()
    }

    /// As `ListGroups` names the group type.
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Classic => "classic",
            GroupKind::Consumer => "consumer",
            GroupKind::Share => "share",
            GroupKind::Streams => "streams",
        }
    }
}

/// One decoded record. Every variant but `Unknown` carries its key's fields and the value; a
/// value of `None` is a tombstone (the key with a null value: what the key names is removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordinatorRecord {
    /// Type 1: an offset the group committed (streams groups commit like consumer groups).
    /// Tombstone: the offset was deleted or expired.
    OffsetCommit {
        group_id: String,
        topic: String,
        partition: i32,
        value: Option<OffsetCommitValue>,
    },
    /// Type 17: the group epoch. Tombstone: the group was deleted.
    StreamsGroupMetadata {
        group_id: String,
        value: Option<StreamsGroupMetadataValue>,
    },
    /// Type 19: a member's metadata. Tombstone: the member left or was fenced.
    MemberMetadata {
        group_id: String,
        member_id: String,
        value: Option<MemberMetadataValue>,
    },
    /// Type 20: the epoch (and, from 4.3, the time) of the target assignment. Tombstone: only
    /// when the group is deleted.
    TargetAssignmentMetadata {
        group_id: String,
        value: Option<TargetAssignmentMetadataValue>,
    },
    /// Type 21: one member's target tasks (written only for members whose target changed).
    /// Tombstone: the member's target is removed.
    TargetAssignmentMember {
        group_id: String,
        member_id: String,
        value: Option<Assignment>,
    },
    /// Type 22: one member's epoch, state and tasks. Tombstone: the member's epoch becomes -1
    /// and its tasks are cleared.
    CurrentMemberAssignment {
        group_id: String,
        member_id: String,
        value: Option<CurrentMemberAssignmentValue>,
    },
    /// Type 23: the group's topology (one per group lifetime). Tombstone: the topology is dropped,
    /// the last record of a group deletion.
    Topology {
        group_id: String,
        value: Option<Topology>,
    },
    /// Any other record type, not decoded (classic, consumer and share groups, future types).
    Unknown { record_type: i16 },
}

/// The value of a StreamsGroupMetadata record (type 17). The tagged fields a release lacks
/// read as their defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamsGroupMetadataValue {
    /// The group epoch.
    pub epoch: i32,
    /// Hash of the metadata of every topic the group uses.
    pub metadata_hash: i64,
    /// The topology epoch last validated against the topics (tag 0, 4.2+; -1 = none).
    pub validated_topology_epoch: i32,
    /// The assignment configs (e.g. `num.standby.replicas`) of the last epoch bump (tag 1,
    /// 4.2+). Apache's default is an empty list, which is not written (so a 4.1 record reads as
    /// empty too); `None` only when null was written.
    pub last_assignment_configs: Option<BTreeMap<String, String>>,
    /// The topology epoch whose description the plugin stored (tag 2, 4.4+; -1 = none, -2 =
    /// uncertain).
    pub stored_description_topology_epoch: i32,
    /// The topology epoch whose description failed to store (tag 3, 4.4+; -1 = none).
    pub failed_description_topology_epoch: i32,
}

impl StreamsGroupMetadataValue {
    /// A value with `epoch` and `metadata_hash` and every tagged field at its default.
    pub fn new(epoch: i32, metadata_hash: i64) -> Self {
        StreamsGroupMetadataValue {
            epoch,
            metadata_hash,
            validated_topology_epoch: -1,
            last_assignment_configs: Some(BTreeMap::new()),
            stored_description_topology_epoch: -1,
            failed_description_topology_epoch: -1,
        }
    }
}

/// The value of a StreamsGroupMemberMetadata record (type 19); unchanged since 4.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberMetadataValue {
    /// Who the member is (instance, rack, client id and host, process, endpoint, tags).
    pub identity: MemberIdentity,
    pub rebalance_timeout_ms: i32,
    pub topology_epoch: i32,
}

/// The value of a StreamsGroupTargetAssignmentMetadata record (type 20).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetAssignmentMetadataValue {
    pub assignment_epoch: i32,
    /// When the assignment computation finished (tag 0, 4.3+; 0 when not written).
    pub assignment_timestamp_ms: i64,
}

/// The value of a StreamsGroupCurrentMemberAssignment record (type 22).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentMemberAssignmentValue {
    /// -2: a static member that left temporarily.
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    /// 1 STABLE, 2 UNREVOKED_TASKS, 3 UNRELEASED_TASKS, 127 UNKNOWN ([`Self::member_state`]).
    pub state: i8,
    /// The tasks the member owns now.
    pub assigned: Assignment,
    /// The assignment epoch of each active task (subtopology -> partition -> epoch), from 4.2
    /// (tag 0 of each active `TaskIds`, parallel to its partitions). A task missing here takes
    /// the member epoch, as Apache's replay does when the list is absent or its length differs
    /// from the partitions'.
    pub active_task_epochs: BTreeMap<String, BTreeMap<i32, i32>>,
    /// The tasks the member still has to revoke.
    pub pending_revocation: Assignment,
}

impl CurrentMemberAssignmentValue {
    /// The state as the local coordinator names it; `None` for UNKNOWN (127) or another code.
    pub fn member_state(&self) -> Option<MemberState> {
        match self.state {
            1 => Some(MemberState::Stable),
            2 => Some(MemberState::UnrevokedTasks),
            3 => Some(MemberState::UnreleasedTasks),
            _ => None,
        }
    }
}

/// The value of an OffsetCommit record (type 1), at any version 0-4.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetCommitValue {
    /// The value's version: 4 (flexible) as brokers write it, 1 when an expiry time is set.
    pub version: i16,
    pub offset: i64,
    /// The partition leader's epoch (version 3+; -1 = none).
    pub leader_epoch: i32,
    pub metadata: String,
    pub commit_timestamp_ms: i64,
    /// Version 1 only; -1 otherwise.
    pub expire_timestamp_ms: i64,
    /// The topic id (tag 0 of version 4); `None` when not written (the zero UUID).
    pub topic_id: Option<[u8; 16]>,
}

/// A decoded record and what the decoder skipped to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub record: CoordinatorRecord,
    /// Tagged fields this decoder does not know (written by a newer release), skipped.
    pub unknown_tagged_fields: usize,
    /// Bytes after the key struct and after the value struct, ignored (Apache ignores them too).
    pub trailing_bytes: usize,
}

/// Which half of a record failed to decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPart {
    Key,
    Value,
}

/// A record whose bytes do not decode: which record, which half, what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// `None` when the key is too short to hold a type.
    pub record_type: Option<i16>,
    pub part: RecordPart,
    pub what: String,
    /// Byte offset in the key or value.
    pub offset: usize,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = match self.part {
            RecordPart::Key => "key",
            RecordPart::Value => "value",
        };
        match self.record_type {
            Some(t) => write!(f, "{} record ({t}) {part}", type_name(t))?,
            None => write!(f, "record {part}")?,
        }
        write!(f, ": {} at byte {}", self.what, self.offset)
    }
}

impl std::error::Error for RecordError {}

/// Apache's name of a record type.
pub fn type_name(record_type: i16) -> &'static str {
    match record_type {
        LEGACY_OFFSET_COMMIT => "LegacyOffsetCommit",
        OFFSET_COMMIT => "OffsetCommit",
        GROUP_METADATA => "GroupMetadata",
        STREAMS_GROUP_METADATA => "StreamsGroupMetadata",
        STREAMS_GROUP_MEMBER_METADATA => "StreamsGroupMemberMetadata",
        STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA => "StreamsGroupTargetAssignmentMetadata",
        STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER => "StreamsGroupTargetAssignmentMember",
        STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT => "StreamsGroupCurrentMemberAssignment",
        STREAMS_GROUP_TOPOLOGY => "StreamsGroupTopology",
        _ => "unknown",
    }
}

impl CoordinatorRecord {
    /// The record type id of the key.
    pub fn record_type(&self) -> i16 {
        match self {
            CoordinatorRecord::OffsetCommit { .. } => OFFSET_COMMIT,
            CoordinatorRecord::StreamsGroupMetadata { .. } => STREAMS_GROUP_METADATA,
            CoordinatorRecord::MemberMetadata { .. } => STREAMS_GROUP_MEMBER_METADATA,
            CoordinatorRecord::TargetAssignmentMetadata { .. } => {
                STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA
            }
            CoordinatorRecord::TargetAssignmentMember { .. } => {
                STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER
            }
            CoordinatorRecord::CurrentMemberAssignment { .. } => {
                STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT
            }
            CoordinatorRecord::Topology { .. } => STREAMS_GROUP_TOPOLOGY,
            CoordinatorRecord::Unknown { record_type } => *record_type,
        }
    }

    /// The group the record belongs to (`None` for an unknown type, which is not decoded).
    pub fn group_id(&self) -> Option<&str> {
        match self {
            CoordinatorRecord::OffsetCommit { group_id, .. }
            | CoordinatorRecord::StreamsGroupMetadata { group_id, .. }
            | CoordinatorRecord::MemberMetadata { group_id, .. }
            | CoordinatorRecord::TargetAssignmentMetadata { group_id, .. }
            | CoordinatorRecord::TargetAssignmentMember { group_id, .. }
            | CoordinatorRecord::CurrentMemberAssignment { group_id, .. }
            | CoordinatorRecord::Topology { group_id, .. } => Some(group_id),
            CoordinatorRecord::Unknown { .. } => None,
        }
    }

    /// The member the record is about, for the member records (19, 21, 22).
    pub fn member_id(&self) -> Option<&str> {
        match self {
            CoordinatorRecord::MemberMetadata { member_id, .. }
            | CoordinatorRecord::TargetAssignmentMember { member_id, .. }
            | CoordinatorRecord::CurrentMemberAssignment { member_id, .. } => Some(member_id),
            _ => None,
        }
    }

    /// A key with a null value (never true for `Unknown`, whose value is not looked at).
    /// The tombstone of this record: the same key with a null value.
    pub fn tombstone(&self) -> CoordinatorRecord {
        let mut r = self.clone();
        match &mut r {
            CoordinatorRecord::OffsetCommit { value, .. } => *value = None,
            CoordinatorRecord::StreamsGroupMetadata { value, .. } => *value = None,
            CoordinatorRecord::MemberMetadata { value, .. } => *value = None,
            CoordinatorRecord::TargetAssignmentMetadata { value, .. } => *value = None,
            CoordinatorRecord::TargetAssignmentMember { value, .. } => *value = None,
            CoordinatorRecord::CurrentMemberAssignment { value, .. } => *value = None,
            CoordinatorRecord::Topology { value, .. } => *value = None,
            CoordinatorRecord::Unknown { .. } => {}
        }
        r
    }

    pub fn is_tombstone(&self) -> bool {
        match self {
            CoordinatorRecord::OffsetCommit { value, .. } => value.is_none(),
            CoordinatorRecord::StreamsGroupMetadata { value, .. } => value.is_none(),
            CoordinatorRecord::MemberMetadata { value, .. } => value.is_none(),
            CoordinatorRecord::TargetAssignmentMetadata { value, .. } => value.is_none(),
            CoordinatorRecord::TargetAssignmentMember { value, .. } => value.is_none(),
            CoordinatorRecord::CurrentMemberAssignment { value, .. } => value.is_none(),
            CoordinatorRecord::Topology { value, .. } => value.is_none(),
            CoordinatorRecord::Unknown { .. } => false,
        }
    }
}

// ---------------------------------------------------------------------------- the cheap filter

/// The record type and group id of a key, reading nothing more: every record type's key starts
/// with the group id (`group` or `GroupId`), so a reader can drop other groups' records (and
/// types it does not want) without decoding them. `None` when the key is too short or the
/// group id is null or not UTF-8.
pub fn group_of(key: &[u8]) -> Option<(i16, &str)> {
    let mut r = Reader::new(key);
    let record_type = r.i16().ok()?;
    let group = key_string(&mut r).ok()?;
    Some((record_type, group))
}

/// A non-nullable int16-length string of a key, borrowed.
fn key_string<'a>(r: &mut Reader<'a>) -> DecodeResult<&'a str> {
    let n = r.i16()?;
    if n < 0 {
        return r.err("null in a non-nullable string");
    }
    let at = r.position();
    let bytes = r.bytes(n as usize)?;
    std::str::from_utf8(bytes).map_err(|_| DecodeError {
        what: "string is not UTF-8".into(),
        offset: at,
    })
}

// ---------------------------------------------------------------------------- decode

/// What decoding one record counted.
#[derive(Default)]
struct Counts {
    unknown_tagged_fields: usize,
    trailing_bytes: usize,
}

/// Decode one record of `__consumer_offsets`: `key` is the record's key, `value` its value
/// (`None` for a tombstone). An unknown record type is `CoordinatorRecord::Unknown` (its key is
/// not decoded); malformed bytes are an error saying what was wrong and where.
pub fn decode(key: &[u8], value: Option<&[u8]>) -> Result<Decoded, RecordError> {
    let mut k = Reader::new(key);
    let t = k.i16().map_err(|e| error(None, RecordPart::Key, e))?;
    let mut counts = Counts::default();
    let record = match t {
        OFFSET_COMMIT => offset_commit(&mut k, value, &mut counts)?,
        STREAMS_GROUP_METADATA => CoordinatorRecord::StreamsGroupMetadata {
            group_id: group_key(t, &mut k)?,
            value: value_of(t, value, &mut counts, 0, |r, _, u| group_metadata(r, u))?,
        },
        STREAMS_GROUP_MEMBER_METADATA => {
            let (group_id, member_id) = member_key(t, &mut k)?;
            let value = value_of(t, value, &mut counts, 0, |r, _, u| member_metadata(r, u))?;
            CoordinatorRecord::MemberMetadata {
                group_id,
                member_id,
                value,
            }
        }
        STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA => CoordinatorRecord::TargetAssignmentMetadata {
            group_id: group_key(t, &mut k)?,
            value: value_of(t, value, &mut counts, 0, |r, _, u| target_metadata(r, u))?,
        },
        STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER => {
            let (group_id, member_id) = member_key(t, &mut k)?;
            let value = value_of(t, value, &mut counts, 0, |r, _, u| target_member(r, u))?;
            CoordinatorRecord::TargetAssignmentMember {
                group_id,
                member_id,
                value,
            }
        }
        STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT => {
            let (group_id, member_id) = member_key(t, &mut k)?;
            let value = value_of(t, value, &mut counts, 0, |r, _, u| current_assignment(r, u))?;
            CoordinatorRecord::CurrentMemberAssignment {
                group_id,
                member_id,
                value,
            }
        }
        STREAMS_GROUP_TOPOLOGY => CoordinatorRecord::Topology {
            group_id: group_key(t, &mut k)?,
            value: value_of(t, value, &mut counts, 0, |r, _, u| topology(r, u))?,
        },
        _ => CoordinatorRecord::Unknown { record_type: t },
    };
    if !matches!(record, CoordinatorRecord::Unknown { .. }) {
        counts.trailing_bytes += k.remaining();
    }
    Ok(Decoded {
        record,
        unknown_tagged_fields: counts.unknown_tagged_fields,
        trailing_bytes: counts.trailing_bytes,
    })
}

fn error(record_type: Option<i16>, part: RecordPart, e: DecodeError) -> RecordError {
    RecordError {
        record_type,
        part,
        what: e.what,
        offset: e.offset,
    }
}

fn group_key(t: i16, k: &mut Reader) -> Result<String, RecordError> {
    key_string(k)
        .map(str::to_string)
        .map_err(|e| error(Some(t), RecordPart::Key, e))
}

fn member_key(t: i16, k: &mut Reader) -> Result<(String, String), RecordError> {
    let group = group_key(t, k)?;
    let member = group_key(t, k)?;
    Ok((group, member))
}

/// The value of a record of type `t`: its version (at most `max_version`), then `read`'s struct.
fn value_of<T>(
    t: i16,
    value: Option<&[u8]>,
    counts: &mut Counts,
    max_version: i16,
    read: impl FnOnce(&mut Reader, i16, &mut usize) -> DecodeResult<T>,
) -> Result<Option<T>, RecordError> {
    let Some(bytes) = value else {
        return Ok(None);
    };
    let mut r = Reader::new(bytes);
    let decoded = r.i16().and_then(|version| {
        if !(0..=max_version).contains(&version) {
            return Err(DecodeError {
                what: format!(
                    "unknown value version {version} (this decoder reads 0-{max_version})"
                ),
                offset: 0,
            });
        }
        read(&mut r, version, &mut counts.unknown_tagged_fields)
    });
    let v = decoded.map_err(|e| error(Some(t), RecordPart::Value, e))?;
    counts.trailing_bytes += r.remaining();
    Ok(Some(v))
}

/// A tagged-field section: `known(tag, reader, unknown)` reads a known tag's bytes (it must use
/// them all) and returns true, or returns false for a tag it does not know, which is skipped and
/// counted in `unknown`. Tags may come in any order, as Apache's readers accept them.
fn tagged_fields<'a>(
    r: &mut Reader<'a>,
    unknown: &mut usize,
    mut known: impl FnMut(u32, &mut Reader<'a>, &mut usize) -> DecodeResult<bool>,
) -> DecodeResult<()> {
    let count = r.uvarint()?;
    for _ in 0..count {
        let tag = r.uvarint()?;
        let size = r.uvarint()? as usize;
        let start = r.position();
        let mut field = Reader::new(r.bytes(size)?);
        let relative = |e: DecodeError| DecodeError {
            what: format!("tagged field {tag}: {}", e.what),
            offset: start + e.offset,
        };
        if known(tag, &mut field, unknown).map_err(relative)? {
            if field.remaining() > 0 {
                return Err(relative(DecodeError {
                    what: format!("{} bytes left after the field", field.remaining()),
                    offset: field.position(),
                }));
            }
        } else {
            *unknown += 1;
        }
    }
    Ok(())
}

/// A tagged-field section where no tag is known.
fn no_known_tags(r: &mut Reader, unknown: &mut usize) -> DecodeResult<()> {
    tagged_fields(r, unknown, |_, _, _| Ok(false))
}

fn key_value(r: &mut Reader, unknown: &mut usize) -> DecodeResult<(String, String)> {
    let k = r.compact_string()?;
    let v = r.compact_string()?;
    no_known_tags(r, unknown)?;
    Ok((k, v))
}

fn strings(r: &mut Reader) -> DecodeResult<Vec<String>> {
    r.compact_array(|r| r.compact_string())
}

// ---------------------------------------------------------------------------- the values

fn offset_commit(
    k: &mut Reader,
    value: Option<&[u8]>,
    counts: &mut Counts,
) -> Result<CoordinatorRecord, RecordError> {
    let t = OFFSET_COMMIT;
    let group_id = group_key(t, k)?;
    let topic = group_key(t, k)?;
    let partition = k.i32().map_err(|e| error(Some(t), RecordPart::Key, e))?;
    let value = value_of(t, value, counts, 4, offset_commit_value)?;
    Ok(CoordinatorRecord::OffsetCommit {
        group_id,
        topic,
        partition,
        value,
    })
}

/// `OffsetCommitValue`: v0 offset, metadata, commit time; v1 adds the expiry time; v2 drops it;
/// v3 adds the leader epoch; v4 is flexible with the topic id in tag 0.
fn offset_commit_value(
    r: &mut Reader,
    version: i16,
    u: &mut usize,
) -> DecodeResult<OffsetCommitValue> {
    let offset = r.i64()?;
    let leader_epoch = if version >= 3 { r.i32()? } else { -1 };
    let metadata = if version >= 4 {
        r.compact_string()?
    } else {
        match r.nullable_string()? {
            Some(s) => s,
            None => return r.err("null in a non-nullable string"),
        }
    };
    let commit_timestamp_ms = r.i64()?;
    let expire_timestamp_ms = if version == 1 { r.i64()? } else { -1 };
    let mut topic_id = None;
    if version >= 4 {
        tagged_fields(r, u, |tag, r, _| {
            if tag != 0 {
                return Ok(false);
            }
            let mut id = [0u8; 16];
            id.copy_from_slice(r.bytes(16)?);
            topic_id = (id != [0u8; 16]).then_some(id);
            Ok(true)
        })?;
    }
    Ok(OffsetCommitValue {
        version,
        offset,
        leader_epoch,
        metadata,
        commit_timestamp_ms,
        expire_timestamp_ms,
        topic_id,
    })
}

fn group_metadata(r: &mut Reader, u: &mut usize) -> DecodeResult<StreamsGroupMetadataValue> {
    let mut m = StreamsGroupMetadataValue::new(r.i32()?, r.i64()?);
    tagged_fields(r, u, |tag, r, u| {
        match tag {
            0 => m.validated_topology_epoch = r.i32()?,
            1 => {
                m.last_assignment_configs = r
                    .compact_nullable_array(|r| key_value(r, u))?
                    .map(|kvs| kvs.into_iter().collect());
            }
            2 => m.stored_description_topology_epoch = r.i32()?,
            3 => m.failed_description_topology_epoch = r.i32()?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(m)
}

fn member_metadata(r: &mut Reader, u: &mut usize) -> DecodeResult<MemberMetadataValue> {
    let instance_id = r.compact_nullable_string()?;
    let rack_id = r.compact_nullable_string()?;
    let client_id = r.compact_string()?;
    let client_host = r.compact_string()?;
    let rebalance_timeout_ms = r.i32()?;
    let topology_epoch = r.i32()?;
    let process_id = r.compact_string()?;
    let user_endpoint = if r.struct_present()? {
        let host = r.compact_string()?;
        let port = r.u16()?;
        no_known_tags(r, u)?;
        Some(Endpoint { host, port })
    } else {
        None
    };
    let client_tags = r.compact_array(|r| key_value(r, u))?.into_iter().collect();
    no_known_tags(r, u)?;
    Ok(MemberMetadataValue {
        identity: MemberIdentity {
            instance_id,
            rack_id,
            client_id,
            client_host,
            process_id,
            user_endpoint,
            client_tags,
        },
        rebalance_timeout_ms,
        topology_epoch,
    })
}

fn target_metadata(r: &mut Reader, u: &mut usize) -> DecodeResult<TargetAssignmentMetadataValue> {
    let mut m = TargetAssignmentMetadataValue {
        assignment_epoch: r.i32()?,
        assignment_timestamp_ms: 0,
    };
    tagged_fields(r, u, |tag, r, _| {
        if tag != 0 {
            return Ok(false);
        }
        m.assignment_timestamp_ms = r.i64()?;
        Ok(true)
    })?;
    Ok(m)
}

/// A `TaskIds` list of record 21: subtopology id and partitions, no known tags.
fn task_set(r: &mut Reader, u: &mut usize) -> DecodeResult<TaskSet> {
    let ids = r.compact_array(|r| {
        let subtopology = r.compact_string()?;
        let partitions = r.compact_array(|r| r.i32())?;
        no_known_tags(r, u)?;
        Ok(TaskIds {
            subtopology,
            partitions,
        })
    })?;
    Ok(TaskSet::from_task_ids(&ids))
}

fn target_member(r: &mut Reader, u: &mut usize) -> DecodeResult<Assignment> {
    let assignment = Assignment {
        active: task_set(r, u)?,
        standby: task_set(r, u)?,
        warmup: task_set(r, u)?,
    };
    no_known_tags(r, u)?;
    Ok(assignment)
}

/// A `TaskIds` list of record 22, whose entries may carry `AssignmentEpochs` (tag 0, 4.2+).
/// Epochs whose count matches the partitions' go to `epochs`; Apache writes them for active
/// tasks only and reads them nowhere else.
fn task_set_with_epochs(
    r: &mut Reader,
    u: &mut usize,
    epochs: &mut BTreeMap<String, BTreeMap<i32, i32>>,
) -> DecodeResult<TaskSet> {
    let ids = r.compact_array(|r| {
        let subtopology = r.compact_string()?;
        let partitions = r.compact_array(|r| r.i32())?;
        let mut assignment_epochs = None;
        tagged_fields(r, u, |tag, r, _| {
            if tag != 0 {
                return Ok(false);
            }
            assignment_epochs = r.compact_nullable_array(|r| r.i32())?;
            Ok(true)
        })?;
        let parallel = |e: &Vec<i32>| e.len() == partitions.len() && !e.is_empty();
        if let Some(e) = assignment_epochs.filter(parallel) {
            let of = epochs.entry(subtopology.clone()).or_default();
            of.extend(partitions.iter().copied().zip(e));
        }
        Ok(TaskIds {
            subtopology,
            partitions,
        })
    })?;
    Ok(TaskSet::from_task_ids(&ids))
}

fn current_assignment(r: &mut Reader, u: &mut usize) -> DecodeResult<CurrentMemberAssignmentValue> {
    let member_epoch = r.i32()?;
    let previous_member_epoch = r.i32()?;
    let state = r.i8()?;
    let mut active_task_epochs = BTreeMap::new();
    let mut ignored = BTreeMap::new();
    let assigned = Assignment {
        active: task_set_with_epochs(r, u, &mut active_task_epochs)?,
        standby: task_set_with_epochs(r, u, &mut ignored)?,
        warmup: task_set_with_epochs(r, u, &mut ignored)?,
    };
    let pending_revocation = Assignment {
        active: task_set_with_epochs(r, u, &mut ignored)?,
        standby: task_set_with_epochs(r, u, &mut ignored)?,
        warmup: task_set_with_epochs(r, u, &mut ignored)?,
    };
    no_known_tags(r, u)?;
    Ok(CurrentMemberAssignmentValue {
        member_epoch,
        previous_member_epoch,
        state,
        assigned,
        active_task_epochs,
        pending_revocation,
    })
}

// ---------------------------------------------------------------------------- topology

fn topology(r: &mut Reader, u: &mut usize) -> DecodeResult<Topology> {
    let epoch = r.i32()?;
    let subtopologies = r.compact_array(|r| subtopology(r, u))?;
    no_known_tags(r, u)?;
    Ok(Topology {
        epoch,
        subtopologies,
    })
}

fn topic_info(r: &mut Reader, u: &mut usize) -> DecodeResult<TopicInfo> {
    let name = r.compact_string()?;
    let partitions = r.i32()?;
    let replication_factor = r.i16()?;
    let topic_configs = r.compact_array(|r| key_value(r, u))?.into_iter().collect();
    no_known_tags(r, u)?;
    Ok(TopicInfo {
        name,
        partitions,
        replication_factor,
        topic_configs,
    })
}

/// One subtopology; its copartition groups' int16 indexes into the subtopology's source,
/// regex and repartition-source lists become the topic names the model keeps.
fn subtopology(r: &mut Reader, u: &mut usize) -> DecodeResult<Subtopology> {
    let start = r.position();
    let mut s = Subtopology {
        id: r.compact_string()?,
        source_topics: strings(r)?,
        source_topic_regex: strings(r)?,
        state_changelog_topics: r.compact_array(|r| topic_info(r, u))?,
        repartition_sink_topics: strings(r)?,
        repartition_source_topics: r.compact_array(|r| topic_info(r, u))?,
        copartition_groups: Vec::new(),
    };
    let groups = r.compact_array(|r| {
        let at = r.position();
        let lists = [
            r.compact_array(|r| r.i16())?,
            r.compact_array(|r| r.i16())?,
            r.compact_array(|r| r.i16())?,
        ];
        no_known_tags(r, u)?;
        Ok((at, lists))
    })?;
    no_known_tags(r, u)?;
    // Each group copies the names it points at. A real topology has a few groups per
    // subtopology; this bound keeps garbage that points at one long name many times from
    // making the decoder hold far more memory than the record's size.
    let mut budget = 16 * (r.position() - start) + 1024;
    for (at, lists) in groups {
        let group = copartition_names(&s, &lists, &mut budget)
            .map_err(|what| DecodeError { what, offset: at })?;
        s.copartition_groups.push(group);
    }
    Ok(s)
}

fn copartition_names(
    s: &Subtopology,
    [sources, regexes, repartitions]: &[Vec<i16>; 3],
    budget: &mut usize,
) -> Result<std::collections::BTreeSet<String>, String> {
    let repartition: Vec<&str> = s
        .repartition_source_topics
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    let source: Vec<&str> = s.source_topics.iter().map(String::as_str).collect();
    let regex: Vec<&str> = s.source_topic_regex.iter().map(String::as_str).collect();
    let mut names = std::collections::BTreeSet::new();
    for (indexes, list, what) in [
        (sources, &source, "source topic"),
        (regexes, &regex, "source topic regex"),
        (repartitions, &repartition, "repartition source topic"),
    ] {
        for &i in indexes {
            let name = usize::try_from(i).ok().and_then(|i| list.get(i));
            let Some(name) = name else {
                return Err(format!(
                    "copartition group of subtopology {}: {what} index {i} out of range ({} {what}s)",
                    s.id,
                    list.len()
                ));
            };
            *budget = budget.checked_sub(name.len()).ok_or_else(|| {
                format!(
                    "copartition groups of subtopology {} name its topics over and over, more \
                     than 16 times its size",
                    s.id
                )
            })?;
            names.insert(name.to_string());
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests;
