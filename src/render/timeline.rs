//! `timeline` output: the events of a recording in time order, then each member's way to its
//! target.

use super::table;
use super::watch::{awaited_all_text, change_text};
use crate::time;
use crate::watch::timeline::{CatchUp, Happening, Milestone, TimelineReport, Unpaired};

pub fn table(r: &TimelineReport) -> String {
    let mut out = format!(
        "Recording {}: {} sample(s), {} to {} ({})\n\n",
        r.recording,
        r.samples,
        r.from,
        r.to,
        time::format_duration(r.duration_ms)
    );
    let mut t = table::new(&["TIME", "AFTER", "EVENT"]);
    for e in &r.events {
        t.add_row(vec![
            time::time_of_day(e.at_ms),
            time::format_duration(e.after_ms),
            happening_text(&e.what),
        ]);
    }
    out.push_str(&table::render(&t));
    if !r.catch_ups.is_empty() {
        out.push_str("\nMembers on their way to a target:\n");
        out.push_str(&catch_ups(&r.catch_ups));
    }
    if !r.unpaired.is_empty() {
        out.push_str(
            "\nOwner changes no move paired by the last sample (a task dropped that no one took, \
             a replica added that no one gave up):\n",
        );
        out.push_str(&unpaired(&r.unpaired));
    }
    out
}

fn unpaired(rows: &[Unpaired]) -> String {
    let mut t = table::new(&["GROUP", "TASK", "ROLE", "FROM", "TO"]);
    let side = |v: &[String]| match v.is_empty() {
        true => "-".to_string(),
        false => v.join(", "),
    };
    for u in rows {
        t.add_row(vec![
            u.group.clone(),
            u.change.task.clone(),
            u.change.role.to_string(),
            side(&u.change.from),
            side(&u.change.to),
        ]);
    }
    table::render(&t)
}

fn happening_text(h: &Happening) -> String {
    match h {
        Happening::Change(c) => change_text(c),
        Happening::Milestone(m) => milestone_text(m),
    }
}

fn milestone_text(m: &Milestone) -> String {
    match m {
        Milestone::Start {
            group,
            state,
            group_epoch,
            target_assignment_epoch,
            members,
        } => format!(
            "{group}: first sample: {state}, group epoch {group_epoch}, target assignment epoch \
             {target_assignment_epoch}, {members} member(s)"
        ),
        Milestone::MemberWaitingForFirstTarget {
            group,
            member,
            group_epoch,
            target_epoch,
        } => format!(
            "{group}: member {member} waiting for its first target (group epoch {group_epoch}, \
             the target of epoch {target_epoch} predates it)"
        ),
        Milestone::MemberReachedTarget {
            group,
            member,
            target_epoch,
            took_ms,
            at_most_ms,
        } => format!(
            "{group}: member {member} reached its target (target epoch {target_epoch}) {} after \
             the target was seen",
            took(*took_ms, *at_most_ms)
        ),
        Milestone::SampleLate { waited } => {
            let retries = match (waited.wait.retries, &waited.wait.last_retry) {
                (0, _) | (_, None) => String::new(),
                (n, Some(last)) => format!("; {n} retries, last: {last}"),
            };
            format!(
                "no sample for {}: waited for {}{retries}",
                time::format_duration(waited.waited_ms),
                awaited_all_text(&waited.wait)
            )
        }
        Milestone::StableAgain {
            group,
            group_epoch,
            after_ms,
        } => format!(
            "{group}: Stable again at group epoch {group_epoch}, {} after it was seen leaving Stable",
            time::format_duration(*after_ms)
        ),
    }
}

/// `1.0-2.0 s`: samples are apart, so the time lies between the two.
fn took(ms: i64, at_most_ms: i64) -> String {
    if at_most_ms <= ms {
        return time::format_duration(ms);
    }
    let at_most = time::format_duration(at_most_ms);
    match at_most.strip_suffix(" s") {
        Some(secs) if ms < 60_000 => format!("{:.1}-{secs} s", ms as f64 / 1000.0),
        _ => format!("{} to {at_most}", time::format_duration(ms)),
    }
}

fn catch_ups(rows: &[CatchUp]) -> String {
    let mut t = table::new(&[
        "GROUP",
        "MEMBER",
        "PROCESS",
        "TARGET-EPOCH",
        "TARGET-SEEN",
        "REACHED",
        "TOOK",
    ]);
    let time = |s: &str| s.get(11..23).unwrap_or(s).to_string();
    for c in rows {
        t.add_row(vec![
            c.group.clone(),
            c.member.clone(),
            c.process.clone(),
            c.target_epoch.to_string(),
            time(&c.target_seen_at),
            c.reached_at.as_deref().map_or("-".into(), time),
            match (c.took_ms, c.at_most_ms) {
                (Some(t), Some(m)) => took(t, m),
                _ => "not reached".into(),
            },
        ]);
    }
    table::render(&t)
}
