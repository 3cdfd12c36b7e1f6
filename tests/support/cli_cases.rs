//! The command lines the tests walk: the golden cases of tests/data/cli/cases.txt and the
//! subcommands clap lists in `help` (tests/cli: `golden` and `json_schema`).

use std::path::Path;

use super::command::StreamsGroup;

/// One line of cases.txt: `NAME ARGS...`.
pub struct Case {
    pub name: String,
    pub args: Vec<String>,
}

/// Every case of tests/data/cli/cases.txt (split on whitespace; `#` lines are comments).
pub fn cases() -> Vec<Case> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cli/cases.txt");
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace().map(str::to_string);
            let name = words.next().unwrap();
            Case {
                name,
                args: words.collect(),
            }
        })
        .collect()
}

/// The subcommands listed under `Commands:` by `streams-group ARGS` (e.g. `help`, or
/// `diff --help`), without `help`.
pub fn subcommands(args: &[&str]) -> Vec<String> {
    let text = StreamsGroup::new(args).env("NO_COLOR", "1").run().stdout;
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
        !list.is_empty(),
        "the command list is read from help:\n{text}"
    );
    list
}
