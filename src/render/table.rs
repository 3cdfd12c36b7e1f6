//! Plain tables for terminals and pipes.

use comfy_table::presets::NOTHING;
use comfy_table::{ContentArrangement, Table};

/// A borderless table with a header row, in the style of Kafka's command-line tools.
pub fn new(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header.iter().copied());
    t
}

/// Render without leading or trailing padding on any line.
pub fn render(t: &Table) -> String {
    let mut t = t.clone();
    for c in t.column_iter_mut() {
        c.set_padding((0, 2));
    }
    let mut out = String::new();
    for line in t.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
