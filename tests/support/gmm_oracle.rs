//! Apache's streams group coordinator, in process: a client for the Java driver
//! `org.apache.kafka.coordinator.group.StreamsCoordinatorOracle` (tests/kafka/src/main/java),
//! which runs the real `GroupMetadataManager` of a Kafka release (`ORACLE_VERSIONS`) with a fake clock,
//! plus the broker's request checks around it. See docs/dev/oracle.md for the protocol and what is
//! (not) modelled.
//!
//! ```ignore
//! use crate::support::gmm_oracle::GmmOracle;
//! GmmOracle::require();                            // fails the test without Java/Maven
//! let mut apache = GmmOracle::start("4.3.1", &[]);
//! apache.set_topics(&BTreeMap::from([("input".to_string(), 4)]));
//! let out = apache.heartbeat(&join_request, 0, "client-1", "/127.0.0.1");
//! assert_eq!(out.response.error, None);
//! let group = out.group.unwrap();                   // Apache's StreamsGroup after the heartbeat
//! let later = apache.advance(3_000);                // runs due timers (initial delay, timeouts)
//! ```
//!
//! Requests are encoded with our own (byte-for-byte verified) codec at the highest
//! StreamsGroupHeartbeat version the Kafka version knows (v0 for 4.1-4.3, v1 for 4.4), and the
//! response is decoded with it, so no field is mapped by hand on either side. One JVM serves a
//! whole run (thousands of heartbeats); dropping the `GmmOracle` kills it. Every reply is
//! awaited for at most `STREAMS_GROUP_ORACLE_TIMEOUT_S` seconds (default 120).

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use coordinator::member::MemberState;
use coordinator::GroupState;
use kafka::codec::heartbeat::{decode_response, encode_request};
use kafka::wire::{from_hex, to_hex};
use model::heartbeat::Endpoint;
use model::version::SERVED_RELEASES;
use model::{Assignment, HeartbeatRequest, HeartbeatResponse, KafkaVersion};

/// The Kafka versions the oracle is built and tested for: every release with streams groups
/// that the tool models (`SERVED_RELEASES`), oldest first.
pub const ORACLE_VERSIONS: [&str; SERVED_RELEASES.len()] = {
    let mut names = [""; SERVED_RELEASES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = SERVED_RELEASES[i].0;
        i += 1;
    }
    names
};

/// The profile that models Kafka `release` (one of [`ORACLE_VERSIONS`]).
pub fn profile_of(release: &str) -> KafkaVersion {
    SERVED_RELEASES
        .into_iter()
        .find(|(r, _)| *r == release)
        .unwrap_or_else(|| panic!("no profile serves Kafka {release}"))
        .1
}

/// " (profile 4.3.1)" when another release's profile serves `release`: the oracles'
/// per-release lines say which profile a release was checked against.
pub fn served_by(release: &str) -> String {
    let profile = profile_of(release);
    match profile.release() == release {
        true => String::new(),
        false => format!(" (profile {profile})"),
    }
}

/// How many scenarios or specs to run against Kafka `release`: `env` when set, else `default`
/// for a release a profile is named after, and a quarter of it for a release served by another
/// release's profile (that profile is checked in full against its own release; the quarter
/// shows the two releases agree, and keeps the oracles' time in CI down).
pub fn runs_for(release: &str, env: &str, default: usize) -> usize {
    if let Some(n) = std::env::var(env).ok().and_then(|v| v.trim().parse().ok()) {
        return n;
    }
    match profile_of(release).release() == release {
        true => default,
        false => default.div_ceil(4),
    }
}

const MAIN_CLASS: &str = "org.apache.kafka.coordinator.group.StreamsCoordinatorOracle";
const STDERR_TAIL_LINES: usize = 60;

/// A timer of Apache's coordinator that fired while the clock moved (session timeout,
/// rebalance timeout, initial rebalance delay, ...), with Apache's key.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct FiredTimer {
    pub key: String,
    pub at_ms: i64,
    /// Apache's error name when the timer's operation failed.
    pub error: Option<String>,
}

