//! The binary from the outside, one integration test binary with a module per area (as ripgrep
//! and fd keep theirs): every module runs `streams-group` as a user would and checks stdout,
//! stderr and the exit status. `golden` holds the three in one file per case; `json_schema`
//! checks the JSON contract (docs/schemas/), `man` the manual pages (man/).
//!
//! Run one area with `cargo test --test cli golden` (or `basics`, `check_epoch`, ...).

mod basics;
mod check_epoch;
mod ci_example;
mod diff;
mod golden;
mod json_schema;
mod lag;
mod man;
mod msk_iam;
mod simulate;
mod topology;
mod topology_show;
mod watch;

#[path = "../support/mod.rs"]
mod support;

/// The subcommands as clap lists them in `streams-group help`, so that a new command is covered
/// by the tests that walk every command without anybody editing a list.
pub fn subcommands() -> Vec<String> {
    let list = support::cli_cases::subcommands(&["help"]);
    assert!(
        list.len() >= 8,
        "the command list is read from help: {list:?}"
    );
    list
}

/// The path of a topology fixture in tests/data/topologies/.
pub fn topo(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/topologies")
        .join(name)
        .display()
        .to_string()
}
