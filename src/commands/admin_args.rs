//! The arguments the admin actions share (`reset-offsets`, `delete-offsets`, `delete`): the
//! topic scope and the dry-run/execute switch, and what a dry run says on stderr.

use streams_group::admin::parse::{self, TopicScope};
use streams_group::render::out;

use crate::command_error::CommandError;

/// `--dry-run` (the default) or `--execute`.
#[derive(Debug, Clone, clap::Args)]
pub struct Mode {
    /// Show what would change and write nothing (the default)
    #[arg(long, conflicts_with = "execute")]
    pub dry_run: bool,

    /// Write the changes (without it nothing is written)
    #[arg(long)]
    pub execute: bool,
}

/// `--all-input-topics` or `--input-topic TOPIC[:P,P]`.
#[derive(Debug, Clone, clap::Args)]
pub struct Scope {
    /// The group's input topics: the committed partitions of its topology's source topics
    /// (repartition topics are left out, as kafka-streams-groups.sh leaves them out)
    #[arg(long, conflicts_with = "input_topics")]
    pub all_input_topics: bool,

    /// A topic, all its partitions or the ones named: TOPIC or TOPIC:0,1,2 (repeatable)
    #[arg(long = "input-topic", value_name = "TOPIC[:P,P]", value_parser = parse::topic_scope)]
    pub input_topics: Vec<TopicScope>,
}

impl Scope {
    /// The `--input-topic` scopes (empty: all input topics); a usage error without a scope.
    pub fn required(&self, verb: &str) -> Result<Vec<TopicScope>, CommandError> {
        if !self.all_input_topics && self.input_topics.is_empty() {
            return Err(CommandError::usage(format!(
                "{verb} needs a scope: --all-input-topics or --input-topic TOPIC[:P,P]"
            )));
        }
        Ok(self.input_topics.clone())
    }
}

/// The last line of a dry run, on stderr.
pub fn dry_run_note(what: &str) {
    out::note(&format!(
        "dry run: nothing was written; run again with --execute to {what}"
    ));
}
