//! Which coordinator profile a command runs: the one asked for, else the one the group's
//! broker runs (recorded in a snapshot, or detected live), else the newest release.

use crate::model::KafkaVersion;

/// Where the group a command works on came from, with the profile it tells.
pub enum GroupOrigin<'a> {
    /// No group: a built-in or file topology.
    None,
    /// A snapshot file, and the version it records (`None` for snapshots of older builds).
    Snapshot {
        file: &'a str,
        recorded: Option<KafkaVersion>,
    },
    /// A live group, and the version detected from its broker.
    Live { detected: Option<KafkaVersion> },
}

/// The profile to run, with a note on stderr when a snapshot gives none.
pub fn choose(flag: Option<KafkaVersion>, origin: &GroupOrigin<'_>) -> KafkaVersion {
    if let Some(v) = flag {
        return v;
    }
    match origin {
        GroupOrigin::Snapshot {
            recorded: Some(v), ..
        }
        | GroupOrigin::Live { detected: Some(v) } => *v,
        GroupOrigin::Snapshot {
            file,
            recorded: None,
        } => {
            eprintln!(
                "note: {file} does not record the broker's Kafka version (an older snapshot): \
                 modelling Kafka {}; choose another with --kafka-version",
                KafkaVersion::NEWEST
            );
            KafkaVersion::NEWEST
        }
        _ => KafkaVersion::NEWEST,
    }
}

/// clap value parser for `--kafka-version`.
pub fn parse(s: &str) -> Result<KafkaVersion, String> {
    s.parse()
        .map_err(|e: crate::model::version::UnknownVersion| e.to_string())
}
