//! Against a real three-broker cluster (tests/kafka/harness `start --brokers 3`, Kafka 4.4.0,
//! KRaft with three combined broker+controller nodes, replication factor 3) with real Kafka
//! Streams apps: every live command through a rolling restart and a crashed coordinator
//! (`moves`), groups made by the harness's load maker (`load`, a step of `moves`' cluster), a
//! paused coordinator while the others answer (`paused`, also a step), and a bootstrap list
//! whose brokers are all down (`bootstrap_down`, no broker).
//! Java 17+ and Maven are required: the tests fail loudly without them, they never skip.
//!
//! One cluster for the whole binary, its steps in order; about 4 minutes on 2 cores.

mod bootstrap_down;
mod load;
mod moves;
mod paused;

#[path = "../support/mod.rs"]
mod support;
