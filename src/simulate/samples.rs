//! How sure a prediction is: the scenario run again with the ids Kafka would draw.
//!
//! Kafka gives joiners random member and process ids, and Apache's assignor breaks ties
//! between equally good members by them, so when members join, the outcome is one of many.
//! The first run names joiners by placeholders (the report shows it); the others draw
//! Kafka-shaped ids and heartbeat phases from seeds derived from the run's seed. Runs are
//! compared by label: a known member by its id, a joiner by its placeholder.
//!
//! A scenario in which no member draws an id (known members leave, crash, restart as static
//! members) still has what no tool can know: when each member's next heartbeat is due. Its
//! samples draw only those phases, which move the time to Stable; when every sample ends with
//! the same assignment, the assignment is exact.

use std::collections::{BTreeMap, BTreeSet};

use super::engine::Outcome;
use super::ids::Ids;
use super::report::{
    Distribution, Kept, ProcessLoad, Range, SampledOutcome, Samples, SimulationReport, TaskStay,
};
use super::scenario::Scenario;
use super::{SimConfig, SimError};
use model::{Assignment, TaskId, TaskSet};

/// The most samples a run may ask for.
pub const MAX_SAMPLES: u32 = 1_000;

/// The samples the default takes at most, and the simulated heartbeats below which all of them
/// cost too little to matter (a tenth of a second).
pub const DEFAULT_MAX_SAMPLES: u32 = 20;
const CHEAP_HEARTBEATS: u64 = 50_000;

/// One run, not compared with others.
pub fn single(o: &Outcome) -> Samples {
    Samples {
        count: 1,
        exact: o.joiners == 0,
        joiners: o.joiners,
        distribution: None,
        outcomes: Vec::new(),
    }
}

/// What one member of one sample's outcome costs to keep until the samples are compared (its
/// label and process, its tasks, as the report's member too), rounded up: measured about
/// 0.5 KiB on a 10,000-member crash.
pub const OUTCOME_BYTES_PER_MEMBER: u64 = 1024;

/// `count` samples of a run of up to `members` members must fit in half of `available_bytes`
/// of memory, or the run is refused before it starts, with the most samples that fit.
pub fn check_memory(count: u32, members: u64, available_bytes: u64) -> Result<(), String> {
    let per_sample = members.max(1).saturating_mul(OUTCOME_BYTES_PER_MEMBER);
    let need = per_sample.saturating_mul(u64::from(count));
    if need <= available_bytes / 2 {
        return Ok(());
    }
    let fit = (available_bytes / 2 / per_sample).max(1);
    Err(format!(
        "--samples {count} with up to {members} members needs about {} MiB to compare the \
         outcomes, and {} MiB of memory is available: give --samples {fit} or fewer",
        need >> 20,
        available_bytes >> 20
    ))
}

/// How many samples to take when the user does not say, given what the first run cost and the
/// cores they run on: [`DEFAULT_MAX_SAMPLES`] when all of them together stay cheap; else as many
/// as keep the whole run within 3 times the first: the first, then one more on every core
/// (`1 + cores`; a sample costs more than the first run, its ids being longer to hash and
/// order, and the cores are rarely all free).
pub fn default_count(first_run_heartbeats: u64, cores: u32) -> u32 {
    let max = u64::from(DEFAULT_MAX_SAMPLES);
    if first_run_heartbeats.saturating_mul(max) <= CHEAP_HEARTBEATS {
        return DEFAULT_MAX_SAMPLES;
    }
    (1 + u64::from(cores.max(1))).min(max) as u32
}

/// The cores samples run on.
fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// What [`run`] reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The first run's virtual time and limit.
    Time { now_ms: i64, limit_ms: i64 },
    /// Samples finished, of how many.
    Samples { done: u32, count: u32 },
}

