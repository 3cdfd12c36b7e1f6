//! Cleaning pasted describe text into meaningful lines, before any keyword is looked at.
//!
//! Copies found in docs, READMEs and logs differ from what Kafka Streams printed only in
//! whitespace and wrapping: CRLF (or bare CR) line ends, trailing blanks, tabs or no-break
//! spaces for indentation, indentation stripped or doubled, blank lines anywhere, Markdown code
//! fences, and a log prefix (`2024-01-01 10:00:00 INFO  Topologies:`) in front of the first
//! line, where a logger printed the message. None of that carries structure, so it is removed
//! here; columns still count characters of the line as it was written.

/// One line that has content: its 1-based number, the 1-based column of its first content
/// character, and the content with inner tabs and no-break spaces turned into spaces (one
/// character each, so columns stay true).
#[derive(Debug)]
pub(super) struct Line {
    pub no: usize,
    pub col: usize,
    pub text: String,
}

/// The meaningful lines, and how many lines the text has (where "end of input" is).
pub(super) struct Lines {
    pub lines: Vec<Line>,
    pub total: usize,
}

/// Markers that start describe text; the first meaningful line may have anything before them.
/// Order matters: `Topology: Topologies:` (a log message that names what it prints) is the
/// unnamed header, so `Topologies:` is looked for before `Topology:`.
const START_MARKERS: [&str; 4] = [
    "Topologies:",
    "Sub-topologies:",
    "Sub-topology:",
    "Topology:",
];

/// Keywords a line of describe text can start with.
const LINE_KEYWORDS: [&str; 11] = [
    "Topologies:",
    "Topology:",
    "Sub-topologies:",
    "Sub-topology:",
    "Global Stores:",
    "GlobalStore:",
    "Source:",
    "Processor:",
    "Sink:",
    "-->",
    "<--",
];

pub(super) fn clean(text: &str) -> Lines {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Old Mac line ends: a text with CRs and no LF at all.
    let sep = if !text.contains('\n') && text.contains('\r') {
        '\r'
    } else {
        '\n'
    };
    let mut lines = Vec::new();
    let mut total = 0;
    for (i, raw) in text.split(sep).enumerate() {
        total = i + 1;
        if let Some(line) = content_of(raw, i + 1) {
            lines.push(line);
        }
    }
    if let Some(first) = lines.first_mut() {
        strip_log_prefix(first);
    }
    Lines { lines, total }
}

/// The content of one raw line, or `None` for a blank line or a Markdown code fence.
fn content_of(raw: &str, no: usize) -> Option<Line> {
    let trimmed = raw.trim();
    if trimmed.is_empty() || trimmed.starts_with("```") || trimmed.starts_with("~~~") {
        return None;
    }
    let lead = raw.len() - raw.trim_start().len();
    let col = raw[..lead].chars().count() + 1;
    let text = trimmed
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    Some(Line { no, col, text })
}

/// A first line that does not start with a keyword but has a start marker further on (a log
/// prefix): keep it from the marker.
fn strip_log_prefix(first: &mut Line) {
    if starts_with_keyword(&first.text) {
        return;
    }
    let found = START_MARKERS.iter().find_map(|m| {
        if *m == "Topology:" {
            first.text.rfind(m)
        } else {
            first.text.find(m)
        }
    });
    if let Some(at) = found {
        first.col += first.text[..at].chars().count();
        first.text.replace_range(..at, "");
    }
}

pub(super) fn starts_with_keyword(text: &str) -> bool {
    LINE_KEYWORDS.iter().any(|k| text.starts_with(k)) || text == "Topology"
}

/// Whether `text` looks like describe text: its first meaningful line starts with a keyword,
/// or has a start marker after a log prefix.
pub(super) fn looks_like_describe(text: &str) -> bool {
    let cleaned = clean_first(text);
    match cleaned {
        Some(line) => starts_with_keyword(&line.text),
        None => false,
    }
}

/// The first meaningful line, cleaned, without splitting the whole text.
fn clean_first(text: &str) -> Option<Line> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let sep = if !text.contains('\n') && text.contains('\r') {
        '\r'
    } else {
        '\n'
    };
    let mut line = text
        .split(sep)
        .enumerate()
        .find_map(|(i, raw)| content_of(raw, i + 1))?;
    strip_log_prefix(&mut line);
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<(usize, usize, String)> {
        clean(s)
            .lines
            .into_iter()
            .map(|l| (l.no, l.col, l.text))
            .collect()
    }

    #[test]
    fn whitespace_and_line_ends_carry_no_structure() {
        let got = texts("\u{feff}Topologies:\r\n\t  Sub-topology: 0 \t\r\n\r\n  Source:\tx\r\n");
        assert_eq!(
            got,
            vec![
                (1, 1, "Topologies:".to_string()),
                (2, 4, "Sub-topology: 0".to_string()),
                (4, 3, "Source: x".to_string()),
            ]
        );
        assert_eq!(clean("a\n\n").total, 3);
        assert_eq!(texts("a\rb").len(), 2, "bare CR line ends");
    }

    #[test]
    fn log_prefixes_are_cut_at_the_marker() {
        for (line, col) in [
            ("2024-01-01 10:00:00 INFO  Topologies:", 27),
            ("[main] INFO org.example.App - Topologies:", 31),
            ("INFO Topology: Topologies:", 16),
            ("12:00:01.123 [main] INFO App - Sub-topology: 0", 32),
        ] {
            let got = texts(line);
            assert_eq!(got[0].1, col, "{line}");
            assert!(starts_with_keyword(&got[0].2), "{line}");
        }
        let named = texts("10:00:00 INFO Topology: inventory:");
        assert_eq!(named[0].2, "Topology: inventory:");
        // Only the first line: later lines are left as written.
        assert_eq!(
            texts("Topologies:\nINFO Sub-topology: 0")[1].2,
            "INFO Sub-topology: 0"
        );
    }

    #[test]
    fn fences_are_skipped_and_detection_agrees() {
        assert_eq!(texts("```text\nTopologies:\n```").len(), 1);
        assert!(looks_like_describe("```\n  INFO - Topologies:\n"));
        assert!(looks_like_describe("Sub-topology: 0\n"));
        assert!(looks_like_describe("    Source: s (topics: [a])"));
        assert!(!looks_like_describe("hello\nTopologies:"));
        assert!(!looks_like_describe(" \n "));
    }
}
