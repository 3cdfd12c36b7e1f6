//! The wire client of streams groups: connections, the protocol's codecs and the cluster-level
//! requests. It answers with protocol values and decides no group behaviour.
//!
//! - `wire`: the protocol's primitive encodings (the tool's `history` decoder shares them)
//! - `codec`: StreamsGroupHeartbeat, StreamsGroupDescribe and Fetch, encoded and decoded
//! - `guard`: response layouts checked before decoding; `limits`: what a request can carry
//! - `config`: client configuration and `--command-config` parsing
//! - `conn`: one connection (framing, ApiVersions) with TLS (`tls`) and SASL (`scram`, `oauth`,
//!   `msk_iam`, `gssapi`: Kerberos through the system's GSS-API library, loaded at run time);
//!   `bootstrap`: the first bootstrap server that answers
//! - `secret`: strings that are never printed (passwords, keys, tokens)
//! - `client`: the cluster session, `client::Cluster`, one file per API family below it
//! - `batches`: record batches as Fetch returns them (`batches::build` writes them, for tests)
//! - `error`: the client's errors
//! - `waits`: what a session waits for, told while it waits
//! - `trace`: `--debug`, each request and answer (never their contents) on stderr

pub mod batches;
pub mod bootstrap;
pub mod client;
pub mod codec;
pub mod config;
pub mod conn;
pub mod error;
pub mod gssapi;
pub mod guard;
pub mod limits;
pub mod msk_iam;
pub mod oauth;
pub mod pkcs12;
pub mod scram;
pub mod secret;
pub mod tls;
pub mod trace;
pub mod waits;
pub mod wire;

use std::time::Duration;

/// Run `f` against the cluster on a current-thread runtime; the whole run is bounded by a
/// generous multiple of the timeout so that nothing can hang.
pub fn run_session<T>(
    cfg: config::ClientConfig,
    f: impl for<'a> FnOnce(&'a mut client::Cluster) -> Session<'a, T>,
) -> error::KafkaResult<T> {
    run_session_telling(cfg, waits::Waits::default(), f)
}

/// What a session function returns: its work against the cluster.
pub type Session<'a, T> =
    std::pin::Pin<Box<dyn std::future::Future<Output = error::KafkaResult<T>> + 'a>>;

/// [`run_session`], telling `waits` what the session waits for as it goes.
pub fn run_session_telling<T>(
    cfg: config::ClientConfig,
    waits: waits::Waits,
    f: impl for<'a> FnOnce(&'a mut client::Cluster) -> Session<'a, T>,
) -> error::KafkaResult<T> {
    run_session_locating(cfg, waits, Vec::new(), f)
}

/// [`run_session_telling`] for a session about `groups`: their coordinators are asked for with
/// the bootstrap Metadata, in the same round trip ([`client::Cluster::connect_locating`]).
pub fn run_session_locating<T>(
    cfg: config::ClientConfig,
    waits: waits::Waits,
    groups: Vec<String>,
    f: impl for<'a> FnOnce(&'a mut client::Cluster) -> Session<'a, T>,
) -> error::KafkaResult<T> {
    let overall = cfg.timeout * 4 + Duration::from_secs(1);
    let timeout = cfg.timeout;
    let fut = async move {
        let mut cluster = client::Cluster::connect_locating(cfg, waits, &groups).await?;
        f(&mut cluster).await
    };
    client::block_on(async move {
        match tokio::time::timeout(overall, fut).await {
            Ok(r) => r,
            Err(_) => Err(error::KafkaError::Timeout {
                addr: "the cluster".into(),
                what: format!("the whole command, timeout {} ms", timeout.as_millis()),
            }),
        }
    })
    .map_err(|e| error::KafkaError::Runtime(format!("cannot start the runtime: {e}")))?
}
