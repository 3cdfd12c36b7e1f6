//! Kafka Streams apps on a harness broker: `harness app` starts JVMs of the harness's Streams
//! app (streamsgroup.StreamsApp: words -> groupBy(value), a repartition -> count into the store
//! `counts` -> output) and returns once the group is Stable; [`App`] stops, kills, pauses and
//! resumes its instances and reads their logs. Started by [`Broker::app`] and its variants.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use super::harness::{harness_cmd, run_checked, stderr_of, stdout_of, Broker};
use super::process::signal;

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

impl Broker {
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
        signal(self.pids[&k], sig);
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
