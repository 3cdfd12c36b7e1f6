//! Kafka versions the tool models, by name: the releases whose group coordinator it carries
//! (4.1, 4.2, 4.3, 4.4, each as its newest patch, plus patch releases that behave differently,
//! such as 4.3.1) and the KIP-1071 text. What each one does differently is in
//! `coordinator::profile`. Every release with streams groups is served by one profile
//! ([`SERVED_RELEASES`]): patch releases that behave alike share one.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every Kafka release with streams groups, oldest first, and the profile that serves it.
/// Patch releases share a profile when their group coordinators behave alike: their
/// `kafka-group-coordinator` classes of `group/streams/` are identical or differ only in
/// compiled code that the lock-step and assignor oracles find no difference in
/// (docs/dev/coordinator.md, "Which profile serves which release"). 4.1.0 is left out: the
/// oracles do not run it (the harness refuses it for KAFKA-19748).
pub const SERVED_RELEASES: [(&str, KafkaVersion); 9] = [
    ("4.1.1", KafkaVersion::V4_1),
    ("4.1.2", KafkaVersion::V4_1),
    ("4.2.0", KafkaVersion::V4_2_1),
    ("4.2.1", KafkaVersion::V4_2_1),
    ("4.2.2", KafkaVersion::V4_2),
    ("4.3.0", KafkaVersion::V4_3_1),
    ("4.3.1", KafkaVersion::V4_3_1),
    ("4.3.2", KafkaVersion::V4_3),
    ("4.4.0", KafkaVersion::V4_4),
];

/// A coordinator profile: a Kafka release's group coordinator, or the KIP text.
///
/// The order is the release order (4.3.1 before 4.3.2), then the KIP text. JSON records a
/// profile by its exact release ("4.3.2"); snapshots of older builds, which wrote the minor
/// version, read back as the patch release those builds modelled (see [`KafkaVersion::legacy`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum KafkaVersion {
    /// 4.1.2 (also 4.1.1): streams groups as early access.
    #[serde(rename = "4.1.2", alias = "4.1.1")]
    V4_1,
    /// 4.2.1 (also 4.2.0), pinned: its standby placement and endpoint map differ from 4.2.2's
    /// (the assignor's first-candidate quirk and the endpoint map of 4.3.1).
    #[serde(rename = "4.2.1", alias = "4.2.0")]
    V4_2_1,
    #[serde(rename = "4.2.2", alias = "4.2")]
    V4_2,
    /// 4.3.1 (also 4.3.0), pinned: its standby placement, endpoint map and empty-group target
    /// epoch differ from 4.3.2's.
    #[serde(rename = "4.3.1", alias = "4.3", alias = "4.3.0")]
    V4_3_1,
    /// 4.3.2, the newest 4.3 patch.
    #[serde(rename = "4.3.2")]
    V4_3,
    #[serde(rename = "4.4.0", alias = "4.4")]
    V4_4,
    /// KIP-1071 as written: the 4.4 coordinator plus topology epoch updates
    /// (STREAMS_INVALID_TOPOLOGY_EPOCH, STREAMS_TOPOLOGY_FENCED), which no release has.
    #[serde(rename = "kip")]
    Kip,
}

impl KafkaVersion {
    /// The newest release: the default when no broker tells us otherwise.
    pub const NEWEST: KafkaVersion = KafkaVersion::V4_4;
    /// Every profile, newest release first, the KIP text last: the order in which help texts
    /// and error messages list them.
    pub const ALL: [KafkaVersion; 7] = [
        KafkaVersion::V4_4,
        KafkaVersion::V4_3,
        KafkaVersion::V4_3_1,
        KafkaVersion::V4_2,
        KafkaVersion::V4_2_1,
        KafkaVersion::V4_1,
        KafkaVersion::Kip,
    ];
    /// The releases, oldest first.
    pub const RELEASES: [KafkaVersion; 6] = [
        KafkaVersion::V4_1,
        KafkaVersion::V4_2_1,
        KafkaVersion::V4_2,
        KafkaVersion::V4_3_1,
        KafkaVersion::V4_3,
        KafkaVersion::V4_4,
    ];

