//! Kafka's topic name rule, shared by the topology parsers (a pasted name is checked before it
//! is taken as a topic) and the coordinator's request validation.

/// The longest topic name Kafka accepts.
pub const MAX_TOPIC_NAME_LENGTH: usize = 249;

/// Kafka's topic name rule (`Topic.isValid`): 1 to 249 of `[a-zA-Z0-9._-]`, not `.` or `..`.
pub fn is_valid_topic_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= MAX_TOPIC_NAME_LENGTH
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_as_the_broker_does() {
        assert!(is_valid_topic_name("orders.v1_x-2"));
        assert!(is_valid_topic_name(&"x".repeat(249)));
        for bad in ["", ".", "..", "a b", "ä", &"x".repeat(250)] {
            assert!(!is_valid_topic_name(bad), "{bad}");
        }
    }
}
