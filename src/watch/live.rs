//! `describe --watch` and `timeline`: one sample of the groups at a given time, and the
//! timeline of a recording file.

use std::path::Path;

use crate::error::Error;
use crate::source::live::{self, Depth, GroupSelection};
use crate::watch::recording;
use crate::watch::sample::{GroupError, Sample};
use crate::watch::timeline::{self, TimelineReport};
use kafka::config::ClientConfig;
use kafka::waits::Waits;
use model::group::{Snapshot, SNAPSHOT_SCHEMA_VERSION};

/// The groups of `selection` as described now, telling `waits` what the describe waits for.
/// The sample is stamped when its answers are in (`now`, the caller's clock): a sample that
/// waited for a coordinator to move shows the group as it was after the wait. A cluster that
/// cannot be reached, or answers the session with an error, gives a sample that says so: a
/// watch goes on. Only what no retry can fix (an impossible group id) is an error.
pub fn sample(
    client: &ClientConfig,
    selection: &GroupSelection,
    waits: &Waits,
    now: impl FnOnce() -> i64,
) -> Result<Sample, Error> {
    let described = live::describe_telling(client, selection.clone(), Depth::Full, waits.clone());
    let at_ms = now();
    match described {
        Ok(Some(result)) => {
            let errors = result
                .errors
                .iter()
                .map(|(group_id, e)| GroupError {
                    group_id: group_id.clone(),
                    error: e.to_string(),
                })
                .collect();
            Ok(Sample::new(at_ms, result.snapshot, errors))
        }
        Ok(None) => {
            let none = Snapshot {
                schema_version: SNAPSHOT_SCHEMA_VERSION,
                kafka_version: None,
                kafka_version_note: None,
                legacy_version_name: None,
                groups: vec![],
            };
            Ok(Sample::new(at_ms, none, vec![]))
        }
        Err(Error::Kafka(e)) => Ok(Sample::failed(at_ms, e.to_string())),
        Err(e) => Err(e),
    }
}

/// The timeline of the recording at `path` (read with the size cap of every input document).
pub fn timeline(path: &Path) -> Result<TimelineReport, Error> {
    let file = path.display().to_string();
    let text = model::input::read_document(path)
        .map_err(|e| Error::input(format!("{file}: cannot read the recording: {e}")))?;
    let samples = recording::parse(&text).map_err(|e| Error::input(format!("{file}: {e}")))?;
    Ok(timeline::build(&file, &samples))
}
