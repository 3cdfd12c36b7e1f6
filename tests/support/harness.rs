//! The real-broker harness driver: a Kafka broker (or a KRaft cluster of several) started by the
//! bash script `tests/kafka/harness` on loopback from Maven Central jars, and the harness's other
//! commands (produce, end offsets, group configs, wait for a Stable group, Apache's
//! `kafka-streams-groups` tool, any Java class of its classpath). Java 17+ and Maven are required:
//! without them the harness fails loudly (tests panic with the reason), it never skips. The
//! Kafka Streams apps the harness runs against a broker are in `streams_app.rs`.
//!
//! ```ignore
//! use crate::support::Broker;
//! let broker = Broker::start();
//! let mut app = broker.app("my-app", 2, 2);        // returns once the group is Stable
//! let out = broker.tool(&["--describe", "--group", "my-app", "--members"]);
//! let described = broker.ours_json(&["describe", "--group", "my-app", "-o", "json"]);
//! app.stop_instance(0);
//! ```
//!
//! Every broker gets a fresh run directory under `CARGO_TARGET_TMPDIR`; dropping the `Broker`
//! stops everything and removes it (kept, with logs, when the test is panicking). A watchdog
//! stops the broker if the test process dies without dropping it. At most
//! `STREAMS_GROUP_MAX_BROKERS` (default 2) brokers run at once per test binary; further
//! `start` calls wait for a slot.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::command::{CommandOutput, StreamsGroup};

/// Kafka version used when `STREAMS_GROUP_KAFKA_VERSION` is not set.
pub const DEFAULT_KAFKA_VERSION: &str = "4.3.1";

/// The Kafka version the harness runs (env `STREAMS_GROUP_KAFKA_VERSION`, else 4.3.1).
pub fn kafka_version() -> String {
    std::env::var("STREAMS_GROUP_KAFKA_VERSION")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_KAFKA_VERSION.to_string())
}

/// stdout of an `Output` as a String (lossy).
pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// stderr of an `Output` as a String (lossy).
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
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

pub(super) fn harness_cmd(dir: &Path) -> Command {
    let mut c = Command::new("bash");
    c.arg(Broker::harness_script()).arg("--dir").arg(dir);
    c.stdin(Stdio::null());
    c
}

