//! The manual pages in man/ are what `streams-group man --dir` generates from the clap
//! definitions, one per subcommand, like the completion scripts in completions/.
//!
//! `BLESS=1 cargo test --test cli` rewrites man/ from the current build (with the golden files).

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::golden::bless;
use crate::support::{streams_group, StreamsGroup};

fn pages(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "1"))
                .map(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read_to_string(&p).unwrap())
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn committed_manual_pages_are_up_to_date() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let fresh = tempfile::tempdir().unwrap();
    StreamsGroup::new(["man", "--dir"])
        .args([fresh.path()])
        .run()
        .success();
    let want = pages(fresh.path());
    let have = pages(&committed);
    if bless() {
        for (name, page) in &want {
            if have.get(name) != Some(page) {
                std::fs::write(committed.join(name), page).unwrap();
            }
        }
        for name in have.keys().filter(|n| !want.contains_key(*n)) {
            std::fs::remove_file(committed.join(name)).unwrap();
        }
        return;
    }
    let sub_count = crate::subcommands().len();
    assert!(
        want.len() > sub_count,
        "a page per subcommand and the main one: {want:?}"
    );
    let stale: Vec<&String> = want
        .keys()
        .chain(have.keys())
        .filter(|f| want.get(*f) != have.get(*f))
        .collect();
    assert!(
        stale.is_empty(),
        "man/ is not what the build generates (BLESS=1 cargo test --test cli rewrites it): \
         {stale:?}"
    );
}

#[test]
fn one_page_prints_and_an_unknown_one_is_a_usage_error() {
    let o = streams_group(&["man", "topology", "show"]).success();
    let page = &o.stdout;
    assert!(
        page.starts_with(".ie") && page.contains(".TH streams-group-topology-show 1"),
        "{page}"
    );
    let o = streams_group(&["man", "frobnicate"]).assert_code(2);
    let err = &o.stderr;
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
