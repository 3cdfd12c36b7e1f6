//! Codecs for the streams-group APIs that the `kafka-protocol` crate does not have:
//! StreamsGroupHeartbeat (88) and StreamsGroupDescribe (89), versions 0 and 1.
//!
//! Every decoder takes a byte slice and returns a typed error on truncated or malformed input;
//! none of them panics. The `Wire*` structs keep the wire's list order so that a decode followed
//! by an encode gives back the same bytes.

pub mod describe;
pub mod fetch;
pub mod heartbeat;

use std::fmt;

/// A value that cannot be written in the requested version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EncodeError {}

#[cfg(test)]
mod tests;