/// What Apache answered to one heartbeat.
#[derive(Clone, Debug)]
pub struct OracleOutcome {
    /// The oracle's clock when the heartbeat ran.
    pub now_ms: i64,
    /// Timers that fired before the heartbeat (the clock moved from the previous request).
    pub timers: Vec<FiredTimer>,
    /// The response, decoded with our codec.
    pub response: HeartbeatResponse,
    /// The response body exactly as Apache's kafka-clients wrote it.
    pub response_bytes: Vec<u8>,
    /// Which layer produced an error response: "kafka_apis" (topic checks), "service"
    /// (GroupCoordinatorService's request checks), "coordinator" (the GMM threw); None when the
    /// GMM answered normally (the response may still carry statuses).
    pub rejected_by: Option<String>,
    /// Internal topics the broker would create now: name -> (partitions, replication factor;
    /// -1 = broker default).
    pub creatable_topics: BTreeMap<String, (i32, i16)>,
    /// Topic configs of those topics.
    pub creatable_topic_configs: BTreeMap<String, BTreeMap<String, String>>,
    /// Apache's view of the group after the heartbeat; None when the group does not exist
    /// (e.g. a first join that was rejected).
    pub group: Option<OracleGroup>,
}

/// The clock moved: timers that fired and every known streams group afterwards.
#[derive(Clone, Debug, Deserialize)]
pub struct OracleAdvance {
    pub now_ms: i64,
    pub timers: Vec<FiredTimer>,
    pub groups: BTreeMap<String, OracleGroup>,
}

/// The configured topology as the coordinator last computed it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct OracleConfiguredTopology {
    pub ready: bool,
    /// Subtopology id -> number of tasks (only when ready).
    pub tasks: BTreeMap<String, i32>,
}

/// Apache's `StreamsGroup`, read from the coordinator's in-memory objects.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct OracleGroup {
    pub group_id: String,
    /// Apache's enum name: EMPTY, NOT_READY, ASSIGNING, RECONCILING, STABLE (DEAD is never set).
    pub state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// When the current target was computed (4.3+, drives the assignment interval); None on
    /// 4.1 and 4.2.
    pub assignment_timestamp_ms: Option<i64>,
    /// The group's topology epoch; None before the first topology.
    pub topology_epoch: Option<i32>,
    /// The topology epoch the configured topology was last validated for (-1: none); None on
    /// 4.1, which has no such field (its NOT_READY rule looks at the configured topology).
    pub validated_topology_epoch: Option<i32>,
    pub metadata_hash: i64,
    pub configured: Option<OracleConfiguredTopology>,
    pub shutdown_requested_by: Option<String>,
    pub endpoint_information_epoch: i32,
    /// The assignment configs of the last group epoch bump (e.g. num.standby.replicas); None
    /// on 4.1, which does not store them (a changed config does not bump the group epoch).
    pub last_assignment_configs: Option<BTreeMap<String, String>>,
    /// Member ids in the iteration order of the group's `TimelineHashMap` of members, the
    /// order in which `TargetAssignmentBuilder` copies them (see docs/dev/oracle.md).
    pub member_order: Vec<String>,
    pub members: BTreeMap<String, OracleMember>,
}

/// Apache's `StreamsGroupMember` plus its target assignment.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct OracleMember {
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    /// STABLE, UNREVOKED_TASKS, UNRELEASED_TASKS or UNKNOWN.
    pub state: String,
    pub topology_epoch: i32,
    pub process_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: i32,
    pub client_tags: BTreeMap<String, String>,
    pub user_endpoint: Option<Endpoint>,
    /// Tasks the member owns now.
    pub assigned: Assignment,
    /// The assignment epoch of each active task: subtopology -> partition -> epoch; None on 4.1
    /// (no per-task assignment epochs).
    pub active_task_epochs: Option<BTreeMap<String, BTreeMap<i32, i32>>>,
    pub pending_revocation: Assignment,
    pub target: Assignment,
}

