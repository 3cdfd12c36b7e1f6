//! The workspace's layering, checked from the sources. The crates' own dependency lists make
//! the floors compile errors (the coordinator cannot name the client, the model names neither);
//! what the compiler cannot see is checked here: no circle of imports among the modules of any
//! folder of any crate, nothing below the command layer reaching up into it, `render` never
//! reaching the wire, short functions, every declared dependency used, and the crates that must
//! stay pure declaring no I/O, runtime or command-line crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Modules of the binary (`main.rs` declares them); everything else in `src/` is the library.
const BINARY: [&str; 5] = ["main", "cli", "commands", "command_error", "exit"];

/// Every source folder of the workspace: the tool's, then each crate's.
fn source_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("src")];
    let mut crates: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .collect();
    crates.sort();
    assert!(crates.len() >= 3, "crates/ holds the floors: {crates:?}");
    roots.extend(crates);
    roots
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src` (`simulate/report.rs` and `simulate/report/mod.rs` are
/// `["simulate", "report"]`; `lib.rs`, `main.rs` are the crate root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Identifier path segments starting at byte `at` of `text` (`a::b::C` gives a, b, C).
fn path_at(text: &str, at: usize) -> Vec<String> {
    let path: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    path.split("::")
        .take_while(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The module paths a file's code names, made absolute: `crate::a::b`, `super::x` and
/// `self::x`. Comments and strings are not imports; `#[cfg(test)]` modules are left out.
fn imports_of(module: &[String], code: &str) -> Vec<Vec<String>> {
    let code = match code.find("#[cfg(test)]\nmod ") {
        Some(i) => &code[..i],
        None => code,
    };
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("::") {
        // The first segment of a path: not preceded by an identifier character or `::`.
        let start = code[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        if start >= 2 && &bytes[start - 2..start] == b"::" {
            continue;
        }
        let segments = path_at(code, start);
        let Some(first) = segments.first() else {
            continue;
        };
        let mut base: Vec<String> = module.to_vec();
        // A file `x.rs` holds module x; `super` from it is x's parent. `self` is x itself.
        let rest: Vec<String> = match first.as_str() {
            "crate" => {
                base.clear();
                segments[1..].to_vec()
            }
            "self" => segments[1..].to_vec(),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                for _ in 0..ups {
                    base.pop();
                }
                segments[ups..].to_vec()
            }
            _ => continue,
        };
        base.extend(rest);
        out.push(base);
    }
    out
}

struct Crate {
    src: PathBuf,
    /// Each file's module path and the module paths it names.
    files: Vec<(PathBuf, Vec<String>, Vec<Vec<String>>)>,
}

fn read_crate(src: &Path) -> Crate {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    paths.sort();
    let files = paths
        .into_iter()
        // Unit tests (`tests.rs`, `tests/`) are checks of a module, not part of its layering.
        .filter(|file| !module_of(src, file).iter().any(|m| m == "tests"))
        .map(|file| {
            let module = module_of(src, &file);
            let code = code_only(&fs::read_to_string(&file).unwrap());
            let imports = imports_of(&module, &code);
            (file, module, imports)
        })
        .collect();
    Crate {
        src: src.to_path_buf(),
        files,
    }
}

/// For the folder (module) `parent`: which of its child modules names which other.
fn child_graph(krate: &Crate, parent: &[String]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, module, imports) in &krate.files {
        if module.len() <= parent.len() || module[..parent.len()] != *parent {
            continue;
        }
        let child = &module[parent.len()];
        let edges = graph.entry(child.clone()).or_default();
        for import in imports {
            if import.len() > parent.len() && import[..parent.len()] == *parent {
                let other = &import[parent.len()];
                if other != child {
                    edges.insert(other.clone());
                }
            }
        }
    }
    graph
}

