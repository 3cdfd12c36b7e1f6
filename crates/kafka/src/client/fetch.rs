//! Fetch: one partition's record batches from its leader, the leader found again when it moves.

use std::collections::BTreeSet;

use super::retry::{retriable_partition_code, transient};
use super::Cluster;
use crate::codec::fetch::{
    self, FetchRequest, FetchedPartition, API_FETCH, VERSION as FETCH_VERSION,
};
use crate::error::{KafkaError, KafkaResult, HINT_OLD_BROKER};

impl Cluster {
    /// Fetch v11 of one partition from its `leader`, read committed, from `offset`: at most
    /// `max_bytes` of record batches (always at least one whole batch), waiting at most
    /// `max_wait_ms` for data.
    pub async fn fetch(
        &mut self,
        leader: i32,
        request: &FetchRequest,
    ) -> KafkaResult<FetchedPartition> {
        let body = request.encode().map_err(|e| KafkaError::Config(e.0))?;
        let conn = self.conn(leader).await?;
        if conn.version_for(API_FETCH).is_none() {
            return Err(KafkaError::Unsupported {
                detail: format!("broker {} does not offer Fetch v{FETCH_VERSION}", conn.addr),
                hint: HINT_OLD_BROKER.into(),
            });
        }
        let bytes = conn
            .roundtrip_raw(API_FETCH, FETCH_VERSION, &body, false, false)
            .await?;
        let addr = conn.addr.clone();
        let decoded =
            fetch::decode_response(&bytes, &request.topic, request.partition).map_err(|e| {
                KafkaError::Protocol {
                    addr: addr.clone(),
                    detail: format!("Fetch v{FETCH_VERSION}: {e}"),
                }
            })?;
        decoded.ok_or_else(|| KafkaError::Protocol {
            addr,
            detail: format!(
                "Fetch v{FETCH_VERSION} answered without partition {}-{}",
                request.topic, request.partition
            ),
        })
    }

    /// Fetch like [`Cluster::fetch`] from the partition's leader, `leader` first: when it
    /// cannot be reached or answers that it is not (or no longer, or not yet) the leader, the
    /// leader the metadata then names is asked, until the deadline. The leader that answered,
    /// and its answer (any other partition error stays in it for the caller).
    pub async fn fetch_from_leader(
        &mut self,
        leader: i32,
        request: &FetchRequest,
    ) -> KafkaResult<(i32, FetchedPartition)> {
        let topics = BTreeSet::from([request.topic.clone()]);
        let mut node = leader;
        let mut attempt = 0;
        loop {
            let why = match self.fetch(node, request).await {
                Ok(f) if !retriable_partition_code(f.error_code) => return Ok((node, f)),
                Ok(f) => KafkaError::broker(f.error_code, None, format!("Fetch at broker {node}")),
                Err(e) if transient(&e) => e,
                Err(e) => return Err(e),
            };
            self.note(format!(
                "{}-{}: {why}; asking its leader again",
                request.topic, request.partition
            ));
            self.forget(node);
            if !self.backoff(attempt).await {
                return Err(why);
            }
            attempt += 1;
            let leaders = self.leaders(&topics).await?;
            let found = leaders
                .get(&request.topic)
                .and_then(|ps| ps.get(&request.partition));
            node = found.copied().filter(|l| *l >= 0).unwrap_or(node);
        }
    }
}
