//! Command-line interface: global options and subcommands (clap derive).
//!
//! Each subcommand's own arguments live next to its code in `commands/<verb>.rs`; argument
//! groups several commands share are in `commands/args.rs`.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use streams_group::render::color::ColorMode;
use streams_group::render::out::Format;

use crate::commands;

const ABOUT: &str = "Inspect, simulate and check Apache Kafka streams groups (KIP-1071)";

const LONG_ABOUT: &str = "\
Inspect, simulate and check Apache Kafka streams groups: the broker-side Streams rebalance
protocol of KIP-1071 (Kafka 4.1 and later).

Offline commands (simulate, topology, diff and check-epoch and lag with --snapshot) need no
broker. Live commands (list, describe, and the others with a live group) talk to a cluster with
--bootstrap-server.";

const AFTER_HELP: &str = "\
Examples:
  streams-group simulate --members 6
  streams-group simulate --members 4 --scenario scale-out --output json
  streams-group list --bootstrap-server localhost:9092
  streams-group describe --bootstrap-server localhost:9092 --group my-app --members
  streams-group check-epoch --snapshot group.json --topology new.txt --application-id my-app --topology-epoch 1
  streams-group lag --snapshot group.json --exit-code

Exit codes: 0 ok, 1 negative answer (differences, rejected), 2 usage or input error,
3 cluster unreachable, 4 the cluster answered with an error, 5 the output could not be
written, 70 internal error (a bug: please report it).";

#[derive(Debug, Parser)]
#[command(name = "streams-group", version, about = ABOUT, long_about = LONG_ABOUT,
          after_help = AFTER_HELP, max_term_width = 100, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand accepts, before or after the subcommand name.
#[derive(Debug, Clone, clap::Args)]
pub struct GlobalArgs {
    /// Kafka bootstrap server(s), host:port[,host:port...]
    #[arg(
        long,
        global = true,
        value_name = "HOST:PORT",
        env = "STREAMS_GROUP_BOOTSTRAP_SERVER"
    )]
    pub bootstrap_server: Option<String>,

    /// Kafka client properties file (security.protocol, sasl.*, ssl.*)
    #[arg(long, global = true, value_name = "FILE")]
    pub command_config: Option<PathBuf>,

    /// Upper bound for every network wait, in milliseconds
    #[arg(long, global = true, value_name = "MS", default_value_t = 30_000,
          value_parser = parse_timeout)]
    pub timeout: u64,

    /// Output format
    #[arg(long, short = 'o', global = true, value_enum, default_value_t = OutputFormat::Table)]
    pub output: OutputFormat,

    /// When to use colours (NO_COLOR in the environment turns off `auto`)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// More detail
    #[arg(long, short = 'v', global = true)]
    pub verbose: bool,
}

/// Kafka's own timeouts are int32 milliseconds; 0 would make every wait fail at once.
pub const MAX_TIMEOUT_MS: u64 = i32::MAX as u64;

fn parse_timeout(s: &str) -> Result<u64, String> {
    let ms: u64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a whole number of milliseconds, e.g. 30000".to_string())?;
    match ms {
        0 => Err(
            "a timeout of 0 ms would fail every network wait at once; give at least 1 \
                  (the default is 30000)"
                .into(),
        ),
        ms if ms > MAX_TIMEOUT_MS => Err(format!("at most {MAX_TIMEOUT_MS} ms")),
        ms => Ok(ms),
    }
}

impl GlobalArgs {
    /// The format reports are written in.
    pub fn format(&self) -> Format {
        match self.output {
            OutputFormat::Table => Format::Table,
            OutputFormat::Json => Format::Json,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl From<ColorChoice> for ColorMode {
    fn from(c: ColorChoice) -> Self {
        match c {
            ColorChoice::Auto => ColorMode::Auto,
            ColorChoice::Always => ColorMode::Always,
            ColorChoice::Never => ColorMode::Never,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate Streams clients against the local coordinator on a virtual clock
    Simulate(commands::simulate::Args),
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
    Topology(commands::topology::Args),
    /// Print a shell completion script
    Completions(commands::completions::Args),
}
