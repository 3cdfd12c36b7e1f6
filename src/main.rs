//! The `streams-group` binary: parse the arguments, run the command, print the error line and
//! exit with the documented code. The command layer (`cli`, `commands/`) and the error kinds
//! (`command_error`, `exit`) live here, not in the library.

mod cli;
mod command_error;
mod commands;
mod exit;

use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;

use clap::Parser;

use cli::Cli;
use exit::Code;

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e).into(),
    };
    streams_group::render::color::init(cli.global.color.into());
    // A panic is a bug: its message (from the hook), a request for a report, and exit 70.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if std::env::var_os("RUST_BACKTRACE").is_some() {
            default_hook(info);
        }
        streams_group::render::out::note(&format!(
            "error: internal error: {info} (hint: {})",
            command_error::HINT_BUG
        ));
    }));
    let code = match panic::catch_unwind(AssertUnwindSafe(|| cli.run())) {
        Ok(Ok(code)) => code,
        Ok(Err(err)) => {
            if let Some(line) = err.line() {
                streams_group::render::out::note(&line);
            }
            err.exit_code()
        }
        Err(_) => Code::Internal,
    };
    code.into()
}

/// Usage errors: one line, with the way out; `--help` and `--version` print and succeed.
fn usage_error(e: clap::Error) -> Code {
    if !e.use_stderr() {
        // --help and --version: their output is the command's output, so a write that fails
        // (a full disk, /dev/full) fails the run as any report's would.
        use std::io::Write;
        let printed = e.print().and_then(|()| std::io::stdout().flush());
        return match streams_group::render::out::written(printed) {
            Ok(()) => Code::Success,
            Err(w) => {
                let err = command_error::CommandError::from(w);
                if let Some(line) = err.line() {
                    streams_group::render::out::note(&line);
                }
                err.exit_code()
            }
        };
    }
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
    streams_group::render::out::note(&format!("{first} (see --help{tip})"));
    Code::Usage
}

// The simulator allocates and frees millions of small task sets; glibc's allocator spent a
// quarter of a 10,000-member run in malloc/free (benches/simulate-scale.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h (v3's `mi_option_e`; the crate names no constant).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// A run of the tool is short: memory it frees is kept for reuse rather than given back to the
/// OS after 10 ms, which made a 10,000-member simulation fault in (and zero) the same
/// transparent huge pages again and again (5 % of its time, and most of its variance).
fn keep_freed_memory() {
    // SAFETY: sets a process-wide allocator option, which mimalloc reads at each purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}
