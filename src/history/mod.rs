//! History: the group coordinator's decisions, read back from `__consumer_offsets`.
//!
//! The coordinator writes every decision it makes about a streams group to the group's partition
//! of `__consumer_offsets` before it answers: the group epoch and metadata hash (record type 17),
//! each member's metadata as it joins or changes (19), each target assignment (20 and 21, one
//! record per member whose target changed), each member's reconciliation state and tasks (22),
//! the topology (23), and the group's committed offsets (1). A tombstone (the same key, no value)
//! removes what its key names. Read back in order, they are the group's history.
//!
//! `records` turns one record's key and value bytes into typed values (and `encode` turns them
//! back, for tests and fixtures), `split` cuts a record batch into the writes it holds, `replay` builds the group from them write by write, `pass`
//! replays the writes once and tells each step to its listeners: `report` (the story: what each
//! write changed) and `verify` (each target the broker wrote, kept to be recomputed); all pure.
//! `live` reads the group's partition over the wire.
//! [`consumer_offsets_partition`] says which partition holds a group's records.

/// Test-only: compiled for the tests (the `testing` feature), never into the installed binary.
#[cfg(any(test, feature = "testing"))]
pub mod encode;
pub mod live;
pub mod pass;
pub mod records;
pub mod replay;
pub mod report;
pub mod split;
pub mod verify;

pub use records::{decode, group_of, CoordinatorRecord, Decoded, RecordError};

use coordinator::java::java_string_hash;

/// One coordinator write of the group: what one heartbeat, timer or offset commit made the
/// coordinator write, cut out of its record batch ([`split`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The offset of the write's first record.
    pub offset: i64,
    /// The base offset of the record batch that holds it (a batch may hold several writes).
    pub batch_offset: i64,
    /// When the coordinator wrote it (its records' timestamp).
    pub timestamp_ms: i64,
    /// Each record's key and value (`None`: a tombstone).
    pub records: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

/// The partition of `__consumer_offsets` that holds `group_id`'s records, as the broker computes
/// it (`GroupCoordinatorService.partitionFor`): `Utils.abs(groupId.hashCode()) % partitions`,
/// where `hashCode` runs over the id's UTF-16 code units and `Utils.abs(Integer.MIN_VALUE)` is 0.
/// `partitions` is the topic's partition count (`offsets.topic.num.partitions`, default 50); a
/// count below 1 gives 0.
pub fn consumer_offsets_partition(group_id: &str, partitions: i32) -> i32 {
    if partitions < 1 {
        return 0;
    }
    let hash = java_string_hash(group_id);
    let abs = if hash == i32::MIN { 0 } else { hash.abs() };
    abs % partitions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_of_known_group_ids() {
        // Java: Utils.abs("my-app".hashCode()) % 50, checked by tests/oracles/records.rs.
        assert_eq!(java_string_hash("my-app"), -1_061_206_400);
        assert_eq!(consumer_offsets_partition("my-app", 50), 0);
        assert_eq!(java_string_hash("wordcount"), 893_673_541);
        assert_eq!(consumer_offsets_partition("wordcount", 50), 41);
        assert_eq!(consumer_offsets_partition("wordcount", 7), 893_673_541 % 7);
        assert_eq!(consumer_offsets_partition("", 50), 0);
        // Non-ASCII: UTF-16 code units, a surrogate pair for U+1F600.
        assert_eq!(java_string_hash("grüppe-😀"), -1_039_948_164);
        assert_eq!(
            java_string_hash("grüppe-😀"),
            java_string_hash_by_hand("grüppe-😀")
        );
        assert_eq!(consumer_offsets_partition("grüppe-😀", 50), 14);
        // "polygenelubricants".hashCode() == Integer.MIN_VALUE, and Utils.abs of it is 0.
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        assert_eq!(consumer_offsets_partition("polygenelubricants", 50), 0);
        assert_eq!(consumer_offsets_partition("my-app", 1), 0);
        assert_eq!(consumer_offsets_partition("my-app", 0), 0);
    }

    fn java_string_hash_by_hand(s: &str) -> i32 {
        let mut h: i32 = 0;
        for unit in s.encode_utf16() {
            h = h.wrapping_mul(31).wrapping_add(i32::from(unit));
        }
        h
    }
}
