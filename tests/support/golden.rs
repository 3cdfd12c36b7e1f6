//! Golden files: what a test prints, kept under `tests/data/cli/expected/` and compared byte for
//! byte. The one way to accept a change is `BLESS=1 cargo test --test cli`: it rewrites the golden
//! files from the current build, deletes those no test writes any more, and rewrites the other
//! generated files the tests keep in step (man/, docs/schemas/, the snapshot fixture
//! tests/data/snapshots/wordcount-epoch3.json). Review the result with `git diff`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The folder of the golden files.
pub const EXPECTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cli/expected");

/// What to say when a golden file differs.
pub const HOW_TO_BLESS: &str = "BLESS=1 cargo test --test cli rewrites them; review with git diff";

/// True under `BLESS=1` (any value but empty or `0`): the tests write what they compare with.
pub fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The golden files of one test, all in one folder of [`EXPECTED`] (`""`: the folder itself),
/// one `NAME.txt` each. [`Golden::check`] compares an output with its file; [`Golden::finish`]
/// fails on every difference, and on every file in the folder that no check wrote (a stale
/// file: a case or output that went away). Under [`bless`] it writes and deletes instead.
pub struct Golden {
    dir: PathBuf,
    written: BTreeSet<String>,
    differ: Vec<String>,
}

impl Golden {
    /// The golden files in `folder` of [`EXPECTED`]. Each folder belongs to one test, and
    /// `tests/cli/golden.rs` checks that some test names it with `Golden::new("FOLDER")`.
    pub fn new(folder: &str) -> Golden {
        Golden {
            dir: Path::new(EXPECTED).join(folder),
            written: BTreeSet::new(),
            differ: Vec::new(),
        }
    }

    /// Compare `got` with `NAME.txt` (or write it, under [`bless`]).
    pub fn check(&mut self, name: &str, got: &str) {
        let file = format!("{name}.txt");
        assert!(
            self.written.insert(file.clone()),
            "two outputs for one golden file: {name}"
        );
        let path = self.dir.join(&file);
        let want = std::fs::read_to_string(&path).ok();
        if want.as_deref() == Some(got) {
            return;
        }
        if bless() {
            std::fs::create_dir_all(&self.dir).unwrap();
            std::fs::write(&path, got).unwrap();
            return;
        }
        let want = want.unwrap_or_else(|| "<no file>\n".to_string());
        eprintln!(
            "--- {} differs:\n{}",
            path.display(),
            first_difference(&want, got)
        );
        self.differ.push(name.to_string());
    }

    /// Fails unless every output matched its file and every file in the folder was checked.
    pub fn finish(self) {
        let stale: Vec<String> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.is_file())
                    .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                    .filter(|f| !self.written.contains(f))
                    .collect()
            })
            .unwrap_or_default();
        if bless() {
            for f in &stale {
                std::fs::remove_file(self.dir.join(f)).unwrap();
            }
            return;
        }
        let mut problems = Vec::new();
        if !self.differ.is_empty() {
            problems.push(format!("output differs from: {}", self.differ.join(", ")));
        }
        if !stale.is_empty() {
            problems.push(format!("no test writes: {}", stale.join(", ")));
        }
        assert!(
            problems.is_empty(),
            "golden files in {}: {} ({HOW_TO_BLESS})",
            self.dir.display(),
            problems.join("; ")
        );
    }
}

/// The first line where `want` and `got` part.
pub fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = w.iter().zip(&g).take_while(|(a, b)| a == b).count();
    if i == w.len() && i == g.len() {
        return "only in the line ends".to_string();
    }
    format!(
        "line {}:\n  want: {}\n  got:  {}",
        i + 1,
        w.get(i).unwrap_or(&"<end>"),
        g.get(i).unwrap_or(&"<end>")
    )
}
