//! The cluster session: `Cluster`, its brokers, their connections and the session's deadline,
//! opened from the bootstrap servers; the requests live one API family a file below. It answers
//! with protocol values; features compose them (`describe::live`).
//!
//! - `locate`: who to ask (FindCoordinator for coordinators, Metadata for brokers and leaders)
//! - `groups`: ListGroups on every broker, StreamsGroupDescribe batched per coordinator
//! - `configs`: DescribeConfigs of groups and brokers
//! - `offsets`: committed offsets (OffsetFetch) and offsets by time (ListOffsets)
//! - `fetch`: Fetch of one partition from its leader
//! - `admin`: the admin writes (OffsetCommit, OffsetDelete, DeleteGroups, DeleteTopics)
//! - `fanout`: one request to several brokers at once, within the deadline
//! - `retry`: which errors a retry can fix, and the drivers every request goes through

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use kafka_protocol::messages::{
    ApiKey, FindCoordinatorResponse, MetadataRequest, MetadataResponse,
};
use kafka_protocol::protocol::StrBytes;

use super::config::ClientConfig;
use super::conn::Connection;
use super::error::{KafkaError, KafkaResult};
use super::waits::{Asked, Waits};
use model::group::CoordinatorNode;
use model::wait::Awaited;

mod admin;
mod configs;
mod fanout;
mod fetch;
mod groups;
mod locate;
mod offsets;
mod retry;

pub use configs::{CoordinatorConfigs, ResourceConfigs};
pub use groups::{DescribedGroups, ListedGroup, ListedGroups};
pub use offsets::LeaderlessOr;

use retry::transient;

#[derive(Clone, Debug)]
struct BrokerAddr {
    host: String,
    port: i32,
}

impl BrokerAddr {
    fn addr(&self) -> String {
        model::group::address(&self.host, self.port)
    }
}

/// A session with a cluster.
pub struct Cluster {
    cfg: ClientConfig,
    brokers: BTreeMap<i32, BrokerAddr>,
    conns: BTreeMap<i32, Connection>,
    deadline: Instant,
    /// Ask StreamsGroupDescribe v1 for stored topology descriptions (KIP-1331).
    topology_descriptions: bool,
    /// Why each broker last failed to answer a request any broker could answer.
    any_errors: BTreeMap<i32, String>,
    /// Told what the session waits for.
    waits: Waits,
    /// Coordinators answered beside the bootstrap Metadata ([`Cluster::connect_locating`]),
    /// until `find_coordinators` takes them.
    located: BTreeMap<String, CoordinatorNode>,
}

fn s(x: &StrBytes) -> String {
    x.to_string()
}

impl Cluster {
    /// Connect to the first bootstrap server that answers and learn the brokers.
    pub async fn connect(cfg: ClientConfig) -> KafkaResult<Cluster> {
        Cluster::connect_telling(cfg, Waits::default()).await
    }

    /// [`Cluster::connect`], the session telling `waits` what it waits for.
    pub async fn connect_telling(cfg: ClientConfig, waits: Waits) -> KafkaResult<Cluster> {
        Cluster::connect_locating(cfg, waits, &[]).await
    }

    /// [`Cluster::connect_telling`] for a session that will look for the coordinators of
    /// `groups`: FindCoordinator goes out with the bootstrap Metadata, back to back on the
    /// same connection, so describing one group costs three round trips in a row, not four.
    pub async fn connect_locating(
        cfg: ClientConfig,
        waits: Waits,
        groups: &[String],
    ) -> KafkaResult<Cluster> {
        if cfg.bootstrap.is_empty() {
            return Err(KafkaError::NoBootstrap);
        }
        let deadline = Instant::now() + cfg.timeout;
        let (boot, md, found) = {
            let _step = waits.begin(Awaited::Bootstrap {
                servers: cfg.bootstrap.clone(),
            });
            bootstrap_metadata(&cfg, deadline, &waits, groups).await?
        };
        let brokers: BTreeMap<i32, BrokerAddr> = md
            .brokers
            .iter()
            .map(|b| {
                (
                    b.node_id.0,
                    BrokerAddr {
                        host: s(&b.host),
                        port: b.port,
                    },
                )
            })
            .collect();
        let mut conns = BTreeMap::new();
        if let Some((id, _)) = brokers.iter().find(|(_, b)| b.addr() == boot.addr) {
            conns.insert(*id, boot);
        } else if let Some(id) = brokers.keys().next().copied() {
            // Advertised names differ from the bootstrap name: keep the connection for the
            // first broker only if it is the only one (single-node clusters behind a proxy).
            if brokers.len() == 1 {
                conns.insert(id, boot);
            }
        }
        let mut cluster = Cluster {
            cfg,
            brokers,
            conns,
            deadline,
            topology_descriptions: false,
            any_errors: BTreeMap::new(),
            waits,
            located: BTreeMap::new(),
        };
        crate::trace::line(|| format!("brokers: {}", cluster.brokers_named()));
        // Only what answered: a coordinator not yet available is asked for again, with the
        // retries `find_coordinators` makes.
        for c in found.iter().flat_map(|r| &r.coordinators) {
            if c.error_code == 0 {
                let node = cluster.coordinator_found(c);
                cluster.located.insert(s(&c.key), node);
            }
        }
        Ok(cluster)
    }

