//! The wire client: framing and primitive encodings (`wire`), codecs for the streams-group APIs
//! (`codec`), client configuration and `--command-config` parsing (`config`), SCRAM (`scram`),
//! connections with TLS and SASL (`conn`), and the cluster-level operations used by `list` and
//! `describe` (`client`).

pub mod codec;
pub mod config;
pub mod scram;
pub mod wire;
pub mod conn;
pub mod error;
pub mod tls;
pub mod client;
