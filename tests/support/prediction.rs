//! Predict, then act: snapshot a real group, simulate a move from the snapshot, make the move
//! with the harness, and compare, as a user would. [`predict_then_act`] does one move and
//! returns a [`Verdict`]; e2e tests assert on it, the field-fidelity matrix
//! (`benches/field-fidelity.sh`) tabulates it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use model::group::{GroupDescription, Snapshot};
use model::movement::diff_owners;
use model::Assignment;

use super::recording::{recorded_samples, settled};
use super::{json_schema, wait_for, App, AppOptions, Broker, Running, StreamsGroup};

/// The group now, as `describe -o json` records it.
pub fn described(broker: &Broker, group: &str) -> GroupDescription {
    let v = broker.ours_json(&["describe", "--group", group, "-o", "json"]);
    let snap: Snapshot = serde_json::from_value(v).expect("a snapshot");
    snap.groups.into_iter().next().expect("the group")
}

/// Each member's assignment, by member id.
pub fn by_member(g: &GroupDescription) -> BTreeMap<String, Assignment> {
    g.members
        .iter()
        .map(|m| (m.member_id.clone(), m.assignment.clone()))
        .collect()
}

/// The process of instance `k` of the harness app: its members' client ids start
/// `<application id>-instance-<k>-`.
pub fn process_of_instance(g: &GroupDescription, k: u32) -> String {
    let prefix = format!("{}-instance-{k}-", g.group_id);
    let p: Vec<&str> = g
        .members
        .iter()
        .filter(|m| m.client_id.starts_with(&prefix))
        .map(|m| m.process_id.as_str())
        .collect();
    assert!(!p.is_empty(), "no member of instance {k}: {g:?}");
    p[0].to_string()
}

/// A watch off a terminal, recording `group` to `file` every 100 ms (for at most 10 minutes).
pub fn spawn_watch(broker: &Broker, group: &str, file: &Path) -> Running {
    StreamsGroup::new(["describe", "--bootstrap-server", &broker.bootstrap])
        .args(["--group", group, "--watch", "100ms", "--for", "600s"])
        .args(["--record", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .spawn()
}

/// Keep what a prediction was checked against, for a reader of a failure.
pub fn keep(
    name: &str,
    before: &GroupDescription,
    after: &GroupDescription,
    predicted: &Value,
    recording: &Path,
) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("predict-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in [
        ("before.json", serde_json::to_string_pretty(before).unwrap()),
        ("after.json", serde_json::to_string_pretty(after).unwrap()),
        ("predicted.json", predicted.to_string()),
        (
            "recording.jsonl",
            std::fs::read_to_string(recording).unwrap_or_default(),
        ),
    ] {
        std::fs::write(dir.join(file), text).unwrap();
    }
    eprintln!(
        "{name}: group epoch predicted {}, real {}; {} distinct assignments in the samples (files in {})",
        predicted["group_epoch"],
        after.group_epoch,
        predicted["samples"]["distribution"]["distinct_assignments"],
        dir.display()
    );
}

/// Each predicted outcome's members by member id (a joiner by its placeholder), with the
/// number of samples that reached it, the most frequent first.
pub fn outcomes(predicted: &Value) -> Vec<(u64, BTreeMap<String, Assignment>)> {
    let listed = predicted["samples"]["outcomes"].as_array();
    listed
        .unwrap_or_else(|| panic!("samples.outcomes: {}", predicted["samples"]))
        .iter()
        .map(|o| {
            let members = o["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let a: Assignment = serde_json::from_value(m["assignment"].clone()).unwrap();
                    (m["member_id"].as_str().unwrap().to_string(), a)
                })
                .collect();
            (o["count"].as_u64().unwrap(), members)
        })
        .collect()
}

