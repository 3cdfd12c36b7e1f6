//! The JSON topology file: exactly the serde form of [`Topology`] (unknown fields are errors),
//! checked after parsing.
//!
//! ```json
//! {
//!   "epoch": 0,
//!   "subtopologies": [
//!     { "id": "0", "source_topics": ["input"],
//!       "repartition_sink_topics": ["app-counts-repartition"] },
//!     { "id": "1",
//!       "repartition_source_topics": [{ "name": "app-counts-repartition" }],
//!       "state_changelog_topics": [{ "name": "app-counts-changelog" }] }
//!   ]
//! }
//! ```

use std::collections::BTreeSet;

use model::topology::{Subtopology, TopicInfo, Topology};

use super::{line_col, ParseError};

/// Parse and check a JSON topology.
///
/// Checks: subtopology ids are non-empty and unique; topic names and patterns are non-empty;
/// `partitions` is not negative and `replication_factor` not below -1 (Kafka Streams clients send
/// -1, their `replication.factor` default, for "the broker's default"); changelog topics have
/// `partitions: 0` (the coordinator decides them); every topic of a copartition group is a
/// source or repartition-source topic of its subtopology; the epoch is not negative.
pub fn parse_json(text: &str) -> Result<Topology, ParseError> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let topology: Topology = serde_json::from_str(body).map_err(|e| serde_error(&e))?;
    validate(&topology).map_err(|(index, needle, message)| {
        match locate(body, index, needle.as_deref()) {
            Some((line, column)) => ParseError::at(line, column, message),
            None => ParseError::general(message),
        }
    })?;
    Ok(topology)
}

fn serde_error(e: &serde_json::Error) -> ParseError {
    let message = model::input::json_message(e);
    if e.line() == 0 {
        ParseError::general(message)
    } else {
        // serde_json counts the column of the character it stopped at; 0 means "before the
        // first character".
        ParseError::at(e.line(), e.column().max(1), message)
    }
}

/// A validation failure: the subtopology index it is in (if any), a string to point at, and
/// the message.
type Invalid = (Option<usize>, Option<String>, String);

