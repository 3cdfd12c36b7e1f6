//! End to end against real Kafka brokers and Kafka Streams apps started by `tests/kafka/harness`
//! from Maven Central jars (Java 17+ and Maven; the tests fail loudly without them, they never
//! skip): `list`, `describe`, `lag`, the admin actions, `topology show group:ID`, `describe
//! --watch` (the pseudo-terminal case needs tmux), `history`, SASL/OAUTHBEARER and Kerberos
//! (`kerberos`: needs the system's GSS-API library), simulate's predictions against what
//! the broker then does (the end, and the path: `predict_paths`), the network's edges, the
//! harness itself, and 200 groups made by the harness's load maker (`scale`).
//!
//! Run one area with `cargo test --test e2e live` (or `admin`, `lag`, ...).

mod admin;
mod harness_smoke;
mod history;
mod kerberos;
mod lag;
mod live;
mod msk_iam;
mod net_edges;
mod oauth;
mod picture;
mod predict;
mod predict_paths;
mod scale;
mod watch;
mod watch_moves;

#[path = "../support/mod.rs"]
mod support;
