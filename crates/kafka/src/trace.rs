//! `--debug`: what the client asks which broker, and when, one `debug:` line on stderr each.
//! For when a reading does not add up (a group listed that its coordinator cannot describe, a
//! broker that answers one request and not the next): the lines tell which broker got which
//! request, after how long it answered, or that it did not.
//!
//! Only the request's API, version and correlation id and the answer's size are written, never
//! a request's or answer's contents: SASL exchanges carry passwords and tokens.
//!
//! Process-wide, as a log level is: a command turns it on once, before its first session.

use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

use kafka_protocol::messages::ApiKey;

/// When tracing was turned on; unset while it is off.
static SINCE: OnceLock<Instant> = OnceLock::new();

/// Turn tracing on for the rest of the process.
pub fn enable() {
    let _ = SINCE.get_or_init(Instant::now);
}

/// Whether `debug:` lines are written.
pub fn enabled() -> bool {
    SINCE.get().is_some()
}

/// Write `line` (built only when tracing is on) as `debug: +S.mmm s line`, seconds since
/// tracing began: a single `write` of the whole line, so that concurrent sessions (a watch's
/// fan-out) do not interleave within a line.
pub fn line(line: impl FnOnce() -> String) {
    let Some(since) = SINCE.get() else {
        return;
    };
    let t = since.elapsed();
    let text = format!(
        "debug: +{}.{:03} s {}\n",
        t.as_secs(),
        t.subsec_millis(),
        line()
    );
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// An API key by its protocol name (`ListGroups`), or its number when the crate does not know it.
pub fn api_name(key: i16) -> String {
    // The streams group APIs (KIP-1071) are newer than the kafka-protocol crate's list; this
    // crate encodes them itself (`codec`).
    match key {
        crate::codec::heartbeat::API_KEY => "StreamsGroupHeartbeat".into(),
        crate::codec::describe::API_KEY => "StreamsGroupDescribe".into(),
        _ => match ApiKey::try_from(key) {
            Ok(k) => format!("{k:?}"),
            Err(()) => format!("API {key}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_names_are_the_protocol_names() {
        assert_eq!(api_name(16), "ListGroups");
        assert_eq!(api_name(88), "StreamsGroupHeartbeat");
        assert_eq!(api_name(89), "StreamsGroupDescribe");
        assert_eq!(api_name(-7), "API -7");
    }
}