/// Run the scenario `count` times (`None`: [`default_count`]) unless no member draws an id,
/// and report the first run with what varied across all of them.
pub fn run(
    cfg: &SimConfig,
    scenario: &Scenario,
    count: Option<u32>,
    progress: &mut dyn FnMut(Progress),
) -> Result<SimulationReport, SimError> {
    if let Some(n) = count {
        check_count(n).map_err(SimError)?;
    }
    let mut time = |now_ms, limit_ms| progress(Progress::Time { now_ms, limit_ms });
    let (mut report, first) = super::engine::run_with(cfg, scenario, Ids::Placeholders, &mut time)?;
    let count = count.unwrap_or_else(|| default_count(first.heartbeats, cores()));
    report.samples = single(&first);
    if count == 1 {
        return Ok(report);
    }
    let mut outcomes = vec![first];
    outcomes.extend(others(cfg, scenario, count, progress)?);
    report.samples.count = count;
    report.samples.exact =
        outcomes[0].joiners == 0 && outcomes[1..].iter().all(|o| o.after == outcomes[0].after);
    report.samples.distribution = Some(distribution(&outcomes));
    report.samples.outcomes = listed(&outcomes);
    Ok(report)
}

/// `--samples` must be 1 to [`MAX_SAMPLES`].
pub fn check_count(n: u32) -> Result<(), String> {
    if (1..=MAX_SAMPLES).contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "--samples must be 1 to {MAX_SAMPLES}, got {n}: 1 runs the scenario once"
        ))
    }
}