    /// The name users type: the minor version for the newest patch of a minor ("4.3"), the
    /// patch release for a pinned one ("4.3.1"), or "kip".
    pub fn name(self) -> &'static str {
        match self {
            KafkaVersion::V4_1 => "4.1",
            KafkaVersion::V4_2_1 => "4.2.1",
            KafkaVersion::V4_2 => "4.2",
            KafkaVersion::V4_3_1 => "4.3.1",
            KafkaVersion::V4_3 => "4.3",
            KafkaVersion::V4_4 => "4.4",
            KafkaVersion::Kip => "kip",
        }
    }

    /// The exact release modelled ("4.3.2"), or "kip": how reports and JSON name a profile.
    pub fn release(self) -> &'static str {
        match self {
            KafkaVersion::V4_1 => "4.1.2",
            KafkaVersion::V4_2_1 => "4.2.1",
            KafkaVersion::V4_2 => "4.2.2",
            KafkaVersion::V4_3_1 => "4.3.1",
            KafkaVersion::V4_3 => "4.3.2",
            KafkaVersion::V4_4 => "4.4.0",
            KafkaVersion::Kip => "kip",
        }
    }

    /// The other releases this profile serves, oldest first ("4.3.0" for 4.3.1).
    pub fn also_serves(self) -> impl Iterator<Item = &'static str> {
        SERVED_RELEASES
            .into_iter()
            .filter(move |(r, v)| *v == self && *r != self.release())
            .map(|(r, _)| r)
    }

    /// Is this a release (as opposed to the KIP text)?
    pub fn is_release(self) -> bool {
        self != KafkaVersion::Kip
    }

    /// Earlier patch releases of the same minor version whose coordinator behaves differently,
    /// newest first: what a user must pick by hand when a live broker is detected as this
    /// profile (brokers do not tell their patch level).
    pub fn differing_earlier_patches(self) -> &'static [KafkaVersion] {
        match self {
            KafkaVersion::V4_2 => &[KafkaVersion::V4_2_1],
            KafkaVersion::V4_3 => &[KafkaVersion::V4_3_1],
            _ => &[],
        }
    }

    /// The profile of a broker, from the highest StreamsGroupDescribe version it serves
    /// (v1 arrived in 4.4). Brokers 4.1 to 4.3 all serve v0 and do not tell their patch level:
    /// the newest of them, 4.3.2, is assumed (see [`KafkaVersion::detection_note`]).
    pub fn detect(describe_max_version: Option<i16>) -> Option<KafkaVersion> {
        match describe_max_version? {
            v if v >= 1 => Some(KafkaVersion::V4_4),
            _ => Some(KafkaVersion::V4_3),
        }
    }

    /// A broker's release line from the highest version of each API its ApiVersions offers
    /// (`max(api_key)`; `None`: not offered), as measured with the harness on 4.1.2, 4.2.2,
    /// 4.3.1, 4.3.2 and 4.4.0 (docs/dev/coordinator.md, "Which release"): ApiVersions v5 came
    /// with 4.4, DescribeLogDirs v5 with 4.3, ListOffsets v11 with 4.2, and a 4.1 broker offers
    /// StreamsGroupHeartbeat only with its early-access flags. `None`: no streams groups at all.
    /// The newest patch of the line is returned; [`KafkaVersion::of_line`] narrows 4.3.
    pub fn line_from_api_versions(max: &dyn Fn(i16) -> Option<i16>) -> Option<KafkaVersion> {
        const LIST_OFFSETS: i16 = 2;
        const API_VERSIONS: i16 = 18;
        const DESCRIBE_LOG_DIRS: i16 = 35;
        const STREAMS_GROUP_HEARTBEAT: i16 = 88;
        let at_least = |key, v| max(key).is_some_and(|m| m >= v);
        if at_least(API_VERSIONS, 5) {
            Some(KafkaVersion::V4_4)
        } else if at_least(DESCRIBE_LOG_DIRS, 5) {
            Some(KafkaVersion::V4_3)
        } else if at_least(LIST_OFFSETS, 11) {
            Some(KafkaVersion::V4_2)
        } else if max(STREAMS_GROUP_HEARTBEAT).is_some() {
            Some(KafkaVersion::V4_1)
        } else {
            None
        }
    }

    /// The profile of a broker of release line `line`, and what is not certain about it.
    /// The patches of a line answer ApiVersions alike; 4.2.2 and 4.3.2 list the broker config
    /// `max.decompressed.message.bytes` and 4.2.0, 4.2.1, 4.3.0 and 4.3.1 do not
    /// (`lists_max_decompressed`: `None` when the broker's configs could not be read).
    pub fn of_line(
        line: KafkaVersion,
        lists_max_decompressed: Option<bool>,
    ) -> (KafkaVersion, Option<String>) {
        let [earlier] = line.differing_earlier_patches() else {
            return (line, None);
        };
        match lists_max_decompressed {
            Some(true) => (line, None),
            Some(false) => (*earlier, None),
            None => (line, Some(line.unread_configs_note(*earlier))),
        }
    }

    /// What is not certain about a broker of this line (4.2 or 4.3) whose configs could not
    /// be read: it may run `earlier` (or a release `earlier` serves) instead.
    fn unread_configs_note(self, earlier: KafkaVersion) -> String {
        let differs = match self {
            KafkaVersion::V4_3 => "standby placement, endpoint map and empty-group target epoch",
            _ => "standby placement and endpoint map",
        };
        format!(
            "the broker runs Kafka {} or {} (the {} patches answer ApiVersions alike, and its \
             configs, which tell them apart, could not be read): modelling {}, whose {differs} \
             differ from {}'s; choose with --kafka-version",
            earlier.served_names(),
            self.release(),
            self.name(),
            self.release(),
            earlier.release(),
        )
    }

    /// The releases this profile serves, as a list for a sentence: "4.3.0, 4.3.1".
    fn served_names(self) -> String {
        SERVED_RELEASES
            .iter()
            .filter(|(_, v)| *v == self)
            .map(|(r, _)| *r)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What a user should know when this profile was detected from the StreamsGroupDescribe
    /// version alone (no broker's ApiVersions to hand): which release is modelled, and which
    /// others look the same there but behave differently.
    pub fn detection_note(self) -> Option<String> {
        match self {
            KafkaVersion::V4_3 => Some(format!(
                "the broker serves StreamsGroupDescribe v0 (Kafka 4.1 to 4.3; the wire does not \
                 tell which): modelling Kafka {}; 4.3.0 and 4.3.1 place standbys differently \
                 and keep the target epoch when the group empties (--kafka-version 4.3.1), and \
                 4.2 and 4.1 differ more (--kafka-version 4.2, 4.2.1 or 4.1)",
                self.release()
            )),
            _ => None,
        }
    }

    /// How an older build's snapshot recorded this profile, when that name now means another
    /// release: such builds wrote the minor version ("4.3"), and "4.3" then meant 4.3.1.
    /// `recorded` is the name found in the file.
    pub fn legacy(recorded: &str) -> Option<KafkaVersion> {
        match recorded {
            "4.3" => Some(KafkaVersion::V4_3_1),
            _ => None,
        }
    }
}

