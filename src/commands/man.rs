//! `man`: manual pages (roff) generated from the same clap definitions as `--help` and the
//! completions: one page per subcommand, named as `man` looks them up (`streams-group-topology-
//! show.1` for `streams-group topology show`). `man/` in the repository holds them, kept
//! current by a test.

use std::path::{Path, PathBuf};

use streams_group::render::out;

use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

const AFTER_HELP: &str = "\
Examples:
  streams-group man --dir ~/.local/share/man/man1     # then: man streams-group-topology-show
  streams-group man topology show | man -l -";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Write every page into DIR (created if missing), one file per subcommand, and list them
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath, conflicts_with = "command")]
    pub dir: Option<PathBuf>,

    /// The (sub)command whose page to print, e.g. `topology show`; none: the main page
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// `cmd`: the whole command line's definition (the caller owns it).
pub fn run(args: &Args, cmd: clap::Command) -> Outcome {
    let pages = pages(cmd);
    if let Some(dir) = &args.dir {
        return write_pages(dir, &pages);
    }
    let words: Vec<&str> = std::iter::once("streams-group")
        .chain(args.command.iter().map(String::as_str))
        .collect();
    let file = format!("{}.1", words.join("-"));
    let Some((_, page)) = pages.iter().find(|(f, _)| *f == file) else {
        return Err(CommandError::usage(format!(
            "no manual page for `{}`: see `streams-group --help` for the commands",
            words.join(" ")
        )));
    };
    out::write_stdout(page)?;
    Ok(Code::Success)
}

/// Every page: (file name, roff text), the main page first, then depth-first.
pub fn pages(cmd: clap::Command) -> Vec<(String, String)> {
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    collect(&cmd, &mut out);
    out
}

fn collect(cmd: &clap::Command, out: &mut Vec<(String, String)>) {
    let version = cmd.get_version().unwrap_or_default();
    let man = clap_mangen::Man::new(cmd.clone())
        .source(format!("streams-group {version}"))
        .manual("streams-group manual");
    let mut roff = Vec::new();
    // Rendering into memory cannot fail.
    let _ = man.render(&mut roff);
    out.push((
        man.get_filename(),
        String::from_utf8_lossy(&roff).into_owned(),
    ));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out);
    }
}

fn write_pages(dir: &Path, pages: &[(String, String)]) -> Outcome {
    let fail = |e: std::io::Error| {
        CommandError::new(
            crate::command_error::Kind::Output,
            format!("cannot write the manual pages into {}: {e}", dir.display()),
        )
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut list = String::new();
    for (file, page) in pages {
        let path = dir.join(file);
        std::fs::write(&path, page).map_err(fail)?;
        list.push_str(&format!("{}\n", path.display()));
    }
    out::write_stdout(&list)?;
    Ok(Code::Success)
}
