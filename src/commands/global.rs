//! The options every subcommand accepts (`--bootstrap-server`, `--output`, `--color`, ...).

use std::path::PathBuf;

use clap::ValueEnum;

use streams_group::render::color::ColorMode;
use streams_group::render::out::Format;

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
    #[arg(allow_negative_numbers = true, long, global = true, value_name = "MS", default_value_t = 30_000,
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
