//! `timeline`: replay a recording of `describe --watch --record` as what happened when.

use std::path::PathBuf;

use streams_group::render::{out, timeline as view};
use streams_group::watch::live::timeline;

use super::{GlobalArgs, Outcome};
use crate::exit::Code;

const AFTER_HELP: &str = "\
Examples:
  streams-group describe --bootstrap-server localhost:9092 --group my-app --watch 1 \\
      --record rb.jsonl
  streams-group timeline rb.jsonl
  streams-group timeline rb.jsonl --output json

Shows when each epoch started, who joined or left, which tasks moved from whom to whom, how long
each member took to reach its target assignment (at the target epoch, owning exactly its
target), and when the group was Stable again. A line of the recording that is not a sample, or
a last line cut short, is named (exit 2).";

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// A recording written by `describe --watch --record FILE` (one JSON sample per line)
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: PathBuf,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let report = timeline(&args.file)?;
    out::report(global.format(), &report, view::table)?;
    Ok(Code::Success)
}
