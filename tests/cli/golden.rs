//! Every offline command on the fixtures, with stdout, stderr and the exit status held in one
//! file per case (`tests/data/cli/NAME.txt`, cases in `tests/data/cli/cases.txt`). The JSON
//! outputs are the contract: a change to one shows up here as a diff of the file.
//!
//! `CLI_BLESS=1 cargo test --test cli golden` rewrites the files from the current build.

use std::path::Path;
use std::process::Command;

use crate::support::cli_cases::cases;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cli");

/// stdout, stderr and the exit status of one run, as one text.
fn run(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_streams-group"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("STREAMS_GROUP_BOOTSTRAP_SERVER")
        .output()
        .expect("the binary runs");
    let code = out
        .status
        .code()
        .map_or("signal".to_string(), |c| c.to_string());
    format!(
        "$ streams-group {}\n[exit status: {code}]\n----- stdout -----\n{}----- stderr -----\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn every_case_matches_its_file() {
    let bless = std::env::var_os("CLI_BLESS").is_some();
    let mut failed = Vec::new();
    let cases = cases();
    assert!(cases.len() > 50, "the case list is read");
    for case in &cases {
        let got = run(&case.args);
        let file = Path::new(DIR).join(format!("{}.txt", case.name));
        if bless {
            std::fs::write(&file, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&file).unwrap_or_default();
        if got != want {
            eprintln!(
                "--- {} differs:\n{}",
                case.name,
                first_difference(&want, &got)
            );
            failed.push(case.name.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "{} case(s) differ (CLI_BLESS=1 to accept): {}",
        failed.len(),
        failed.join(", ")
    );
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

fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    format!(
        "line {}:\n  want: {}\n  got:  {}",
        i + 1,
        w.get(i).unwrap_or(&"<end>"),
        g.get(i).unwrap_or(&"<end>")
    )
}

/// Every example in the README and the guides that shows a command (a ```sh block with one
/// `streams-group ...` line) followed by its output (a ```text block, or a ```dot or
/// ```mermaid picture) shows what the current build prints.
#[test]
fn documented_examples_are_real_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    let mut checked = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (cmd, want) in examples(&text) {
            let args: Vec<String> = cmd.split_whitespace().skip(1).map(String::from).collect();
            let got = run(&args);
            let stdout = &got[got.find("----- stdout -----\n").unwrap() + 19
                ..got.find("----- stderr -----").unwrap()];
            assert_eq!(stdout, want, "{}: `{cmd}` prints otherwise", file.display());
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
