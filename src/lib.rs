//! `streams-group`: inspect, simulate and check Apache Kafka streams groups (KIP-1071).

pub mod admin;
pub mod check_epoch;
pub mod coordinator;
pub mod describe;
pub mod diff;
pub mod error;
pub mod input;
pub mod java;
pub mod kafka;
pub mod lag;
pub mod model;
pub mod render;
pub mod schema;
pub mod simulate;
pub mod snapshot;
pub mod source;
pub mod topology;
pub mod watch;
