//! Orders of Java collections, emulated in Rust.
//!
//! Apache's StickyTaskAssignor breaks ties by the iteration order of `java.util.HashMap`s and by
//! the pop order of `java.util.PriorityQueue`s (Kafka 4.1's also by identity hash codes). To
//! compute exactly what it computes, these small helpers reproduce those orders from the same
//! inputs: the keys' `hashCode`s, the sequence of insertions and removals, the constructor's
//! capacity rules, and the comparator (and, for identity hashes, the generator's state).
//! Each helper is checked against a real JVM by `tests/oracles/java_orders.rs`.

pub mod hash_map;
pub mod identity_hash;
pub mod priority_queue;
pub mod string_hash;

pub use hash_map::{JavaHash, JavaHashMap};
pub use identity_hash::IdentityHashes;
pub use priority_queue::JavaPriorityQueue;
pub use string_hash::{java_string_cmp, java_string_hash};
