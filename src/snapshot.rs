//! Snapshots: the JSON that `describe --output json` prints, read back by the offline commands
//! (`diff`, `check-epoch --snapshot`, `diff assignment --simulate`).
//!
//! * [`load_snapshot`]: read and check a snapshot file (schema version, JSON position on errors);
//! * [`find_group`]: pick the group asked for (or the only one);
//! * [`crate::topology::described::topology_of`]: the described topology as the members sent it.

use std::fmt;
use std::path::Path;

use model::group::{GroupDescription, Snapshot, SNAPSHOT_SCHEMA_VERSION};
use model::KafkaVersion;

/// Why a snapshot cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// The file cannot be read.
    Unreadable { file: String, message: String },
    /// Not JSON, or JSON of the wrong shape; `line`/`column` are 1-based.
    Malformed {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// JSON without a top-level `schema_version`: not a snapshot.
    MissingSchemaVersion { file: String },
    /// A schema version this build does not read.
    UnsupportedVersion { file: String, version: String },
    /// No group in the snapshot.
    NoGroups,
    /// The group asked for is not in the snapshot.
    GroupNotFound { wanted: String, have: Vec<String> },
    /// Several groups and no name given.
    SeveralGroups { have: Vec<String> },
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::Unreadable { file, message } => {
                write!(f, "{file}: cannot read the snapshot: {message}")
            }
            SnapshotError::Malformed {
                file,
                line,
                column,
                message,
            } => write!(f, "{file}:{line}:{column}: not a valid snapshot: {message}"),
            SnapshotError::MissingSchemaVersion { file } => write!(
                f,
                "{file}: not a snapshot: no top-level `schema_version` (write one with \
                 `streams-group describe --output json`)"
            ),
            SnapshotError::UnsupportedVersion { file, version } => write!(
                f,
                "{file}: snapshot schema version {version} is not supported by this build \
                 (it reads {SNAPSHOT_SCHEMA_VERSION})"
            ),
            SnapshotError::NoGroups => f.write_str("the snapshot describes no group"),
            SnapshotError::GroupNotFound { wanted, have } => write!(
                f,
                "the snapshot has no group {wanted}; it has: {}",
                have.join(", ")
            ),
            SnapshotError::SeveralGroups { have } => {
                write!(f, "the snapshot has several groups ({})", have.join(", "))
            }
        }
    }
}

impl std::error::Error for SnapshotError {}

/// True when `text` is a JSON object with a top-level `schema_version` key: a snapshot rather
/// than a topology file.
pub fn looks_like_snapshot(text: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => m.contains_key("schema_version"),
        _ => false,
    }
}

/// Read a snapshot file and check its schema version.
pub fn load_snapshot(path: &Path) -> Result<Snapshot, SnapshotError> {
    let file = path.display().to_string();
    let text = model::input::read_document(path).map_err(|e| SnapshotError::Unreadable {
        file: file.clone(),
        message: e.to_string(),
    })?;
    parse_snapshot(&text, &file)
}

