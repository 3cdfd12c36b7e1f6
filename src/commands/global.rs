//! The options every subcommand accepts (`--bootstrap-server`, `--output`, `--color`, ...).

use std::path::PathBuf;

use clap::ValueEnum;

use streams_group::render::color::ColorMode;
use streams_group::render::out::Format;

/// Options every subcommand accepts, before or after the subcommand name. The connection
/// options are not among them: only the commands that connect list them ([`ConnectionArgs`]);
/// given before the subcommand name they are still read (`early`, hidden).
#[derive(Debug, Clone, clap::Args)]
pub struct GlobalArgs {
    #[command(flatten)]
    pub early: EarlyConnectionArgs,

    /// The connection options in effect: the subcommand's, else those given before it, else
    /// `STREAMS_GROUP_BOOTSTRAP_SERVER` (set by [`GlobalArgs::connect_with`]).
    #[arg(skip)]
    pub connection: ConnectionArgs,

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

/// The environment variable that gives `--bootstrap-server` when no option does.
pub const BOOTSTRAP_ENV: &str = "STREAMS_GROUP_BOOTSTRAP_SERVER";

/// The default of `--timeout`, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// How to reach the cluster: flattened into every command that connects (list, describe, the
/// admin actions, and the offline-first commands that take a live group). Global within that
/// command, so `diff topology` and `topology show` take them too.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Connection options")]
pub struct ConnectionArgs {
    /// Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]
    #[arg(long, global = true, value_name = "HOST:PORT")]
    pub bootstrap_server: Option<String>,

    /// Kafka client properties file (security.protocol, sasl.*, ssl.*)
    #[arg(long, global = true, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub command_config: Option<PathBuf>,

    /// Upper bound for every network wait, in milliseconds [default: 30000]
    #[arg(allow_negative_numbers = true, long, global = true, value_name = "MS",
          value_parser = parse_timeout)]
    pub timeout: Option<u64>,

    /// Write each request to the cluster on stderr as it goes (`debug:` lines): which broker,
    /// which API, when, and how long its answer took or that none came; never their contents
    #[arg(long, global = true)]
    pub debug: bool,
}

/// The connection options given before the subcommand name, as Kafka's tools allow: hidden, so
/// that the help of commands that never connect does not list them.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EarlyConnectionArgs {
    #[arg(
        long = "bootstrap-server",
        id = "early_bootstrap_server",
        hide = true,
        value_name = "HOST:PORT"
    )]
    pub bootstrap_server: Option<String>,

    #[arg(
        long = "command-config",
        id = "early_command_config",
        hide = true,
        value_name = "FILE"
    )]
    pub command_config: Option<PathBuf>,

    #[arg(allow_negative_numbers = true, long = "timeout", id = "early_timeout", hide = true,
          value_name = "MS", value_parser = parse_timeout)]
    pub timeout: Option<u64>,

    #[arg(long = "debug", id = "early_debug", hide = true)]
    pub debug: bool,
}

impl ConnectionArgs {
    /// The timeout in milliseconds: the one given, else the default.
    pub fn timeout_ms(&self) -> u64 {
        self.timeout.unwrap_or(DEFAULT_TIMEOUT_MS)
    }
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
    /// These options with the connection options in effect: the subcommand's (`given`), else
    /// those given before the subcommand name, else the bootstrap server in the environment.
    pub fn connect_with(&self, given: Option<&ConnectionArgs>) -> GlobalArgs {
        let given = given.cloned().unwrap_or_default();
        let early = &self.early;
        let env = std::env::var(BOOTSTRAP_ENV)
            .ok()
            .filter(|v| !v.trim().is_empty());
        GlobalArgs {
            connection: ConnectionArgs {
                bootstrap_server: given
                    .bootstrap_server
                    .or_else(|| early.bootstrap_server.clone())
                    .or(env),
                command_config: given
                    .command_config
                    .or_else(|| early.command_config.clone()),
                timeout: given.timeout.or(early.timeout),
                debug: given.debug || early.debug,
            },
            ..self.clone()
        }
    }

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
