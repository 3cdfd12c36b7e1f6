//! Exit codes: a contract documented in the README ("Exit codes").

/// Success; for `check-epoch`, the topology is accepted.
pub const SUCCESS: i32 = 0;
/// A negative answer that is not an error: `diff --exit-code` found differences,
/// `check-epoch` found the topology rejected.
pub const NEGATIVE: i32 = 1;
/// Bad usage or bad input: unknown option, unreadable or malformed file, impossible value.
pub const USAGE: i32 = 2;
/// The cluster could not be reached: connection refused, timeout, TLS or SASL failure.
pub const UNREACHABLE: i32 = 3;
/// The cluster answered with an error: unknown group, streams groups not enabled, not authorized.
pub const KAFKA_ERROR: i32 = 4;
/// The output could not be written (e.g. the disk is full).
pub const OUTPUT: i32 = 5;
