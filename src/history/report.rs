//! The story of a group, as its coordinator wrote it: one event per coordinator write that
//! changed something (several may share a record batch), in the form `timeline` tells a recording.

use schemars::JsonSchema;
use serde::Serialize;

use super::pass::{replay, Listener, WriteStep};
use super::records::CoordinatorRecord;
use super::replay::{Decision, ReplayedGroup};
use super::Write;
use crate::time::rfc3339;

/// What `history` prints.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct HistoryReport {
    pub group_id: String,
    /// The `__consumer_offsets` partition that holds the group's records, and its leader (the
    /// group's coordinator).
    pub partition: i32,
    pub coordinator: i32,
    /// The partition's first offset and the high watermark reading stopped at.
    pub log_start_offset: i64,
    pub high_watermark: i64,
    /// When the first record of the group that the partition still has was written: compaction
    /// keeps only the last value per key in closed segments, so older history is gone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_from: Option<String>,
    /// The last offset up to which compaction removed records of the partition: what the group
    /// went through before it may be missing. Absent: every record from the log start is there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compacted_through: Option<i64>,
    /// Record batches read from the partition (every group's), by compression codec.
    pub batches_by_codec: std::collections::BTreeMap<String, u64>,
    /// Coordinator writes, the record batches that hold them (the runtime may put several
    /// writes in one batch) and the records of the group read.
    pub writes: usize,
    pub batches: usize,
    pub records: usize,
    /// Records of types this tool does not read (other group types, newer records), skipped.
    pub unknown_records: usize,
    /// Tagged fields of newer releases, skipped.
    pub unknown_tagged_fields: usize,
    /// Records that could not be decoded, and orderings the coordinator would refuse.
    pub problems: Vec<String>,
    /// What the reader noticed on the way (a coordinator that moved, ...).
    pub notes: Vec<String>,
    /// The group's derived state after the last record read.
    pub state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub members: usize,
    /// Offset commits (and deletions) of the group inside the window: told as a count, not as
    /// events (an app commits every `commit.interval.ms`, 100 ms with exactly-once).
    pub offset_commits: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_offset_commit: Option<String>,
    pub events: Vec<HistoryEntry>,
    /// `--verify`: every target assignment recomputed by the local coordinator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<super::verify::Verification>,
}

/// One coordinator write and what it changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(rename = "Event")]
pub struct HistoryEntry {
    pub at: String,
    pub at_ms: i64,
    /// The offset of the write's first record in the partition.
    pub offset: i64,
    /// The base offset of the record batch that holds the write (several writes may share one).
    pub batch_offset: i64,
    pub changes: Vec<Decision>,
}

/// Which writes the report tells (all are replayed: the state at the window's start needs the
/// ones before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Window {
    pub since_ms: Option<i64>,
    pub until_ms: Option<i64>,
}

impl Window {
    fn contains(&self, ms: i64) -> bool {
        self.since_ms.is_none_or(|s| ms >= s) && self.until_ms.is_none_or(|u| ms <= u)
    }
}

/// Replay `writes` (the group's, in offset order) once and tell what each changed inside
/// `window`; `verifier`, when given, listens to the same replay. Also returns the group as it was
/// after the last write at or before the window's end.
pub fn build(
    group_id: &str,
    writes: &[Write],
    window: Window,
    verifier: Option<&mut dyn Listener>,
) -> (HistoryReport, ReplayedGroup) {
    let mut story = Story {
        report: HistoryReport {
            group_id: group_id.to_string(),
            history_from: writes.first().map(|w| rfc3339(w.timestamp_ms)),
            writes: writes.len(),
            batches: count_batches(writes),
            ..HistoryReport::default()
        },
        window,
    };
    let group = match verifier {
        Some(v) => replay(writes, window.until_ms, &mut [&mut story, v]),
        None => replay(writes, window.until_ms, &mut [&mut story]),
    };
    let mut report = story.report;
    report.state = group.state().to_string();
    report.group_epoch = group.group_epoch;
    report.assignment_epoch = group.assignment_epoch;
    report.members = group.members.len();
    (report, group)
}

/// How many record batches hold `writes` (in offset order: a batch's writes are adjacent).
fn count_batches(writes: &[Write]) -> usize {
    let mut offsets: Vec<i64> = writes.iter().map(|w| w.batch_offset).collect();
    offsets.dedup();
    offsets.len()
}

/// The story, told as the replay goes: what was read, and one event per write inside the
/// window that changed something.
struct Story {
    report: HistoryReport,
    window: Window,
}

impl Listener for Story {
    fn write(&mut self, step: &WriteStep<'_>) {
        let (report, w) = (&mut self.report, step.write);
        report.records += w.records.len();
        for d in step.decoded {
            report.unknown_tagged_fields += d.unknown_tagged_fields;
            if matches!(d.record, CoordinatorRecord::Unknown { .. }) {
                report.unknown_records += 1;
            }
        }
        report.problems.extend_from_slice(step.problems);
        let inside = self.window.contains(w.timestamp_ms);
        let commits = step
            .decoded
            .iter()
            .filter(|d| matches!(d.record, CoordinatorRecord::OffsetCommit { .. }))
            .count() as u64;
        if commits > 0 && inside {
            report.offset_commits += commits;
            report.last_offset_commit = Some(rfc3339(w.timestamp_ms));
        }
        if !step.changes.is_empty() && inside {
            report.events.push(HistoryEntry {
                at: rfc3339(w.timestamp_ms),
                at_ms: w.timestamp_ms,
                offset: w.offset,
                batch_offset: w.batch_offset,
                changes: step.changes.to_vec(),
            });
        }
    }
}
