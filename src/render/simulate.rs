//! `simulate` output: the table form of a simulation report (JSON is the report itself).

use colored::Colorize;

use crate::simulate::report::{Distribution, Kept, ProcessLoad, Range, TaskStay};
use crate::simulate::report::{Samples, SimulationReport, StopReason};
use model::{natural, GroupStateName, StatusCode, TaskSet};

fn state_colored(state: GroupStateName) -> String {
    let name = state.name();
    match state {
        GroupStateName::Stable => name.green().to_string(),
        GroupStateName::Empty | GroupStateName::Dead => name.dimmed().to_string(),
        _ => name.yellow().to_string(),
    }
}

fn names(statuses: &[StatusCode], sep: &str) -> String {
    let v: Vec<String> = statuses.iter().map(|s| s.name()).collect();
    v.join(sep)
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn ms(v: Option<i64>) -> String {
    v.map_or("never".into(), |v| format!("{:.1} s", v as f64 / 1000.0))
}

/// The table form of a simulation report: the transcript with `trace`, then the summary, the
/// steps (with each step's assignment changes when `verbose`) and the members.
pub fn table(r: &SimulationReport, trace: bool, verbose: bool) -> String {
    let mut out = String::new();
    if trace {
        out.push_str(&transcript(r));
        out.push('\n');
    }
    out.push_str(&summary(r));
    out.push_str(&samples(r));
    out.push_str(&problems(r));
    if !r.steps.is_empty() {
        out.push('\n');
        out.push_str(&steps(r, verbose));
    }
    out.push('\n');
    // Which of the samples the tables show, when they differ.
    match (&r.samples.distribution, r.samples.joiners) {
        (Some(_), _) if r.samples.exact => {}
        (Some(_), 0) => out.push_str(&format!("Sample 1 of {}:\n", r.samples.count)),
        (Some(_), _) => out.push_str(&format!(
            "Sample 1 of {} (joiners by placeholder ids):\n",
            r.samples.count
        )),
        (None, _) => {}
    }
    out.push_str(&members(r));
    if !r.partitions_by_user_endpoint.is_empty() {
        out.push_str("\nInteractive queries (the coordinator's endpoint map at the end):\n");
        out.push_str(&endpoints(r));
    }
    out
}

/// ENDPOINT ACTIVE STANDBY: what each endpoint serves, its members' entries merged as Kafka
/// Streams merges them.
fn endpoints(r: &SimulationReport) -> String {
    use std::collections::{BTreeMap, BTreeSet};
    type Served = BTreeMap<String, BTreeSet<i32>>;
    let mut by_endpoint: BTreeMap<(String, u16), (Served, Served)> = BTreeMap::new();
    for e in &r.partitions_by_user_endpoint {
        let entry = by_endpoint
            .entry((e.endpoint.host.clone(), e.endpoint.port))
            .or_default();
        for (into, from) in [(&mut entry.0, &e.active), (&mut entry.1, &e.standby)] {
            for t in from {
                into.entry(t.topic.clone())
                    .or_default()
                    .extend(t.partitions.iter().copied());
            }
        }
    }
    let cell = |s: &Served| {
        if s.is_empty() {
            return "-".to_string();
        }
        s.iter()
            .map(|(t, ps)| {
                let ps: Vec<String> = ps.iter().map(i32::to_string).collect();
                format!("{t}:[{}]", ps.join(","))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut t = super::table::new(&["ENDPOINT", "ACTIVE", "STANDBY"]);
    let mut rows: Vec<_> = by_endpoint.into_iter().collect();
    rows.sort_by(|a, b| {
        (natural::Natural(&a.0 .0), a.0 .1).cmp(&(natural::Natural(&b.0 .0), b.0 .1))
    });
    for ((host, port), (active, standby)) in rows {
        t.add_row(vec![
            format!("{host}:{port}"),
            cell(&active),
            cell(&standby),
        ]);
    }
    super::table::render(&t)
}

/// The heartbeat-by-heartbeat transcript.
fn transcript(r: &SimulationReport) -> String {
    let mut t = super::table::new(&[
        "TIME",
        "MEMBER",
        "REQ-EPOCH",
        "OWNED-ACTIVE",
        "RESP-EPOCH",
        "ASSIGNED-ACTIVE",
        "ASSIGNED-STANDBY",
        "STATUS/ERROR",
    ]);
    let tasks = |s: &Option<TaskSet>| s.as_ref().map_or("-".into(), |s| s.compact());
    for e in &r.trace {
        let mut notes: Vec<String> = e.statuses.iter().map(|s| s.name()).collect();
        if let Some(err) = &e.error {
            notes.push(err.name().red().to_string());
        }
        t.add_row(vec![
            format!("{:.3}s", e.time_ms as f64 / 1000.0),
            e.member_id.clone(),
            e.request_epoch.to_string(),
            e.owned_active.compact(),
            e.response_epoch.to_string(),
            tasks(&e.assigned_active),
            tasks(&e.assigned_standby),
            notes.join(" "),
        ]);
    }
    super::table::render(&t)
}

/// The profile, the end state, time to Stable, balance and what was seen.
fn summary(r: &SimulationReport) -> String {
    let mut out = format!(
        "Kafka {} coordinator, {} assignor. Scenario {} (seed {}): group {} at group epoch {}, target assignment epoch {}, topology epoch {}\n",
        r.kafka_version,
        r.assignor,
        r.scenario,
        r.seed,
        state_colored(r.final_state),
        r.group_epoch,
        r.target_assignment_epoch,
        r.topology_epoch
    );
    // With samples, this line is the first sample's; the range across them follows.
    let sample = match r.samples.count {
        1 => "",
        _ => " in sample 1",
    };
    out.push_str(&format!(
        "{}; {}, {}, {} moved; ended at {}\n",
        match r.virtual_time_to_stable_ms {
            Some(t) if r.stable_from_first_step => {
                format!(
                    "Stable after {} of virtual time from the first step{sample}",
                    ms(Some(t))
                )
            }
            Some(t) => format!("Stable after {} of virtual time{sample}", ms(Some(t))),
            None if r.stable_from_first_step => "Never Stable after the first step".to_string(),
            None => "Never Stable".to_string(),
        },
        plural(r.heartbeats, "heartbeat"),
        plural(r.rebalances, "rebalance"),
        plural(r.tasks_moved, "task"),
        ms(Some(r.virtual_time_end_ms)),
    ));
    let b = &r.balance;
    // A range, or one number when every member (process) has the same.
    let range = |lo: usize, hi: usize| match lo == hi {
        true => lo.to_string(),
        false => format!("{lo}-{hi}"),
    };
    // Per member counts active and standby copies: the total says the same when they differ.
    let copies: usize = r
        .members
        .iter()
        .map(|m| m.assignment.active.len() + m.assignment.standby.len())
        .sum();
    let total = match copies as u64 == r.total_tasks {
        true => format!("{} tasks in all", r.total_tasks),
        false => format!(
            "{} tasks in all, {copies} with their standby copies",
            r.total_tasks
        ),
    };
    out.push_str(&format!(
        "Balance: {} tasks per member ({} active), {} per process; {total}\n",
        range(b.min_tasks_per_member, b.max_tasks_per_member),
        range(b.min_active_per_member, b.max_active_per_member),
        range(b.min_tasks_per_process, b.max_tasks_per_process),
    ));
    if !r.statuses_seen.is_empty() {
        out.push_str(&format!(
            "Statuses seen: {}\n",
            names(&r.statuses_seen, ", ")
        ));
    }
    if !r.errors_seen.is_empty() {
        let e: Vec<String> = r
            .errors_seen
            .iter()
            .map(|(k, v)| format!("{k} x{v}"))
            .collect();
        out.push_str(&format!("Errors and removals: {}\n", e.join(", ")));
    }
    out
}

/// A range of values, or one number when they are all equal; `unit` follows the numbers.
fn spread(r: &Range, number: &dyn Fn(i64) -> String, unit: &str) -> String {
    if r.min == r.max {
        format!("{}{unit}", number(r.min))
    } else {
        let (lo, hi, mid) = (number(r.min), number(r.max), number(r.median));
        format!("{lo}-{hi}{unit} (median {mid})")
    }
}

/// How sure the report is: exact, one run of many possible, or what varied across samples.
fn samples(r: &SimulationReport) -> String {
    let s = &r.samples;
    let Some(d) = &s.distribution else {
        return match s.exact {
            true => "Exact: no member joins with an id Kafka draws, so ids cannot change the \
                     assignment (one run: --samples N shows what heartbeat timing changes)\n"
                .into(),
            false => format!(
                "One run: {} joining member(s) get ids Kafka draws at random, and the assignor \
                 breaks ties by id: --samples N shows what varies\n",
                s.joiners
            ),
        };
    };
    let mut out = match (s.exact, s.joiners) {
        (true, _) => format!(
            "Exact: no member joins with an id Kafka draws, and all {} runs (heartbeat phases \
             drawn at random) end with this assignment:\n",
            s.count
        ),
        (false, 0) => format!(
            "Samples: {} runs with heartbeat phases drawn at random end with {} different \
             assignments (timing decides):\n",
            s.count, d.distinct_assignments
        ),
        (false, _) if d.distinct_assignments == 1 => format!(
            "Samples: all {} runs with the random ids Kafka gives joiners end with the same \
             assignment (joiners by placeholder):\n",
            s.count
        ),
        (false, _) => format!(
            "Samples: {} runs with the random ids Kafka gives joiners (the assignor breaks ties \
             by id) end with {} different assignments:\n",
            s.count, d.distinct_assignments
        ),
    };
    out.push_str(&across(r, d));
    out.push_str(&which_outcomes(s));
    if !s.exact {
        out.push_str(&certain(d));
        out.push_str(&format!("  Tasks per process: {}\n", loads(&d.processes)));
    }
    out
}

/// Which of the distinct assignments came out most often, and whether the table shows it.
/// Nothing when all runs agree, or when no two do (the header already says how many).
fn which_outcomes(s: &Samples) -> String {
    let [first, others @ ..] = &s.outcomes[..] else {
        return String::new();
    };
    if others.is_empty() || first.count == 1 {
        return String::new();
    }
    let which = match first.first_sample {
        1 => "the one shown below".to_string(),
        k => {
            let shown = s.outcomes.iter().find(|o| o.first_sample == 1);
            let shown = shown.map_or(0, |o| o.count);
            format!("first in sample {k} (the one shown below: {shown} runs)")
        }
    };
    format!(
        "  Most frequent outcome: {} of {} runs, {which}; {} other{} (-o json lists each: samples.outcomes)\n",
        first.count,
        s.count,
        others.len(),
        if others.len() == 1 { "" } else { "s" }
    )
}

/// Moves and time to Stable across the samples.
fn across(r: &SimulationReport, d: &Distribution) -> String {
    let count = |n: i64| n.to_string();
    let mut stable = match &d.time_to_stable_ms {
        Some(t) => format!(
            "Stable after {}",
            spread(t, &|v| format!("{:.1}", v as f64 / 1000.0), " s")
        ),
        None => "never Stable".into(),
    };
    if d.never_stable > 0 && d.time_to_stable_ms.is_some() {
        stable.push_str(&format!(", never Stable in {}", d.never_stable));
    }
    let moved = match r.steps.is_empty() {
        true => String::new(),
        false => format!(
            "moved active {}, moved standby {}; ",
            spread(&d.moved_active, &count, ""),
            spread(&d.moved_standby, &count, ""),
        ),
    };
    format!("  Across them: {moved}{stable}\n")
}

/// How many of the tasks members had before the first step they keep in every sample.
fn certain(d: &Distribution) -> String {
    let kept = |f: &dyn Fn(&Kept) -> usize| d.kept_in_every_sample.iter().map(f).sum::<usize>();
    let had = |f: &dyn Fn(&TaskStay) -> bool| d.tasks.iter().filter(|t| f(t)).count();
    let (active, standby) = (
        had(&|t| t.active_stayed.is_some()),
        had(&|t| t.standby_stayed.is_some()),
    );
    let mut parts = Vec::new();
    if active > 0 {
        parts.push(format!("{} of {active} active", kept(&|k| k.active.len())));
    }
    if standby > 0 {
        parts.push(format!(
            "{} of {standby} standby",
            kept(&|k| k.standby.len())
        ));
    }
    match parts.is_empty() {
        true => String::new(),
        false => format!(
            "  Certain: {} tasks stay with their member in every sample (-o json lists them)\n",
            parts.join(" and ")
        ),
    }
}

/// Each process's range of tasks, or one range when every process has the same.
fn loads(processes: &[ProcessLoad]) -> String {
    const SHOWN: usize = 8;
    let count = |n: i64| n.to_string();
    if let Some(first) = processes.first() {
        if processes.len() > 1 && processes.iter().all(|p| p.tasks == first.tasks) {
            return format!("{} each", spread(&first.tasks, &count, ""));
        }
    }
    let mut out: Vec<String> = processes
        .iter()
        .take(SHOWN)
        .map(|p| {
            format!(
                "{} {}",
                short_id(&p.process_id),
                spread(&p.tasks, &count, "")
            )
        })
        .collect();
    if processes.len() > SHOWN {
        out.push(format!("and {} more", processes.len() - SHOWN));
    }
    out.join(", ")
}

/// A process id as a reader tells them apart: UUIDs by their first 8 characters.
fn short_id(id: &str) -> &str {
    match id.len() {
        36 => &id[..8],
        _ => id,
    }
}

/// Members that died, a stop at the time limit, advice, and invariant violations.
fn problems(r: &SimulationReport) -> String {
    let mut out = stopped_by_max_time(r);
    for f in &r.failed_members {
        out.push_str(&format!(
            "{} {} at {}: {} \"{}\" (fatal for a Kafka Streams client)\n",
            "MEMBER DIED:".red().bold(),
            f.member_id,
            ms(Some(f.time_ms)),
            f.error.name(),
            f.message
        ));
    }
    if let Some(a) = &r.advice {
        out.push_str(&format!("{} {a}\n", "Advice:".bold()));
    }
    for v in &r.invariant_violations {
        out.push_str(&format!("{} {v}\n", "INVARIANT VIOLATED:".red().bold()));
    }
    out
}

/// The line saying that the time limit ended the run, with the way out; empty otherwise.
fn stopped_by_max_time(r: &SimulationReport) -> String {
    if r.stop_reason != StopReason::MaxTime {
        return String::new();
    }
    let why = if r.final_state == GroupStateName::NotReady {
        "the group is NotReady (topics missing or mis-partitioned: see the statuses), which more \
         time does not change unless a later step creates them"
            .to_string()
    } else {
        format!(
            "raise --max-time (now {} ms) to let it settle",
            r.max_time_ms
        )
    };
    format!(
        "{} the run reached --max-time at {} of virtual time before the group was Stable: {why}\n",
        "STOPPED AT THE TIME LIMIT:".yellow().bold(),
        ms(Some(r.max_time_ms)),
    )
}

/// One row per scenario step, then (with `verbose`) each step's assignment changes.
fn steps(r: &SimulationReport, verbose: bool) -> String {
    let mut t = super::table::new(&[
        "STEP",
        "STARTED",
        "STABLE-AFTER",
        "GROUP-EPOCH",
        "MOVED-ACTIVE",
        "MOVED-STANDBY",
        "STATUSES",
    ]);
    for s in &r.steps {
        t.add_row(vec![
            s.short_label.clone(),
            ms(Some(s.started_at_ms)),
            ms(s.time_to_stable_ms),
            format!("{} -> {}", s.group_epoch_before, s.group_epoch_after),
            s.moved_active.to_string(),
            s.moved_standby.to_string(),
            names(&s.statuses_seen, " "),
        ]);
    }
    let mut out = super::table::render(&t);
    if verbose {
        for s in &r.steps {
            out.push_str(&format!(
                "\nAssignment changes in step \"{}\":\n",
                s.short_label
            ));
            out.push_str(&super::diff::moves_and_owners(&s.moves, &s.diff, "MEMBER"));
        }
    }
    out
}

/// The members at the end, with their tasks.
fn members(r: &SimulationReport) -> String {
    let mut t = super::table::new(&[
        "PROCESS",
        "MEMBER",
        "MEMBER-EPOCH",
        "TOPOLOGY-EPOCH",
        "ACTIVE",
        "STANDBY",
    ]);
    for m in &r.members {
        t.add_row(vec![
            m.process_id.clone(),
            m.member_id.clone(),
            m.member_epoch.to_string(),
            m.topology_epoch.to_string(),
            m.assignment.active.compact(),
            m.assignment.standby.compact(),
        ]);
    }
    super::table::render(&t)
}
