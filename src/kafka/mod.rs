//! The wire client: framing and primitive encodings (`wire`), codecs for the streams-group APIs
//! (`codec`), client configuration and `--command-config` parsing (`config`), SCRAM (`scram`),
//! connections with TLS and SASL (`conn`), and the cluster-level operations used by `list` and
//! `describe` (`client`).

pub mod bootstrap;
pub mod client;
pub mod codec;
pub mod config;
pub mod conn;
pub mod error;
pub mod guard;
pub mod limits;
pub mod scram;
pub mod tls;
pub mod wire;

use std::time::Duration;

use crate::cli::GlobalArgs;
use crate::error::Failure;

/// The client configuration from the global options (`--bootstrap-server`, `--command-config`,
/// `--timeout`). With `--verbose`, unknown property keys are reported on stderr.
pub fn client_config(global: &GlobalArgs) -> Result<config::ClientConfig, Failure> {
    let Some(bootstrap) = global.bootstrap_server.as_deref() else {
        return Err(Failure::usage(
            "this command needs --bootstrap-server HOST:PORT (or STREAMS_GROUP_BOOTSTRAP_SERVER)",
        ));
    };
    let cfg = config::load(
        bootstrap,
        Duration::from_millis(global.timeout),
        global.command_config.as_deref(),
    )
    .map_err(|e| Failure::usage(e.0))?;
    if global.verbose {
        for k in &cfg.ignored_keys {
            eprintln!("note: --command-config key `{k}` is not used by streams-group");
        }
    }
    Ok(cfg)
}

/// Run `f` against the cluster on a current-thread runtime; the whole run is bounded by a
/// generous multiple of the timeout so that nothing can hang.
pub fn run_session<T>(
    cfg: config::ClientConfig,
    f: impl for<'a> FnOnce(
        &'a mut client::Cluster,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = error::KafkaResult<T>> + 'a>,
    >,
) -> Result<T, Failure> {
    let overall = cfg.timeout * 4 + Duration::from_secs(1);
    let timeout = cfg.timeout;
    let fut = async move {
        let mut cluster = client::Cluster::connect(cfg).await?;
        f(&mut cluster).await
    };
    let result = client::block_on(async move {
        match tokio::time::timeout(overall, fut).await {
            Ok(r) => r,
            Err(_) => Err(error::KafkaError::Timeout {
                addr: "the cluster".into(),
                what: format!("the whole command, --timeout {} ms", timeout.as_millis()),
            }),
        }
    })
    .map_err(|e| Failure::new(crate::exit::USAGE, format!("cannot start the runtime: {e}")))?;
    result.map_err(Failure::from)
}
