//! One module per subcommand: its arguments and the glue from typed arguments to a use case
//! (a feature module of the library) and a report rendered by `streams_group::render`. Shared
//! argument groups are in `args`; reaching the cluster from the global options is in `connect`.

pub mod admin_args;
pub mod args;
pub mod check_epoch;
pub mod completions;
pub mod connect;
pub mod delete;
pub mod delete_offsets;
pub mod describe;
pub mod diff;
pub mod global;
pub mod history;
pub mod lag;
pub mod list;
pub mod man;
pub mod reset_offsets;
pub mod simulate;
pub mod timeline;
pub mod topology;
pub mod topology_show;
pub mod waiting;
pub mod watch;

use crate::command_error::CommandError;
use crate::exit::Code;

pub use global::GlobalArgs;

/// What a command returns: its exit code, or the error to report.
pub type Outcome = Result<Code, CommandError>;

/// The wall clock now, in milliseconds since the Unix epoch: where the commands read time (the
/// library's `time` is pure and is given it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