pub(super) fn run_checked(mut cmd: Command, what: &str) -> Output {
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
    /// OAUTHBEARER listener (`start --security oauthbearer`), when started.
    pub oauth_bootstrap: Option<String>,
    /// A second OAUTHBEARER listener with Kafka's default validator (unsigned tokens only, no
    /// JWKS), with OAUTHBEARER.
    pub oauth_unsecured_bootstrap: Option<String>,
    /// The identity provider's base URL (`/token`, `/jwks`, `/mint?lifetime_s=N`), with OAUTHBEARER.
    pub oauth_idp: Option<String>,
    /// Its `/token` over HTTPS (`https://127.0.0.1:PORT`, a certificate of the harness CA,
    /// [`Broker::ca_pem`]), with OAUTHBEARER.
    pub oauth_idp_https: Option<String>,
    /// GSSAPI listener (`start --security kerberos`), `localhost:PORT`, when started.
    pub kerberos_bootstrap: Option<String>,
    /// The harness KDC's krb5.conf (for `KRB5_CONFIG`), with GSSAPI.
    pub krb5_config: Option<PathBuf>,
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
        Self::start_full(&[], version.to_string(), configs)
    }

    /// Start a broker with an extra SASL_SSL listener (see [`Broker::client_properties`]).
    pub fn start_sasl_ssl() -> Broker {
        Self::start_with(true, kafka_version())
    }

    fn start_with(sasl_ssl: bool, version: String) -> Broker {
        let security: &[&str] = if sasl_ssl {
            &["--security", "sasl_ssl"]
        } else {
            &[]
        };
        Self::start_full(security, version, &[])
    }

    /// A broker with an OAUTHBEARER listener and the harness's identity provider, whose tokens
    /// live `token_lifetime_s` seconds; `client-oauth.properties` in [`Broker::dir`].
    pub fn start_oauth(token_lifetime_s: u32) -> Broker {
        let lifetime = token_lifetime_s.to_string();
        let security = [
            "--security",
            "oauthbearer",
            "--oauth-token-lifetime-s",
            &lifetime,
        ];
        Self::start_full(&security, kafka_version(), &[])
    }

    /// A broker with a SASL_PLAINTEXT GSSAPI listener and the harness's KDC (realm EXAMPLE.COM):
    /// `client-kerberos.properties` in [`Broker::dir`], keytabs in `kerberos/` (`client.keytab`,
    /// and `gone.keytab`, whose principal the KDC no longer knows).
    pub fn start_kerberos() -> Broker {
        Self::start_full(&["--security", "kerberos"], kafka_version(), &[])
    }

    /// Start a KRaft cluster of `brokers` (3 or more) combined broker+controller nodes of Kafka
    /// `version` (ids 1..=brokers, replication factor 3, min.insync.replicas 2); `bootstrap`
    /// lists every node, [`Broker::nodes`] each one's address.
    pub fn start_cluster(version: &str, brokers: u32) -> Broker {
        let n = brokers.to_string();
        Self::start_full(&[], version.to_string(), &["--brokers", &n])
    }

    fn start_full(security: &[&str], version: String, configs: &[&str]) -> Broker {
        acquire_slot();
        let t0 = Instant::now();
        // A port the harness found free can be taken (by any process's outgoing connection)
        // before the broker binds it: such a start is tried again on new ports.
        let mut attempt = 1;
        let (dir, out) = loop {
            let dir = fresh_run_dir();
            let out = start_once(&dir, security, &version, configs);
            if out.status.success() || attempt == 3 || !port_taken(&dir) {
                break (dir, out);
            }
            eprintln!(
                "kafka harness: a port was taken before the broker bound it ({}); starting again",
                dir.display()
            );
            let _ = harness_cmd(&dir).arg("stop").output();
            attempt += 1;
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
            oauth_bootstrap: value("OAUTH_BOOTSTRAP="),
            oauth_unsecured_bootstrap: value("OAUTH_UNSECURED_BOOTSTRAP="),
            oauth_idp: value("OAUTH_IDP="),
            oauth_idp_https: value("OAUTH_IDP_HTTPS="),
            kerberos_bootstrap: value("KERBEROS_BOOTSTRAP="),
            krb5_config: value("KRB5_CONFIG=").map(PathBuf::from),
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

    /// `harness broker-pause --node N`: SIGSTOP node `n` (connections are accepted, nothing is
    /// answered) until [`Broker::resume_node`].
    pub fn pause_node(&self, n: u32) {
        self.node_command("broker-pause", n);
    }

    /// `harness broker-resume --node N`: SIGCONT node `n`, return once it is back in the ISR.
    pub fn resume_node(&self, n: u32) {
        self.node_command("broker-resume", n);
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

    /// Our binary against this broker's PLAINTEXT listener (`--bootstrap-server` first).
    pub fn ours(&self, args: &[&str]) -> CommandOutput {
        StreamsGroup::new(["--bootstrap-server", &self.bootstrap])
            .args(args)
            .run()
    }

    /// [`Broker::ours`], which must exit 0 and print JSON: the JSON.
    pub fn ours_json(&self, args: &[&str]) -> serde_json::Value {
        self.ours(args).success().json()
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

    /// `harness load-groups --prefix P --count N --members M ARGS...`: N streams groups P-1..P-N
    /// of M members each, played by one JVM (held, heartbeating, until the broker stops; with
    /// `--leave` in `args` they leave and the groups stay Empty). Returns its `LOADED ...` line.
    pub fn load_groups(&self, prefix: &str, count: u32, members: u32, args: &[&str]) -> String {
        let (n, m) = (count.to_string(), members.to_string());
        let mut all = vec![
            "load-groups",
            "--prefix",
            prefix,
            "--count",
            &n,
            "--members",
            &m,
        ];
        all.extend_from_slice(args);
        let out = self.harness(&all);
        let text = stdout_of(&out);
        text.lines()
            .find(|l| l.starts_with("LOADED"))
            .unwrap_or_else(|| panic!("harness load-groups printed no LOADED line: {text}"))
            .to_string()
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
        // A failing test keeps its broker's and apps' logs; `HARNESS_KEEP=1` keeps every run's.
        let keep = std::thread::panicking() || std::env::var_os("HARNESS_KEEP").is_some();
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

/// A run directory no other start uses.
fn fresh_run_dir() -> PathBuf {
    let n = RUN_COUNTER.fetch_add(1, Ordering::SeqCst);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("kafka-runs")
        .join(format!("{}-{n}-{nanos:x}", std::process::id()))
}

/// One `harness start` in `dir`.
fn start_once(dir: &Path, security: &[&str], version: &str, configs: &[&str]) -> Output {
    let mut cmd = harness_cmd(dir);
    cmd.args(["start", "--version", version, "--owner-pid"])
        .arg(std::process::id().to_string());
    cmd.args(security);
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
    cmd.output().unwrap_or_else(|e| {
        release_slot();
        panic!("cannot run the Kafka harness (bash missing?): {e}")
    })
}

/// Whether a broker of the run in `dir` died because a port it was given was taken.
fn port_taken(dir: &Path) -> bool {
    let mut logs = vec![dir.join("broker.log")];
    if let Ok(nodes) = std::fs::read_dir(dir.join("nodes")) {
        logs.extend(nodes.flatten().map(|n| n.path().join("broker.log")));
    }
    logs.iter().any(|l| {
        std::fs::read_to_string(l).is_ok_and(|text| text.contains("Address already in use"))
    })
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

/// A properties file named `name` beside `base`: its lines that start with `drop` left out and
/// `lines` added (nothing added when empty). The security tests' one way to vary the harness's
/// client files.
pub fn properties_variant(base: &Path, name: &str, drop: &str, lines: &str) -> PathBuf {
    let text =
        std::fs::read_to_string(base).unwrap_or_else(|e| panic!("reading {}: {e}", base.display()));
    let mut out: String = text
        .lines()
        .filter(|l| !l.starts_with(drop))
        .map(|l| format!("{l}\n"))
        .collect();
    if !lines.is_empty() {
        out.push_str(lines.trim_end_matches('\n'));
        out.push('\n');
    }
    let path = base.with_file_name(name);
    std::fs::write(&path, out).unwrap();
    path
}
