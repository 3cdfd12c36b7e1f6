//! The one place that writes the report to stdout.
//!
//! A reader that goes away (`streams-group simulate | head -1`) ends the program quietly with
//! exit 0, as `rg ... | head` does; any other write error (a full disk) is one line on stderr
//! and exit 5, never a panic.

use std::io::{self, Write};

/// stdout was closed by its reader: nothing more to say, and nothing went wrong.
#[derive(Debug)]
pub struct BrokenPipe;

impl std::fmt::Display for BrokenPipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stdout was closed")
    }
}

impl std::error::Error for BrokenPipe {}

/// Write `text` to stdout and flush it.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(BrokenPipe.into()),
        Err(e) => Err(crate::error::Failure::new(
            crate::exit::OUTPUT,
            format!("cannot write the output: {e}"),
        )
        .with_hint("is the disk full, or the output file not writable?")
        .into()),
    }
}

/// `print!` that returns the write error instead of panicking; use with `?` semantics.
#[macro_export]
macro_rules! emit {
    ($($arg:tt)*) => {
        $crate::render::out::write_stdout(&format!($($arg)*))?
    };
}
