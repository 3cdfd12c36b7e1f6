//! The wire client: framing and primitive encodings (`wire`, shared with `history` and re-exported
//! here from `crate::wire`), codecs for the streams-group APIs
//! (`codec`), client configuration and `--command-config` parsing (`config`), SCRAM (`scram`),
//! connections with TLS and SASL (`conn`), record batches as Fetch returns them (`records`), and
//! the cluster-level operations used by `list` and `describe` (`client`).

pub mod bootstrap;
pub mod client;
pub mod codec;
pub mod config;
pub mod conn;
pub mod error;
pub mod guard;
pub mod limits;
pub mod records;
pub mod scram;
pub mod tls;
pub mod wire;

use std::time::Duration;

/// Run `f` against the cluster on a current-thread runtime; the whole run is bounded by a
/// generous multiple of the timeout so that nothing can hang.
pub fn run_session<T>(
    cfg: config::ClientConfig,
    f: impl for<'a> FnOnce(
        &'a mut client::Cluster,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = error::KafkaResult<T>> + 'a>,
    >,
) -> error::KafkaResult<T> {
    let overall = cfg.timeout * 4 + Duration::from_secs(1);
    let timeout = cfg.timeout;
    let fut = async move {
        let mut cluster = client::Cluster::connect(cfg).await?;
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
