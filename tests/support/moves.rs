//! Task moves read from the JSON of `timeline` and `diff assignment`, and composed
//! (`model::movement::compose`) so that the two can be compared: a timeline's
//! `task_moved` events, then its `unpaired` changes, add up to `diff assignment` of the
//! recording's first and last sample.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use model::movement::{compose, NetChange, TaskMove};
use model::TaskRole;
use serde_json::Value;

/// Per task and role, who lost it and who gained it overall.
pub type Net = BTreeMap<(String, TaskRole), NetChange>;

pub fn task_move(v: &Value) -> TaskMove {
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("an array of ids: {v}"))
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    TaskMove {
        task: v["task"].as_str().unwrap().to_string(),
        role: serde_json::from_value(v["role"].clone()).unwrap(),
        from: ids(&v["from"]),
        to: ids(&v["to"]),
    }
}

/// The `task_moved` events of a `timeline -o json` report, and its `unpaired` changes.
pub fn timeline_moves(report: &Value) -> (Vec<TaskMove>, Vec<TaskMove>) {
    let moves = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["what"])
        .filter(|w| w["kind"] == "task_moved")
        .map(task_move)
        .collect();
    let unpaired = report["unpaired"]
        .as_array()
        .unwrap()
        .iter()
        .map(task_move)
        .collect();
    (moves, unpaired)
}

/// The moves of a `diff assignment -o json` report.
pub fn diff_moves(report: &Value) -> Vec<TaskMove> {
    report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(task_move)
        .collect()
}

pub fn composed<'a>(moves: impl IntoIterator<Item = &'a TaskMove>) -> Net {
    compose(moves)
}

/// The recording's first and last sample, each written to a file of `dir` (a sample is a
/// snapshot that `diff assignment` reads).
pub fn first_and_last(recording: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(recording).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 2, "a recording of two samples at least");
    let (first, last) = (dir.join("first.json"), dir.join("last.json"));
    std::fs::write(&first, lines[0]).unwrap();
    std::fs::write(&last, lines[lines.len() - 1]).unwrap();
    (first, last)
}
