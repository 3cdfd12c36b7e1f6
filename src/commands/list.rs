//! `list` (in progress).

use crate::cli::GlobalArgs;
use crate::error::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_global: &GlobalArgs, _args: &Args) -> anyhow::Result<i32> {
    Err(Failure::usage("this command is not built yet").into())
}
