//! What the Kafka protocol can carry. Brokers parse every STRING (and COMPACT_STRING) with a
//! length of at most `Short.MAX_VALUE` bytes and drop the connection on a longer one, which a user
//! would read as a network failure; so such values are refused before anything is sent.

use super::error::KafkaError;

/// Longest string a Kafka request may carry, in UTF-8 bytes.
pub const MAX_STRING_BYTES: usize = i16::MAX as usize;

/// Refuse `value` when the protocol cannot carry it; `what` names it for the user ("group id").
pub fn check_string(what: &str, value: &str) -> Result<(), KafkaError> {
    let n = value.len();
    if n <= MAX_STRING_BYTES {
        return Ok(());
    }
    // The value itself is not echoed: at this size it would swamp the one-line error.
    let start: String = value.chars().take(20).collect();
    Err(KafkaError::Config(format!(
        "{what} `{start}...` is {n} bytes, longer than the {MAX_STRING_BYTES} bytes a Kafka \
         protocol string can carry"
    )))
}

/// Every group id of a request, checked before anything is sent.
pub fn check_group_ids<S: AsRef<str>>(ids: &[S]) -> Result<(), KafkaError> {
    ids.iter()
        .try_for_each(|id| check_string("group id", id.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_up_to_the_protocol_limit_pass() {
        assert!(check_string("group id", &"a".repeat(MAX_STRING_BYTES)).is_ok());
        let e = check_group_ids(&["ok".to_string(), "é".repeat(20_000)]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("40000 bytes"), "{msg}");
        assert!(msg.contains("32767"), "{msg}");
        assert!(msg.len() < 200, "{msg}");
        assert!(
            matches!(e, KafkaError::Config(_)),
            "a usage error, not a network one"
        );
    }
}
