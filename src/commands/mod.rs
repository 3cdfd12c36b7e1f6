//! One module per subcommand: argument definitions and glue. Domain logic lives in the library
//! modules (`topology`, `coordinator`, `sim`, `kafka`); rendering in `render`.

pub mod check_epoch;
pub mod completions;
pub mod describe;
pub mod diff;
pub mod lag;
pub mod list;
pub mod live;
pub mod profile;
pub mod simulate;
pub mod topology;

use crate::cli::{Cli, Command};

/// Run the parsed command line; returns the exit code.
pub fn dispatch(cli: &Cli) -> anyhow::Result<i32> {
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
