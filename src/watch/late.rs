//! A late sample: when the watch looks at what the describe in flight waits for, and whether
//! the sample keeps what held it up. A sample is due one interval after the previous one came
//! (the first when the watch starts) and late once it has not come one interval after that;
//! the wait is told then, and again every interval (at least a second apart) while it lasts.
//! Pure: the caller passes the times and the waits it read.

use std::time::{Duration, Instant};

use super::sample::Waited;
use model::wait::Wait;

/// The shortest time between two tellings of a wait: a short interval must not flood.
const AT_MOST_EVERY: Duration = Duration::from_secs(1);

/// The sample in flight: when it is late, and whether its wait was told.
#[derive(Debug)]
pub struct Late {
    every: Duration,
    /// When the wait is next told.
    next_look: Instant,
    /// A wait was told since the previous sample: this one is late.
    told: bool,
}

impl Late {
    /// A watch sampling every `every`, started at `start`.
    pub fn new(every: Duration, start: Instant) -> Self {
        Late {
            every,
            next_look: start + every,
            told: false,
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
        self.told = true;
        Some(wait)
    }

    /// The sample came at `now`; `longest` is the longest wait of its describe. Kept when the
    /// sample was late (its wait was told), as what held it up most.
    pub fn arrived(&mut self, now: Instant, longest: Option<Waited>) -> Option<Waited> {
        self.next_look = now + 2 * self.every;
        std::mem::take(&mut self.told).then_some(longest).flatten()
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
    fn a_sample_on_time_tells_nothing_and_keeps_no_wait() {
        let t0 = Instant::now();
        let every = Duration::from_millis(500);
        let mut late = Late::new(every, t0);
        assert_eq!(late.look(t0 + every / 2, Some(wait(0))), None);
        let short = Waited::until(wait(100), 150);
        assert_eq!(late.arrived(t0 + every / 2, Some(short)), None);
        assert_eq!(late.next_look(), t0 + every / 2 + 2 * every);
    }

    #[test]
    fn a_late_sample_tells_its_wait_at_most_once_a_second_and_keeps_the_longest() {
        let t0 = Instant::now();
        let every = Duration::from_millis(500);
        let mut late = Late::new(every, t0);
        late.arrived(t0, None);
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
        let longest = Waited::until(retried, 3100);
        assert_eq!(late.arrived(again, Some(longest.clone())), Some(longest));
        let next = Waited::until(wait(3200), 3300);
        assert_eq!(
            late.arrived(again, Some(next)),
            None,
            "the next one was not late"
        );
    }

    #[test]
    fn nothing_awaited_between_steps_is_not_told() {
        let t0 = Instant::now();
        let every = Duration::from_secs(2);
        let mut late = Late::new(every, t0);
        assert_eq!(late.look(t0 + every, None), None);
        assert_eq!(late.next_look(), t0 + 2 * every);
        assert_eq!(
            late.arrived(t0 + 3 * every, Some(Waited::until(wait(0), 10))),
            None
        );
    }
}
