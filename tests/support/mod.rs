//! Test support shared by the six integration test binaries (docs/dev/testing.md), each of which
//! includes it once: `#[path = "../support/mod.rs"] mod support;` in `tests/NAME/main.rs`. Not
//! every binary uses every item, hence `allow(dead_code)`.
//!
//! | file | what for | used by |
//! |---|---|---|
//! | `command.rs` | running the `streams-group` binary: [`StreamsGroup`] (args, stdin, env, a hang guard), its [`CommandOutput`] (stdout, stderr, exit status), a [`Running`] watch | cli, e2e, cluster |
//! | `harness.rs` | the real-broker harness driver: [`Broker`] (a broker or cluster started by `tests/kafka/harness`), Apache's tool, Java classes of the harness classpath | e2e, cluster, oracles |
//! | `streams_app.rs` | Kafka Streams apps on a harness broker: [`App`], [`AppOptions`] | e2e, cluster |
//! | `prediction.rs` | predict, then act: snapshot a group, simulate a move, make it, compare ([`prediction::predict_then_act`] and its `Verdict`) | e2e, fidelity |
//! | `recording.rs` | what a running `describe --watch` recorded so far, whether a sample shows the group settled: to wait for a sample instead of sleeping | e2e, cluster |
//! | `process.rs` | [`wait_for`] a condition, [`signal`] a process, [`peak_rss_kib`] | e2e, cluster |
//! | `golden.rs` | golden files under `tests/data/cli/expected/` and `BLESS=1` | cli |
//! | `cli_cases.rs` | the golden command lines (`tests/data/cli/cases.txt`) and clap's subcommand list | cli |
//! | `json_schema.rs` | validation against the JSON Schemas of `docs/schemas/` | cli, e2e |
//! | `moves.rs` | task moves of a `timeline` and of `diff assignment`, composed to compare them | cli, e2e |
//! | `gmm_oracle.rs` | Apache's GroupMetadataManager driven in lock-step (docs/dev/oracle.md) | oracles |
//! | `tmux.rs` | a tmux server of a test's own: the binary in a pseudo-terminal | e2e |
//! | `turns.rs` | round trips in a row, counted by a proxy in front of a broker: [`turns::TurnCounter`] | e2e |
//! | `samples.rs` | sample messages of the StreamsGroupHeartbeat and Describe codecs | library, fuzz, oracles |
#![allow(dead_code)]

pub mod cli_cases;
pub mod command;
pub mod gmm_oracle;
pub mod golden;
pub mod harness;
pub mod json_schema;
pub mod moves;
pub mod prediction;
pub mod process;
pub mod recording;
pub mod samples;
pub mod streams_app;
pub mod tmux;
pub mod turns;

// What most tests use, by its short path (`support::Broker`); a binary uses only some of it.
#[allow(unused_imports)]
pub use command::{
    streams_group, streams_group_bin, streams_group_guarded, CommandOutput, Running, StreamsGroup,
};
#[allow(unused_imports)]
pub use harness::{
    java_standalone, java_standalone_with, kafka_version, stderr_of, stdout_of, Broker,
    DEFAULT_KAFKA_VERSION,
};
#[allow(unused_imports)]
pub use process::{peak_rss_kib, signal, wait_for};
#[allow(unused_imports)]
pub use streams_app::{App, AppOptions};
