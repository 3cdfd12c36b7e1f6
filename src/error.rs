//! The errors of the use cases.

use std::fmt;

use kafka::error::KafkaError;

/// Why a use case could not give its report.
#[derive(Debug)]
pub enum Error {
    /// What the user gave cannot be used: a file, a value, or a combination of them. The message
    /// names it.
    Input(String),
    /// Like `Input`, with a way out the binary words (it knows the flags).
    InputWithFix(String, Fix),
    /// The cluster could not be reached, or it answered with an error.
    Kafka(KafkaError),
    /// An admin action was refused before anything was written: the group has live members.
    GroupActive(ActiveGroup),
    /// A bug: two parts of this library that must agree do not.
    Internal(String),
}

/// A way out of an input error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// The input holds several groups: name one.
    PickGroup,
    /// `Topology#describe()` text needs the application id to name internal topics.
    GiveApplicationId,
    /// The group has no topology to take its input topics from: name them, or give a plan.
    NameInputTopics,
}

/// A group that is not Empty, with its live members (`member (process ..., client ... on
/// host ...)`), so that the user knows what to stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveGroup {
    pub group_id: String,
    pub state: String,
    pub members: Vec<String>,
}

/// How many live members an [`ActiveGroup`] names before it says how to see the rest: the
/// error stays one readable line however large the group.
const NAMED_MEMBERS: usize = 3;

impl fmt::Display for ActiveGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.members.len();
        write!(
            f,
            "group `{}` is {}, not Empty, with {n} live member(s): {}",
            self.group_id,
            self.state,
            self.members[..n.min(NAMED_MEMBERS)].join("; ")
        )?;
        if n > NAMED_MEMBERS {
            write!(
                f,
                "; and {} more (describe --group {} --members lists them all)",
                n - NAMED_MEMBERS,
                self.group_id
            )?;
        }
        Ok(())
    }
}

impl Error {
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) | Error::InputWithFix(m, _) | Error::Internal(m) => f.write_str(m),
            Error::Kafka(e) => write!(f, "{e}"),
            Error::GroupActive(g) => write!(f, "{g}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Kafka(e) => Some(e),
            _ => None,
        }
    }
}

impl From<KafkaError> for Error {
    fn from(e: KafkaError) -> Self {
        Error::Kafka(e)
    }
}