    pub fn broker_ids(&self) -> Vec<i32> {
        self.brokers.keys().copied().collect()
    }

    /// The session's timeout (`--timeout`): every wait of the session ends within it.
    pub fn timeout(&self) -> Duration {
        self.cfg.timeout
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The highest version of each API broker `id` offers, as its ApiVersions answered on this
    /// cluster's connection to it; empty before a connection to it was made. What tells one
    /// Kafka release line from another (`KafkaVersion::line_from_api_versions`).
    pub fn api_maxima(&self, id: i32) -> BTreeMap<i16, i16> {
        self.conns
            .get(&id)
            .map(|c| c.versions.iter().map(|(k, (_, max))| (*k, *max)).collect())
            .unwrap_or_default()
    }

    /// Broker `id` as the metadata knows it.
    fn node(&self, id: i32) -> Option<CoordinatorNode> {
        self.brokers.get(&id).map(|b| CoordinatorNode {
            id,
            host: b.host.clone(),
            port: b.port,
        })
    }

    /// Broker `id` is asked, as `asked` (see [`Waits::asking`]).
    fn asking(&self, id: i32, asked: Asked) {
        if let Some(node) = self.node(id) {
            self.waits.asking(node, asked);
        }
    }

    async fn conn(&mut self, id: i32) -> KafkaResult<&mut Connection> {
        self.asking(id, Asked::Broker);
        // A SASL session about to end (a token about to expire): a new connection, with a new
        // token, rather than a request the broker would answer by closing the connection.
        if self.conns.get(&id).is_some_and(Connection::session_ending) {
            self.conns.remove(&id);
        }
        if !self.conns.contains_key(&id) {
            let addr = self.brokers.get(&id).map(BrokerAddr::addr).ok_or_else(|| {
                KafkaError::Protocol {
                    addr: format!("node {id}"),
                    detail: "broker not in the cluster metadata".into(),
                }
            })?;
            let c = Connection::open(&addr, &self.cfg).await?;
            self.conns.insert(id, c);
        }
        self.conns.get_mut(&id).ok_or_else(|| KafkaError::Protocol {
            addr: format!("node {id}"),
            detail: "connection lost".into(),
        })
    }

    async fn any_broker(&mut self) -> KafkaResult<i32> {
        if let Some(id) = self.conns.keys().next() {
            return Ok(*id);
        }
        self.brokers
            .keys()
            .next()
            .copied()
            .ok_or_else(|| KafkaError::Protocol {
                addr: "the cluster".into(),
                detail: "metadata lists no brokers".into(),
            })
    }
}

/// A bootstrap connection and the cluster's brokers as it answers them, with the coordinators
/// of `groups` when there are any and the broker takes FindCoordinator v4 (many keys). A
/// bootstrap server that goes away between answering ApiVersions and Metadata (a broker
/// shutting down) is no answer: the bootstrap list is tried again, until the deadline.
async fn bootstrap_metadata(
    cfg: &ClientConfig,
    deadline: Instant,
    waits: &Waits,
    groups: &[String],
) -> KafkaResult<(
    Connection,
    MetadataResponse,
    Option<FindCoordinatorResponse>,
)> {
    let req = MetadataRequest::default()
        .with_topics(Some(Vec::new()))
        .with_allow_auto_topic_creation(false);
    let mut attempt = 0;
    loop {
        let mut boot = super::bootstrap::open_first(cfg).await?;
        let answered = match boot.negotiate(ApiKey::FindCoordinator, 4) {
            Ok(find) if !groups.is_empty() => {
                let version = boot.negotiate(ApiKey::Metadata, 1)?;
                let locate = locate::find_coordinators_request(groups);
                boot.request_pair(
                    (ApiKey::Metadata, version, &req),
                    (ApiKey::FindCoordinator, find, &locate),
                )
                .await
                .map(|(md, found)| (md, Some(found)))
            }
            _ => boot
                .negotiated::<_, MetadataResponse>(ApiKey::Metadata, 1, &req)
                .await
                .map(|(_, md)| (md, None)),
        };
        match answered {
            Ok((md, found)) => return Ok((boot, md, found)),
            Err(e) if transient(&e) => {
                let wait = retry::backoff_wait(attempt);
                if deadline.saturating_duration_since(Instant::now()) <= wait {
                    return Err(e);
                }
                waits.retried(&format!("{}: {e}; retrying", boot.addr));
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Run a future on a current-thread runtime (used by the commands).
pub fn block_on<F: std::future::Future>(fut: F) -> std::io::Result<F::Output> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    Ok(rt.block_on(fut))
}