/// A circle in `graph`, if any, as the names along it.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if done.contains(m) {
            return None;
        }
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut c = path[at..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

/// Every folder of every crate: its modules name each other without a circle (a circle means
/// two modules are one job, or a shared part belongs a floor below both).
#[test]
fn no_folder_holds_a_circle_of_imports() {
    let mut folders = 0;
    let mut edges = 0;
    let mut circles = Vec::new();
    for src in source_roots() {
        let krate = read_crate(&src);
        let parents: BTreeSet<Vec<String>> = krate
            .files
            .iter()
            .flat_map(|(_, m, _)| (0..m.len()).map(move |n| m[..n].to_vec()))
            .collect();
        for parent in parents {
            let graph = child_graph(&krate, &parent);
            folders += 1;
            edges += graph.values().map(BTreeSet::len).sum::<usize>();
            if let Some(c) = circle(&graph) {
                circles.push(format!(
                    "{}/{}: {}",
                    krate.src.display(),
                    parent.join("/"),
                    c.join(" -> ")
                ));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
    assert!(
        folders > 25 && edges > 100,
        "{folders} folders, {edges} edges read"
    );
}

#[test]
fn a_circle_inside_a_folder_is_found() {
    let file = |m: &str| m.split('/').map(str::to_string).collect::<Vec<_>>();
    let krate = Crate {
        src: PathBuf::from("src"),
        files: vec![
            (
                PathBuf::new(),
                file("sim/report"),
                imports_of(&file("sim/report"), "use super::samples::Samples;"),
            ),
            (
                PathBuf::new(),
                file("sim/samples"),
                imports_of(&file("sim/samples"), "use crate::sim::report::R;"),
            ),
            (
                PathBuf::new(),
                file("sim/engine"),
                imports_of(&file("sim/engine"), "use super::report::R;"),
            ),
        ],
    };
    let graph = child_graph(&krate, &file("sim"));
    assert_eq!(
        circle(&graph),
        Some(vec![
            "report".to_string(),
            "samples".into(),
            "report".into()
        ])
    );
    assert_eq!(circle(&child_graph(&krate, &[])), None);
}

#[test]
fn the_library_does_not_reach_into_the_binary() {
    let src = &source_roots()[0];
    let krate = read_crate(src);
    for (file, module, imports) in &krate.files {
        if module.first().is_some_and(|m| BINARY.contains(&m.as_str())) || module.is_empty() {
            continue;
        }
        for used in imports {
            assert!(
                !used.first().is_some_and(|u| BINARY.contains(&u.as_str())),
                "{} uses crate::{}, which belongs to the binary",
                file.display(),
                used.join("::")
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
    let mut long = Vec::new();
    let mut counted = 0;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in source_roots() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
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
                    let rel = file.strip_prefix(root).unwrap().display().to_string();
                    long.push(format!("{rel}:{line} {function} ({lines} lines)"));
                }
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

/// `render` draws report values and never reaches the wire: no file under `src/render/` names
/// the `kafka` crate or the part of a feature that talks to the cluster (its `live` module), so
/// the report types it draws live apart from I/O.
#[test]
fn render_does_not_depend_on_kafka() {
    let src = &source_roots()[0];
    let mut files = Vec::new();
    rust_files(&src.join("render"), &mut files);
    assert!(!files.is_empty());
    for file in files {
        let text = code_only(&fs::read_to_string(&file).unwrap());
        for (i, _) in text.match_indices("::") {
            let start = text[..i]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |k| k + 1);
            let path = path_at(&text, start);
            let reaches_wire =
                path.first().is_some_and(|p| p == "kafka") || path.iter().any(|p| p == "live");
            assert!(
                !reaches_wire,
                "{} uses {}: render draws reports and never reaches the wire",
                file.display(),
                path.join("::")
            );
        }
    }
}

/// The module map in `src/lib.rs` and the layout in docs/dev/architecture.md name every
/// top-level module of the tool's library and every crate, so a newcomer finds where a
/// behaviour lives.
#[test]
fn every_top_level_module_is_on_the_maps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let architecture = fs::read_to_string(root.join("docs/dev/architecture.md")).unwrap();
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
        let name = if root.join(format!("src/{m}")).is_dir() {
            format!("{m}/")
        } else {
            format!("{m}.rs")
        };
        // The layout lists the tool's modules indented under `src/`.
        assert!(
            architecture.contains(&format!("\n  {name} ")),
            "docs/dev/architecture.md's layout does not name src/{name}"
        );
    }
    for src in &source_roots()[1..] {
        let krate = src
            .parent()
            .unwrap()
            .strip_prefix(root)
            .unwrap()
            .display()
            .to_string();
        assert!(
            architecture.contains(&format!("{krate}/")),
            "docs/dev/architecture.md's layout does not name {krate}/"
        );
    }
}

/// The `[dependencies]` names of a manifest (`model.workspace = true` and `tokio = ...` alike).
fn dependencies(manifest: &str) -> Vec<String> {
    let deps = manifest
        .split("\n[dependencies]")
        .nth(1)
        .unwrap_or_default()
        .split("\n[")
        .next()
        .unwrap();
    deps.lines()
        .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
        .map(|l| l.split(['=', '.', ' ']).next().unwrap().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Every `[dependencies]` entry of every crate's manifest is used by its sources (errors are
/// typed kinds, see docs/dev/architecture.md, so no `anyhow`).
#[test]
fn every_dependency_is_used() {
    let mut checked = 0;
    for src in source_roots() {
        let dir = src.parent().unwrap();
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let code: String = files
            .iter()
            .map(|f| fs::read_to_string(f).unwrap())
            .collect();
        for name in dependencies(&manifest) {
            let crate_name = name.replace('-', "_");
            checked += 1;
            assert!(
                code.contains(&format!("{crate_name}::")),
                "{} declares `{name}`, which its sources never use: remove it",
                dir.join("Cargo.toml").display()
            );
        }
    }
    assert!(checked > 30, "{checked} dependencies read");
}

/// The floors that must stay pure say so in their manifests: the model and the coordinator
/// declare no runtime, no network, no command line and not the client; the client no command
/// line and no coordinator. The compiler then refuses any import across those lines.
#[test]
fn the_pure_crates_declare_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let io = [
        "tokio",
        "rustls",
        "tokio-rustls",
        "clap",
        "kafka",
        "kafka-protocol",
    ];
    for (krate, refused) in [
        ("model", &io[..]),
        ("coordinator", &io[..]),
        ("kafka", &["clap", "coordinator"][..]),
    ] {
        let manifest = fs::read_to_string(root.join(format!("crates/{krate}/Cargo.toml"))).unwrap();
        let deps = dependencies(&manifest);
        assert!(!deps.is_empty() || krate == "model", "{krate}: {deps:?}");
        for name in refused {
            assert!(
                !deps.iter().any(|d| d == name),
                "crates/{krate}/Cargo.toml declares `{name}`: that floor stays below it"
            );
        }
    }
}

#[test]
fn dependency_names_are_read_from_a_manifest() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nmodel.workspace = true\n# a note\ntokio = { version = \"1\" }\n\n[dev-dependencies]\nproptest = \"1\"\n";
    assert_eq!(dependencies(manifest), vec!["model", "tokio"]);
}