/// Samples 2..=count, on as many threads as the machine has cores, in sample order.
fn others(
    cfg: &SimConfig,
    scenario: &Scenario,
    count: u32,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Outcome>, SimError> {
    let threads = cores().min(count - 1);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        for t in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                for k in (2 + t..=count).step_by(threads as usize) {
                    if tx.send((k, sample(cfg, scenario, k))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut got: BTreeMap<u32, Outcome> = BTreeMap::new();
        for (k, r) in rx {
            got.insert(k, r?);
            progress(Progress::Samples {
                done: got.len() as u32 + 1,
                count,
            });
        }
        Ok(got.into_values().collect())
    })
}

/// Sample `k` (from 2): its own seed for ids and heartbeat phases.
fn sample(cfg: &SimConfig, scenario: &Scenario, k: u32) -> Result<Outcome, SimError> {
    let seed = mix(cfg.run.seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut cfg = cfg.clone();
    cfg.run.seed = seed;
    cfg.run.trace = false;
    let ids = Ids::random(mix(seed));
    super::engine::run_with(&cfg, scenario, ids, &mut |_, _| {}).map(|(_, o)| o)
}

/// SplitMix64's finaliser: nearby seeds give unrelated ones.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What varied across the outcomes (the first is the report's run).
pub fn distribution(outcomes: &[Outcome]) -> Distribution {
    let range = |f: &dyn Fn(&Outcome) -> i64| {
        Range::of(outcomes.iter().map(f).collect()).unwrap_or(Range {
            min: 0,
            median: 0,
            max: 0,
        })
    };
    let stable: Vec<i64> = outcomes
        .iter()
        .filter_map(|o| o.time_to_stable_ms)
        .collect();
    Distribution {
        moved_active: range(&|o| o.moved_active as i64),
        moved_standby: range(&|o| o.moved_standby as i64),
        never_stable: (outcomes.len() - stable.len()) as u32,
        distinct_assignments: distinct(outcomes),
        time_to_stable_ms: Range::of(stable),
        kept_in_every_sample: kept(outcomes),
        tasks: task_stays(outcomes),
        processes: process_loads(outcomes),
        invariant_violations: outcomes[1..].iter().map(|o| o.invariant_violations).sum(),
    }
}

/// How many different final assignments the outcomes have.
fn distinct(outcomes: &[Outcome]) -> u32 {
    let mut seen: Vec<&BTreeMap<String, (String, Assignment)>> = Vec::new();
    for o in outcomes {
        if !seen.contains(&&o.after) {
            seen.push(&o.after);
        }
    }
    seen.len() as u32
}

/// Every distinct final assignment with how many samples reached it, the most frequent first.
pub fn listed(outcomes: &[Outcome]) -> Vec<SampledOutcome> {
    let mut out: Vec<(usize, SampledOutcome)> = Vec::new();
    for (k, o) in outcomes.iter().enumerate() {
        match out.iter_mut().find(|(i, _)| outcomes[*i].after == o.after) {
            Some((_, seen)) => seen.count += 1,
            None => out.push((
                k,
                SampledOutcome {
                    count: 1,
                    first_sample: k as u32 + 1,
                    members: o.members.clone(),
                },
            )),
        }
    }
    // Stable: equal counts keep the order of their first samples.
    out.sort_by_key(|o| std::cmp::Reverse(o.1.count));
    out.into_iter().map(|(_, o)| o).collect()
}

/// Tasks `label` had before the first step and has at the end of `o`.
fn kept_in(o: &Outcome, label: &str) -> Assignment {
    let before = o.before.as_ref().and_then(|b| b.get(label));
    let after = o.after.get(label).map(|(_, a)| a);
    match (before, after) {
        (Some(b), Some(a)) => Assignment {
            active: b.active.intersection(&a.active),
            standby: b.standby.intersection(&a.standby),
            warmup: TaskSet::new(),
        },
        _ => Assignment::default(),
    }
}

fn kept(outcomes: &[Outcome]) -> Vec<Kept> {
    let Some(before) = outcomes[0].before.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<Kept> = before
        .keys()
        .map(|label| {
            let mut certain = kept_in(&outcomes[0], label);
            for o in &outcomes[1..] {
                let k = kept_in(o, label);
                certain.active = certain.active.intersection(&k.active);
                certain.standby = certain.standby.intersection(&k.standby);
            }
            Kept {
                member_id: label.clone(),
                active: certain.active,
                standby: certain.standby,
            }
        })
        .collect();
    out.sort_by(|a, b| model::natural::cmp(&a.member_id, &b.member_id));
    out
}

/// Each task's active owner and standby owners in an assignment map.
fn owners(
    m: &mut dyn Iterator<Item = (&String, &Assignment)>,
) -> BTreeMap<TaskId, (Option<String>, BTreeSet<String>)> {
    let mut out: BTreeMap<TaskId, (Option<String>, BTreeSet<String>)> = BTreeMap::new();
    for (label, a) in m {
        for t in a.active.tasks() {
            out.entry(t).or_default().0 = Some(label.clone());
        }
        for t in a.standby.tasks() {
            out.entry(t).or_default().1.insert(label.clone());
        }
    }
    out
}

fn task_stays(outcomes: &[Outcome]) -> Vec<TaskStay> {
    let mut stays: BTreeMap<TaskId, (Option<u32>, Option<u32>)> = BTreeMap::new();
    for o in outcomes {
        let Some(before) = &o.before else { continue };
        let before = owners(&mut before.iter());
        let after = owners(&mut o.after.iter().map(|(l, (_, a))| (l, a)));
        for (task, (active, standbys)) in before {
            let (a, s) = stays.entry(task.clone()).or_default();
            let now = after.get(&task);
            if active.is_some() {
                let same = now.is_some_and(|n| n.0 == active);
                *a.get_or_insert(0) += u32::from(same);
            }
            if !standbys.is_empty() {
                let same = now.is_some_and(|n| n.1 == standbys);
                *s.get_or_insert(0) += u32::from(same);
            }
        }
    }
    stays
        .into_iter()
        .map(|(t, (active_stayed, standby_stayed))| TaskStay {
            subtopology: t.subtopology,
            partition: t.partition,
            active_stayed,
            standby_stayed,
        })
        .collect()
}

fn process_loads(outcomes: &[Outcome]) -> Vec<ProcessLoad> {
    let mut loads: BTreeMap<&str, (Vec<i64>, Vec<i64>)> = BTreeMap::new();
    for o in outcomes {
        let mut per: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
        for (process, a) in o.after.values() {
            let e = per.entry(process.as_str()).or_default();
            e.0 += (a.active.len() + a.standby.len()) as i64;
            e.1 += a.active.len() as i64;
        }
        for (p, (tasks, active)) in per {
            let e = loads.entry(p).or_default();
            e.0.push(tasks);
            e.1.push(active);
        }
    }
    let mut out: Vec<ProcessLoad> = loads
        .into_iter()
        .filter_map(|(p, (tasks, active))| {
            Some(ProcessLoad {
                process_id: p.to_string(),
                tasks: Range::of(tasks)?,
                active: Range::of(active)?,
            })
        })
        .collect();
    out.sort_by(|a, b| model::natural::cmp(&a.process_id, &b.process_id));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assignment(active: &[(&str, i32)], standby: &[(&str, i32)]) -> Assignment {
        Assignment {
            active: active.iter().copied().collect(),
            standby: standby.iter().copied().collect(),
            warmup: TaskSet::new(),
        }
    }

    fn outcome(before: &[(&str, Assignment)], after: &[(&str, &str, Assignment)]) -> Outcome {
        Outcome {
            before: Some(
                before
                    .iter()
                    .map(|(l, a)| (l.to_string(), a.clone()))
                    .collect(),
            ),
            after: after
                .iter()
                .map(|(l, p, a)| (l.to_string(), (p.to_string(), a.clone())))
                .collect(),
            joiners: 1,
            ..Outcome::default()
        }
    }

    #[test]
    fn ranges_take_the_lower_median() {
        let r = Range::of(vec![5, 1, 3, 2]).unwrap();
        assert_eq!((r.min, r.median, r.max), (1, 2, 5));
        assert_eq!(Range::of(vec![]), None);
    }

    #[test]
    fn what_every_sample_keeps_is_certain_and_stays_are_counted() {
        let before = [
            ("a", assignment(&[("0", 0), ("0", 1)], &[("0", 2)])),
            ("b", assignment(&[("0", 2)], &[("0", 0)])),
        ];
        // Sample 1: the joiner j takes 0_1; sample 2: it takes 0_0 and b's standby.
        let one = outcome(
            &before,
            &[
                ("a", "pa", assignment(&[("0", 0)], &[("0", 2)])),
                ("b", "pb", assignment(&[("0", 2)], &[("0", 0)])),
                ("j", "p3", assignment(&[("0", 1)], &[])),
            ],
        );
        let two = outcome(
            &before,
            &[
                ("a", "pa", assignment(&[("0", 1)], &[("0", 2)])),
                ("b", "pb", assignment(&[("0", 2)], &[])),
                ("j", "p3", assignment(&[("0", 0)], &[("0", 0)])),
            ],
        );
        let d = distribution(&[one, two]);
        let a = &d.kept_in_every_sample[0];
        assert_eq!(a.member_id, "a");
        assert!(
            a.active.is_empty(),
            "a keeps 0_0 in one sample, 0_1 in the other"
        );
        assert_eq!(a.standby.compact(), "0:[2]");
        let b = &d.kept_in_every_sample[1];
        assert_eq!(
            (b.active.compact(), b.standby.compact()),
            ("0:[2]".into(), "".into())
        );
        let stays: Vec<(i32, Option<u32>, Option<u32>)> = d
            .tasks
            .iter()
            .map(|t| (t.partition, t.active_stayed, t.standby_stayed))
            .collect();
        assert_eq!(
            stays,
            [
                (0, Some(1), Some(1)),
                (1, Some(1), None),
                (2, Some(2), Some(2))
            ]
        );
        let p3 = d.processes.iter().find(|p| p.process_id == "p3").unwrap();
        assert_eq!((p3.tasks.min, p3.tasks.max, p3.active.max), (1, 2, 1));
    }

    #[test]
    fn samples_that_do_not_fit_in_memory_are_refused_with_the_most_that_do() {
        let gib = 1u64 << 30;
        assert!(check_memory(1000, 1000, 8 * gib).is_ok());
        let e = check_memory(1000, 100_000, 8 * gib).unwrap_err();
        assert!(
            e.starts_with("--samples 1000 with up to 100000 members needs about 97656 MiB"),
            "{e}"
        );
        assert!(e.ends_with("give --samples 41 or fewer"), "{e}");
        assert!(check_memory(41, 100_000, 8 * gib).is_ok());
        assert!(check_memory(1, u64::MAX, 0).is_err());
    }

    #[test]
    fn sample_counts_are_bounded_and_the_default_follows_the_budget() {
        assert!(check_count(0).unwrap_err().contains("1 to 1000"));
        assert!(check_count(MAX_SAMPLES + 1).is_err());
        assert!(check_count(1).is_ok());
        // Cheap runs take all 20; a costly one as many as keep it within 3 times one run.
        assert_eq!(default_count(10, 2), DEFAULT_MAX_SAMPLES);
        assert_eq!(default_count(CHEAP_HEARTBEATS / 20, 2), DEFAULT_MAX_SAMPLES);
        assert_eq!(default_count(14_024, 2), 3);
        assert_eq!(default_count(u64::MAX, 1), 2);
        assert_eq!(default_count(u64::MAX, 64), DEFAULT_MAX_SAMPLES);
    }
}
