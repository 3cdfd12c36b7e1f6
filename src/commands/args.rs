//! Argument value parsers and groups several commands share.

use streams_group::model::version::UnknownVersion;
use streams_group::model::KafkaVersion;

/// clap value parser for `--kafka-version`.
pub fn kafka_version(s: &str) -> Result<KafkaVersion, String> {
    s.parse().map_err(|e: UnknownVersion| e.to_string())
}
