//! Topologies as the tool reads and shows them: parse (JSON files, Kafka Streams
//! `Topology#describe()` text), the topic partition counts to assume, a group's described
//! topology made comparable with a sent one, diff, and the `topology` report and picture. What
//! the coordinator makes of a topology (internal topics, copartitioning) is
//! `coordinator::topics`.
//!
//! Entry points:
//! * [`parse_topology`] / [`load_topology_file`]: auto-detect the format and parse.
//! * [`described::topology_of`]: the topology a described group's members sent.
//! * [`diff::diff`]: compare two topologies, with hazards for a topology upgrade.

pub mod describe_text;
pub mod described;
pub mod diff;
pub mod json;
pub mod picture;
pub mod report;
pub mod show;
pub mod topic_counts;

use std::fmt;
use std::path::Path;

use model::group::GroupDescription;
use model::processor_graph::ProcessorGraph;
use model::topology::Topology;

pub use describe_text::{parse_describe, parse_describe_graph, parse_describe_with_notes};
pub use json::parse_json;

/// A topology file that cannot be read or parsed.
///
/// Displayed as `FILE:LINE:COL: message` when the file and position are known,
/// `line L, column C: message` without a file, and `FILE: message` without a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file, when the text came from one.
    pub file: Option<String>,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    pub message: String,
}

