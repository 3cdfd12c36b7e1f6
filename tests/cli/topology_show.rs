//! `streams-group topology show`: every topology fixture drawn in every format. The DOT of each
//! goes through Graphviz (`dot -Tsvg`), which must accept it; text and Mermaid are golden files
//! (`tests/data/cli/expected/topology_show/`, `BLESS=1 cargo test --test cli` rewrites them).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use std::io::Write;

use crate::support::golden::Golden;
use crate::support::StreamsGroup;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every input a picture is drawn of: the topology fixtures (but the deliberately broken
/// ones), the pasted describe texts and the snapshots, with the arguments each needs.
fn inputs() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for dir in [
        "tests/data/topologies",
        "tests/data/pasted",
        "tests/data/snapshots",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("txt" | "json")))
            .filter(|p| {
                !p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("broken-")
            })
            .collect();
        files.sort();
        for f in files {
            let rel = f.strip_prefix(ROOT).unwrap().display().to_string();
            let mut args = vec![rel.clone()];
            if rel.ends_with(".txt") {
                args.extend(["--application-id".to_string(), "app".to_string()]);
            }
            out.push((rel, args));
        }
    }
    assert!(out.len() > 40, "the fixtures are found: {}", out.len());
    out
}

fn show(args: &[String], format: &str) -> String {
    StreamsGroup::new(["topology", "show"])
        .args(args)
        .args(["--format", format])
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .run()
        .success()
        .stdout
}

/// Graphviz renders every fixture's DOT without a warning. CI installs Graphviz (.ci/run); a
/// machine without `dot` fails here rather than skipping, so that CI never passes unchecked.
#[test]
fn graphviz_renders_the_dot_of_every_fixture() {
    let probe = Command::new("dot").arg("-V").output();
    assert!(
        probe.is_ok_and(|o| o.status.success()),
        "Graphviz `dot` is needed for this test: install it (apt-get install graphviz, brew \
         install graphviz); .ci/run installs it"
    );
    for (name, args) in inputs() {
        let text = show(&args, "dot");
        let mut dot = Command::new("dot")
            .args(["-Tsvg", "-o", "/dev/null"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dot runs");
        dot.stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = dot.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.trim().is_empty(),
            "dot -Tsvg refused the picture of {name}: {err}\n{text}"
        );
    }
}

#[test]
fn text_and_mermaid_snapshots() {
    let fixtures = [
        (
            "wordcount-json",
            vec!["tests/data/topologies/wordcount.json"],
        ),
        (
            "histogram",
            vec![
                "tests/data/topologies/wordcount-histogram.txt",
                "--application-id",
                "app",
            ],
        ),
        (
            "stream-table-join",
            vec![
                "tests/data/topologies/stream-table-join.txt",
                "--application-id",
                "app",
                "--partitions",
                "4",
            ],
        ),
        (
            "global-store",
            vec![
                "tests/data/topologies/global-store.txt",
                "--application-id",
                "app",
            ],
        ),
        (
            "named-two",
            vec![
                "tests/data/topologies/named-topologies-two.txt",
                "--application-id",
                "app",
            ],
        ),
        (
            "pattern",
            vec![
                "tests/data/topologies/pattern-source.txt",
                "--application-id",
                "app",
            ],
        ),
        (
            "snapshot",
            vec!["tests/data/snapshots/wordcount-epoch3.json"],
        ),
    ];
    let mut golden = Golden::new("topology_show");
    for (name, args) in fixtures {
        let args: Vec<String> = args.into_iter().map(str::to_string).collect();
        // The global store's text is the golden case show-global-notes (cases.txt).
        if name != "global-store" {
            golden.check(&format!("{name}_text"), &show(&args, "text"));
        }
        golden.check(&format!("{name}_mermaid"), &show(&args, "mermaid"));
    }
    golden.finish();
}

/// Every input draws the same thing twice: no HashMap order leaks into a picture.
#[test]
fn pictures_are_deterministic() {
    for (_, args) in inputs().into_iter().take(12) {
        for format in ["text", "dot", "mermaid"] {
            assert_eq!(show(&args, format), show(&args, format));
        }
    }
}