impl fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.release())
    }
}

/// A `--kafka-version` value: the profile to run, and the release the user named when another
/// release's profile serves it ("4.3.0", modelled as 4.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestedVersion {
    pub version: KafkaVersion,
    /// The release named, when it is not the profile's own release.
    pub served: Option<&'static str>,
}

impl RequestedVersion {
    /// What the user should know: the release named runs as another's profile.
    pub fn note(self) -> Option<String> {
        let served = self.served?;
        let profile = self.version.release();
        Some(format!(
            "Kafka {served}'s group coordinator behaves as {profile}'s (the oracles agree on \
             every scenario): modelling it as {profile}"
        ))
    }
}

impl From<KafkaVersion> for RequestedVersion {
    fn from(version: KafkaVersion) -> Self {
        RequestedVersion {
            version,
            served: None,
        }
    }
}

impl FromStr for RequestedVersion {
    type Err = UnknownVersion;

    /// A profile's name ("4.3", the newest 4.3 patch), its exact release ("4.3.2"), a pinned
    /// patch ("4.3.1"), a release another profile serves ("4.3.0") or "kip" (case-insensitive).
    /// Releases not in [`SERVED_RELEASES`] are refused: nothing says how they behave.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if t == "kip-1071" {
            return Ok(KafkaVersion::Kip.into());
        }
        if let Some(v) = KafkaVersion::ALL.into_iter().find(|v| v.name() == t) {
            return Ok(v.into());
        }
        let (release, version) = SERVED_RELEASES
            .into_iter()
            .find(|(r, _)| *r == t)
            .ok_or_else(|| UnknownVersion(s.to_string()))?;
        Ok(RequestedVersion {
            version,
            served: (release != version.release()).then_some(release),
        })
    }
}

/// A version string that names no profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVersion(pub String);

