//! What a session is waiting for, told to whoever holds the other end (`describe --watch`, which
//! says what a late sample waits for instead of going silent while retries absorb a move).
//!
//! The session marks each step it takes with what the step awaits (`Waits::begin`); a step
//! inside one that awaits the same thing (FindCoordinator inside a describe that is retried
//! as the coordinator moves) is the same wait, so its start stays when the wait began. Which
//! broker is asked and each retry are added as they happen.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use model::group::CoordinatorNode;
use model::wait::{Awaited, Wait};

/// The shared cell, or nothing when nobody listens (every command but a watch): then telling
/// costs nothing.
#[derive(Clone, Debug, Default)]
pub struct Waits(Option<Arc<Mutex<Cell>>>);

#[derive(Debug, Default)]
struct Cell {
    current: Option<Wait>,
    /// The longest wait that ended since [`Waits::take_longest`], and when it ended.
    longest: Option<(Wait, i64)>,
}

/// Whose answer a request awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Asked {
    /// A group's coordinator.
    Coordinator,
    /// Any broker, or a partition's leader.
    Broker,
}

impl Waits {
    /// A cell that [`Waits::current`] reads from another thread.
    pub fn shared() -> Self {
        Waits(Some(Arc::new(Mutex::new(Cell::default()))))
    }

    /// What the session waits for now (nothing between steps, or when not shared).
    pub fn current(&self) -> Option<Wait> {
        self.cell()?.current.clone()
    }

    /// The longest wait that ended since the last call, and when it ended (milliseconds since
    /// the Unix epoch): what held a late answer up most.
    pub fn take_longest(&self) -> Option<(Wait, i64)> {
        self.cell()?.longest.take()
    }

    /// A step that awaits `awaited` until the returned guard is dropped; then the wait it
    /// interrupted (if any) is current again.
    pub(crate) fn begin(&self, awaited: Awaited) -> Step {
        let mut step = Step {
            waits: self.clone(),
            restore: None,
        };
        if let Some(mut cell) = self.cell() {
            if cell.current.as_ref().is_some_and(|w| w.awaited == awaited) {
                return step;
            }
            step.restore = Some(cell.current.replace(Wait::new(now_ms(), awaited)));
        }
        step
    }

    /// `node` is asked, as `asked`: the broker of the current wait when that is what it awaits
    /// (FindCoordinator asked of any broker is no answer of the coordinator).
    pub(crate) fn asking(&self, node: CoordinatorNode, asked: Asked) {
        let Some(mut cell) = self.cell() else { return };
        let Some(wait) = cell.current.as_mut() else {
            return;
        };
        let fits = match wait.awaited {
            Awaited::Coordinator { .. } => asked == Asked::Coordinator,
            Awaited::Broker => asked == Asked::Broker,
            Awaited::Bootstrap { .. } => false,
        };
        if fits {
            if !wait.brokers.contains(&node) {
                wait.brokers.push(node.clone());
            }
            wait.broker = Some(node);
        }
    }

    /// A request of the current wait is retried, because of `why`.
    pub(crate) fn retried(&self, why: &str) {
        if let Some(wait) = self.cell().as_mut().and_then(|c| c.current.as_mut()) {
            wait.retries += 1;
            wait.last_retry = Some(why.to_string());
        }
    }

    fn cell(&self) -> Option<MutexGuard<'_, Cell>> {
        // A panic elsewhere while holding the lock leaves a value that is still whole.
        let cell = self.0.as_ref()?;
        Some(cell.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// A step of a session; dropping it ends its wait.
#[must_use]
pub(crate) struct Step {
    waits: Waits,
    /// The wait to go back to; `None` when this step began no wait of its own.
    restore: Option<Option<Wait>>,
}

impl Drop for Step {
    fn drop(&mut self) {
        let (Some(previous), Some(mut cell)) = (self.restore.take(), self.waits.cell()) else {
            return;
        };
        let ended = std::mem::replace(&mut cell.current, previous);
        let now = now_ms();
        let lasted = |(w, end): &(Wait, i64)| end - w.since_ms;
        if let Some(ended) = ended.map(|w| (w, now)) {
            if cell
                .longest
                .as_ref()
                .is_none_or(|l| lasted(&ended) > lasted(l))
            {
                cell.longest = Some(ended);
            }
        }
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coordinator(groups: &[&str]) -> Awaited {
        Awaited::Coordinator {
            groups: groups.iter().map(|g| g.to_string()).collect(),
        }
    }

    fn node(id: i32) -> CoordinatorNode {
        CoordinatorNode {
            id,
            host: "localhost".into(),
            port: 9091 + id,
        }
    }

    #[test]
    fn a_step_inside_one_awaiting_the_same_keeps_its_start_and_retries() {
        let waits = Waits::shared();
        let outer = waits.begin(coordinator(&["a"]));
        let since = waits.current().unwrap().since_ms;
        waits.retried("coordinator 2: refused");
        {
            let _inner = waits.begin(coordinator(&["a"]));
            waits.asking(node(1), Asked::Broker);
            waits.asking(node(2), Asked::Coordinator);
            waits.retried("again");
        }
        let w = waits.current().unwrap();
        assert_eq!((w.since_ms, w.retries), (since, 2));
        assert_eq!(
            w.broker,
            Some(node(2)),
            "FindCoordinator's broker is not the coordinator"
        );
        assert_eq!(w.brokers, vec![node(2)]);
        assert_eq!(w.last_retry.as_deref(), Some("again"));
        drop(outer);
        assert_eq!(waits.current(), None);
        let (longest, ended) = waits.take_longest().expect("the wait ended");
        assert_eq!((longest.since_ms, longest.retries), (since, 2));
        assert!(ended >= since);
        assert_eq!(waits.take_longest(), None, "taken");
    }

    #[test]
    fn a_step_awaiting_something_else_ends_back_at_the_wait_it_interrupted() {
        let waits = Waits::shared();
        let _outer = waits.begin(coordinator(&["a", "b"]));
        {
            let _inner = waits.begin(Awaited::Broker);
            waits.asking(node(3), Asked::Broker);
            assert_eq!(waits.current().unwrap().awaited, Awaited::Broker);
        }
        let w = waits.current().unwrap();
        assert_eq!((w.awaited, w.broker), (coordinator(&["a", "b"]), None));
    }

    #[test]
    fn nobody_listening_tells_nothing() {
        let waits = Waits::default();
        let _step = waits.begin(Awaited::Broker);
        waits.retried("x");
        assert_eq!(waits.current(), None);
    }
}
