//! The library's layering, checked from the sources: data flows one way between the top-level
//! modules of `src/` (no import cycle), and nothing below the command layer reaches up into it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Modules of the binary (`main.rs` declares them); everything else in `src/` is the library.
const BINARY: [&str; 5] = ["main", "cli", "commands", "command_error", "exit"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module of each file, and the `crate::NAME` paths it uses.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        let text = fs::read_to_string(&file).unwrap();
        let uses = graph.entry(module.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                uses.insert(name);
            }
        }
    }
    graph
}

#[test]
fn top_level_modules_form_no_cycle() {
    let graph = imports();
    // Depth-first search for a back edge, reporting the cycle it closes.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(at) = path.iter().position(|p| p == m) {
            panic!("import cycle: {} -> {m}", path[at..].join(" -> "));
        }
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(m.to_string());
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
    assert!(graph.contains_key("coordinator") && graph.contains_key("topology"));
}

#[test]
fn the_library_does_not_reach_into_the_binary() {
    for (module, uses) in imports() {
        if BINARY.contains(&module.as_str()) {
            continue;
        }
        for used in &uses {
            assert!(
                !BINARY.contains(&used.as_str()),
                "src/{module} uses crate::{used}, which belongs to the binary"
            );
        }
    }
}
