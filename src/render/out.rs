//! The one place that writes the report to stdout.
//!
//! A reader that goes away (`streams-group simulate | head -1`) is [`WriteError::Closed`]: the
//! binary ends quietly with exit 0, as `rg ... | head` does. Any other write error (a full disk)
//! is [`WriteError::Io`]: one line on stderr and a non-zero exit, never a panic.

use std::io::{self, Write};

use serde::Serialize;

/// The output format of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tables and lines for people.
    Table,
    /// The report value as pretty JSON (the contract).
    Json,
}

/// Why the report could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// stdout was closed by its reader: nothing more to say, and nothing went wrong.
    Closed,
    /// Any other failure to write (e.g. the disk is full).
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Closed => f.write_str("stdout was closed"),
            WriteError::Io(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// Write `text` to stdout and flush it.
pub fn write_stdout(text: &str) -> Result<(), WriteError> {
    let mut out = io::stdout().lock();
    written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// Write `value` to stdout as pretty JSON with a trailing newline, as it is serialized: a
/// simulation of 10,000 members is 20 MB of JSON, and building it as one string first cost a
/// tenth of the run.
pub fn write_json<T: Serialize>(value: &T) -> Result<(), WriteError> {
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let serialized = serde_json::to_writer_pretty(&mut out, value).map_err(|e| {
        if e.is_io() {
            io::Error::from(e)
        } else {
            unreachable!("report values always serialize: {e}")
        }
    });
    written(
        serialized
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush()),
    )
}

/// A write's outcome as the commands report it: a reader that closed the pipe is
/// [`WriteError::Closed`] (nothing went wrong), any other failure [`WriteError::Io`].
pub fn written(result: io::Result<()>) -> Result<(), WriteError> {
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(WriteError::Closed),
        Err(e) => Err(WriteError::Io(e)),
    }
}

/// Write a report: as JSON, or as the text `table` makes of it.
pub fn report<T: Serialize>(
    format: Format,
    value: &T,
    table: impl FnOnce(&T) -> String,
) -> Result<(), WriteError> {
    match format {
        Format::Json => write_json(value),
        Format::Table => write_stdout(&table(value)),
    }
}

/// A note, warning or progress line for the reader: on stderr, so that stdout stays the report.
/// A closed stderr is ignored: nothing is left to tell it to.
pub fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
