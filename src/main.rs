use std::process::ExitCode;

use clap::Parser;

use streams_group::{cli::Cli, commands, error, exit, render};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { exit::USAGE as u8 } else { 0 });
        }
    };
    render::color::init(cli.global.color);
    match commands::dispatch(&cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            eprintln!("{}", error::render_error(&err));
            ExitCode::from(error::exit_code_of(&err) as u8)
        }
    }
}
