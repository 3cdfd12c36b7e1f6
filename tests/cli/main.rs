//! The binary from the outside, one integration test binary with a module per area (as ripgrep
//! and fd keep theirs): every module runs `streams-group` as a user would and checks stdout,
//! stderr and the exit status. `golden` holds the three in one file per case.
//!
//! Run one area with `cargo test --test cli golden` (or `basics`, `check_epoch`, ...).

mod basics;
mod check_epoch;
mod ci_example;
mod diff;
mod golden;
mod lag;
mod simulate;
mod topology;

use std::process::Command;

/// The subcommands as clap lists them in `streams-group help`, so that a new command is covered
/// by the tests that walk every command without anybody editing a list.
pub fn subcommands() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_streams-group"))
        .arg("help")
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let text = String::from_utf8(out.stdout).expect("help is UTF-8");
    let list: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    assert!(
        list.len() >= 8,
        "the command list is read from help:\n{text}"
    );
    list
}