impl ParseError {
    /// An error at a position (1-based line and column).
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            file: None,
            line: Some(line),
            column: Some(column),
            message: message.into(),
        }
    }

    /// An error without a position.
    pub fn general(message: impl Into<String>) -> Self {
        ParseError {
            file: None,
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// The same error, attributed to a file.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line, self.column) {
            (Some(file), Some(l), Some(c)) => write!(f, "{file}:{l}:{c}: {}", self.message),
            (Some(file), Some(l), None) => write!(f, "{file}:{l}: {}", self.message),
            (Some(file), None, _) => write!(f, "{file}: {}", self.message),
            (None, Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (None, Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, None, _) => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// The two topology file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyFormat {
    /// The JSON form of [`Topology`].
    Json,
    /// Kafka Streams `Topology#describe()` output.
    DescribeText,
}

/// Which format `text` is in: JSON when the first non-blank character is `{`, describe text
/// when the first non-blank line starts with one of its keywords (`Topologies:`, `Topology:`,
/// `Sub-topology:`, `Source:`, ...), also after a log prefix.
pub fn detect_format(text: &str) -> Result<TopologyFormat, ParseError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = body.trim_start();
    if trimmed.starts_with('{') {
        return Ok(TopologyFormat::Json);
    }
    if describe_text::looks_like_describe(body) {
        return Ok(TopologyFormat::DescribeText);
    }
    if trimmed.is_empty() {
        return Err(ParseError::general(
            "empty topology: expected a JSON topology or Topology#describe() text",
        ));
    }
    // Position of the first non-blank character.
    let offset = body.len() - trimmed.len();
    let (line, column) = line_col(body, offset);
    Err(ParseError::at(
        line,
        column,
        "expected a JSON topology (`{`) or Kafka Streams Topology#describe() text \
         (`Topologies:`, `Topology:` or `Sub-topology:`): is it the right file?",
    ))
}

/// Parse a topology in either format (see [`detect_format`]). Describe text needs the
/// application id, because internal topic names are printed without it.
pub fn parse_topology(text: &str, application_id: Option<&str>) -> Result<Topology, ParseError> {
    parse_topology_with_notes(text, application_id).map(|(t, _)| t)
}

/// Like [`parse_topology`], also returning the parser's notes (global stores skipped, dynamic
/// sinks, ...). JSON input has no notes.
pub fn parse_topology_with_notes(
    text: &str,
    application_id: Option<&str>,
) -> Result<(Topology, Vec<String>), ParseError> {
    parse_topology_graph(text, application_id).map(|(t, notes, _)| (t, notes))
}

/// Like [`parse_topology_with_notes`], also returning the processors when the format has them
/// (describe text does, JSON does not).
pub fn parse_topology_graph(
    text: &str,
    application_id: Option<&str>,
) -> Result<(Topology, Vec<String>, Option<ProcessorGraph>), ParseError> {
    match detect_format(text)? {
        TopologyFormat::Json => json::parse_json(text).map(|t| (t, Vec::new(), None)),
        TopologyFormat::DescribeText => match application_id {
            Some(app) => describe_text::parse_describe_graph(text, app)
                .map(|(t, notes, graph)| (t, notes, Some(graph))),
            None => Err(ParseError::general(
                "this is Topology#describe() text, which prints internal topic names without the \
                 application id",
            )),
        },
    }
}

/// Read and parse a topology file; errors name the file.
pub fn load_topology_file(
    path: &Path,
    application_id: Option<&str>,
) -> Result<Topology, ParseError> {
    load_topology_file_with_notes(path, application_id).map(|(t, _)| t)
}

/// Like [`load_topology_file`], also returning the parser's notes.
pub fn load_topology_file_with_notes(
    path: &Path,
    application_id: Option<&str>,
) -> Result<(Topology, Vec<String>), ParseError> {
    let name = path.display().to_string();
    let text = model::input::read_document(path)
        .map_err(|e| ParseError::general(format!("cannot read the file: {e}")).in_file(&name))?;
    parse_topology_with_notes(&text, application_id).map_err(|e| e.in_file(name))
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// A topology, with what it came from.
#[derive(Clone, Debug)]
pub struct ResolvedTopology {
    pub topology: Topology,
    /// What the user gave: the file, or `group:ID`.
    pub label: String,
    /// The group, when the topology came from a snapshot or a live group.
    pub group: Option<GroupDescription>,
    /// The group was read from the cluster just now (`group:ID`), not from a snapshot.
    pub live: bool,
    /// The internal topics' partition counts are a coordinator's decisions (a described
    /// topology), not what members send.
    pub described: bool,
    /// What the parser noted (e.g. global stores skipped).
    pub notes: Vec<String>,
    /// The processors, when the input has them (describe text).
    pub graph: Option<ProcessorGraph>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_forms() {
        let e = ParseError::at(3, 5, "expected `Source:`");
        assert_eq!(e.to_string(), "line 3, column 5: expected `Source:`");
        assert_eq!(
            e.clone().in_file("t.txt").to_string(),
            "t.txt:3:5: expected `Source:`"
        );
        assert_eq!(
            ParseError::general("boom").in_file("f").to_string(),
            "f: boom"
        );
        assert_eq!(ParseError::general("boom").to_string(), "boom");
    }

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect_format("  \n {\"a\":1}").unwrap(),
            TopologyFormat::Json
        );
        assert_eq!(
            detect_format("Topologies:\n   Sub-topology: 0\n").unwrap(),
            TopologyFormat::DescribeText
        );
        assert_eq!(
            detect_format("\nTopology: x:\n").unwrap(),
            TopologyFormat::DescribeText
        );
        assert_eq!(
            detect_format("2024-01-01 10:00:00 INFO  Topologies:\n").unwrap(),
            TopologyFormat::DescribeText
        );
        assert_eq!(
            detect_format("\r\n\tSub-topology: 0\r\n").unwrap(),
            TopologyFormat::DescribeText
        );
        let e = detect_format("\n  hello").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(3)));
        assert!(detect_format("   ").is_err());
    }

    #[test]
    fn describe_text_needs_application_id() {
        let e = parse_topology("Topologies:\n", None).unwrap_err();
        assert!(e.message.contains("without the application id"), "{e}");
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\ncé d", 7), (2, 4));
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("abc", 99), (1, 4));
    }

    #[test]
    fn load_missing_file_names_it() {
        let e = load_topology_file(Path::new("/nonexistent/x.json"), None).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("/nonexistent/x.json: cannot read"));
    }
}
