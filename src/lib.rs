//! `streams-group`: inspect, simulate and check Apache Kafka streams groups (KIP-1071).
//!
//! The library is split the way data flows: `model` (plain data), `topology` (parse, configure,
//! diff), `coordinator` (the group coordinator, pure, time injected), `sim` (simulated clients on
//! a virtual clock), `kafka` (the wire client), `usecase` (the operations the commands share, on
//! plain inputs, each giving a report value), `render` (tables, JSON, colour) and `schema` (the
//! JSON Schemas of the reports, generated from their types). It holds no command line: the
//! binary (`main.rs`) owns the arguments (`cli`, `commands/`), the error kinds and the exit codes
//! (`command_error`, `exit`).

pub mod admin;
pub mod assignment_diff;
pub mod coordinator;
pub mod input;
pub mod java;
pub mod kafka;
pub mod lag;
pub mod model;
pub mod render;
pub mod schema;
pub mod sim;
pub mod snapshot;
pub mod topology;
pub mod usecase;
pub mod watch;
