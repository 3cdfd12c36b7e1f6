//! JSON output: pretty, with a trailing newline.

use serde::Serialize;

pub fn to_string<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("report values always serialize");
    s.push('\n');
    s
}
