//! Kafka versions the tool models, by name: the releases whose group coordinator it carries
//! (4.2, 4.3, 4.4) and the KIP-1071 text. What each one does differently is in
//! `coordinator::profile`.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A coordinator profile: a Kafka release's group coordinator, or the KIP text.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum KafkaVersion {
    #[serde(rename = "4.2")]
    V4_2,
    #[serde(rename = "4.3")]
    V4_3,
    #[serde(rename = "4.4")]
    V4_4,
    /// KIP-1071 as written: the 4.4 coordinator plus topology epoch updates
    /// (STREAMS_INVALID_TOPOLOGY_EPOCH, STREAMS_TOPOLOGY_FENCED), which no release has.
    #[serde(rename = "kip")]
    Kip,
}

/// The version names users type, newest release first.
pub const VERSION_NAMES: &[&str] = &["4.4", "4.3", "4.2", "kip"];

impl KafkaVersion {
    /// The newest release: the default when no broker tells us otherwise.
    pub const NEWEST: KafkaVersion = KafkaVersion::V4_4;
    pub const ALL: [KafkaVersion; 4] = [
        KafkaVersion::V4_2,
        KafkaVersion::V4_3,
        KafkaVersion::V4_4,
        KafkaVersion::Kip,
    ];

    pub fn name(self) -> &'static str {
        match self {
            KafkaVersion::V4_2 => "4.2",
            KafkaVersion::V4_3 => "4.3",
            KafkaVersion::V4_4 => "4.4",
            KafkaVersion::Kip => "kip",
        }
    }

    /// Is this a release (as opposed to the KIP text)?
    pub fn is_release(self) -> bool {
        self != KafkaVersion::Kip
    }

    /// The profile of a broker, from the highest StreamsGroupDescribe version it serves
    /// (v1 arrived in 4.4) and whether it serves StreamsGroupHeartbeat at all. Brokers do not
    /// advertise 4.2 vs 4.3 on the wire: both serve v0, and 4.3 is assumed.
    pub fn detect(describe_max_version: Option<i16>) -> Option<KafkaVersion> {
        match describe_max_version? {
            v if v >= 1 => Some(KafkaVersion::V4_4),
            _ => Some(KafkaVersion::V4_3),
        }
    }
}

impl fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A version string that names no profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVersion(pub String);

impl fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown Kafka version '{}': use one of {}",
            self.0,
            VERSION_NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl FromStr for KafkaVersion {
    type Err = UnknownVersion;

    /// Accepts "4.4", "4.4.0", "4.3.1", "kip" (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if t == "kip" || t == "kip-1071" {
            return Ok(KafkaVersion::Kip);
        }
        let mut parts = t.split('.');
        let major = parts.next().unwrap_or("");
        let minor = parts.next().unwrap_or("");
        let patch_ok = parts.all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        match (major, minor, patch_ok) {
            ("4", "2", true) => Ok(KafkaVersion::V4_2),
            ("4", "3", true) => Ok(KafkaVersion::V4_3),
            ("4", "4", true) => Ok(KafkaVersion::V4_4),
            _ => Err(UnknownVersion(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for v in KafkaVersion::ALL {
            assert_eq!(v.name().parse::<KafkaVersion>().unwrap(), v);
        }
        assert_eq!("4.3.1".parse::<KafkaVersion>().unwrap(), KafkaVersion::V4_3);
        assert_eq!("4.4.0".parse::<KafkaVersion>().unwrap(), KafkaVersion::V4_4);
        assert_eq!("KIP".parse::<KafkaVersion>().unwrap(), KafkaVersion::Kip);
    }

    #[test]
    fn unknown_versions_list_the_valid_ones() {
        for bad in ["4.1", "5.0", "4", "", "4.3.x", "4.3."] {
            let e = bad.parse::<KafkaVersion>().unwrap_err().to_string();
            assert!(e.contains("4.4, 4.3, 4.2, kip"), "{e}");
        }
    }

    #[test]
    fn detection_follows_describe_v1() {
        assert_eq!(KafkaVersion::detect(Some(1)), Some(KafkaVersion::V4_4));
        assert_eq!(KafkaVersion::detect(Some(0)), Some(KafkaVersion::V4_3));
        assert_eq!(KafkaVersion::detect(None), None);
    }
}
