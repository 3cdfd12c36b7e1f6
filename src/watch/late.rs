//! A late sample: when the watch looks at what the describe in flight waits for, and what the
//! sample records of it. A sample is due one interval after the previous one came (the first
//! when the watch starts) and late once it has not come one interval after that; the wait is
//! told then, and again every interval (at least a second apart) while it lasts. Pure: the
//! caller passes the times and the wait it read.

use std::time::{Duration, Instant};

use super::sample::Waited;
use model::wait::Wait;

/// The shortest time between two tellings of one wait: a short interval must not flood.
const AT_MOST_EVERY: Duration = Duration::from_secs(1);

/// The sample in flight: when it is late, and what was told of its wait.
#[derive(Debug)]
pub struct Late {
    every: Duration,
    /// When the wait is next told.
    next_look: Instant,
    /// The wait last told since the previous sample.
    told: Option<Wait>,
}

impl Late {
    /// A watch sampling every `every`, started at `start`.
    pub fn new(every: Duration, start: Instant) -> Self {
        Late {
            every,
            next_look: start + every,
            told: None,
        }
    }

    /// When to look next at what the sample waits for.
    pub fn next_look(&self) -> Instant {
        self.next_look
    }

    /// At `now` the sample has not come, and the describe waits for `current` (if anything):
    /// the wait to tell, when it is time to tell it.
    pub fn look(&mut self, now: Instant, current: Option<Wait>) -> Option<Wait> {
        if now < self.next_look {
            return None;
        }
        self.next_look = now + self.every.max(AT_MOST_EVERY);
        let wait = current?;
        self.told = Some(wait.clone());
        Some(wait)
    }

    /// The sample came at `now`, stamped `at_ms`: what it waited for, if it was late.
    pub fn arrived(&mut self, now: Instant, at_ms: i64) -> Option<Waited> {
        self.next_look = now + 2 * self.every;
        self.told.take().map(|w| Waited::until(w, at_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::wait::Awaited;

    fn wait(since_ms: i64) -> Wait {
        Wait::new(
            since_ms,
            Awaited::Coordinator {
                groups: vec!["demo".into()],
            },
        )
    }

    #[test]
    fn a_sample_on_time_tells_nothing_and_records_no_wait() {
        let t0 = Instant::now();
        let every = Duration::from_millis(500);
        let mut late = Late::new(every, t0);
        assert_eq!(late.look(t0 + every / 2, Some(wait(0))), None);
        assert_eq!(late.arrived(t0 + every / 2, 250), None);
        assert_eq!(late.next_look(), t0 + every / 2 + 2 * every);
    }

    #[test]
    fn a_late_sample_tells_its_wait_at_most_once_a_second_and_records_the_last() {
        let t0 = Instant::now();
        let every = Duration::from_millis(500);
        let mut late = Late::new(every, t0);
        late.arrived(t0, 0);
        let first = t0 + 2 * every;
        assert_eq!(late.next_look(), first);
        assert_eq!(late.look(first, Some(wait(600))), Some(wait(600)));
        // Half a second later is the next interval, but not yet a second after the last line.
        assert_eq!(late.look(first + every, Some(wait(600))), None);
        let mut retried = wait(600);
        retried.retries = 3;
        let again = first + Duration::from_secs(1);
        assert_eq!(
            late.look(again, Some(retried.clone())),
            Some(retried.clone())
        );
        let waited = late.arrived(again, 3100).expect("it was late");
        assert_eq!((waited.wait, waited.waited_ms), (retried, 2500));
        assert_eq!(late.arrived(again, 3600), None, "the next one was not late");
    }

    #[test]
    fn nothing_awaited_between_steps_is_not_told() {
        let t0 = Instant::now();
        let every = Duration::from_secs(2);
        let mut late = Late::new(every, t0);
        assert_eq!(late.look(t0 + every, None), None);
        assert_eq!(late.next_look(), t0 + 2 * every);
        assert_eq!(late.arrived(t0 + 3 * every, 6000), None);
    }
}
