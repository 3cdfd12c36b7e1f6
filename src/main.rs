use std::process::ExitCode;

use clap::Parser;

use streams_group::{cli::Cli, commands, error, exit, render};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if !e.use_stderr() {
                // --help and --version.
                let _ = e.print();
                return ExitCode::from(0);
            }
            // Usage errors: one line, with the way out.
            let text = e.render().to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("error: bad usage");
            let tip = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("tip: "))
                .map(|t| format!("; {t}"))
                .unwrap_or_default();
            eprintln!("{first} (see --help{tip})");
            return ExitCode::from(exit::USAGE as u8);
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
