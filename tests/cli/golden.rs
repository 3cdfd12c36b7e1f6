//! Every offline command on the fixtures, with stdout, stderr and the exit status held in one
//! golden file per case (`tests/data/cli/expected/NAME.txt`, cases in `tests/data/cli/cases.txt`).
//! The JSON outputs are the contract: a change to one shows up here as a diff of the file.
//!
//! `BLESS=1 cargo test --test cli` rewrites the files from the current build (tests/support/golden.rs).

use std::path::Path;

use crate::support::cli_cases::cases;
use crate::support::golden::{Golden, EXPECTED};
use crate::support::{CommandOutput, StreamsGroup};

/// One run from the repository's root (the cases name their files from there).
fn run(args: &[String]) -> CommandOutput {
    StreamsGroup::new(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .run()
}

/// Every case matches its golden file, and every golden file is a case's; each folder of
/// golden files belongs to a test of this binary (one that says `Golden::new("FOLDER")`).
#[test]
fn every_case_matches_its_file() {
    let cases = cases();
    assert!(cases.len() > 50, "the case list is read");
    let mut golden = Golden::new("");
    for case in &cases {
        // stdout, stderr and the exit status as one text (`CommandOutput`'s `Display`: the
        // command line, `[exit status: N]`, `----- stdout -----`, `----- stderr -----`).
        golden.check(&case.name, &run(&case.args).to_string());
    }
    let sources: String =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
    for folder in std::fs::read_dir(EXPECTED).unwrap() {
        let folder = folder.unwrap().path();
        if folder.is_dir() {
            let name = folder.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                sources.contains(&format!("Golden::new(\"{name}\")")),
                "no test writes the golden files in {}: delete the folder",
                folder.display()
            );
        }
    }
    golden.finish();
}

/// Every subcommand clap knows has at least one case, so a new command gets a golden file.
#[test]
fn every_subcommand_has_a_case() {
    let cases = cases();
    let missing: Vec<String> = crate::subcommands()
        .into_iter()
        .filter(|sub| !cases.iter().any(|c| c.args.iter().any(|a| a == sub)))
        .collect();
    assert!(
        missing.is_empty(),
        "no case in tests/data/cli/cases.txt runs {missing:?}"
    );
}

/// Every example in the README, the guides and the developer documents that shows a command (a ```sh block with one
/// `streams-group ...` line) followed by its output (a ```text block, or a ```dot or
/// ```mermaid picture) shows what the current build prints.
#[test]
fn documented_examples_are_real_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "docs/dev"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    let mut checked = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (cmd, want) in examples(&text) {
            let args: Vec<String> = cmd.split_whitespace().skip(1).map(String::from).collect();
            let got = run(&args);
            assert_eq!(
                got.stdout,
                want,
                "{}: `{cmd}` prints otherwise",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(
        checked >= 4,
        "the README's tour is checked ({checked} examples)"
    );
}

/// (command, expected stdout) pairs.
fn examples(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("```sh\nstreams-group ") {
        rest = &rest[i + 6..];
        let end = rest.find("\n```\n").unwrap();
        let cmd = &rest[..end];
        rest = &rest[end + 5..];
        let next = rest.trim_start_matches('\n');
        let fence = ["```text\n", "```dot\n", "```mermaid\n"]
            .into_iter()
            .find(|f| next.starts_with(f));
        let Some(fence) = fence.filter(|_| !cmd.contains('\n')) else {
            continue;
        };
        let body = &next[fence.len()..];
        let close = body.find("```\n").unwrap();
        out.push((cmd.to_string(), body[..close].to_string()));
    }
    out
}
