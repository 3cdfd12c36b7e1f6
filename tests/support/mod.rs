//! Test support shared by the six integration test binaries (docs/dev/testing.md), each of which
//! includes it once: `#[path = "../support/mod.rs"] mod support;` in `tests/NAME/main.rs`. Not
//! every binary uses every item, hence `allow(dead_code)`.
//!
//! This file: end-to-end tests against a real Kafka broker. It drives the bash script
//! `tests/kafka/harness`, which starts a single-node KRaft broker on loopback and real Kafka
//! Streams apps (group.protocol=streams) from Maven Central jars. Java 17+ and Maven are
//! required: without them the harness fails loudly (tests panic with the reason), it never skips.
//!
//! ```ignore
//! use crate::support;
//! let broker = support::Broker::start();
//! let mut app = broker.app("my-app", 2, 2);        // returns once the group is Stable
//! let out = broker.tool(&["--describe", "--group", "my-app", "--members"]);
//! app.stop_instance(0);
//! ```
//!
//! Every broker gets a fresh run directory under `CARGO_TARGET_TMPDIR`; dropping the `Broker`
//! stops everything and removes it (kept, with logs, when the test is panicking). A watchdog
//! stops the broker if the test process dies without dropping it. At most
//! `STREAMS_GROUP_MAX_BROKERS` (default 2) brokers run at once per test binary; further
//! `start` calls wait for a slot.
#![allow(dead_code)]

pub mod cli_cases;
pub mod gmm_oracle;
pub mod golden;
pub mod json_schema;
pub mod samples;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Kafka version used when `STREAMS_GROUP_KAFKA_VERSION` is not set.
pub const DEFAULT_KAFKA_VERSION: &str = "4.3.1";

/// The Kafka version the harness runs (env `STREAMS_GROUP_KAFKA_VERSION`, else 4.3.1).
pub fn kafka_version() -> String {
    std::env::var("STREAMS_GROUP_KAFKA_VERSION")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_KAFKA_VERSION.to_string())
}

/// Path of the `streams-group` binary built for this integration test.
pub fn streams_group_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_streams-group"))
}

/// Run our binary with `args` (no stdin) and return its output.
pub fn streams_group(args: &[&str]) -> Output {
    run_bin(&streams_group_bin(), args)
}

/// Run our binary with `args` (no stdin) under a hang guard: it is killed if still running
/// after `guard`, and the test fails with "the command hung". A watchdog, not a speed check
/// (tests never assert wall-clock times): make `guard` generous, so only a hang reaches it.
pub fn streams_group_guarded(args: &[&str], guard: Duration) -> Output {
    fn drain<R: std::io::Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    }
    let mut child = Command::new(streams_group_bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            break status;
        }
        if started.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the command hung: `streams-group {}` was still running after {guard:?} and was \
                 killed",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Run any binary with `args` (no stdin) and return its output; panics if it cannot start.
pub fn run_bin(bin: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()))
}

/// stdout of an `Output` as a String (lossy).
pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// stderr of an `Output` as a String (lossy).
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Peak resident set size (VmHWM) of a live process in KiB, from /proc (Linux only).
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Poll `f` every 250 ms until it returns `Some`, or panic with `what` after `timeout`.
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

// ------------------------------------------------------------------------------ broker slots

static SLOTS: Mutex<u32> = Mutex::new(0);
static SLOT_FREED: Condvar = Condvar::new();
static RUN_COUNTER: AtomicU32 = AtomicU32::new(0);

