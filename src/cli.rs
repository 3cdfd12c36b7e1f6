//! Command-line interface: global options and subcommands (clap derive).
//!
//! Each subcommand's own arguments live next to its code in `commands/<verb>.rs`; argument
//! groups several commands share are in `commands/args.rs`.

use clap::{CommandFactory, Parser, Subcommand};

use crate::commands::global::ConnectionArgs;
use crate::commands::{self, GlobalArgs, Outcome};

const ABOUT: &str = "Inspect, simulate and check Apache Kafka streams groups (KIP-1071)";

const LONG_ABOUT: &str = "\
Inspect, simulate and check Apache Kafka streams groups: the broker-side Streams rebalance
protocol of KIP-1071 (Kafka 4.1 and later).

Offline commands (simulate, topology, diff and check-epoch and lag with --snapshot) need no
broker. Live commands (list, describe, and the others with a live group) talk to a cluster with
--bootstrap-server; the commands that can connect list the connection options in their help.";

const AFTER_HELP: &str = "\
Examples:
  streams-group simulate --members 6
  streams-group simulate --members 4 --scenario scale-out --output json
  streams-group list --bootstrap-server localhost:9092
  streams-group describe --bootstrap-server localhost:9092 --group my-app --members
  streams-group check-epoch --snapshot group.json --topology new.txt --application-id my-app \\
      --topology-epoch 1
  streams-group lag --snapshot group.json --exit-code
  streams-group reset-offsets --bootstrap-server localhost:9092 --group my-app \\
      --all-input-topics --to-earliest

Exit codes: 0 ok, 1 negative answer (differences, rejected), 2 usage or input error,
3 cluster unreachable, 4 the cluster answered with an error, 5 the output could not be
written, 6 a gate had nothing to check (lag --exit-code without task offsets), 70 internal
error (a bug: please report it).";

#[derive(Debug, Parser)]
#[command(name = "streams-group", version, about = ABOUT, long_about = LONG_ABOUT,
          after_help = AFTER_HELP, max_term_width = 100, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate Streams clients against the local coordinator on a virtual clock
    // Boxed: its many options make it far larger than the other commands' arguments.
    Simulate(Box<commands::simulate::Args>),
    /// List the streams groups of a cluster
    List(commands::list::Args),
    /// Describe streams groups: state, members, offsets and lag, topology
    Describe(commands::describe::Args),
    /// Compare two topologies or two assignments
    Diff(commands::diff::Args),
    /// Dry-run a topology epoch bump: would the coordinator accept this topology?
    CheckEpoch(commands::check_epoch::Args),
    /// Warm-up and restoration lag per task, against acceptable.recovery.lag
    Lag(commands::lag::Args),
    /// Parse a topology and show its tasks and internal topics
    #[command(long_about = commands::topology::LONG_ABOUT)]
    Topology(commands::topology::Args),
    /// Reset committed offsets of Empty streams groups (a dry run unless --execute)
    ResetOffsets(commands::reset_offsets::Args),
    /// Delete committed offsets of an Empty streams group (a dry run unless --execute)
    DeleteOffsets(commands::delete_offsets::Args),
    /// Delete Empty streams groups and their internal topics (a dry run unless --execute)
    Delete(commands::delete::Args),
    /// Replay a `describe --watch --record` recording as a timeline of the rebalance
    Timeline(commands::timeline::Args),
    /// What the coordinator decided, read back from __consumer_offsets
    History(commands::history::Args),
    /// Print a shell completion script
    Completions(commands::completions::Args),
    /// Print or install the manual pages
    Man(commands::man::Args),
}

impl Cli {
    /// Run the parsed command line.
    pub fn run(&self) -> Outcome {
        let g = &self.global.connect_with(self.command.connection());
        match &self.command {
            Command::Simulate(a) => commands::simulate::run(g, a),
            Command::List(a) => commands::list::run(g, a),
            Command::Describe(a) => commands::describe::run(g, a),
            Command::Diff(a) => commands::diff::run(g, a),
            Command::CheckEpoch(a) => commands::check_epoch::run(g, a),
            Command::Lag(a) => commands::lag::run(g, a),
            Command::Topology(a) => commands::topology::run(g, a),
            Command::ResetOffsets(a) => commands::reset_offsets::run(g, a),
            Command::DeleteOffsets(a) => commands::delete_offsets::run(g, a),
            Command::Delete(a) => commands::delete::run(g, a),
            Command::Timeline(a) => commands::timeline::run(g, a),
            Command::History(a) => commands::history::run(g, a),
            Command::Completions(a) => commands::completions::run(a, Cli::command()),
            Command::Man(a) => commands::man::run(a, Cli::command()),
        }
    }
}

impl Command {
    /// The connection options, on the commands that connect (`timeline`, `completions` and
    /// `man` never do, and do not take them).
    fn connection(&self) -> Option<&ConnectionArgs> {
        match self {
            Command::Simulate(a) => Some(&a.connection),
            Command::List(a) => Some(&a.connection),
            Command::Describe(a) => Some(&a.connection),
            Command::Diff(a) => Some(&a.connection),
            Command::CheckEpoch(a) => Some(&a.connection),
            Command::Lag(a) => Some(&a.connection),
            Command::Topology(a) => Some(&a.connection),
            Command::ResetOffsets(a) => Some(&a.connection),
            Command::DeleteOffsets(a) => Some(&a.connection),
            Command::Delete(a) => Some(&a.connection),
            Command::History(a) => Some(&a.connection),
            Command::Timeline(_) | Command::Completions(_) | Command::Man(_) => None,
        }
    }
}
