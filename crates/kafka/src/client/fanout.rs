//! One request to each of several brokers at once: each coordinator or partition leader on its
//! own connection, all of them within the session's deadline. A broker that does not answer (a
//! stopped process still accepts connections) costs the others nothing, and the session learns
//! which brokers answered in the time it had.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use tokio::task::JoinSet;

use super::{Asked, Cluster};
use crate::conn::Connection;
use crate::error::{KafkaError, KafkaResult};

/// What one broker's job hands back: its connection, when it is still usable, and its answer.
pub(crate) type Answer<T> = (Option<Connection>, KafkaResult<T>);

impl Cluster {
    /// Run `job(node, connection, work)` for each node of `work` (a node and what to ask it)
    /// at once, opening the connections not open yet, each bounded by `budget` (at most what is
    /// left of the session): the answer of every node, by node id. A connection comes back to
    /// the session unless its job failed or ran out of time; a node the metadata does not know
    /// answers with an error.
    pub(crate) async fn fan_out<W, T, J, F>(
        &mut self,
        work: impl IntoIterator<Item = (i32, W)>,
        budget: Duration,
        asked: Asked,
        job: J,
    ) -> BTreeMap<i32, KafkaResult<T>>
    where
        W: Send + 'static,
        T: Send + 'static,
        J: Fn(i32, Connection, W) -> F + Clone + Send + 'static,
        F: Future<Output = Answer<T>> + Send + 'static,
    {
        let budget = budget.min(self.remaining());
        let mut out = BTreeMap::new();
        let mut running = JoinSet::new();
        for (node, w) in work {
            self.asking(node, asked);
            let Some(addr) = self.brokers.get(&node).map(|b| b.addr()) else {
                out.insert(node, Err(not_in_metadata(node)));
                continue;
            };
            // A SASL session about to end gets a new connection, with a new token.
            let open = self.conns.remove(&node).filter(|c| !c.session_ending());
            let cfg = self.cfg.clone();
            let job = job.clone();
            let named = addr.clone();
            running.spawn(async move {
                let attempt = async move {
                    let conn = match open {
                        Some(c) => c,
                        None => match Connection::open(&addr, &cfg).await {
                            Ok(c) => c,
                            Err(e) => return (None, Err(e)),
                        },
                    };
                    job(node, conn, w).await
                };
                let answer = match tokio::time::timeout(budget, attempt).await {
                    Ok(answer) => answer,
                    Err(_) => {
                        crate::trace::line(|| {
                            format!(
                                "{named} (node {node}): no answer within {} ms, given up",
                                budget.as_millis()
                            )
                        });
                        (
                            None,
                            Err(KafkaError::Timeout {
                                addr: named,
                                what: format!("an answer within {} ms", budget.as_millis()),
                            }),
                        )
                    }
                };
                (node, answer)
            });
        }
        while let Some(done) = running.join_next().await {
            let (node, (conn, answer)) = match done {
                Ok(d) => d,
                // A job that panicked is a bug in this crate; its node's answer is lost with it.
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            };
            match (&answer, conn) {
                (Ok(_), Some(c)) => {
                    self.conns.insert(node, c);
                }
                _ => self.forget(node),
            }
            out.insert(node, answer);
        }
        out
    }
}

fn not_in_metadata(node: i32) -> KafkaError {
    KafkaError::Protocol {
        addr: format!("node {node}"),
        detail: "broker not in the cluster metadata".into(),
    }
}
