//! One module per subcommand: its arguments and the glue from typed arguments to a use case
//! (`streams_group::usecase`) and a report rendered by `streams_group::render`. Shared argument
//! groups are in `args`; reaching the cluster from the global options is in `live`.

pub mod args;
pub mod check_epoch;
pub mod completions;
pub mod describe;
pub mod diff;
pub mod lag;
pub mod list;
pub mod live;
pub mod simulate;
pub mod topology;

use crate::cli::{Cli, Command};
use crate::command_error::CommandError;
use crate::exit::Code;

/// What a command returns: its exit code, or the error to report.
pub type Outcome = Result<Code, CommandError>;

/// Run the parsed command line.
pub fn dispatch(cli: &Cli) -> Outcome {
    let g = &cli.global;
    match &cli.command {
        Command::Simulate(a) => simulate::run(g, a),
        Command::List(a) => list::run(g, a),
        Command::Describe(a) => describe::run(g, a),
        Command::Diff(a) => diff::run(g, a),
        Command::CheckEpoch(a) => check_epoch::run(g, a),
        Command::Lag(a) => lag::run(g, a),
        Command::Topology(a) => topology::run(g, a),
        Command::Completions(a) => completions::run(g, a),
    }
}
