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

/// The task assignor to run: `--assignor`, else the one the group's broker reports (describe
/// v1, Kafka 4.4), else the release's own "sticky". A name this tool does not implement is an
/// error naming the ones it has.
pub fn choose_assignor(flag: Option<&str>, recorded: Option<&str>) -> anyhow::Result<String> {
    use crate::coordinator::assignor::ASSIGNOR_NAMES;
    let known = |n: &str| ASSIGNOR_NAMES.contains(&n);
    match (flag, recorded) {
        (Some(n), _) if known(n) => Ok(n.to_string()),
        (Some(n), _) => Err(crate::error::Failure::usage(format!(
            "unknown assignor '{n}': use one of {}",
            ASSIGNOR_NAMES.join(", ")
        ))
        .into()),
        (None, Some(n)) if known(n) => Ok(n.to_string()),
        (None, Some(n)) => Err(crate::error::Failure::usage(format!(
            "the group uses the task assignor '{n}', which this tool does not implement \
             (it has {}): pick one with --assignor",
            ASSIGNOR_NAMES.join(", ")
        ))
        .into()),
        (None, None) => Ok("sticky".to_string()),
    }
}
