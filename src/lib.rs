//! `streams-group`: inspect, simulate and check Apache Kafka streams groups (KIP-1071).
//!
//! The library is split the way data flows: `model` (plain data), `topology` (parse, configure,
//! diff), `coordinator` (the group coordinator, pure, time injected), `sim` (simulated clients on
//! a virtual clock), `kafka` (the wire client), `render` (tables, JSON, colour), and `commands`
//! (one module per subcommand, glue only).

pub mod assignment_diff;
pub mod cli;
pub mod commands;
pub mod coordinator;
pub mod error;
pub mod exit;
pub mod input;
pub mod kafka;
pub mod lag;
pub mod model;
pub mod render;
pub mod sim;
pub mod snapshot;
pub mod topology;