/// Every valid `--kafka-version` value, as error messages and help list them: "4.4 (4.4.0),
/// 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1),
/// kip".
pub fn valid_names() -> String {
    KafkaVersion::ALL
        .iter()
        .map(|v| {
            let mut aliases = Vec::new();
            if v.name() != v.release() {
                aliases.push(v.release().to_string());
            }
            let also: Vec<&str> = v.also_serves().collect();
            if !also.is_empty() {
                aliases.push(format!("also {}", also.join(", ")));
            }
            match aliases.is_empty() {
                true => v.name().to_string(),
                false => format!("{} ({})", v.name(), aliases.join(", ")),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown or unmodelled Kafka version '{}': use one of {}",
            self.0,
            valid_names()
        )
    }
}

impl std::error::Error for UnknownVersion {}

impl FromStr for KafkaVersion {
    type Err = UnknownVersion;

    /// What [`RequestedVersion`] accepts, as the profile it names (a release another profile
    /// serves gives that profile).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<RequestedVersion>().map(|r| r.version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_releases_parse_back() {
        for v in KafkaVersion::ALL {
            assert_eq!(v.name().parse::<KafkaVersion>().unwrap(), v);
            assert_eq!(v.release().parse::<KafkaVersion>().unwrap(), v);
        }
        assert_eq!("4.3".parse::<KafkaVersion>().unwrap(), KafkaVersion::V4_3);
        assert_eq!("4.3.2".parse::<KafkaVersion>().unwrap(), KafkaVersion::V4_3);
        assert_eq!(
            "4.3.1".parse::<KafkaVersion>().unwrap(),
            KafkaVersion::V4_3_1
        );
        assert_eq!("4.1".parse::<KafkaVersion>().unwrap(), KafkaVersion::V4_1);
        assert_eq!("KIP".parse::<KafkaVersion>().unwrap(), KafkaVersion::Kip);
    }

    #[test]
    fn unknown_versions_list_the_valid_ones() {
        for bad in [
            "4.0", "5.0", "4", "", "4.3.x", "4.3.", "4.1.0", "4.2.3", "4.4.1", "4.2.0.1",
        ] {
            let e = bad.parse::<KafkaVersion>().unwrap_err().to_string();
            assert!(
                e.ends_with(
                    "use one of 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), \
                     4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1), kip"
                ),
                "{e}"
            );
        }
    }

    #[test]
    fn every_release_is_served_by_one_profile() {
        // Oldest first, each profile serves its own release, and every release parses.
        assert!(SERVED_RELEASES.windows(2).all(|w| w[0].0 < w[1].0));
        for v in KafkaVersion::RELEASES {
            assert!(SERVED_RELEASES.contains(&(v.release(), v)), "{v}");
        }
        for (release, v) in SERVED_RELEASES {
            let r: RequestedVersion = release.parse().unwrap();
            assert_eq!(r.version, v, "{release}");
            assert_eq!(r.served.is_some(), release != v.release(), "{release}");
            assert_eq!(release.parse::<KafkaVersion>().unwrap(), v);
        }
        let also = |v: KafkaVersion| v.also_serves().collect::<Vec<_>>();
        assert_eq!(also(KafkaVersion::V4_3_1), ["4.3.0"]);
        assert_eq!(also(KafkaVersion::V4_2_1), ["4.2.0"]);
        assert_eq!(also(KafkaVersion::V4_1), ["4.1.1"]);
        assert!(also(KafkaVersion::V4_3).is_empty());
    }

    #[test]
    fn a_release_served_by_another_profile_says_so() {
        let r: RequestedVersion = " 4.3.0 ".parse().unwrap();
        assert_eq!(r.version, KafkaVersion::V4_3_1);
        assert_eq!(
            r.note().unwrap(),
            "Kafka 4.3.0's group coordinator behaves as 4.3.1's (the oracles agree on every \
             scenario): modelling it as 4.3.1"
        );
        assert_eq!(
            "4.2.0".parse::<RequestedVersion>().unwrap().version,
            KafkaVersion::V4_2_1
        );
        for plain in ["4.3.1", "4.3", "4.3.2", "4.2.1", "kip", "4.1"] {
            let r: RequestedVersion = plain.parse().unwrap();
            assert_eq!(r.note(), None, "{plain}");
        }
        assert_eq!(RequestedVersion::from(KafkaVersion::V4_4).note(), None);
    }

    #[test]
    fn release_order() {
        assert!(KafkaVersion::V4_1 < KafkaVersion::V4_2_1);
        assert!(KafkaVersion::V4_2_1 < KafkaVersion::V4_2);
        assert!(KafkaVersion::V4_3_1 < KafkaVersion::V4_3);
        assert!(KafkaVersion::V4_3 < KafkaVersion::V4_4);
        assert!(KafkaVersion::RELEASES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn json_names_the_release_and_reads_older_builds() {
        for v in KafkaVersion::ALL {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.release()));
            assert_eq!(serde_json::from_str::<KafkaVersion>(&json).unwrap(), v);
        }
        let old = |s: &str| serde_json::from_str::<KafkaVersion>(&format!("\"{s}\"")).unwrap();
        assert_eq!(old("4.2"), KafkaVersion::V4_2);
        // Hand-written files may name a release another profile serves.
        assert_eq!(old("4.2.0"), KafkaVersion::V4_2_1);
        assert_eq!(old("4.3.0"), KafkaVersion::V4_3_1);
        assert_eq!(old("4.1.1"), KafkaVersion::V4_1);
        assert_eq!(old("4.3"), KafkaVersion::V4_3_1);
        assert_eq!(old("4.4"), KafkaVersion::V4_4);
        assert_eq!(KafkaVersion::legacy("4.3"), Some(KafkaVersion::V4_3_1));
        assert_eq!(KafkaVersion::legacy("4.4"), None);
    }

    /// The API maxima measured on each release (docs/dev/coordinator.md, "Which release").
    #[test]
    fn release_lines_follow_the_measured_api_versions() {
        let table = |pairs: &'static [(i16, i16)]| {
            move |k: i16| pairs.iter().find(|(key, _)| *key == k).map(|(_, m)| *m)
        };
        let line =
            |pairs: &'static [(i16, i16)]| KafkaVersion::line_from_api_versions(&table(pairs));
        // 4.1.2 as shipped: no streams groups; with its early-access flags: 88 appears.
        assert_eq!(line(&[(2, 10), (18, 4), (35, 4)]), None);
        assert_eq!(
            line(&[(2, 10), (18, 4), (35, 4), (88, 0), (89, 0)]),
            Some(KafkaVersion::V4_1)
        );
        assert_eq!(
            line(&[(2, 11), (18, 4), (35, 4), (88, 0), (89, 0)]),
            Some(KafkaVersion::V4_2)
        );
        assert_eq!(
            line(&[(2, 11), (18, 4), (35, 5), (88, 0), (89, 0)]),
            Some(KafkaVersion::V4_3)
        );
        assert_eq!(
            line(&[(2, 11), (18, 5), (35, 5), (88, 1), (89, 1)]),
            Some(KafkaVersion::V4_4)
        );
        let of = KafkaVersion::of_line;
        assert_eq!(
            of(KafkaVersion::V4_3, Some(true)),
            (KafkaVersion::V4_3, None)
        );
        assert_eq!(
            of(KafkaVersion::V4_3, Some(false)),
            (KafkaVersion::V4_3_1, None)
        );
        let (v, note) = of(KafkaVersion::V4_3, None);
        assert_eq!(v, KafkaVersion::V4_3);
        assert!(note.unwrap().contains("Kafka 4.3.0, 4.3.1 or 4.3.2"));
        // 4.2.0 and 4.2.1 lack the config as 4.3.1 does (measured on 4.2.0 and 4.2.1 brokers).
        assert_eq!(
            of(KafkaVersion::V4_2, Some(true)),
            (KafkaVersion::V4_2, None)
        );
        assert_eq!(
            of(KafkaVersion::V4_2, Some(false)),
            (KafkaVersion::V4_2_1, None)
        );
        let (v, note) = of(KafkaVersion::V4_2, None);
        assert_eq!(v, KafkaVersion::V4_2);
        let note = note.unwrap();
        assert!(note.contains("Kafka 4.2.0, 4.2.1 or 4.2.2"), "{note}");
        assert!(note.contains("differ from 4.2.1's"), "{note}");
        assert_eq!(of(KafkaVersion::V4_1, None), (KafkaVersion::V4_1, None));
        assert_eq!(of(KafkaVersion::V4_4, None), (KafkaVersion::V4_4, None));
    }

    #[test]
    fn detection_follows_describe_v1() {
        assert_eq!(KafkaVersion::detect(Some(1)), Some(KafkaVersion::V4_4));
        assert_eq!(KafkaVersion::detect(Some(0)), Some(KafkaVersion::V4_3));
        assert_eq!(KafkaVersion::detect(None), None);
        assert!(KafkaVersion::V4_3
            .detection_note()
            .unwrap()
            .contains("4.3.1"));
        assert!(KafkaVersion::V4_4.detection_note().is_none());
    }
}
