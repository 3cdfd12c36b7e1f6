//! The library from the inside, without a broker or a JVM: the layering of `src/` read from the
//! sources, the coordinator's invariants under simulated clients (proptest), the topology
//! parsers on saved and pasted `Topology#describe()` texts, and the codecs on the sample
//! messages of `tests/support/samples.rs`. A few seconds.
//!
//! Run one area with `cargo test --test library layering` (or `sim_properties`, ...).

mod codec;
mod layering;
mod sim_properties;
mod topology_describe;
mod topology_pasted;

#[path = "../support/mod.rs"]
mod support;
