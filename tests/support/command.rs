//! Running the `streams-group` binary, the one way every test does it (modelled on jj's
//! `CommandOutput` and ripgrep's `TestCommand`). [`StreamsGroup`] builds a run: arguments,
//! standard input, environment, working directory, where stdout and stderr go, a hang guard.
//! [`StreamsGroup::run`] returns a [`CommandOutput`]: stdout, stderr and the exit status, with the
//! command line, printed whole (the golden files' format) when an assertion fails.
//! [`StreamsGroup::spawn`] starts a run that goes on (`describe --watch`) as a [`Running`], ended
//! by [`Running::interrupt`] (Ctrl-C) or [`Running::wait`], and killed if dropped still running.
//!
//! ```ignore
//! use crate::support::{streams_group, StreamsGroup};
//! let out = streams_group(&["simulate", "--members", "2"]);      // the common case
//! assert_eq!(out.code(), 0, "{out}");
//! let report = StreamsGroup::new(["topology", "-", "-o", "json"])
//!     .stdin(text)
//!     .env("NO_COLOR", "1")
//!     .run()
//!     .success()                                                  // exit 0, or fail showing all
//!     .json();
//! let watch = StreamsGroup::new(["describe", "--watch", "1", ...]).spawn();
//! let out = watch.interrupt();                                    // SIGINT, then its output
//! ```
//!
//! Every run starts from the test's environment without the variables that would change what
//! the binary prints ([`UNSET`]); a test that wants one sets it. Standard input is empty unless
//! given; stdout and stderr are captured unless sent elsewhere.

use std::ffi::OsStr;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Variables removed from every run's environment: a bootstrap server from the developer's
/// shell, and the colour switches (`NO_COLOR`, and clap's `CLICOLOR`, `CLICOLOR_FORCE`).
pub const UNSET: [&str; 4] = [
    "STREAMS_GROUP_BOOTSTRAP_SERVER",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
];

/// How long [`Running::interrupt`] waits for a run without a guard of its own to end after
/// SIGINT: a hang guard, far above the moment a watch takes to stop.
const INTERRUPT_GUARD: Duration = Duration::from_secs(60);

/// Path of the `streams-group` binary built for this test binary (for a script or a terminal
/// that runs it: `tests/cli/ci_example.rs`, tmux in `tests/e2e/watch.rs`).
pub fn streams_group_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_streams-group"))
}

/// `streams-group ARGS` with nothing on stdin: its output.
pub fn streams_group(args: &[&str]) -> CommandOutput {
    StreamsGroup::new(args).run()
}

/// `streams-group ARGS` under a hang guard: killed if still running after `guard`, and the test
/// fails with "the command hung". A watchdog, not a speed check (tests never assert wall-clock
/// times): make `guard` generous, so that only a hang reaches it.
pub fn streams_group_guarded(args: &[&str], guard: Duration) -> CommandOutput {
    StreamsGroup::new(args).guard(guard).run()
}

/// One run of the binary, built up like a [`Command`].
pub struct StreamsGroup {
    cmd: Command,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    stdout: Option<Stdio>,
    stderr: Option<Stdio>,
    guard: Option<Duration>,
}

impl StreamsGroup {
    /// `streams-group ARGS`.
    pub fn new<I, S>(args: I) -> StreamsGroup
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(streams_group_bin());
        for var in UNSET {
            cmd.env_remove(var);
        }
        StreamsGroup {
            cmd,
            args: Vec::new(),
            stdin: None,
            stdout: None,
            stderr: None,
            guard: None,
        }
        .args(args)
    }

    /// More arguments.
    pub fn args<I, S>(mut self, args: I) -> StreamsGroup
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for a in args {
            let a = a.as_ref();
            self.args.push(a.to_string_lossy().into_owned());
            self.cmd.arg(a);
        }
        self
    }

    /// Set an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> StreamsGroup {
        self.cmd.env(key, value);
        self
    }

    /// Remove an environment variable.
    pub fn env_remove(mut self, key: &str) -> StreamsGroup {
        self.cmd.env_remove(key);
        self
    }

    /// Run in `dir` (relative paths in the arguments are read from there).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> StreamsGroup {
        self.cmd.current_dir(dir);
        self
    }

    /// Feed `bytes` to standard input (written by a thread of its own; a binary that stops
    /// reading early is no error).
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> StreamsGroup {
        self.stdin = Some(bytes.into());
        self
    }

    /// Send stdout elsewhere (a file, `/dev/full`, `Stdio::null()`, a pipe of the test's own):
    /// [`CommandOutput::stdout`] is then empty.
    pub fn stdout(mut self, to: impl Into<Stdio>) -> StreamsGroup {
        self.stdout = Some(to.into());
        self
    }

    /// Send stderr elsewhere: [`CommandOutput::stderr`] is then empty.
    pub fn stderr(mut self, to: impl Into<Stdio>) -> StreamsGroup {
        self.stderr = Some(to.into());
        self
    }

    /// A hang guard: once waited for ([`StreamsGroup::run`], [`Running::wait`]), the binary is
    /// killed if still running after `guard` and the test fails with "the command hung".
    pub fn guard(mut self, guard: Duration) -> StreamsGroup {
        self.guard = Some(guard);
        self
    }

    /// Run to the end: stdout, stderr and the exit status.
    pub fn run(self) -> CommandOutput {
        self.spawn().wait()
    }

    /// Start the binary and return at once; stdout and stderr are read as it writes them.
    pub fn spawn(mut self) -> Running {
        let command = command_line(&self.args);
        let stdin = match self.stdin {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        };
        let mut child = self
            .cmd
            .stdin(stdin)
            .stdout(self.stdout.take().unwrap_or_else(Stdio::piped))
            .stderr(self.stderr.take().unwrap_or_else(Stdio::piped))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run `{command}`: {e}"));
        let writer = match (self.stdin, child.stdin.take()) {
            (Some(bytes), Some(mut pipe)) => {
                Some(std::thread::spawn(move || match pipe.write_all(&bytes) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
                    _ => Ok(()),
                }))
            }
            _ => None,
        };
        Running {
            stdout: child.stdout.take().map(drain),
            stderr: child.stderr.take().map(drain),
            child,
            command,
            writer,
            guard: self.guard,
        }
    }
}