fn max_brokers() -> u32 {
    std::env::var("STREAMS_GROUP_MAX_BROKERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(2)
}

fn acquire_slot() {
    let max = max_brokers();
    let mut used = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    while *used >= max {
        used = SLOT_FREED.wait(used).unwrap_or_else(|e| e.into_inner());
    }
    *used += 1;
}

fn release_slot() {
    let mut used = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    *used = used.saturating_sub(1);
    SLOT_FREED.notify_one();
}

fn harness_cmd(dir: &Path) -> Command {
    let mut c = Command::new("bash");
    c.arg(Broker::harness_script()).arg("--dir").arg(dir);
    c.stdin(Stdio::null());
    c
}

fn run_checked(mut cmd: Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run the harness (bash missing?): {e}"));
    if !out.status.success() {
        panic!(
            "{what} failed ({}):\n{}{}",
            out.status,
            stdout_of(&out),
            stderr_of(&out)
        );
    }
    out
}

// ------------------------------------------------------------------------------------ Broker

/// A real single-node Kafka broker (KRaft, combined broker+controller) on 127.0.0.1.
pub struct Broker {
    /// PLAINTEXT listener, `127.0.0.1:PORT`.
    pub bootstrap: String,
    /// SASL_SSL listener (SCRAM-SHA-256/512 and PLAIN, user `alice`/`alice-secret`), when started
    /// with [`Broker::start_sasl_ssl`].
    pub sasl_ssl_bootstrap: Option<String>,
    /// The run directory (server.properties, logs, certificates, client properties).
    pub dir: PathBuf,
    /// Kafka version of the broker.
    pub version: String,
    /// Wall-clock time `start` took (includes building the classpath the first time).
    pub start_time: Duration,
    /// The nodes of a cluster ([`Broker::start_cluster`]): node id -> `127.0.0.1:PORT`
    /// (empty for a single broker).
    pub nodes: BTreeMap<u32, String>,
    stopped: bool,
}

impl Broker {
    /// Start a PLAINTEXT broker; panics with the harness's message when java/mvn are missing or
    /// the broker does not come up.
    pub fn start() -> Broker {
        Self::start_with(false, kafka_version())
    }

    /// Start a PLAINTEXT broker of Kafka `version` (e.g. "4.4.0"), whatever the env says.
    pub fn start_version(version: &str) -> Broker {
        Self::start_with(false, version.to_string())
    }

    /// Start a PLAINTEXT broker of Kafka `version` with extra broker configs (`KEY=VALUE`).
    pub fn start_configured(version: &str, configs: &[&str]) -> Broker {
        Self::start_full(false, version.to_string(), configs)
    }

    /// Start a broker with an extra SASL_SSL listener (see [`Broker::client_properties`]).
    pub fn start_sasl_ssl() -> Broker {
        Self::start_with(true, kafka_version())
    }

    fn start_with(sasl_ssl: bool, version: String) -> Broker {
        Self::start_full(sasl_ssl, version, &[])
    }

    /// Start a KRaft cluster of `brokers` (3 or more) combined broker+controller nodes of Kafka
    /// `version` (ids 1..=brokers, replication factor 3, min.insync.replicas 2); `bootstrap`
    /// lists every node, [`Broker::nodes`] each one's address.
    pub fn start_cluster(version: &str, brokers: u32) -> Broker {
        let n = brokers.to_string();
        Self::start_full(false, version.to_string(), &["--brokers", &n])
    }

    fn start_full(sasl_ssl: bool, version: String, configs: &[&str]) -> Broker {
        let n = RUN_COUNTER.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("kafka-runs")
            .join(format!("{}-{n}-{nanos:x}", std::process::id()));
        acquire_slot();
        let t0 = Instant::now();
        let mut cmd = harness_cmd(&dir);
        cmd.args(["start", "--version", &version, "--owner-pid"])
            .arg(std::process::id().to_string());
        if sasl_ssl {
            cmd.args(["--security", "sasl_ssl"]);
        }
        match configs {
            ["--brokers", n] => {
                cmd.args(["--brokers", n]);
            }
            _ => {
                for c in configs {
                    cmd.args(["--broker-config", c]);
                }
            }
        }
        let out = match cmd.output() {
            Ok(o) => o,
            Err(e) => {
                release_slot();
                panic!("cannot run the Kafka harness (bash missing?): {e}");
            }
        };
        if !out.status.success() {
            release_slot();
            // Leave nothing behind (the harness may have started the JVM before failing).
            let _ = harness_cmd(&dir).args(["stop", "--keep"]).output();
            panic!(
                "could not start a Kafka {version} broker with tests/kafka/harness (needs Java 17+ and Maven; \
                 logs in {}):\n{}",
                dir.display(),
                stderr_of(&out)
            );
        }
        let stdout = stdout_of(&out);
        let value = |key: &str| {
            stdout
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix(key))
                .map(|s| s.trim().to_string())
        };
        let Some(bootstrap) = value("BOOTSTRAP=") else {
            release_slot();
            let _ = harness_cmd(&dir).arg("stop").output();
            panic!("harness start printed no BOOTSTRAP= line:\n{stdout}");
        };
        let sasl_ssl_bootstrap = value("SASL_SSL_BOOTSTRAP=");
        eprint!("{}", stderr_of(&out));
        Broker {
            bootstrap,
            sasl_ssl_bootstrap,
            dir,
            version,
            start_time: t0.elapsed(),
            nodes: node_lines(&stdout),
            stopped: false,
        }
    }

    /// `harness broker-restart --node N`: controlled shutdown of cluster node `n`, start it
    /// again, return once it is back in the ISR of its partitions.
    pub fn restart_node(&self, n: u32) {
        self.node_command("broker-restart", n);
    }

    /// `harness broker-kill --node N`: SIGKILL cluster node `n`.
    pub fn kill_node(&self, n: u32) {
        self.node_command("broker-kill", n);
    }

    /// `harness broker-start --node N`: start node `n` again, return once it is back in the ISR.
    pub fn start_node(&self, n: u32) {
        self.node_command("broker-start", n);
    }

    fn node_command(&self, what: &str, n: u32) {
        let t0 = Instant::now();
        let out = self.harness(&[what, "--node", &n.to_string()]);
        eprint!("{}", stderr_of(&out));
        eprintln!("{what} --node {n}: {:.1} s", t0.elapsed().as_secs_f64());
    }

    /// The harness script (`tests/kafka/harness`).
    pub fn harness_script() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join("kafka")
            .join("harness")
    }

    /// Java client properties for the SASL_SSL listener (SCRAM-SHA-512, user alice, PEM
    /// truststore). Siblings: `client-sasl-ssl-scram-sha-256.properties`,
    /// `client-sasl-ssl-plain.properties`.
    pub fn client_properties(&self) -> PathBuf {
        self.dir.join("client-sasl-ssl.properties")
    }

    /// The test CA certificate (PEM) that signed the broker's certificate (SAN 127.0.0.1, localhost).
    pub fn ca_pem(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// Client certificate and key (PEM, signed by [`Broker::ca_pem`]) for mutual TLS.
    pub fn client_cert_pem(&self) -> (PathBuf, PathBuf) {
        (self.dir.join("client.pem"), self.dir.join("client-key.pem"))
    }

    /// The broker's process id.
    pub fn pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.dir.join("broker.pid"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
    }

    /// Start `instances` Kafka Streams JVMs of application `application_id`, each with `threads`
    /// stream threads, on a fresh input topic (4 partitions, 1000 records); returns when the group
    /// is Stable with instances*threads members.
    pub fn app(&self, application_id: &str, instances: u32, threads: u32) -> App {
        self.app_with(application_id, instances, threads, 4, 1000)
    }

    /// Like [`Broker::app`] with the partition count of the input/output topics and the number
    /// of records produced first. Calling it again with the same id adds instances.
    pub fn app_with(
        &self,
        application_id: &str,
        instances: u32,
        threads: u32,
        partitions: u32,
        records: u32,
    ) -> App {
        self.app_opts(
            application_id,
            &AppOptions {
                instances,
                threads,
                partitions,
                records,
                ..AppOptions::default()
            },
        )
    }

    /// Start instances of the app with every harness option (store, group and Streams configs).
    pub fn app_opts(&self, application_id: &str, o: &AppOptions) -> App {
        let (instances, threads) = (o.instances, o.threads);
        let t0 = Instant::now();
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["app", "--application-id", application_id])
            .args(["--instances", &instances.to_string()])
            .args(["--threads", &threads.to_string()])
            .args(["--partitions", &o.partitions.to_string()])
            .args(["--records", &o.records.to_string()])
            .args(["--store", o.store])
            .args([
                "--standby-batch-delay-ms",
                &o.standby_batch_delay_ms.to_string(),
            ]);
        for kv in &o.group_configs {
            cmd.args(["--group-config", kv]);
        }
        for kv in &o.app_configs {
            cmd.args(["--app-config", kv]);
        }
        let out = run_checked(cmd, &format!("harness app {application_id}"));
        eprint!("{}", stderr_of(&out));
        let mut pids = BTreeMap::new();
        for line in stdout_of(&out).lines() {
            let mut k = None;
            let mut pid = None;
            for field in line.split_whitespace() {
                if let Some(v) = field.strip_prefix("INSTANCE=") {
                    k = v.parse::<u32>().ok();
                } else if let Some(v) = field.strip_prefix("PID=") {
                    pid = v.parse::<u32>().ok();
                }
            }
            if let (Some(k), Some(pid)) = (k, pid) {
                pids.insert(k, pid);
            }
        }
        assert_eq!(
            pids.len(),
            instances as usize,
            "harness app printed {} INSTANCE lines, expected {instances}",
            pids.len()
        );
        App {
            dir: self.dir.clone(),
            application_id: application_id.to_string(),
            input_topic: format!("{application_id}-input"),
            output_topic: format!("{application_id}-output"),
            threads,
            pids,
            paused: Default::default(),
            start_time: t0.elapsed(),
        }
    }

    /// Our binary against this broker (`--bootstrap-server` first), which must exit 0 and
    /// print JSON: the JSON.
    pub fn ours_json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = vec!["--bootstrap-server", self.bootstrap.as_str()];
        all.extend_from_slice(args);
        let out = streams_group(&all);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}{}",
            stdout_of(&out),
            stderr_of(&out)
        );
        serde_json::from_str(&stdout_of(&out)).expect("JSON")
    }

    /// Set group configs (`KEY=VALUE`, e.g. `streams.num.standby.replicas=1`) on `group`
    /// (IncrementalAlterConfigs on the GROUP resource; the group need not exist yet).
    pub fn group_config(&self, group: &str, configs: &[&str]) {
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["group-config", "--group", group]).args(configs);
        run_checked(cmd, &format!("harness group-config {group}"));
    }

    /// The log end offset (the next record's offset) of each partition of `topic`.
    pub fn end_offsets(&self, topic: &str) -> Vec<i64> {
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["end-offsets", "--topic", topic]);
        let out = run_checked(cmd, &format!("harness end-offsets {topic}"));
        let mut v: Vec<(usize, i64)> = stdout_of(&out)
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                match f[..] {
                    ["END-OFFSET", _, p, o] => Some((p.parse().ok()?, o.parse().ok()?)),
                    _ => None,
                }
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, o)| o).collect()
    }

    /// Produce `records` more records (key `k<i>`, value `w<i mod 50>`) to `topic`.
    pub fn produce(&self, topic: &str, records: u32) {
        self.produce_from(topic, records, 0);
    }

    /// Like [`Broker::produce`], numbering the records from `first` (key `k<first>`, ...).
    pub fn produce_from(&self, topic: &str, records: u32, first: u32) {
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["produce", "--topic", topic])
            .args(["--records", &records.to_string()])
            .args(["--offset", &first.to_string()]);
        run_checked(cmd, &format!("harness produce {topic}"));
    }

    /// Wait (bounded by the harness timeout) until `group` is Stable with exactly `members`
    /// members, all at the target assignment epoch. Returns false on timeout.
    pub fn wait_stable(&self, group: &str, members: u32) -> bool {
        harness_cmd(&self.dir)
            .args([
                "wait-stable",
                "--group",
                group,
                "--members",
                &members.to_string(),
            ])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }

    /// Run Apache's `kafka-streams-groups` (StreamsGroupCommand) with `--bootstrap-server`
    /// (the PLAINTEXT listener) added in front of `args`.
    pub fn tool(&self, args: &[&str]) -> Output {
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["tool", "--bootstrap-server", &self.bootstrap])
            .args(args);
        cmd.output()
            .unwrap_or_else(|e| panic!("cannot run harness tool: {e}"))
    }

    /// Run `harness ARGS...` on this broker's run directory; panics with its output if it fails.
    pub fn harness(&self, args: &[&str]) -> Output {
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(args);
        run_checked(cmd, &format!("harness {}", args.join(" ")))
    }

    /// Run Apache's `kafka-streams-groups` with exactly `args` (e.g. to point it at the SASL_SSL
    /// listener with `--command-config`).
    pub fn tool_raw(&self, args: &[&str]) -> Output {
        let mut cmd = harness_cmd(&self.dir);
        cmd.arg("tool").args(args);
        cmd.output()
            .unwrap_or_else(|e| panic!("cannot run harness tool: {e}"))
    }

    /// Run a main class from the harness classpath (e.g. `streamsgroup.AssignorOracle`), with
    /// `stdin` fed to it when given.
    pub fn java(&self, class: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
        java_in(&self.dir, &self.version, class, args, stdin)
    }

    /// Stop the broker (and its apps) now and remove its run directory.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let keep = std::thread::panicking();
        let mut cmd = harness_cmd(&self.dir);
        cmd.arg("stop");
        if keep {
            cmd.arg("--keep");
        }
        let res = cmd.output();
        release_slot();
        match res {
            Ok(o) if o.status.success() => {
                if keep {
                    eprintln!("kafka harness: logs kept in {}", self.dir.display());
                }
            }
            Ok(o) => eprintln!("kafka harness: stop failed: {}", stderr_of(&o)),
            Err(e) => eprintln!("kafka harness: cannot run stop: {e}"),
        }
    }
}

