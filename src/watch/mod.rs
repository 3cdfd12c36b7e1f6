//! Watching a group change: samples of `describe` taken over time, what changed from one to the
//! next, and the timeline of a recording. Pure: the caller takes the samples and passes the time
//! they were taken (`describe --watch`, `timeline`).
//!
//! * [`sample`]: one sample (a describe snapshot with its time), also one line of a recording;
//! * [`change`]: what differs between two descriptions of a group;
//! * [`watcher`]: the changes sample after sample, the tasks that moved, the recent history;
//! * [`late`]: a sample late, and what it was waiting for;
//! * [`recording`]: reading a recording back, naming the line that is wrong;
//! * [`timeline`]: a recording replayed as what happened when.

pub mod change;
pub mod late;
pub mod live;
pub mod recording;
pub mod sample;
pub mod timeline;
pub mod watcher;

pub use change::Change;
pub use sample::{Sample, WatchLine};
pub use watcher::Watcher;

#[cfg(test)]
mod fixtures;
