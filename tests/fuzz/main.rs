//! Fuzzing on every `cargo test` (docs/dev/fuzzing.md): `inputs` runs one target per parser and
//! decoder of untrusted input (a structure-aware mutator over real samples, a counting allocator
//! bounding memory), `coordinator` sends the coordinator random request sequences (proptest).
//!
//! `cargo test --test fuzz target::NAME` runs one input target; `FUZZ_INPUTS` and `FUZZ_SEED`
//! size and pick the run.

mod coordinator;
mod inputs;

#[path = "../support/mod.rs"]
mod support;
