//! Waiting and watching: [`wait_for`] polls a condition under a hang guard, [`signal`] sends a
//! process a signal, [`peak_rss_kib`] reads a live process's peak memory.

use std::process::Command;
use std::time::{Duration, Instant};

/// Poll `f` every 250 ms until it returns `Some`, or panic with `what` after `timeout` (a hang
/// guard: make it generous, the condition is what the test waits for).
pub fn wait_for<T>(what: &str, timeout: Duration, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        if start.elapsed() > timeout {
            panic!("timed out after {timeout:?} waiting for {what}");
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// `kill SIG PID` (e.g. `-INT`, `-STOP`); the test fails if it cannot be sent.
pub fn signal(pid: u32, sig: &str) {
    let sent = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(sent, "kill {sig} {pid} failed");
}

/// Peak resident set size (VmHWM) of a live process in KiB, from /proc (Linux only).
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}