/// What does not lie inside the predicted samples: moves outside their ranges, a task the
/// report calls certain gone from its member, a process's load outside its range (a process
/// that joined is the predicted `p<n>` placeholder, numbered after the processes before).
/// Empty when everything does.
pub fn outside(
    predicted: &Value,
    before: &GroupDescription,
    after: &GroupDescription,
) -> Vec<String> {
    let d = &predicted["samples"]["distribution"];
    let (b, a) = (by_member(before), by_member(after));
    let moved = diff_owners(&b, &a);
    let mut problems = Vec::new();
    let within = |what: &str, real: i64, r: &Value| {
        let (lo, hi) = (r["min"].as_i64().unwrap(), r["max"].as_i64().unwrap());
        (!(lo <= real && real <= hi)).then(|| format!("{what}: real {real}, predicted {lo}-{hi}"))
    };
    problems.extend(within(
        "moved_active",
        moved.moved_active as i64,
        &d["moved_active"],
    ));
    problems.extend(within(
        "moved_standby",
        moved.moved_standby as i64,
        &d["moved_standby"],
    ));
    let known: BTreeSet<&str> = before
        .members
        .iter()
        .map(|m| m.process_id.as_str())
        .collect();
    let joined = format!("p{}", known.len() + 1);
    let mut loads: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for m in &after.members {
        let p = match known.contains(m.process_id.as_str()) {
            true => m.process_id.clone(),
            false => joined.clone(),
        };
        let e = loads.entry(p).or_default();
        e.0 += (m.assignment.active.len() + m.assignment.standby.len()) as i64;
        e.1 += m.assignment.active.len() as i64;
    }
    let processes = d["processes"].as_array().unwrap();
    if processes.len() != loads.len() {
        problems.push(format!(
            "{} processes predicted, {} real",
            processes.len(),
            loads.len()
        ));
    }
    for p in processes {
        let id = p["process_id"].as_str().unwrap();
        let (tasks, active) = loads.get(id).copied().unwrap_or_default();
        problems.extend(within(&format!("tasks of {id}"), tasks, &p["tasks"]));
        problems.extend(within(
            &format!("active tasks of {id}"),
            active,
            &p["active"],
        ));
    }
    for k in d["kept_in_every_sample"].as_array().unwrap() {
        let member = k["member_id"].as_str().unwrap();
        let certain: Assignment = serde_json::from_value(serde_json::json!({
            "active": k["active"], "standby": k["standby"], "warmup": []
        }))
        .unwrap();
        if certain.is_empty() {
            continue;
        }
        let Some(now) = a.get(member) else {
            problems.push(format!("{member} was to keep tasks, and left"));
            continue;
        };
        for (role, c, n) in [
            ("active", &certain.active, &now.active),
            ("standby", &certain.standby, &now.standby),
        ] {
            if !c.difference(n).is_empty() {
                problems.push(format!(
                    "{member} lost a certain {role} task: certain {}, has {}",
                    c.compact(),
                    n.compact()
                ));
            }
        }
    }
    problems
}

/// When the group state a sample shows was read: after the previous sample was stamped (the
/// watch samples one after another) and before its own stamp, which is taken when all its
/// answers are in. Under load the stamp can come hundreds of milliseconds after the
/// StreamsGroupDescribe answer, so the stamp alone is not when the state was true.
fn read_between(samples: &[Value], i: usize) -> (Option<i64>, i64) {
    let at = |s: &Value| s["sampled_at_ms"].as_i64().expect("sampled_at_ms");
    (i.checked_sub(1).map(|p| at(&samples[p])), at(&samples[i]))
}

/// When, after `from_ms`, the recording first shows the group settled with `members` members
/// above `epoch`, in ms after `from_ms`: after the state the sample before it read (so after
/// the stamp of the one before that), and before that sample's stamp.
pub fn settled_after(recording: &Path, from_ms: i64, members: usize, epoch: i64) -> (i64, i64) {
    let samples = recorded_samples(recording);
    let at = |s: &Value| s["sampled_at_ms"].as_i64().expect("sampled_at_ms");
    let i = samples
        .iter()
        .position(|s| {
            at(s) > from_ms
                && settled(s, members)
                && s["groups"][0]["group_epoch"].as_i64() > Some(epoch)
        })
        .unwrap_or_else(|| panic!("the recording never shows the group settled again"));
    let before = match i {
        0 => from_ms,
        _ => read_between(&samples, i - 1)
            .0
            .unwrap_or(from_ms)
            .max(from_ms),
    };
    (before - from_ms, at(&samples[i]) - from_ms)
}

