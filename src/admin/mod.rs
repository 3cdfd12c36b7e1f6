//! The admin actions on streams groups (`reset-offsets`, `delete-offsets`, `delete`), pure:
//! reading what the user gives ([`parse`]), planning a reset ([`plan`]), telling internal
//! topics by name ([`internal_topics`]) and the reports ([`report`]). The cluster is read and
//! written by [`live`]; nothing else here does I/O.

pub mod internal_topics;
pub mod live;
pub mod parse;
pub mod plan;
pub mod report;
