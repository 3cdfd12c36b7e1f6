//! A record batch, cut into the coordinator writes it holds.
//!
//! The coordinator runtime appends every write (one heartbeat's, one timer's, one offset
//! commit's decisions) to an open batch and lingers before it flushes
//! (`group.coordinator.append.linger.ms`), so one batch may hold several writes. Nothing in the
//! batch marks where one ends, but two things tell it:
//!
//! - **The records' timestamps.** `CoordinatorRuntime.append` stamps every record of one write
//!   with the same `time.milliseconds()`, read once per write (4.1 to 4.4). Records of different
//!   milliseconds are different writes.
//! - **The order the coordinator writes in**, for writes of the same millisecond.
//!   `GroupMetadataManager` emits a heartbeat's records as member (19), topology (23), group
//!   epoch (17), target per member (21, one per member whose target changed), target metadata
//!   (20), then the member's current assignment (22); a member's removal (leave, session or
//!   rebalance timeout, a static member replaced) as current assignment, target and member
//!   tombstones (22, 21, 19), then the group epoch (and a target metadata when the group
//!   empties); a group's deletion as every member's tombstones, the target metadata's, the
//!   epoch's and the topology's. A record that cannot follow the one before it within one of
//!   those begins the next write. An offset commit is a write of its own.
//!
//! The order rule can be wrong in one case the records cannot tell apart: a static member
//! replaced and more written for it in the same write; that write is told as two.

use super::records::record_type::*;
use super::Write;

/// One record of a batch as the partition holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRecord {
    pub offset: i64,
    pub timestamp_ms: i64,
    pub key: Vec<u8>,
    /// `None`: a tombstone.
    pub value: Option<Vec<u8>>,
}

/// Where a record stands in a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// A streams group record, by its rank in the write order; `repeats`: a write may hold
    /// several in a row (one per member).
    Ranked { rank: u8, repeats: bool },
    /// An offset commit or deletion: offset writes hold only these.
    Offsets,
    /// A record this reader does not place (another group type's, a newer type): it stays
    /// with the write it follows.
    Unplaced,
}

fn place(key: &[u8], tombstone: bool) -> Place {
    let Some(t) = key.get(..2).map(|b| i16::from_be_bytes([b[0], b[1]])) else {
        return Place::Unplaced;
    };
    let ranked = |rank, repeats| Place::Ranked { rank, repeats };
    match (t, tombstone) {
        (LEGACY_OFFSET_COMMIT | OFFSET_COMMIT, _) => Place::Offsets,
        (STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, true) => ranked(0, true),
        (STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER, true) => ranked(1, true),
        (STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA, true) => ranked(2, false),
        (STREAMS_GROUP_MEMBER_METADATA, true) => ranked(3, true),
        (STREAMS_GROUP_MEMBER_METADATA, false) => ranked(4, false),
        (STREAMS_GROUP_TOPOLOGY, false) => ranked(5, false),
        (STREAMS_GROUP_METADATA, false) => ranked(6, false),
        (STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER, false) => ranked(7, true),
        (STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA, false) => ranked(8, false),
        (STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, false) => ranked(9, false),
        (STREAMS_GROUP_METADATA, true) => ranked(10, false),
        (STREAMS_GROUP_TOPOLOGY, true) => ranked(11, false),
        _ => Place::Unplaced,
    }
}

/// Does `next` begin a new write after `prev` (both of the same millisecond)?
fn begins_write(prev: Place, next: Place) -> bool {
    match (prev, next) {
        (Place::Unplaced, _) | (_, Place::Unplaced) => false,
        (Place::Offsets, Place::Offsets) => false,
        (Place::Offsets, _) | (_, Place::Offsets) => true,
        (Place::Ranked { rank: a, .. }, Place::Ranked { rank: b, repeats }) => {
            b < a || (b == a && !repeats)
        }
    }
}