/// When the recording first shows more than `members` members: after the state the sample
/// before it read, before its own stamp (epoch ms).
pub fn joined_between(recording: &Path, members: usize) -> (i64, i64) {
    let samples = recorded_samples(recording);
    let count = |s: &Value| s["groups"][0]["members"].as_array().map_or(0, Vec::len);
    let i = samples
        .iter()
        .position(|s| count(s) > members)
        .unwrap_or_else(|| panic!("the recording never shows a member joining"));
    assert!(
        i > 0,
        "the first sample already shows the joiners: the watch started too late"
    );
    let (after, at) = read_between(&samples, i);
    let before = read_between(&samples, i - 1)
        .0
        .or(after)
        .expect("a sample before");
    (before, at)
}

/// Now, in epoch milliseconds (the watch's stamps).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64
}

/// An app of `instances` × `threads` on 8 partitions with `standbys` standby replicas, started
/// on `broker`, its group Stable.
pub fn start_app(broker: &Broker, group: &str, instances: u32, threads: u32, standbys: u32) -> App {
    let app = broker.app_opts(
        group,
        &AppOptions {
            instances,
            threads,
            partitions: 8,
            group_configs: vec![format!("streams.num.standby.replicas={standbys}")],
            ..AppOptions::default()
        },
    );
    let members = instances * threads;
    assert!(
        broker.wait_stable(group, members),
        "{group}: the group settles with {members} members"
    );
    app
}

/// A move on a running app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// `KafkaStreams#close` of the last instance (SIGTERM).
    Stop,
    /// `kill -9` of the last instance.
    Kill,
    /// One more instance of as many threads.
    Join,
}

impl Move {
    pub fn name(self) -> &'static str {
        match self {
            Move::Stop => "stop",
            Move::Kill => "kill -9",
            Move::Join => "join",
        }
    }
}

/// What a move showed of its prediction.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub samples: u64,
    pub exact: bool,
    /// How many distinct outcomes the samples listed.
    pub outcomes: usize,
    /// Where the real assignment is among them (0: the most frequent), and how many samples
    /// reached it; `None` when it is none of them. Not asked of a join, whose joiners' ids
    /// Kafka draws.
    pub listed: Option<Option<(usize, u64)>>,
    /// What lay outside the samples' ranges (moves, loads, certain tasks).
    pub outside: Vec<String>,
    /// The predicted time to Stable (min, max), and where the watch saw the real one.
    pub predicted_ms: (i64, i64),
    pub real_ms: (i64, i64),
    /// The report (`simulate -o json`).
    pub predicted: Value,
}

impl Verdict {
    /// The real time meets the predicted range: the window the watch bounds it in (from the
    /// stamp before the last sample that did not show it to the stamp of the first that did)
    /// overlaps the range, with no further tolerance.
    pub fn time_inside(&self) -> bool {
        self.real_ms.0 <= self.predicted_ms.1 && self.predicted_ms.0 <= self.real_ms.1
    }

    /// The report said `Exact` and the broker did otherwise.
    pub fn exact_contradicted(&self) -> bool {
        self.exact && self.listed != Some(Some((0, self.samples)))
    }

    /// The real outcome is one the samples listed (a join: vacuously).
    pub fn outcome_listed(&self) -> bool {
        !matches!(self.listed, Some(None))
    }
}

