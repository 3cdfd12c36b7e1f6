//! Retries while the cluster moves (a rolling restart, a broker that died): which errors a retry
//! can fix, and the two drivers every request that may meet a move goes through. A request for a
//! group goes to its coordinator, found again after each failure; any other request goes to any
//! broker that answers, the broker list read again when none does. Every retry waits (100 ms,
//! doubling, at most 1 s) and none starts after the session's deadline (`--timeout` from the
//! start of the session): the last error is then the answer.

use std::collections::BTreeSet;
use std::time::Duration;

use kafka_protocol::messages::{ApiKey, MetadataRequest, MetadataResponse};

use super::{s, Asked, BrokerAddr, Cluster};
use crate::error::{KafkaError, KafkaResult};
use model::wait::Awaited;

/// Codes of a broker that is not (or no longer, or not yet) the one to ask: the coordinator or
/// the partition leader moved, is loading, or the request met a broker on its way out.
pub fn retriable_code(code: i16) -> bool {
    matches!(
        code,
        5 // LEADER_NOT_AVAILABLE
            | 6 // NOT_LEADER_OR_FOLLOWER
            | 7 // REQUEST_TIMED_OUT
            | 9 // REPLICA_NOT_AVAILABLE
            | 13 // NETWORK_EXCEPTION
            | 14 // COORDINATOR_LOAD_IN_PROGRESS
            | 15 // COORDINATOR_NOT_AVAILABLE
            | 16 // NOT_COORDINATOR
            | 19 // NOT_ENOUGH_REPLICAS
            | 20 // NOT_ENOUGH_REPLICAS_AFTER_APPEND
            | 56 // KAFKA_STORAGE_ERROR
            | 74 // FENCED_LEADER_EPOCH
            | 75 // UNKNOWN_LEADER_EPOCH
            | 78 // OFFSET_NOT_AVAILABLE
    )
}

/// A partition's ListOffsets code that a retry against its (new) leader can fix: the
/// retriable codes, and UNKNOWN_TOPIC_OR_PARTITION, which a broker that just lost the
/// partition (or has not learned it yet) answers.
pub fn retriable_partition_code(code: i16) -> bool {
    code == 3 || retriable_code(code)
}

/// The coordinator codes: the group is coordinated elsewhere now, or not yet.
pub fn coordinator_moved(code: i16) -> bool {
    matches!(code, 14..=16)
}

/// An error a retry may fix: the broker could not be reached (refused, closed, silent) or
/// answered with a retriable code.
pub fn transient(e: &KafkaError) -> bool {
    match e {
        KafkaError::Connect { .. } | KafkaError::Timeout { .. } => true,
        KafkaError::Broker { code, .. } => retriable_code(code.code()),
        _ => false,
    }
}

/// The wait before retry `attempt` (0-based): 100 ms, doubling, at most 1 s.
pub fn backoff_wait(attempt: u32) -> std::time::Duration {
    std::time::Duration::from_millis(100u64 << attempt.min(4))
        .min(std::time::Duration::from_secs(1))
}

/// A request one broker answers (node id given).
pub(crate) trait Op {
    type Out;
    async fn at(&self, cluster: &mut Cluster, node: i32) -> KafkaResult<Self::Out>;
}

impl Cluster {
    /// Drop the connection to `node` (it failed): the next request opens a new one.
    pub(crate) fn forget(&mut self, node: i32) {
        self.conns.remove(&node);
    }

    /// Take the brokers a Metadata response lists; with `all`, they replace the known ones (a
    /// broker that left is forgotten, its connection closed).
    pub(crate) fn learn_brokers(&mut self, md: &MetadataResponse, all: bool) {
        if all && !md.brokers.is_empty() {
            let live: BTreeSet<i32> = md.brokers.iter().map(|b| b.node_id.0).collect();
            self.brokers.retain(|id, _| live.contains(id));
            self.conns.retain(|id, _| live.contains(id));
        }
        for b in &md.brokers {
            let addr = BrokerAddr {
                host: s(&b.host),
                port: b.port,
            };
            let moved = self
                .brokers
                .get(&b.node_id.0)
                .is_some_and(|old| old.addr() != addr.addr());
            if moved {
                self.forget(b.node_id.0);
            }
            self.brokers.insert(b.node_id.0, addr);
        }
        crate::trace::line(|| format!("brokers: {}", self.brokers_named()));
    }