/// `streams-group ARGS...`, as a failure message and the golden files show it.
fn command_line(args: &[String]) -> String {
    let mut line = String::from("streams-group");
    for a in args {
        line.push(' ');
        line.push_str(a);
    }
    line
}

/// What a pipe has delivered so far, read by a thread of its own until the end.
struct Drained {
    bytes: Arc<Mutex<Vec<u8>>>,
    reader: JoinHandle<()>,
}

fn drain<R: Read + Send + 'static>(mut r: R) -> Drained {
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let into = bytes.clone();
    let reader = std::thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match r.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => into.lock().unwrap().extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    });
    Drained { bytes, reader }
}

impl Drained {
    /// Everything, once the pipe is closed.
    fn all(self) -> Vec<u8> {
        self.reader.join().expect("output reader");
        std::mem::take(&mut *self.bytes.lock().unwrap())
    }
}

/// A started run of the binary ([`StreamsGroup::spawn`]). Dropped while still running (a test
/// failing before it stopped it), it is killed.
pub struct Running {
    child: Child,
    command: String,
    stdout: Option<Drained>,
    stderr: Option<Drained>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
    guard: Option<Duration>,
}

impl Running {
    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The complete lines of stdout written so far (a watch's change lines or JSON samples, read
    /// while it runs); empty when stdout is sent elsewhere.
    pub fn stdout_lines(&self) -> Vec<String> {
        let Some(out) = &self.stdout else {
            return Vec::new();
        };
        let bytes = out.bytes.lock().unwrap();
        let complete = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        String::from_utf8_lossy(&bytes[..complete])
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Whether the binary is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ctrl-C as a terminal sends it (SIGINT), then wait for the end (under the run's guard, or
    /// a 60 s hang guard) and return the output. A run that already ended is only waited for.
    pub fn interrupt(mut self) -> CommandOutput {
        if self.is_running() {
            super::process::signal(self.id(), "-INT");
        }
        self.guard.get_or_insert(INTERRUPT_GUARD);
        self.wait()
    }

    /// Wait for the end (under the guard, if the run has one) and return the output.
    pub fn wait(mut self) -> CommandOutput {
        let started = Instant::now();
        let status = loop {
            let Some(guard) = self.guard else {
                break self.child.wait().expect("wait for the binary");
            };
            if let Some(status) = self.child.try_wait().expect("wait for the binary") {
                break status;
            }
            if started.elapsed() > guard {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "the command hung: `{}` was still running after {guard:?} and was killed",
                    self.command
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        if let Some(w) = self.writer.take() {
            let written = w.join().expect("stdin writer");
            written.unwrap_or_else(|e| panic!("`{}`: writing stdin: {e}", self.command));
        }
        let text = |pipe: Option<Drained>, what: &str| {
            let bytes = pipe.map_or_else(Vec::new, Drained::all);
            String::from_utf8(bytes).unwrap_or_else(|e| {
                panic!("`{}` wrote {what} that is not UTF-8: {e}", self.command)
            })
        };
        CommandOutput {
            stdout: text(self.stdout.take(), "stdout"),
            stderr: text(self.stderr.take(), "stderr"),
            command: std::mem::take(&mut self.command),
            status,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.is_running() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct CommandOutput {
    /// `streams-group ARGS...`.
    pub command: String,
    pub status: ExitStatus,
    /// Standard output (UTF-8: the binary never writes anything else; empty when sent elsewhere).
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl CommandOutput {
    /// The exit status, -1 when a signal ended the binary.
    pub fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }

    /// Exit 0, else the test fails showing the whole run.
    #[track_caller]
    pub fn success(self) -> CommandOutput {
        self.assert_code(0)
    }

    /// Exit `code`, else the test fails showing the whole run.
    #[track_caller]
    pub fn assert_code(self, code: i32) -> CommandOutput {
        assert_eq!(self.code(), code, "{self}");
        self
    }

    /// Stdout as JSON; the test fails showing the whole run if it is not.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{self}"))
    }
}

/// The run as a golden file holds it: the command line, the exit status, stdout and stderr.
impl fmt::Display for CommandOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self
            .status
            .code()
            .map_or("signal".to_string(), |c| c.to_string());
        write!(
            f,
            "$ {}\n[exit status: {code}]\n----- stdout -----\n{}----- stderr -----\n{}",
            self.command, self.stdout, self.stderr
        )
    }
}
