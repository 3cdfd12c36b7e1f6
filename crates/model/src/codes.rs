//! Kafka error codes and streams heartbeat status codes, with Kafka's numbers.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

macro_rules! error_codes {
    ($($name:ident = $code:expr, $text:expr;)*) => {
        /// A Kafka protocol error code (the subset that streams groups meet).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
        pub enum ErrorCode {
            $($name,)*
            /// A code this tool does not know by name.
            Other(i16),
        }

        impl ErrorCode {
            pub fn code(self) -> i16 {
                match self {
                    $(ErrorCode::$name => $code,)*
                    ErrorCode::Other(c) => c,
                }
            }

            pub fn from_code(code: i16) -> ErrorCode {
                match code {
                    $($code => ErrorCode::$name,)*
                    c => ErrorCode::Other(c),
                }
            }

            /// Kafka's SCREAMING_SNAKE_CASE name.
            pub fn name(self) -> String {
                match self {
                    $(ErrorCode::$name => to_screaming(stringify!($name)),)*
                    ErrorCode::Other(c) => format!("ERROR_{c}"),
                }
            }

            /// Kafka's one-line description.
            pub fn description(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => $text,)*
                    ErrorCode::Other(_) => "unknown error code",
                }
            }
        }
    };
}

error_codes! {
    UnknownServerError = -1, "The server experienced an unexpected error when processing the request.";
    None = 0, "No error.";
    UnknownTopicOrPartition = 3, "This server does not host this topic-partition.";
    LeaderNotAvailable = 5, "There is no leader for this topic-partition.";
    NotLeaderOrFollower = 6, "This server is not the leader for that topic-partition.";
    RequestTimedOut = 7, "The request timed out.";
    OffsetMetadataTooLarge = 12, "The metadata field of the offset request was too large.";
    CoordinatorLoadInProgress = 14, "The coordinator is loading and hence can't process requests.";
    CoordinatorNotAvailable = 15, "The coordinator is not available.";
    NotCoordinator = 16, "This is not the correct coordinator.";
    IllegalGeneration = 22, "Specified group generation id is not valid.";
    InvalidGroupId = 24, "The configured groupId is invalid.";
    UnknownMemberId = 25, "The coordinator is not aware of this member.";
    TopicAuthorizationFailed = 29, "Topic authorization failed.";
    GroupAuthorizationFailed = 30, "Group authorization failed.";
    ClusterAuthorizationFailed = 31, "Cluster authorization failed.";
    UnsupportedSaslMechanism = 33, "The broker does not support the requested SASL mechanism.";
    IllegalSaslState = 34, "Request is not valid given the current SASL state.";
    UnsupportedVersion = 35, "The version of API is not supported.";
    InvalidRequest = 42, "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker.";
    InvalidCommitOffsetSize = 28, "The committing offset data size is not valid.";
    SaslAuthenticationFailed = 58, "SASL Authentication failed.";
    NonEmptyGroup = 68, "The group is not empty.";
    GroupIdNotFound = 69, "The group id does not exist.";
    TopicDeletionDisabled = 73, "Topic deletion is disabled.";
    OffsetNotAvailable = 78, "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.";
    GroupMaxSizeReached = 81, "The consumer group has reached its max size.";
    GroupSubscribedToTopic = 86, "The consumer group is actively subscribed to the topic.";
    FencedInstanceId = 82, "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.";
    FencedMemberEpoch = 110, "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.";
    UnreleasedInstanceId = 111, "The instance ID is still used by another member in the consumer group. That member must leave first.";
    StaleMemberEpoch = 113, "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.";
    StreamsInvalidTopology = 130, "The supplied topology is invalid.";
    StreamsInvalidTopologyEpoch = 131, "The supplied topology epoch is invalid.";
    StreamsTopologyFenced = 132, "The supplied topology epoch is outdated.";
    GroupDeletionFailed = 134, "The group could not be deleted.";
}

fn to_screaming(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.code())
    }
}

/// A streams heartbeat response status code.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StatusCode {
    StaleTopology,
    MissingSourceTopics,
    IncorrectlyPartitionedTopics,
    MissingInternalTopics,
    ShutdownApplication,
    AssignmentDelayed,
    MissingClientTags,
    Other(i8),
}

impl StatusCode {
    pub fn code(self) -> i8 {
        match self {
            StatusCode::StaleTopology => 0,
            StatusCode::MissingSourceTopics => 1,
            StatusCode::IncorrectlyPartitionedTopics => 2,
            StatusCode::MissingInternalTopics => 3,
            StatusCode::ShutdownApplication => 4,
            StatusCode::AssignmentDelayed => 5,
            StatusCode::MissingClientTags => 6,
            StatusCode::Other(c) => c,
        }
    }

    pub fn from_code(code: i8) -> StatusCode {
        match code {
            0 => StatusCode::StaleTopology,
            1 => StatusCode::MissingSourceTopics,
            2 => StatusCode::IncorrectlyPartitionedTopics,
            3 => StatusCode::MissingInternalTopics,
            4 => StatusCode::ShutdownApplication,
            5 => StatusCode::AssignmentDelayed,
            6 => StatusCode::MissingClientTags,
            c => StatusCode::Other(c),
        }
    }

    pub fn name(self) -> String {
        match self {
            StatusCode::StaleTopology => "STALE_TOPOLOGY".into(),
            StatusCode::MissingSourceTopics => "MISSING_SOURCE_TOPICS".into(),
            StatusCode::IncorrectlyPartitionedTopics => "INCORRECTLY_PARTITIONED_TOPICS".into(),
            StatusCode::MissingInternalTopics => "MISSING_INTERNAL_TOPICS".into(),
            StatusCode::ShutdownApplication => "SHUTDOWN_APPLICATION".into(),
            StatusCode::AssignmentDelayed => "ASSIGNMENT_DELAYED".into(),
            StatusCode::MissingClientTags => "MISSING_CLIENT_TAGS".into(),
            StatusCode::Other(c) => format!("STATUS_{c}"),
        }
    }
}

impl fmt::Display for StatusCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_match_kafka() {
        assert_eq!(ErrorCode::StreamsTopologyFenced.code(), 132);
        assert_eq!(
            ErrorCode::StreamsInvalidTopologyEpoch.name(),
            "STREAMS_INVALID_TOPOLOGY_EPOCH"
        );
        assert_eq!(ErrorCode::from_code(110), ErrorCode::FencedMemberEpoch);
        assert_eq!(ErrorCode::from_code(999), ErrorCode::Other(999));
        assert_eq!(StatusCode::from_code(3), StatusCode::MissingInternalTopics);
        assert_eq!(StatusCode::MissingInternalTopics.code(), 3);
    }
}
