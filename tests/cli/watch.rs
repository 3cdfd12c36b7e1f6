//! `timeline` against `diff assignment` on the recording checked in as a fixture: the moves the
//! timeline reports from the first sample to the last, then what it leaves unpaired, compose to
//! the moves `diff assignment` finds between those two samples.

use serde_json::Value;

use crate::support;
use crate::support::moves::{composed, diff_moves, first_and_last, timeline_moves};

#[test]
fn timeline_moves_compose_to_diff_assignment_of_the_first_and_last_sample() {
    let rec = "tests/data/watch/rebalance.jsonl";
    let json = |args: &[&str]| -> Value { support::streams_group(args).success().json() };
    let (moves, unpaired) = timeline_moves(&json(&["timeline", rec, "-o", "json"]));
    let dir = tempfile::tempdir().unwrap();
    let (first, last) = first_and_last(rec.as_ref(), dir.path());
    let diff = json(&[
        "diff",
        "assignment",
        first.to_str().unwrap(),
        last.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(diff["compared_by"], "member");
    let diff = diff_moves(&diff);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert!(unpaired.is_empty(), "{unpaired:?}");
    assert_eq!(composed(&moves), composed(&diff));
}
