//! The states of a streams group as reports name them, with `Dead` for a group that does not
//! exist (any more). Serialised as Kafka names them (`Stable`, `NotReady`, ...).

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A streams group's state.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum GroupStateName {
    Empty,
    NotReady,
    Assigning,
    Reconciling,
    Stable,
    Dead,
}

impl GroupStateName {
    pub const ALL: [GroupStateName; 6] = [
        GroupStateName::Empty,
        GroupStateName::NotReady,
        GroupStateName::Assigning,
        GroupStateName::Reconciling,
        GroupStateName::Stable,
        GroupStateName::Dead,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GroupStateName::Empty => "Empty",
            GroupStateName::NotReady => "NotReady",
            GroupStateName::Assigning => "Assigning",
            GroupStateName::Reconciling => "Reconciling",
            GroupStateName::Stable => "Stable",
            GroupStateName::Dead => "Dead",
        }
    }
}

impl fmt::Display for GroupStateName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a streams group state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownState(pub String);

impl fmt::Display for UnknownState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = GroupStateName::ALL.iter().map(|s| s.name()).collect();
        write!(
            f,
            "unknown state `{}` (expected one of {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownState {}

impl FromStr for GroupStateName {
    type Err = UnknownState;

    /// Case-insensitive, with or without the underscore of `NOT_READY`, as the broker reads it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        GroupStateName::ALL
            .into_iter()
            .find(|v| {
                v.name().eq_ignore_ascii_case(t)
                    || v.name().replace("Not", "Not_").eq_ignore_ascii_case(t)
            })
            .ok_or_else(|| UnknownState(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_serialise_as_kafka_names_them() {
        for s in GroupStateName::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
            assert_eq!(s.name().parse::<GroupStateName>(), Ok(s));
        }
        assert_eq!("stable".parse(), Ok(GroupStateName::Stable));
        assert_eq!("NOT_READY".parse(), Ok(GroupStateName::NotReady));
        assert_eq!("notready".parse(), Ok(GroupStateName::NotReady));
        assert!("bogus".parse::<GroupStateName>().is_err());
    }
}
