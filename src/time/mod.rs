//! Time as text, one home for every command: instants (milliseconds since the Unix epoch, UTC)
//! and durations, parsed as the user writes them and printed as people read them. Pure: the
//! wall clock is read by the commands and passed in.

pub mod parse;
pub mod print;

pub use parse::{parse_datetime, parse_instant_or_ago, parse_interval, parse_iso_duration};
pub use print::{format_duration, rfc3339, time_of_day, time_of_day_s};