/// Parse snapshot text; `file` names it in errors.
pub fn parse_snapshot(text: &str, file: &str) -> Result<Snapshot, SnapshotError> {
    let malformed = |e: serde_json::Error| SnapshotError::Malformed {
        file: file.to_string(),
        line: e.line().max(1),
        column: e.column().max(1),
        message: model::input::json_message(&e),
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(malformed)?;
    let version = match &value {
        serde_json::Value::Object(m) => m.get("schema_version"),
        _ => None,
    };
    let Some(version) = version else {
        return Err(SnapshotError::MissingSchemaVersion {
            file: file.to_string(),
        });
    };
    if version.as_u64() != Some(u64::from(SNAPSHOT_SCHEMA_VERSION)) {
        return Err(SnapshotError::UnsupportedVersion {
            file: file.to_string(),
            version: version.to_string(),
        });
    }
    let recorded = value
        .get("kafka_version")
        .and_then(|v| v.as_str())
        .filter(|name| KafkaVersion::legacy(name).is_some())
        .map(str::to_string);
    // Parse the text again (not the value) so that shape errors have a position.
    let mut snapshot = serde_json::from_str::<Snapshot>(text).map_err(malformed)?;
    snapshot.legacy_version_name = recorded;
    Ok(snapshot)
}

/// The group named `group`, or the only group when no name is given.
pub fn find_group<'a>(
    s: &'a Snapshot,
    group: Option<&str>,
) -> Result<&'a GroupDescription, SnapshotError> {
    let have = || s.groups.iter().map(|g| g.group_id.clone()).collect();
    match group {
        Some(name) => s.groups.iter().find(|g| g.group_id == name).ok_or_else(|| {
            if s.groups.is_empty() {
                SnapshotError::NoGroups
            } else {
                SnapshotError::GroupNotFound {
                    wanted: name.to_string(),
                    have: have(),
                }
            }
        }),
        None => match s.groups.as_slice() {
            [] => Err(SnapshotError::NoGroups),
            [g] => Ok(g),
            _ => Err(SnapshotError::SeveralGroups { have: have() }),
        },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use model::group::DescribedTopology;
    use model::{Subtopology, TopicInfo};

    /// A described group with one subtopology (shared with `topology::described`'s tests).
    pub(crate) fn group(id: &str) -> GroupDescription {
        GroupDescription {
            member_order: Vec::new(),
            group_id: id.into(),
            state: "Stable".into(),
            group_epoch: 3,
            target_assignment_epoch: 3,
            coordinator: None,
            topology: DescribedTopology {
                epoch: 2,
                subtopologies: Some(vec![Subtopology {
                    id: "0".into(),
                    source_topics: vec!["in".into()],
                    repartition_source_topics: vec![TopicInfo {
                        partitions: 6,
                        ..TopicInfo::named("app-r-repartition")
                    }],
                    state_changelog_topics: vec![TopicInfo {
                        partitions: 6,
                        ..TopicInfo::named("app-s-changelog")
                    }],
                    ..Subtopology::default()
                }]),
            },
            members: vec![],
            offsets: vec![],
            assignor: None,
            configs: None,
        }
    }

    fn snap(groups: Vec<GroupDescription>) -> Snapshot {
        Snapshot {
            kafka_version: None,
            kafka_version_note: None,
            legacy_version_name: None,
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            groups,
        }
    }

    #[test]
    fn parse_errors_are_clear() {
        let e = parse_snapshot("{\n  \"schema_version\": 1,\n  x", "f.json").unwrap_err();
        assert!(
            matches!(e, SnapshotError::Malformed { line: 3, .. }),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("f.json:3:"), "{e}");
        let e = parse_snapshot("{\"groups\": []}", "f.json").unwrap_err();
        assert_eq!(
            e,
            SnapshotError::MissingSchemaVersion {
                file: "f.json".into()
            }
        );
        let e = parse_snapshot("{\"schema_version\": 7, \"groups\": []}", "f.json").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.json: snapshot schema version 7 is not supported by this build (it reads 1)"
        );
        let e = parse_snapshot("{\"schema_version\": 1}", "f.json").unwrap_err();
        assert!(e.to_string().contains("missing field `groups`"), "{e}");
        let e = load_snapshot(Path::new("/nonexistent/s.json")).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("/nonexistent/s.json: cannot read"));
    }

    #[test]
    fn round_trip_and_detection() {
        let s = snap(vec![group("a")]);
        let text = serde_json::to_string_pretty(&s).unwrap();
        assert!(looks_like_snapshot(&text));
        assert!(!looks_like_snapshot("{\"subtopologies\": []}"));
        assert!(!looks_like_snapshot("Topologies:\n"));
        assert_eq!(parse_snapshot(&text, "x").unwrap(), s);
    }

    #[test]
    fn finds_groups() {
        let s = snap(vec![group("a"), group("b")]);
        assert_eq!(find_group(&s, Some("b")).unwrap().group_id, "b");
        assert_eq!(
            find_group(&s, Some("c")).unwrap_err().to_string(),
            "the snapshot has no group c; it has: a, b"
        );
        assert!(matches!(
            find_group(&s, None),
            Err(SnapshotError::SeveralGroups { .. })
        ));
        let one = snap(vec![group("a")]);
        assert_eq!(find_group(&one, None).unwrap().group_id, "a");
        assert_eq!(
            find_group(&snap(vec![]), None),
            Err(SnapshotError::NoGroups)
        );
    }
}
