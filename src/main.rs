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
            // The message, with any indented continuation (e.g. the missing arguments) folded in.
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let mut first = lines
                .next()
                .unwrap_or("error: bad usage")
                .trim_end()
                .to_string();
            for l in lines.take_while(|l| l.starts_with(' ') && !l.trim().starts_with("tip:")) {
                first.push(' ');
                first.push_str(l.trim());
            }
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
        Err(err) if err.downcast_ref::<render::out::BrokenPipe>().is_some() => ExitCode::from(0),
        Err(err) => {
            eprintln!("{}", error::render_error(&err));
            ExitCode::from(error::exit_code_of(&err) as u8)
        }
    }
}