fn validate(t: &Topology) -> Result<(), Invalid> {
    if t.epoch < 0 {
        return Err((
            None,
            Some("\"epoch\"".into()),
            format!("epoch must not be negative, found {}", t.epoch),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, s) in t.subtopologies.iter().enumerate() {
        if s.id.is_empty() {
            return Err((Some(i), None, "subtopology id must not be empty".into()));
        }
        if !seen.insert(s.id.as_str()) {
            return Err((
                Some(i),
                None,
                format!("duplicate subtopology id {:?}", s.id),
            ));
        }
        validate_subtopology(s)
            .map_err(|(needle, m)| (Some(i), needle, format!("subtopology {:?}: {m}", s.id)))?;
    }
    Ok(())
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

fn validate_subtopology(s: &Subtopology) -> Result<(), (Option<String>, String)> {
    let empty = || (Some("\"\"".to_string()), String::new());
    for (list, what) in [
        (&s.source_topics, "source_topics"),
        (&s.source_topic_regex, "source_topic_regex"),
        (&s.repartition_sink_topics, "repartition_sink_topics"),
    ] {
        if list.iter().any(String::is_empty) {
            let (n, _) = empty();
            return Err((n, format!("empty name in {what}")));
        }
    }
    let check_info = |infos: &[TopicInfo], what: &str| -> Result<(), (Option<String>, String)> {
        for info in infos {
            if info.name.is_empty() {
                return Err((empty().0, format!("empty topic name in {what}")));
            }
            let at = Some(quoted(&info.name));
            if info.partitions < 0 {
                return Err((
                    at,
                    format!(
                        "{what}: topic {} has negative partitions ({})",
                        info.name, info.partitions
                    ),
                ));
            }
            if info.replication_factor < -1 {
                return Err((
                    at,
                    format!(
                        "{what}: topic {} has replication_factor {} (use a positive number, or 0 or -1 for the broker default)",
                        info.name, info.replication_factor
                    ),
                ));
            }
        }
        Ok(())
    };
    check_info(&s.repartition_source_topics, "repartition_source_topics")?;
    check_info(&s.state_changelog_topics, "state_changelog_topics")?;
    if let Some(c) = s.state_changelog_topics.iter().find(|c| c.partitions != 0) {
        return Err((
            Some(quoted(&c.name)),
            format!(
                "changelog topic {} has partitions {}: changelog partitions must be 0, the \
                 coordinator decides them (a real broker answers STREAMS_INVALID_TOPOLOGY)",
                c.name, c.partitions
            ),
        ));
    }
    let inputs: BTreeSet<&str> = s.input_topics().collect();
    for group in &s.copartition_groups {
        if group.is_empty() {
            return Err((
                Some("\"copartition_groups\"".into()),
                "empty copartition group".into(),
            ));
        }
        if let Some(t) = group.iter().find(|t| !inputs.contains(t.as_str())) {
            return Err((
                Some(quoted(t)),
                format!(
                    "copartition group names {t}, which is not a source or repartition source \
                     topic of this subtopology"
                ),
            ));
        }
    }
    Ok(())
}

/// Best effort: the position of `needle` inside the `index`-th subtopology object (found as the
/// `index`-th `"id"` key), or of the `"id"` key itself without a needle.
fn locate(text: &str, index: Option<usize>, needle: Option<&str>) -> Option<(usize, usize)> {
    let start = match index {
        Some(i) => {
            let keys = id_keys(text);
            *keys.get(i)?
        }
        None => 0,
    };
    let at = match needle {
        Some(n) => start + text.get(start..)?.find(n)?,
        None => start,
    };
    Some(line_col(text, at))
}

/// Byte offsets of every `"id"` object key (a `"id"` string followed by `:`).
fn id_keys(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = text.get(from..).and_then(|t| t.find("\"id\"")) {
        let at = from + pos;
        let rest = text.get(at + 4..).unwrap_or("").trim_start();
        if rest.starts_with(':') {
            out.push(at);
        }
        from = at + 4;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{
  "epoch": 2,
  "subtopologies": [
    { "id": "0", "source_topics": ["input"],
      "repartition_sink_topics": ["app-counts-repartition"] },
    { "id": "1",
      "repartition_source_topics": [{ "name": "app-counts-repartition", "partitions": 6 }],
      "state_changelog_topics": [{ "name": "app-counts-changelog",
                                   "topic_configs": { "cleanup.policy": "compact" } }] }
  ]
}"#;

    #[test]
    fn parses_the_serde_form() {
        let t = parse_json(GOOD).unwrap();
        assert_eq!(t.epoch, 2);
        assert_eq!(t.subtopologies.len(), 2);
        assert_eq!(t.subtopologies[0].source_topics, vec!["input"]);
        assert_eq!(
            t.subtopologies[1].repartition_source_topics[0].partitions,
            6
        );
        assert_eq!(
            t.subtopologies[1].state_changelog_topics[0].topic_configs["cleanup.policy"],
            "compact"
        );
        // Round trip through serde gives the same value.
        let again = parse_json(&serde_json::to_string_pretty(&t).unwrap()).unwrap();
        assert_eq!(again, t);
    }

    #[test]
    fn syntax_errors_have_positions() {
        let e =
            parse_json("{\n  \"subtopologies\": [\n    { \"id\": \"0\", }\n  ]\n}").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.column.is_some());
        assert!(!e.message.contains(" at line "), "{}", e.message);
    }

    #[test]
    fn unknown_fields_are_errors() {
        let e = parse_json("{\"subtopologies\": [{\"id\": \"0\", \"sources\": []}]}").unwrap_err();
        assert!(
            e.message.contains("unknown field `sources`"),
            "{}",
            e.message
        );
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn duplicate_ids_point_at_the_second() {
        let text = "{\"subtopologies\": [\n {\"id\": \"0\"},\n {\"id\": \"0\"}\n]}";
        let e = parse_json(text).unwrap_err();
        assert!(e.message.contains("duplicate subtopology id \"0\""), "{e}");
        assert_eq!((e.line, e.column), (Some(3), Some(3)));
    }

    #[test]
    fn empty_id_and_names() {
        let e = parse_json("{\"subtopologies\": [{\"id\": \"\"}]}").unwrap_err();
        assert!(e.message.contains("id must not be empty"));
        let e = parse_json("{\"subtopologies\": [{\"id\": \"0\", \"source_topics\": [\"\"]}]}")
            .unwrap_err();
        assert!(e.message.contains("empty name in source_topics"), "{e}");
        let e = parse_json(
            "{\"subtopologies\": [{\"id\": \"0\", \"repartition_source_topics\": [{\"name\": \"\"}]}]}",
        )
        .unwrap_err();
        assert!(e.message.contains("empty topic name"), "{e}");
    }

    #[test]
    fn negative_counts_and_changelog_partitions() {
        let e = parse_json(
            "{\"subtopologies\": [{\"id\": \"0\",\n \"repartition_source_topics\": [{\"name\": \"r\", \"partitions\": -1}]}]}",
        )
        .unwrap_err();
        assert!(e.message.contains("negative partitions"), "{e}");
        assert_eq!(e.line, Some(2));
        let e = parse_json(
            "{\"subtopologies\": [{\"id\": \"0\", \"repartition_source_topics\": [{\"name\": \"r\", \"replication_factor\": -3}]}]}",
        )
        .unwrap_err();
        assert!(e.message.contains("replication_factor -3"), "{e}");
        let e = parse_json(
            "{\"subtopologies\": [{\"id\": \"0\", \"source_topics\": [\"a\"], \"state_changelog_topics\": [{\"name\": \"c\", \"partitions\": 3}]}]}",
        )
        .unwrap_err();
        assert!(e.message.contains("changelog partitions must be 0"), "{e}");
        let e = parse_json("{\"epoch\": -1, \"subtopologies\": []}").unwrap_err();
        assert!(e.message.contains("epoch must not be negative"), "{e}");
    }

    #[test]
    fn copartition_groups_name_inputs() {
        let ok = "{\"subtopologies\": [{\"id\": \"0\", \"source_topics\": [\"a\", \"b\"], \"copartition_groups\": [[\"a\", \"b\"]]}]}";
        assert_eq!(
            parse_json(ok).unwrap().subtopologies[0]
                .copartition_groups
                .len(),
            1
        );
        let bad = "{\"subtopologies\": [{\"id\": \"0\", \"source_topics\": [\"a\"], \"copartition_groups\": [[\"a\", \"zz\"]]}]}";
        let e = parse_json(bad).unwrap_err();
        assert!(e.message.contains("names zz"), "{e}");
    }

    #[test]
    fn missing_subtopologies_field() {
        let e = parse_json("{\"epoch\": 1}").unwrap_err();
        assert!(e.message.contains("missing field `subtopologies`"), "{e}");
    }

    #[test]
    fn replication_factor_minus_one_is_the_broker_default() {
        // What real Kafka Streams clients send (found against a 4.3.1 broker's describe).
        let t = parse_json(
            "{\"subtopologies\": [{\"id\": \"0\", \"source_topics\": [\"in\"], \"repartition_source_topics\": [{\"name\": \"r\", \"replication_factor\": -1}]}]}",
        )
        .unwrap();
        assert_eq!(
            t.subtopologies[0].repartition_source_topics[0].replication_factor,
            -1
        );
    }
}
