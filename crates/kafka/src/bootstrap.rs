//! Bootstrap: the first address of `--bootstrap-server` to complete a connection (TCP, TLS,
//! ApiVersions, SASL) wins. Addresses are tried one after the other, but an address that has not
//! answered within [`STAGGER`] no longer holds back the next: attempts overlap, so a silent
//! address costs that stagger, not the whole `--timeout`, and a slow but live broker can still
//! win. The losing attempts are dropped, which closes their sockets. Every attempt keeps the
//! `--timeout` bound on each of its waits.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinSet;

use super::config::ClientConfig;
use super::conn::{split_host_port, Connection};
use super::error::{KafkaError, KafkaResult};

/// How long an unanswered address holds back the next one. A broker on a healthy network
/// answers ApiVersions well within it, so the first listed address is normally the one used.
pub const STAGGER: Duration = Duration::from_millis(500);

type Attempt = (usize, KafkaResult<Connection>);

/// Open a connection to the first bootstrap address that answers.
pub async fn open_first(cfg: &ClientConfig) -> KafkaResult<Connection> {
    // A typo anywhere in the list is a usage error, whichever address would have answered.
    for addr in &cfg.bootstrap {
        split_host_port(addr)?;
    }
    let shared = Arc::new(cfg.clone());
    let mut attempts: JoinSet<Attempt> = JoinSet::new();
    let mut failures: Vec<(usize, KafkaError)> = Vec::new();
    let mut started = 0;
    loop {
        if started < cfg.bootstrap.len() {
            let cfg = Arc::clone(&shared);
            let i = started;
            attempts.spawn(async move { (i, Connection::open(&cfg.bootstrap[i], &cfg).await) });
            started += 1;
        }
        let joined = if started < cfg.bootstrap.len() {
            match tokio::time::timeout(STAGGER, attempts.join_next()).await {
                Ok(joined) => joined,
                Err(_) => continue,
            }
        } else {
            attempts.join_next().await
        };
        let Some(joined) = joined else { break };
        let (i, result) = joined.map_err(|e| KafkaError::Protocol {
            addr: "a bootstrap server".into(),
            detail: format!("the connection attempt failed: {e}"),
        })?;
        match result {
            Ok(conn) => return Ok(conn),
            Err(e) if same_everywhere(&e) => return Err(e),
            Err(e) => failures.push((i, e)),
        }
    }
    Err(all_failed(failures))
}

/// Authentication, TLS trust and configuration problems will not get better on another broker:
/// waiting for the other addresses would only delay the answer.
fn same_everywhere(e: &KafkaError) -> bool {
    matches!(
        e,
        KafkaError::Sasl { .. } | KafkaError::Tls { .. } | KafkaError::Config(_)
    )
}

fn all_failed(mut failures: Vec<(usize, KafkaError)>) -> KafkaError {
    failures.sort_by_key(|(i, _)| *i);
    let mut errors: Vec<KafkaError> = failures.into_iter().map(|(_, e)| e).collect();
    match errors.len() {
        0 => KafkaError::NoBootstrap,
        1 => errors.remove(0),
        _ => KafkaError::Bootstrap(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn cfg(bootstrap: &str, timeout_ms: u64) -> ClientConfig {
        ClientConfig::plaintext(bootstrap, Duration::from_millis(timeout_ms))
    }

    fn run<T>(fut: impl std::future::Future<Output = T>) -> T {
        super::super::client::block_on(fut).expect("runtime")
    }

    /// A port with nothing listening (bound, read, released).
    fn closed_port() -> String {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    }

    #[test]
    fn a_bad_address_anywhere_is_a_usage_error() {
        let e = run(open_first(&cfg("127.0.0.1:1,nope", 1000))).unwrap_err();
        assert!(matches!(e, KafkaError::Config(_)), "{e}");
    }

    #[test]
    fn every_failure_is_named_in_order() {
        let (a, b) = (closed_port(), closed_port());
        let e = run(open_first(&cfg(&format!("{a},{b}"), 2000))).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("no bootstrap server answered: "), "{msg}");
        let (pa, pb) = (msg.find(&a).unwrap(), msg.find(&b).unwrap());
        assert!(pa < pb, "{msg}");
        assert!(
            matches!(e, KafkaError::Bootstrap(ref all) if all.len() == 2),
            "{e}"
        );
    }

    #[test]
    fn silent_addresses_overlap_and_the_wait_stays_bounded() {
        let silent: Vec<std::net::TcpListener> = (0..3)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        let list: Vec<String> = silent
            .iter()
            .map(|l| l.local_addr().unwrap().to_string())
            .collect();
        let t0 = Instant::now();
        let e = run(open_first(&cfg(&list.join(","), 2000))).unwrap_err();
        // Sequential attempts would take 3 × 2 s; overlapping ones about 2 s + 2 staggers.
        assert!(t0.elapsed() < Duration::from_millis(5500), "{e}");
        assert!(
            matches!(e, KafkaError::Bootstrap(ref all) if all.len() == 3),
            "{e}"
        );
    }
}
