//! A note on a terminal while a reading waits on the cluster for over a second: what it waits
//! for and since when (the watch's `waiting since ...` line), cleared when the answer is in.
//! Off a terminal nothing is shown: scripts read stdout and the exit code.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kafka::waits::Waits;
use streams_group::render::watch::waiting_line;

use super::now_ms;

/// A wait is shown once it is this old.
const SHOW_AFTER_MS: i64 = 1_000;
/// How often the note is brought up to date.
const TICK: Duration = Duration::from_millis(200);

/// Run `read`, told the waits to report to; on a terminal, a spinner says what it waits for
/// once a wait passes a second.
pub fn telling<T>(read: impl FnOnce(Waits) -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return read(Waits::default());
    }
    let waits = Waits::shared();
    let done = Arc::new(AtomicBool::new(false));
    let shown = {
        let (waits, done) = (waits.clone(), Arc::clone(&done));
        std::thread::spawn(move || show_while(&waits, &done))
    };
    let result = read(waits);
    done.store(true, Ordering::Relaxed);
    let _ = shown.join();
    result
}

/// Until `done`: the current wait, once it is old enough, on a spinner line.
fn show_while(waits: &Waits, done: &AtomicBool) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !done.load(Ordering::Relaxed) {
        let now = now_ms();
        match waits.current() {
            Some(w) if now - w.since_ms >= SHOW_AFTER_MS => {
                let b = bar.get_or_insert_with(|| {
                    let b = indicatif::ProgressBar::new_spinner();
                    b.enable_steady_tick(Duration::from_millis(120));
                    b
                });
                b.set_message(waiting_line(&w, now));
            }
            _ => {}
        }
        std::thread::sleep(TICK);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