/// `NODE=ID ADDRESS=HOST:PORT ...` lines of `harness start --brokers N`.
fn node_lines(stdout: &str) -> BTreeMap<u32, String> {
    stdout
        .lines()
        .filter_map(|l| {
            let mut id = None;
            let mut addr = None;
            for field in l.split_whitespace() {
                if let Some(v) = field.strip_prefix("NODE=") {
                    id = v.parse().ok();
                } else if let Some(v) = field.strip_prefix("ADDRESS=") {
                    addr = Some(v.to_string());
                }
            }
            Some((id?, addr?))
        })
        .collect()
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Run a main class from the harness classpath without a broker (version from the env).
pub fn java_standalone(class: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kafka-runs-none");
    java_in(&dir, &kafka_version(), class, args, stdin)
}

/// Like `java_standalone`, with the classpath of a given Kafka version.
pub fn java_standalone_with(
    version: &str,
    class: &str,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> Output {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kafka-runs-none");
    java_in(&dir, version, class, args, stdin)
}

fn java_in(dir: &Path, version: &str, class: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = harness_cmd(dir);
    cmd.env("STREAMS_GROUP_KAFKA_VERSION", version)
        .args(["java", class])
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run harness java {class}: {e}"));
    let writer = match (stdin, child.stdin.take()) {
        (Some(bytes), Some(mut pipe)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                // The class may exit without reading everything: ignore broken pipes.
                let _ = pipe.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("harness java {class}: {e}"));
    if let Some(w) = writer {
        let _ = w.join();
    }
    out
}

// --------------------------------------------------------------------------------------- App

/// Options of `harness app` (see tests/kafka/README.md).
#[derive(Clone, Debug)]
pub struct AppOptions {
    pub instances: u32,
    pub threads: u32,
    pub partitions: u32,
    pub records: u32,
    /// `memory` (default) or `rocksdb`.
    pub store: &'static str,
    /// Group configs set before the instances start (`KEY=VALUE`).
    pub group_configs: Vec<String>,
    /// Kafka Streams configs of every instance (`KEY=VALUE`).
    pub app_configs: Vec<String>,
    /// Sleep after each batch a standby loads (0: none).
    pub standby_batch_delay_ms: u32,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            instances: 1,
            threads: 1,
            partitions: 4,
            records: 1000,
            store: "memory",
            group_configs: Vec::new(),
            app_configs: Vec::new(),
            standby_batch_delay_ms: 0,
        }
    }
}

/// Running instances (JVMs) of the harness's Kafka Streams app (streamsgroup.StreamsApp):
/// words -> groupBy(value) (repartition) -> count (in-memory store "counts") -> output.
pub struct App {
    dir: PathBuf,
    /// The application id (= streams group id).
    pub application_id: String,
    /// `<id>-input` (4 partitions by default).
    pub input_topic: String,
    /// `<id>-output`.
    pub output_topic: String,
    /// Stream threads (= group members) per instance.
    pub threads: u32,
    /// Live instances: instance number -> pid.
    pub pids: BTreeMap<u32, u32>,
    /// Instances stopped with SIGSTOP ([`App::pause_instance`]).
    paused: std::collections::BTreeSet<u32>,
    /// Wall-clock time until the group was Stable.
    pub start_time: Duration,
}

impl App {
    /// SIGTERM instance `k` (KafkaStreams#close, so its members leave at once) and wait for exit.
    pub fn stop_instance(&mut self, k: u32) {
        if self.paused.remove(&k) {
            self.signal(k, "-CONT");
        }
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["app-stop", "--application-id", &self.application_id])
            .args(["--instance", &k.to_string()]);
        run_checked(
            cmd,
            &format!("harness app-stop {} {k}", self.application_id),
        );
        self.pids.remove(&k);
    }

    /// Take over the instances `more` started (`Broker::app` again with the same id): they are
    /// stopped with this app, not when `more` is dropped.
    pub fn absorb(&mut self, mut more: App) {
        self.pids.extend(std::mem::take(&mut more.pids));
    }

    /// SIGKILL instance `k` (a crash: its members stay until their sessions time out).
    pub fn kill_instance(&mut self, k: u32) {
        if self.paused.remove(&k) {
            self.signal(k, "-CONT");
        }
        self.signal(k, "-KILL");
        self.pids.remove(&k);
    }

    /// SIGSTOP instance `k`: the JVM freezes (no heartbeats, no processing) until resumed.
    pub fn pause_instance(&mut self, k: u32) {
        self.signal(k, "-STOP");
        self.paused.insert(k);
    }

    /// SIGCONT instance `k` after [`App::pause_instance`].
    pub fn resume_instance(&mut self, k: u32) {
        self.signal(k, "-CONT");
        self.paused.remove(&k);
    }

    fn signal(&self, k: u32, sig: &str) {
        let pid = self.pids[&k];
        let ok = Command::new("kill")
            .args([sig, &pid.to_string()])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "kill {sig} {pid} (instance {k}) failed");
    }

    /// The stdout/stderr log of instance `k` (STATE= and STANDBY-BATCH lines).
    pub fn log(&self, k: u32) -> String {
        let path = self
            .dir
            .join("apps")
            .join(&self.application_id)
            .join(k.to_string())
            .join("log");
        std::fs::read_to_string(path).unwrap_or_default()
    }

    fn resume_all(&mut self) {
        for k in std::mem::take(&mut self.paused) {
            if let Some(pid) = self.pids.get(&k) {
                let _ = Command::new("kill")
                    .args(["-CONT", &pid.to_string()])
                    .status();
            }
        }
    }

    /// Stop every remaining instance.
    pub fn stop_all(&mut self) {
        self.resume_all();
        if self.pids.is_empty() {
            return;
        }
        let mut cmd = harness_cmd(&self.dir);
        cmd.args(["app-stop", "--application-id", &self.application_id]);
        run_checked(cmd, &format!("harness app-stop {}", self.application_id));
        self.pids.clear();
    }

    /// Members the group should have when all live instances have joined.
    pub fn expected_members(&self) -> u32 {
        self.pids.len() as u32 * self.threads
    }
}

impl Drop for App {
    fn drop(&mut self) {
        self.resume_all();
        if self.pids.is_empty() || !self.dir.exists() {
            return;
        }
        let _ = harness_cmd(&self.dir)
            .args(["app-stop", "--application-id", &self.application_id])
            .output();
        self.pids.clear();
    }
}
