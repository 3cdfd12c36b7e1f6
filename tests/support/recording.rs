//! What `describe --watch` saw, read while it runs, so that a test waits for the sample it needs
//! instead of sleeping: the samples of a `--record FILE` so far, and whether a sample shows a
//! group settled (Stable, every member at its target).

use std::path::Path;

use serde_json::Value;

/// The samples `describe --watch --record FILE` has written to `file` so far, complete lines
/// only (the watch may be writing the next one); none before the file exists.
pub fn recorded_samples(file: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    text[..complete].lines().map(sample).collect()
}

/// One JSON line of a recording or of `describe --watch --output json`.
pub fn sample(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not a sample ({e}): {line}"))
}

/// The sample (or `describe --output json` document) shows its first group Stable with
/// `members` members, each at the target assignment epoch and owning exactly its target.
pub fn settled(sample: &Value, members: usize) -> bool {
    let g = &sample["groups"][0];
    let Some(all) = g["members"].as_array() else {
        return false;
    };
    g["state"] == "Stable"
        && all.len() == members
        && all.iter().all(|m| {
            m["member_epoch"] == g["target_assignment_epoch"]
                && m["assignment"] == m["target_assignment"]
        })
}
