//! One pass over a group's writes: each record decoded once, the group replayed once
//! ([`ReplayedGroup`]), and every step handed to the listeners: the story (`report`) and, with
//! `--verify`, the verifier (`verify`).
//!
//! A listener sees each record twice, with the group just before and just after it is applied
//! (the verifier checks a target at its own record 20, with what came before it), then the whole
//! write with what it changed (the story tells one event per write; `split` cut the batches).

use super::records::{decode, CoordinatorRecord, Decoded};
use super::replay::{Decision, ReplayedGroup};
use super::Write;

/// One record of a write, and the group just before or just after it is applied.
pub struct RecordStep<'a> {
    pub write: &'a Write,
    pub record: &'a CoordinatorRecord,
    pub group: &'a ReplayedGroup,
    /// `false`: `group` is as the records before this one left it; `true`: this one applied.
    pub applied: bool,
}

/// One write, every record of it applied.
pub struct WriteStep<'a> {
    pub write: &'a Write,
    /// Its records that decoded, in order, with what the decoder skipped.
    pub decoded: &'a [Decoded],
    /// Its records that did not decode, then what the coordinator's rules would have refused.
    pub problems: &'a [String],
    /// What it changed (empty: nothing).
    pub changes: &'a [Decision],
    pub group: &'a ReplayedGroup,
}

/// What follows the replay. A method not implemented does nothing.
pub trait Listener {
    /// Each record, twice: before the group applies it and after.
    fn record(&mut self, _step: &RecordStep<'_>) {}
    /// Each write, once its records are applied.
    fn write(&mut self, _step: &WriteStep<'_>) {}
}

/// Replay `writes` (the group's, in offset order) up to the last one written at or before
/// `until_ms`, telling `listeners` every step; the group as that write left it.
pub fn replay(
    writes: &[Write],
    until_ms: Option<i64>,
    listeners: &mut [&mut dyn Listener],
) -> ReplayedGroup {
    let mut group = ReplayedGroup::default();
    for w in writes {
        if until_ms.is_some_and(|u| w.timestamp_ms > u) {
            break;
        }
        let mut problems = Vec::new();
        let mut decoded = Vec::with_capacity(w.records.len());
        for (key, value) in &w.records {
            match decode(key, value.as_deref()) {
                Ok(d) => decoded.push(d),
                Err(e) => problems.push(format!("offset {}: {e}", w.offset)),
            }
        }
        let records = decoded.iter().map(|d| &d.record);
        let changes = group.apply_write(records, &mut problems, |group, record, applied| {
            let step = RecordStep {
                write: w,
                record,
                group,
                applied,
            };
            listeners.iter_mut().for_each(|l| l.record(&step));
        });
        let step = WriteStep {
            write: w,
            decoded: &decoded,
            problems: &problems,
            changes: &changes,
            group: &group,
        };
        listeners.iter_mut().for_each(|l| l.write(&step));
    }
    group
}
