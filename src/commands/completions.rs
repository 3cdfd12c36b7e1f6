//! `completions`: print a shell completion script generated from the same clap definitions.

use clap_complete::Shell;
use streams_group::render::out;

use super::Outcome;
use crate::exit::Code;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  streams-group completions bash > /etc/bash_completion.d/streams-group"
)]
pub struct Args {
    /// The shell to generate for
    #[arg(value_enum)]
    pub shell: Shell,
}

/// `cmd`: the whole command line's definition (the caller owns it).
pub fn run(args: &Args, mut cmd: clap::Command) -> Outcome {
    // Generated into memory first: clap_complete panics on a failed write.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "streams-group", &mut script);
    out::write_stdout(&String::from_utf8_lossy(&script))?;
    Ok(Code::Success)
}