    /// `1 at host:port, 2 at host:port`: the brokers the session knows, for `--debug`.
    pub(crate) fn brokers_named(&self) -> String {
        self.brokers
            .iter()
            .map(|(id, b)| format!("{id} at {}", b.addr()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Wait before retry `attempt`; false (without waiting) when the wait would pass the deadline.
    pub(crate) async fn backoff(&self, attempt: u32) -> bool {
        self.backoff_leaving(attempt, Duration::ZERO).await
    }

    /// [`Cluster::backoff`], keeping `leave` of the session's time for later requests.
    pub(crate) async fn backoff_leaving(&self, attempt: u32, leave: Duration) -> bool {
        let wait = backoff_wait(attempt);
        if self.remaining().saturating_sub(leave) <= wait {
            return false;
        }
        tokio::time::sleep(wait).await;
        true
    }

    /// Send `op` to any broker that answers: connected brokers first, then the others in id
    /// order; one that cannot be reached is skipped. When none answered, the broker list is read
    /// again (from the bootstrap servers if need be) and all are tried again, until the deadline.
    pub(crate) async fn at_any<O: Op>(&mut self, op: &O) -> KafkaResult<O::Out> {
        let mut tried = BTreeSet::new();
        let mut attempt = 0;
        loop {
            let next = self.untried(&tried);
            let Some(id) = next else {
                let last = self.last_any_error(&tried);
                if !self.backoff(attempt).await {
                    return Err(last);
                }
                attempt += 1;
                tried.clear();
                self.rediscover().await;
                continue;
            };
            match op.at(self, id).await {
                Err(e) if transient(&e) => {
                    self.note(format!("broker {id} did not answer ({e}); trying another"));
                    self.forget(id);
                    self.any_errors.insert(id, e.to_string());
                    tried.insert(id);
                }
                r => return r,
            }
        }
    }

    fn untried(&self, tried: &BTreeSet<i32>) -> Option<i32> {
        let connected = self.conns.keys().find(|id| !tried.contains(id));
        connected
            .or_else(|| self.brokers.keys().find(|id| !tried.contains(id)))
            .copied()
    }

    fn last_any_error(&self, tried: &BTreeSet<i32>) -> KafkaError {
        let why: Vec<String> = tried
            .iter()
            .filter_map(|id| Some(format!("broker {id}: {}", self.any_errors.get(id)?)))
            .collect();
        KafkaError::Timeout {
            addr: "the cluster".into(),
            what: format!("a broker that answers; {}", why.join("; ")),
        }
    }

    /// Read the broker list again: from a broker that answers Metadata, else from the
    /// bootstrap servers. Failures are left to the caller's next attempt.
    async fn rediscover(&mut self) {
        if let Ok(mut boot) = super::super::bootstrap::open_first(&self.cfg).await {
            let req = MetadataRequest::default()
                .with_topics(Some(Vec::new()))
                .with_allow_auto_topic_creation(false);
            if let Ok((_, md)) = boot
                .negotiated::<_, MetadataResponse>(ApiKey::Metadata, 1, &req)
                .await
            {
                self.learn_brokers(&md, true);
                let id = self
                    .brokers
                    .iter()
                    .find(|(_, b)| b.addr() == boot.addr)
                    .map(|(id, _)| *id);
                if let Some(id) = id {
                    self.conns.insert(id, boot);
                }
            }
        }
    }

    /// Send `op` to `group`'s coordinator (`known`, when the caller has it), finding the
    /// coordinator again after each transient error, until it answers or the deadline.
    pub(crate) async fn at_coordinator<O: Op>(
        &mut self,
        group: &str,
        known: Option<i32>,
        op: &O,
    ) -> KafkaResult<O::Out> {
        let _step = self.waits.begin(Awaited::Coordinator {
            groups: vec![group.to_string()],
        });
        let mut node = known;
        let mut attempt = 0;
        loop {
            let id = match node {
                Some(id) => id,
                None => self.coordinator_id(group).await?,
            };
            self.asking(id, Asked::Coordinator);
            match op.at(self, id).await {
                Err(e) if transient(&e) => {
                    self.note(format!("coordinator {id} of `{group}`: {e}; retrying"));
                    self.forget(id);
                    if !self.backoff(attempt).await {
                        return Err(e);
                    }
                    attempt += 1;
                    node = None;
                }
                r => return r,
            }
        }
    }

    async fn coordinator_id(&mut self, group: &str) -> KafkaResult<i32> {
        let found = self.find_coordinators(&[group.to_string()]).await?;
        found
            .get(group)
            .map(|c| c.id)
            .ok_or_else(|| KafkaError::Protocol {
                addr: "the cluster".into(),
                detail: format!("FindCoordinator did not answer for `{group}`"),
            })
    }

    /// What was retried and why: told to the watch (a late sample says it) and to `--debug`.
    pub(crate) fn note(&mut self, line: String) {
        crate::trace::line(|| format!("retry: {line}"));
        self.waits.retried(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::ErrorCode;

    #[test]
    fn moves_are_retriable_and_answers_are_not() {
        for code in [5, 6, 14, 15, 16, 74, 75, 78] {
            assert!(retriable_code(code), "{code}");
        }
        for code in [0, 3, 22, 25, 29, 30, 35, 68, 69] {
            assert!(!retriable_code(code), "{code}");
        }
        assert!(retriable_partition_code(3));
        assert!(coordinator_moved(16) && !coordinator_moved(6));
    }

    #[test]
    fn unreachable_brokers_are_transient_and_usage_errors_are_not() {
        let refused = KafkaError::Connect {
            addr: "a:1".into(),
            detail: "refused".into(),
        };
        assert!(transient(&refused));
        assert!(transient(&KafkaError::broker(16, None, "x")));
        assert!(!transient(&KafkaError::broker(69, None, "x")));
        assert!(!transient(&KafkaError::Config("bad".into())));
        let not_found = KafkaError::Broker {
            code: ErrorCode::GroupIdNotFound,
            message: None,
            context: "g".into(),
        };
        assert!(!transient(&not_found));
    }

    #[test]
    fn the_wait_doubles_up_to_a_second() {
        let ms: Vec<u128> = (0..7).map(|a| backoff_wait(a).as_millis()).collect();
        assert_eq!(ms, vec![100, 200, 400, 800, 1000, 1000, 1000]);
    }
}