impl OracleGroup {
    /// The state as the local coordinator names it (None for Apache's DEAD).
    pub fn group_state(&self) -> Option<GroupState> {
        match self.state.as_str() {
            "EMPTY" => Some(GroupState::Empty),
            "NOT_READY" => Some(GroupState::NotReady),
            "ASSIGNING" => Some(GroupState::Assigning),
            "RECONCILING" => Some(GroupState::Reconciling),
            "STABLE" => Some(GroupState::Stable),
            _ => None,
        }
    }

    pub fn member(&self, member_id: &str) -> &OracleMember {
        self.members.get(member_id).unwrap_or_else(|| {
            panic!(
                "Apache's group {} has no member {member_id} (members: {:?})",
                self.group_id,
                self.members.keys().collect::<Vec<_>>()
            )
        })
    }
}

impl OracleMember {
    /// The state as the local coordinator names it (None for Apache's UNKNOWN).
    pub fn member_state(&self) -> Option<MemberState> {
        match self.state.as_str() {
            "STABLE" => Some(MemberState::Stable),
            "UNREVOKED_TASKS" => Some(MemberState::UnrevokedTasks),
            "UNRELEASED_TASKS" => Some(MemberState::UnreleasedTasks),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
struct CreatableTopic {
    partitions: i32,
    replication: i16,
    configs: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct HeartbeatReply {
    now_ms: i64,
    timers: Vec<FiredTimer>,
    response: String,
    rejected_by: Option<String>,
    creatable_topics: BTreeMap<String, CreatableTopic>,
    group: Option<OracleGroup>,
}

#[derive(Deserialize)]
struct InitReply {
    kafka_version: String,
    heartbeat_versions: (i16, i16),
}

/// One running oracle JVM for one Kafka version.
pub struct GmmOracle {
    /// The Kafka version of the jars (as kafka-clients reports it).
    pub version: String,
    /// The StreamsGroupHeartbeat version [`GmmOracle::heartbeat`] sends.
    pub heartbeat_version: i16,
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_thread: Option<JoinHandle<()>>,
    timeout: Duration,
    now_ms: i64,
}

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn harness_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("kafka")
}

impl GmmOracle {
    /// Fails the test with one line when Java or Maven is missing: the oracle is never
    /// skipped, in CI or on a laptop, so a green run always says the coordinator was checked.
    pub fn require() {
        assert!(
            have("java", "-version") && have("mvn", "--version"),
            "java or mvn is missing on the PATH: the Apache GroupMetadataManager oracle needs a \
             JDK 17+ and Maven 3.8+ (apt-get install openjdk-17-jdk-headless maven)"
        );
    }

    /// Start the oracle for `version` (one of [`ORACLE_VERSIONS`]) with broker configs such as
    /// `("group.streams.session.timeout.ms", "45000")` (Apache's defaults otherwise). Builds the
    /// harness classpath for that version first if needed. Panics with the reason on failure.
    pub fn start(version: &str, broker_config: &[(&str, &str)]) -> GmmOracle {
        let harness = harness_dir();
        let out = Command::new("bash")
            .arg(harness.join("harness"))
            .args(["classpath", "--version", version])
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run tests/kafka/harness (bash missing?): {e}"));
        assert!(
            out.status.success(),
            "tests/kafka/harness classpath --version {version} failed (needs Java 17+ and Maven):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let classpath = stdout
            .lines()
            .last()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| panic!("harness classpath printed nothing for {version}"))
            .to_string();
        let log4j = harness
            .join("src")
            .join("main")
            .join("resources")
            .join("log4j2.properties");
        let mut child = Command::new("java")
            .args([
                "-Xms64m",
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true",
            ])
            .arg(format!(
                "-Dlog4j2.configurationFile=file:{}",
                log4j.display()
            ))
            .arg(format!(
                "-Dharness.log.level={}",
                std::env::var("HARNESS_LOG_LEVEL").unwrap_or_else(|_| "WARN".into())
            ))
            .arg("-cp")
            .arg(&classpath)
            .arg(MAIN_CLASS)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start java for the GMM oracle: {e}"));

        let (tx, replies) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr = child.stderr.take().expect("piped stderr");
        let label = version.to_string();
        let stderr_thread = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                eprintln!("gmm-oracle {label}: {line}");
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let timeout = std::env::var("STREAMS_GROUP_ORACLE_TIMEOUT_S")
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Duration::from_secs)
            .unwrap_or(Duration::from_secs(120));
        let stdin = child.stdin.take();
        let mut oracle = GmmOracle {
            version: version.to_string(),
            heartbeat_version: 0,
            child,
            stdin,
            replies,
            stderr_tail,
            stderr_thread: Some(stderr_thread),
            timeout,
            now_ms: 0,
        };
        let config: BTreeMap<&str, &str> = broker_config.iter().copied().collect();
        let init: InitReply =
            oracle.call_as(json!({"op": "init", "broker_config": config}), "init");
        assert_eq!(
            init.kafka_version, version,
            "the oracle's classpath runs Kafka {} instead of {version}",
            init.kafka_version
        );
        oracle.heartbeat_version = init.heartbeat_versions.1;
        oracle
    }

    /// The oracle's clock.
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// Send one raw protocol request and return the reply (see docs/dev/oracle.md).
    pub fn request(&mut self, req: Value) -> Value {
        let line = serde_json::to_string(&req).expect("JSON");
        let what = req
            .get("op")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let write = self.stdin.as_mut().map(|s| {
            s.write_all(line.as_bytes())
                .and_then(|()| s.write_all(b"\n"))
                .and_then(|()| s.flush())
        });
        if !matches!(write, Some(Ok(()))) {
            self.die(&format!("cannot send '{what}' to the oracle"));
        }
        match self.replies.recv_timeout(self.timeout) {
            Ok(reply) => {
                let v: Value = serde_json::from_str(&reply).unwrap_or_else(|e| {
                    panic!("the oracle replied non-JSON to '{what}' ({e}): {reply}")
                });
                if let Some(n) = v.get("now_ms").and_then(Value::as_i64) {
                    self.now_ms = n;
                }
                v
            }
            Err(RecvTimeoutError::Timeout) => self.die(&format!(
                "no reply to '{what}' within {:?} (request: {line})",
                self.timeout
            )),
            Err(RecvTimeoutError::Disconnected) => {
                self.die(&format!("the oracle exited on '{what}' (request: {line})"))
            }
        }
    }

    fn call_as<T: for<'de> Deserialize<'de>>(&mut self, req: Value, what: &str) -> T {
        let v = self.request(req);
        serde_json::from_value(v.clone())
            .unwrap_or_else(|e| panic!("unexpected oracle reply to {what} ({e}): {v}"))
    }

    /// One heartbeat at `now_ms` (the clock first moves there, running due timers), at
    /// [`GmmOracle::heartbeat_version`].
    pub fn heartbeat(
        &mut self,
        req: &HeartbeatRequest,
        now_ms: i64,
        client_id: &str,
        client_host: &str,
    ) -> OracleOutcome {
        let v = self.heartbeat_version;
        self.heartbeat_at_version(req, v, now_ms, client_id, client_host)
    }

    /// Like [`GmmOracle::heartbeat`] with an explicit request version.
    pub fn heartbeat_at_version(
        &mut self,
        req: &HeartbeatRequest,
        version: i16,
        now_ms: i64,
        client_id: &str,
        client_host: &str,
    ) -> OracleOutcome {
        let bytes = encode_request(req, version)
            .unwrap_or_else(|e| panic!("cannot encode the heartbeat at v{version}: {e:?}"));
        let reply: HeartbeatReply = self.call_as(
            json!({
                "op": "heartbeat",
                "now_ms": now_ms,
                "version": version,
                "request": to_hex(&bytes),
                "client_id": client_id,
                "client_host": client_host,
            }),
            "heartbeat",
        );
        let response_bytes = from_hex(&reply.response)
            .unwrap_or_else(|| panic!("the oracle's response is not hex: {}", reply.response));
        let response = decode_response(&response_bytes, version).unwrap_or_else(|e| {
            panic!(
                "our codec cannot decode Apache's v{version} response {}: {e:?}",
                reply.response
            )
        });
        OracleOutcome {
            now_ms: reply.now_ms,
            timers: reply.timers,
            response,
            response_bytes,
            rejected_by: reply.rejected_by,
            creatable_topic_configs: reply
                .creatable_topics
                .iter()
                .map(|(n, t)| (n.clone(), t.configs.clone()))
                .collect(),
            creatable_topics: reply
                .creatable_topics
                .into_iter()
                .map(|(n, t)| (n, (t.partitions, t.replication)))
                .collect(),
            group: reply.group,
        }
    }

    /// Move the clock to `now_ms`, running every timer due by then (each at its deadline).
    pub fn advance(&mut self, now_ms: i64) -> OracleAdvance {
        self.call_as(json!({"op": "advance", "now_ms": now_ms}), "advance")
    }

    /// Create topics or add partitions (name -> partition count), as the broker's metadata
    /// publisher would announce them to the coordinator. Shrinking panics (Kafka cannot).
    pub fn set_topics(&mut self, topics: &BTreeMap<String, i32>) {
        let v = self.request(json!({"op": "topics", "set": topics}));
        assert_eq!(v["ok"], json!(true), "topics: {v}");
    }

    /// Delete topics.
    pub fn delete_topics(&mut self, names: &[&str]) {
        let v = self.request(json!({"op": "topics", "delete": names}));
        assert_eq!(v["ok"], json!(true), "topics: {v}");
    }

    /// `kafka-configs.sh --alter --entity-type groups --entity-name GROUP --add-config k=v,...`:
    /// Ok when the broker accepts it, Err(Apache's message) when the controller rejects it.
    pub fn group_config(&mut self, group: &str, props: &[(&str, &str)]) -> Result<(), String> {
        let props: BTreeMap<&str, &str> = props.iter().copied().collect();
        let v = self.request(json!({"op": "group_config", "group": group, "props": props}));
        Self::config_result(v)
    }

    /// `kafka-configs.sh ... --delete-config k,...`.
    pub fn delete_group_config(&mut self, group: &str, keys: &[&str]) -> Result<(), String> {
        let v = self.request(json!({"op": "group_config", "group": group, "delete": keys}));
        Self::config_result(v)
    }

    fn config_result(v: Value) -> Result<(), String> {
        if v["ok"] == json!(true) {
            Ok(())
        } else {
            Err(v["error"].as_str().unwrap_or("(no message)").to_string())
        }
    }

    /// Apache's view of one group (None when it does not exist).
    pub fn describe(&mut self, group: &str) -> Option<OracleGroup> {
        let v = self.request(json!({"op": "describe", "group": group}));
        serde_json::from_value(v["group"].clone())
            .unwrap_or_else(|e| panic!("unexpected describe reply ({e}): {v}"))
    }

    /// Every streams group the oracle has seen.
    pub fn describe_all(&mut self) -> BTreeMap<String, OracleGroup> {
        let v = self.request(json!({"op": "describe"}));
        serde_json::from_value(v["groups"].clone())
            .unwrap_or_else(|e| panic!("unexpected describe reply ({e}): {v}"))
    }

    fn die(&mut self, what: &str) -> ! {
        self.stdin.take();
        let status = match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                std::thread::sleep(Duration::from_millis(200));
                self.child.try_wait().ok().flatten()
            }
        };
        if status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(t) = self.stderr_thread.take() {
            let _ = t.join();
        }
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join("\n"))
            .unwrap_or_default();
        panic!(
            "GMM oracle (Kafka {}): {what}; {}; last stderr lines:\n{tail}",
            self.version,
            status.map_or_else(|| "killed, no exit status".to_string(), |s| s.to_string())
        );
    }
}

impl Drop for GmmOracle {
    fn drop(&mut self) {
        self.stdin.take();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