/// The writes of one batch (its records of one group, in offset order), each with its own
/// first offset and timestamp, and the batch's base offset.
pub fn writes_of_batch(batch_offset: i64, records: Vec<LogRecord>) -> Vec<Write> {
    let mut out: Vec<Write> = Vec::new();
    let mut last: Option<(i64, Place)> = None;
    for r in records {
        let here = place(&r.key, r.value.is_none());
        let new = match last {
            None => true,
            Some((ms, prev)) => ms != r.timestamp_ms || begins_write(prev, here),
        };
        last = Some((r.timestamp_ms, here));
        if new {
            out.push(Write {
                offset: r.offset,
                batch_offset,
                timestamp_ms: r.timestamp_ms,
                records: Vec::new(),
            });
        }
        if let Some(w) = out.last_mut() {
            w.records.push((r.key, r.value));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of type `t` at `ms`: the key is the type and a group id, enough to place it.
    fn rec(offset: i64, ms: i64, t: i16, tombstone: bool) -> LogRecord {
        let mut key = t.to_be_bytes().to_vec();
        key.extend_from_slice(&[0, 1, b'g']);
        LogRecord {
            offset,
            timestamp_ms: ms,
            key,
            value: (!tombstone).then(|| vec![0, 0]),
        }
    }

    fn cut(records: &[(i64, i16, bool)]) -> Vec<(i64, usize)> {
        let rs = records
            .iter()
            .enumerate()
            .map(|(k, &(ms, t, tomb))| rec(100 + k as i64, ms, t, tomb))
            .collect();
        writes_of_batch(100, rs)
            .iter()
            .map(|w| (w.offset, w.records.len()))
            .collect()
    }

    /// Issue #33's 4.4.0 batch: a join with its target and acknowledgement, then another
    /// member's acknowledgement, in the same millisecond.
    #[test]
    fn a_join_then_an_acknowledgement_of_the_same_millisecond_are_two_writes() {
        let join = [
            (5, 19, false),
            (5, 17, false),
            (5, 21, false),
            (5, 21, false),
        ];
        let mut batch = join.to_vec();
        batch.extend([(5, 20, false), (5, 22, false), (5, 22, false)]);
        assert_eq!(cut(&batch), vec![(100, 6), (106, 1)]);
    }

    #[test]
    fn different_milliseconds_are_different_writes() {
        let batch = [
            (5, 22, false),
            (6, 19, false),
            (6, 17, false),
            (6, 22, false),
        ];
        assert_eq!(cut(&batch), vec![(100, 1), (101, 3)]);
        // Two acknowledgements of one millisecond are two writes too.
        let batch = [(5, 22, false), (5, 22, false)];
        assert_eq!(cut(&batch), vec![(100, 1), (101, 1)]);
    }

    #[test]
    fn a_removal_then_a_join_then_a_removal() {
        let leave = [(1, 22, true), (1, 21, true), (1, 19, true), (1, 17, false)];
        let join = [(1, 19, false), (1, 17, false), (1, 22, false)];
        let mut batch = leave.to_vec();
        batch.extend(join);
        batch.extend(leave);
        batch.push((1, 20, false)); // the last member left: the target follows the epoch
        assert_eq!(cut(&batch), vec![(100, 4), (104, 3), (107, 5)]);
    }

    #[test]
    fn a_group_deletion_is_one_write() {
        let mut batch = vec![(1, 22, true), (1, 22, true), (1, 21, true), (1, 21, true)];
        batch.extend([
            (1, 20, true),
            (1, 19, true),
            (1, 19, true),
            (1, 17, true),
            (1, 23, true),
        ]);
        assert_eq!(cut(&batch), vec![(100, 9)]);
    }

    #[test]
    fn offset_commits_are_writes_of_their_own() {
        let batch = [
            (1, 1, false),
            (1, 1, false),
            (1, 22, false),
            (1, 1, false),
            (1, 99, false), // unknown: stays with the commit it follows
        ];
        assert_eq!(cut(&batch), vec![(100, 2), (102, 1), (103, 2)]);
    }

    #[test]
    fn the_first_writes_of_a_group_topology_then_targets() {
        // A first member: member, topology, epoch, target, acknowledgement; then a second
        // member's member and epoch (the target waits for the initial delay).
        let batch = [
            (3, 19, false),
            (3, 23, false),
            (3, 17, false),
            (3, 21, false),
            (3, 20, false),
            (3, 22, false),
            (3, 19, false),
            (3, 17, false),
            (3, 22, false),
        ];
        assert_eq!(cut(&batch), vec![(100, 6), (106, 3)]);
    }
}
