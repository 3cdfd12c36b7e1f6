//! Which coordinator profile a command runs: the one asked for, else the one the group's broker
//! runs (recorded in a snapshot, or detected live), else the newest release; and which task
//! assignor.

use super::Origin;
use crate::error::Error;
use coordinator::assignor::ASSIGNOR_NAMES;
use model::version::RequestedVersion;
use model::KafkaVersion;

/// The profile chosen, with a note for the user when the choice was a fallback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub version: KafkaVersion,
    pub note: Option<String>,
}

/// The profile to run: `flag` if given, else the group's (`origin`; `None` when there is no
/// group), else the newest release. The note says what the user could not see: a release named
/// that another release's profile serves, a profile guessed for an old snapshot, an old
/// snapshot's name that now means another release, or the patch releases a live broker may be
/// instead of the one modelled.
pub fn choose(flag: Option<RequestedVersion>, origin: Option<&Origin>) -> Choice {
    if let Some(r) = flag {
        return Choice {
            version: r.version,
            note: r.note().map(|n| format!("note: {n}")),
        };
    }
    match origin {
        Some(Origin::Snapshot {
            file,
            recorded: Some(v),
            legacy_name: Some(name),
            ..
        }) => Choice {
            version: *v,
            note: Some(format!(
                "note: {file} records Kafka version \"{name}\", written by an older build that \
                 modelled Kafka {v} under that name: modelling Kafka {v}; choose another with \
                 --kafka-version"
            )),
        },
        Some(Origin::Snapshot {
            recorded: Some(v),
            note,
            ..
        }) => Choice {
            version: *v,
            note: note.as_ref().map(|n| format!("note: {n}")),
        },
        Some(Origin::Live {
            detected: Some(v),
            note,
            ..
        }) => Choice {
            version: *v,
            note: note.as_ref().map(|n| format!("note: {n}")),
        },
        Some(Origin::Snapshot {
            file,
            recorded: None,
            ..
        }) => Choice {
            version: KafkaVersion::NEWEST,
            note: Some(format!(
                "note: {file} does not record the broker's Kafka version (an older snapshot): \
                 modelling Kafka {}; choose another with --kafka-version",
                KafkaVersion::NEWEST
            )),
        },
        _ => Choice {
            version: KafkaVersion::NEWEST,
            note: None,
        },
    }
}

/// The task assignor to run: `flag`, else the one the group's broker reports (describe v1,
/// Kafka 4.4), else the release's own "sticky". A name this tool does not implement is an error
/// naming the ones it has.
pub fn choose_assignor(flag: Option<&str>, recorded: Option<&str>) -> Result<String, Error> {
    let known = |n: &str| ASSIGNOR_NAMES.contains(&n);
    match (flag, recorded) {
        (Some(n), _) if known(n) => Ok(n.to_string()),
        (Some(n), _) => Err(Error::input(format!(
            "unknown assignor '{n}': use one of {}",
            ASSIGNOR_NAMES.join(", ")
        ))),
        (None, Some(n)) if known(n) => Ok(n.to_string()),
        (None, Some(n)) => Err(Error::input(format!(
            "the group uses the task assignor '{n}', which this tool does not implement \
             (it has {}): pick one with --assignor",
            ASSIGNOR_NAMES.join(", ")
        ))),
        (None, None) => Ok("sticky".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_then_the_group_then_the_newest() {
        let snap = |recorded| Origin::Snapshot {
            file: "s.json".into(),
            recorded,
            legacy_name: None,
            note: None,
        };
        let v42 = Some(KafkaVersion::V4_2.into());
        assert_eq!(choose(v42, None).version, KafkaVersion::V4_2);
        assert_eq!(choose(None, None).version, KafkaVersion::NEWEST);
        let recorded = choose(None, Some(&snap(Some(KafkaVersion::V4_3))));
        assert_eq!(recorded.version, KafkaVersion::V4_3);
        assert!(recorded.note.is_none());
        let old = choose(None, Some(&snap(None)));
        assert_eq!(old.version, KafkaVersion::NEWEST);
        assert!(old.note.unwrap().contains("s.json does not record"));
        assert!(choose(v42, Some(&snap(None))).note.is_none());
    }

    #[test]
    fn a_release_served_by_another_profile_is_said() {
        let flag = |s: &str| Some(s.parse::<RequestedVersion>().unwrap());
        let c = choose(flag("4.3.0"), None);
        assert_eq!(c.version, KafkaVersion::V4_3_1);
        assert_eq!(
            c.note.unwrap(),
            "note: Kafka 4.3.0's group coordinator behaves as 4.3.1's (the oracles agree on \
             every scenario): modelling it as 4.3.1"
        );
        let c = choose(flag("4.2.0"), None);
        assert_eq!(c.version, KafkaVersion::V4_2_1);
        assert!(c.note.unwrap().contains("modelling it as 4.2.1"));
        // A release with its own profile, or a minor name, needs no note.
        for plain in ["4.2.1", "4.2", "4.3.1", "4.1.2"] {
            assert!(choose(flag(plain), None).note.is_none(), "{plain}");
        }
    }

    #[test]
    fn old_names_and_live_detection_are_said() {
        let legacy = Origin::Snapshot {
            file: "old.json".into(),
            recorded: Some(KafkaVersion::V4_3_1),
            legacy_name: Some("4.3".into()),
            note: None,
        };
        let c = choose(None, Some(&legacy));
        assert_eq!(c.version, KafkaVersion::V4_3_1);
        assert!(c.note.unwrap().contains("modelling Kafka 4.3.1"));
        // A live 4.3 broker whose configs could not be read: the detection's note is said.
        let (v, note) = KafkaVersion::of_line(KafkaVersion::V4_3, None);
        let live = |v, note| Origin::Live {
            group_id: "g".into(),
            detected: Some(v),
            note,
        };
        let c = choose(None, Some(&live(v, note.clone())));
        assert_eq!(c.version, KafkaVersion::V4_3);
        assert!(c.note.unwrap().contains("4.3.1 or 4.3.2"));
        assert!(choose(None, Some(&live(KafkaVersion::V4_4, None)))
            .note
            .is_none());
        // The same note, recorded in a snapshot, is said when the snapshot is used.
        let recorded = Origin::Snapshot {
            file: "s.json".into(),
            recorded: Some(v),
            legacy_name: None,
            note,
        };
        assert!(choose(None, Some(&recorded))
            .note
            .unwrap()
            .contains("4.3.1 or 4.3.2"));
    }

    #[test]
    fn assignors_by_name() {
        assert_eq!(choose_assignor(None, None).unwrap(), "sticky");
        assert_eq!(
            choose_assignor(None, Some("balanced-sticky")).unwrap(),
            "balanced-sticky"
        );
        assert!(choose_assignor(Some("nope"), None).is_err());
        assert!(choose_assignor(None, Some("mine"))
            .unwrap_err()
            .to_string()
            .contains("pick one with --assignor"));
    }
}
