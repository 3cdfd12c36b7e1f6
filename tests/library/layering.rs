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
        // Paths in comments and strings are not imports.
        let text = code_only(&fs::read_to_string(&file).unwrap());
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

/// The longest function body allowed in `src/` outside tests and test data, in lines
/// (functions along the domain's seams).
const MAX_FUNCTION_LINES: usize = 80;

fn peek(c: &[char], i: usize) -> char {
    c.get(i).copied().unwrap_or('\0')
}

/// `text` with comments and string and char literals blanked out (newlines kept), so that
/// braces can be counted.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    while i < c.len() {
        if c[i] == '/' && peek(&c, i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && peek(&c, i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '/' && peek(&c, i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && peek(&c, i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (peek(&c, i + 1) == '"' || (peek(&c, i + 1) == '#' && peek(&c, i + 2) != '['))
        {
            // A raw string: r"..." or r#"..."#.
            let mut hashes = 0;
            i += 1;
            while peek(&c, i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            while i < c.len() && !c[i..].iter().collect::<String>().starts_with(&close) {
                blank(&mut out, c[i]);
                i += 1;
            }
            i += close.len();
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                }
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && (peek(&c, i + 1) == '\\' || peek(&c, i + 2) == '\'') {
            // A char literal (a lifetime has no closing quote after one character).
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// (first line, name, length in lines) of every function in `code`, skipping `#[cfg(test)]`
/// modules.
fn functions(code: &str) -> Vec<(usize, String, usize)> {
    let code = match code.find("#[cfg(test)]\nmod ") {
        Some(i) => &code[..i],
        None => code,
    };
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = &code[at..];
        let (Some(open), semi) = (rest.find('{'), rest.find(';')) else {
            continue;
        };
        if semi.is_some_and(|s| s < open) || name.is_empty() {
            continue;
        }
        let mut depth = 0;
        let mut end = open;
        for (k, b) in rest.bytes().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let first = code[..at].matches('\n').count() + 1;
        let lines = rest[..end].matches('\n').count() + 1;
        found.push((first, name, lines));
    }
    found
}

#[test]
fn functions_are_short() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    let mut counted = 0;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy();
        // Unit tests are checks, not logic.
        if name == "tests.rs" {
            continue;
        }
        let code = code_only(&fs::read_to_string(&file).unwrap());
        for (line, function, lines) in functions(&code) {
            counted += 1;
            if lines > MAX_FUNCTION_LINES {
                let rel = file.strip_prefix(&src).unwrap().display().to_string();
                long.push(format!("src/{rel}:{line} {function} ({lines} lines)"));
            }
        }
    }
    assert!(counted > 500, "functions are found ({counted})");
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines; split them along the domain's seams:\n{}",
        long.join("\n")
    );
}

#[test]
fn function_lengths_are_measured_on_code_only() {
    let text =
        "fn a() {\n    let s = \"}{\";\n    let c = '{';\n    // }\n    x::<'a>();\n}\nfn b() {}\n";
    let got = functions(&code_only(text));
    assert_eq!(got, vec![(1, "a".into(), 6), (7, "b".into(), 1)]);
}

/// `render` draws report values and never reaches the wire: no file under `src/render/` uses
/// `crate::kafka` or the part of a feature that talks to the cluster (its `live` module), so the
/// report types it draws live apart from I/O.
#[test]
fn render_does_not_depend_on_kafka() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("render"), &mut files);
    assert!(!files.is_empty());
    for file in files {
        let text = code_only(&fs::read_to_string(&file).unwrap());
        for (i, _) in text.match_indices("crate::") {
            let path: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let reaches_wire = path.starts_with("kafka") || path.split("::").any(|p| p == "live");
            assert!(
                !reaches_wire,
                "{} uses crate::{path}: render draws reports and never reaches the wire",
                file.display()
            );
        }
    }
}

/// The module map in `src/lib.rs` and the layout in docs/contributing.md name every top-level
/// module of the library, so a newcomer finds where a behaviour lives.
#[test]
fn every_top_level_module_is_on_the_maps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let contributing = fs::read_to_string(root.join("docs/contributing.md")).unwrap();
    let map: String = lib
        .lines()
        .filter(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(modules.len() > 10, "{modules:?}");
    for m in modules {
        assert!(
            map.contains(&format!("`{m}`")),
            "src/lib.rs's module map does not name `{m}`"
        );
        let path = if root.join(format!("src/{m}")).is_dir() {
            format!("src/{m}/")
        } else {
            format!("src/{m}.rs")
        };
        assert!(
            contributing.contains(&path),
            "docs/contributing.md's layout does not name {path}"
        );
    }
}

/// Every `[dependencies]` entry of Cargo.toml is used by `src/` (errors are typed kinds, see
/// docs/contributing.md, so no `anyhow`).
#[test]
fn every_dependency_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let code: String = files
        .iter()
        .map(|f| fs::read_to_string(f).unwrap())
        .collect();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    let mut checked = 0;
    for line in deps.lines() {
        let Some((name, _)) = line.split_once(" = ") else {
            continue;
        };
        if name.starts_with('#') {
            continue;
        }
        let crate_name = name.trim().replace('-', "_");
        checked += 1;
        assert!(
            code.contains(&format!("{crate_name}::")),
            "Cargo.toml declares `{name}`, which src/ never uses: remove it"
        );
    }
    assert!(checked > 10, "{checked} dependencies read from Cargo.toml");
}
