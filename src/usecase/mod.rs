//! Use cases: the operations the commands share, on plain inputs (paths, ids, numbers), each
//! rule once. No clap, no exit codes, no printing: each returns a report value (or a typed
//! [`Error`]), and what the user should be told on the side comes back as notes in the value.
//!
//! * [`source`]: where a group comes from (a snapshot or the live cluster) and where a topology
//!   comes from (a topology file, a snapshot, or a live group);
//! * [`profile`]: which coordinator profile and task assignor run;
//! * [`simulation`]: building a simulation, fresh or from a described group (threads and standby
//!   replicas inferred from it);
//! * [`diff`]: the diff policy (what a topology or an assignment is compared against, per member
//!   or per process);
//! * [`check_epoch`], [`topology`], [`lag`], [`live`]: the reports of those commands;
//! * [`admin`]: the admin actions (reset offsets, delete offsets, delete groups).
//! * [`watch`]: one sample of a watch, and the timeline of a recording.

pub mod admin;
pub mod check_epoch;
pub mod diff;
mod error;
pub mod lag;
pub mod live;
pub mod picture;
pub mod profile;
mod schema;
pub mod simulation;
pub mod source;
pub mod topology;
pub mod watch;

pub use error::{ActiveGroup, Error, Fix};