/// Snapshot `app`'s group, simulate `how` from the snapshot with `samples` samples, make the
/// move, and compare. The app's last instance is the one stopped or killed; a joining
/// instance has `threads` threads and is absorbed into `app`.
pub fn predict_then_act(
    broker: &Broker,
    app: &mut App,
    how: Move,
    samples: u32,
    dir: &Path,
) -> Verdict {
    let group = app.application_id.clone();
    let group = group.as_str();
    let snapshot = dir.join(format!("{group}.json"));
    let v = broker.ours_json(&["describe", "--group", group, "-o", "json"]);
    std::fs::write(&snapshot, v.to_string()).unwrap();
    let before = described(broker, group);
    let k = *app.pids.keys().last().expect("an instance");
    let process = process_of_instance(&before, k);
    // The snapshot names the broker's release (its ApiVersions and configs), so the
    // simulation runs that release's coordinator without being told.
    assert_eq!(
        v["kafka_version"], broker.version,
        "{group}: describe records the broker's release"
    );
    let samples_arg = samples.to_string();
    let mut args = vec![
        "simulate",
        "--from-snapshot",
        snapshot.to_str().unwrap(),
        "--samples",
        &samples_arg,
        "-o",
        "json",
        "--scenario",
    ];
    match how {
        Move::Stop => args.extend(["scale-in", "--process", &process]),
        Move::Kill => args.extend(["crash", "--process", &process]),
        Move::Join => args.extend(["scale-out", "--instances", "1"]),
    }
    let predicted = broker.ours_json(&args);
    json_schema::assert_valid("simulate", &predicted.to_string());

    let recording = dir.join(format!("{group}.jsonl"));
    let watch = spawn_watch(broker, group, &recording);
    let guard = Duration::from_secs(180);
    wait_for("the first sample", guard, || {
        (!recorded_samples(&recording).is_empty()).then_some(())
    });
    let threads = app.threads;
    let acted_at = now_ms();
    let members = match how {
        Move::Stop => {
            app.stop_instance(k);
            before.members.len() as u32 - threads
        }
        Move::Kill => {
            app.kill_instance(k);
            before.members.len() as u32 - threads
        }
        Move::Join => {
            let joined = broker.app_opts(
                group,
                &AppOptions {
                    instances: 1,
                    threads,
                    ..AppOptions::default()
                },
            );
            app.absorb(joined);
            before.members.len() as u32 + threads
        }
    };
    assert!(
        broker.wait_stable(group, members),
        "{group}: the group settles with {members} members"
    );
    let epoch = i64::from(before.group_epoch);
    wait_for("a sample of the group settled again", guard, || {
        recorded_samples(&recording)
            .last()
            .is_some_and(|s| {
                settled(s, members as usize) && s["groups"][0]["group_epoch"].as_i64() > Some(epoch)
            })
            .then_some(())
    });
    watch.interrupt().success();
    let after = described(broker, group);
    keep(group, &before, &after, &predicted, &recording);

    let real_ms = match how {
        // The prediction counts from the first join; the watch saw it between two samples,
        // and the group settle between two others.
        Move::Join => {
            let (join_lo, join_hi) = joined_between(&recording, before.members.len());
            let (lo, hi) = settled_after(&recording, join_lo, members as usize, epoch);
            ((join_lo + lo - join_hi).max(0), hi)
        }
        Move::Stop | Move::Kill => settled_after(&recording, acted_at, members as usize, epoch),
    };
    let t = &predicted["samples"]["distribution"]["time_to_stable_ms"];
    let predicted_ms = (t["min"].as_i64().unwrap(), t["max"].as_i64().unwrap());
    let listed = outcomes(&predicted);
    let real = by_member(&after);
    let found = (how != Move::Join).then(|| {
        listed
            .iter()
            .position(|(_, m)| *m == real)
            .map(|i| (i, listed[i].0))
    });
    let verdict = Verdict {
        samples: predicted["samples"]["count"].as_u64().unwrap_or(1),
        exact: predicted["samples"]["exact"] == true,
        outcomes: listed.len(),
        listed: found,
        outside: outside(&predicted, &before, &after),
        predicted_ms,
        real_ms,
        predicted,
    };
    eprintln!(
        "{group}: {}: {} outcomes, real {:?}, outside {:?}, time predicted {:?} real {:?} ms",
        how.name(),
        verdict.outcomes,
        verdict.listed,
        verdict.outside,
        verdict.predicted_ms,
        verdict.real_ms
    );
    verdict
}
