//! `describe --watch` output: one line per change off a terminal, one JSON object per sample,
//! and on a terminal a frame redrawn in place that marks what changed since the previous sample.

use colored::Colorize;

use crate::time;
use crate::watch::change::{total_lag, Change, Progress};
use crate::watch::sample::{Sample, WatchLine};
use crate::watch::watcher::{Point, Watcher};
use model::group::{CoordinatorNode, GroupDescription};
use model::wait::{Awaited, Wait};

/// A change as a sentence, prefixed with its group.
pub fn change_text(c: &Change) -> String {
    let g = c.group().unwrap_or_default();
    let text = match c {
        Change::Unreachable { error } => return format!("broker unreachable, retrying: {error}"),
        Change::Reachable => return "broker reachable again".into(),
        Change::GroupAppeared { .. } => "group described".into(),
        Change::GroupGone { error, .. } => match error {
            Some(e) => format!("no longer described: {e}"),
            None => "no longer described".into(),
        },
        Change::CoordinatorMoved { from, to, .. } => {
            format!("coordinator moved: {} -> {}", broker(from), broker(to))
        }
        Change::State { from, to, .. } => format!("state {from} -> {to}"),
        Change::GroupEpoch { from, to, .. } => format!("group epoch {from} -> {to}"),
        Change::TargetAssignmentEpoch { from, to, .. } => {
            format!("target assignment epoch {from} -> {to}")
        }
        Change::TopologyEpoch { from, to, .. } => format!("topology epoch {from} -> {to}"),
        Change::MemberJoined {
            member,
            process,
            member_epoch,
            waiting_for_first_target,
            ..
        } => {
            let waiting = match waiting_for_first_target {
                true => ", waiting for its first target",
                false => "",
            };
            format!(
                "member joined: {member} (process {process}, member epoch {member_epoch}{waiting})"
            )
        }
        Change::MemberLeft {
            member, process, ..
        } => {
            format!("member left: {member} (process {process})")
        }
        Change::TaskMoved {
            task,
            role,
            from,
            to,
            ..
        } => {
            format!(
                "task {task} ({role}) moved: {} -> {}",
                from.join(","),
                to.join(",")
            )
        }
        Change::MemberEpoch {
            member, from, to, ..
        } => {
            format!("member {member}: member epoch {from} -> {to}")
        }
        Change::MemberProgress {
            member, progress, ..
        } => {
            format!("member {member}: {}", progress_text(progress))
        }
        Change::Lag { from, to, .. } => format!("lag {} -> {}", lag(*from), lag(*to)),
    };
    format!("{g}: {text}")
}

/// What a late sample waits for, and since when: `waiting since 17:40:13.250 for the
/// coordinator of demo (broker 2 at localhost:9093): 1.5 s so far, retrying (3 retries, last:
/// ...)`, at `now_ms`.
pub fn waiting_line(w: &Wait, now_ms: i64) -> String {
    let how = match (w.retries, &w.last_retry) {
        (0, _) | (_, None) => "no answer yet".to_string(),
        (n, Some(last)) => format!("retrying ({n} retries, last: {last})"),
    };
    format!(
        "waiting since {} for {}: {} so far, {how}",
        time::time_of_day(w.since_ms),
        awaited_text(w),
        time::format_duration(now_ms - w.since_ms)
    )
}

/// `the coordinator of demo (broker 2 at localhost:9093)`, `the bootstrap servers (...)`,
/// `broker 3 at localhost:9094`: the broker asked now.
pub fn awaited_text(w: &Wait) -> String {
    awaited_at(w, w.broker.as_ref().map(CoordinatorNode::named))
}

/// What a wait awaited, with every broker it asked (`broker 2 at ..., then broker 3 at ...`).
pub fn awaited_all_text(w: &Wait) -> String {
    let all: Vec<String> = w.brokers.iter().map(CoordinatorNode::named).collect();
    awaited_at(w, (!all.is_empty()).then(|| all.join(", then ")))
}

/// `w`'s awaited thing, at `brokers` (as text) when known.
fn awaited_at(w: &Wait, brokers: Option<String>) -> String {
    match (&w.awaited, brokers) {
        (Awaited::Bootstrap { servers }, _) => {
            format!("the bootstrap servers ({})", servers.join(", "))
        }
        (Awaited::Coordinator { groups }, Some(b)) => {
            format!("the coordinator of {} ({b})", groups.join(", "))
        }
        (Awaited::Coordinator { groups }, None) => {
            format!("the coordinator of {} (not found yet)", groups.join(", "))
        }
        (Awaited::Broker, Some(b)) => b,
        (Awaited::Broker, None) => "a broker's answer".to_string(),
    }
}

/// `broker 2 (localhost:9093)`.
fn broker(b: &CoordinatorNode) -> String {
    format!("broker {} ({}:{})", b.id, b.host, b.port)
}

fn progress_text(p: &Progress) -> String {
    if p.caught_up() {
        return format!(
            "at its target (target epoch {}, {} task(s))",
            p.target_epoch, p.target_tasks
        );
    }
    format!(
        "catching up: member epoch {} of target epoch {}, owns {} of {} target task(s), {} to revoke",
        p.member_epoch, p.target_epoch, p.owned_of_target, p.target_tasks, p.to_revoke
    )
}

fn lag(v: Option<i64>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

/// The group in one line: state, epochs, members, lag.
pub fn group_summary(g: &GroupDescription) -> String {
    format!(
        "{}: {}, group epoch {}, target assignment epoch {}, topology epoch {}, {} member(s), lag {}",
        g.group_id,
        g.state,
        g.group_epoch,
        g.target_assignment_epoch,
        g.topology.epoch,
        g.members.len(),
        lag(total_lag(g))
    )
}

/// Off a terminal, the first sample: where each group stands (or why nothing is known).
pub fn start_lines(s: &Sample) -> String {
    let at = &s.sampled_at;
    let mut out = String::new();
    if let Some(e) = &s.error {
        out.push_str(&format!("{at} broker unreachable, retrying: {e}\n"));
    }
    for g in &s.snapshot.groups {
        out.push_str(&format!("{at} {}\n", group_summary(g)));
    }
    for e in &s.group_errors {
        out.push_str(&format!(
            "{at} {}: not described: {}\n",
            e.group_id, e.error
        ));
    }
    out
}

/// Off a terminal, a later sample: one timestamped line per change.
pub fn change_lines(s: &Sample, changes: &[Change]) -> String {
    changes
        .iter()
        .map(|c| format!("{} {}\n", s.sampled_at, change_text(c)))
        .collect()
}

/// With `--output json`: the sample and its changes as one line of JSON.
pub fn json_line(line: &WatchLine) -> String {
    let mut s = serde_json::to_string(line).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Which rows of the view table a change marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkBy {
    /// Rows name members (`--members`): a joined member `+`, a changed one `*`.
    Member,
    /// Rows start with the group: a group whose state, epochs or lag changed `*`.
    Group,
    /// Rows are the group's offsets (`--offsets`): a group whose lag changed `*`.
    Lag,
}

/// What a terminal frame shows.
pub struct Frame<'a> {
    /// The first line: what is watched, how often, how to stop.
    pub title: &'a str,
    pub watcher: &'a Watcher,
    /// The changes of the latest sample.
    pub changes: &'a [Change],
    /// Earlier changes with their time, oldest first.
    pub recent: &'a [(i64, Change)],
    /// The view table of the last sample that described the cluster.
    pub table: &'a str,
    pub mark_by: MarkBy,
    pub width: usize,
    pub height: usize,
    /// What the sample in flight waits for, when it is late ([`waiting_line`]).
    pub waiting: Option<&'a str>,
}

/// The frame as text, or `None` when the terminal is too narrow for the view (the caller falls
/// back to lines). Taller frames lose their oldest changes first, then table rows.
pub fn frame(f: &Frame) -> Option<String> {
    let mut top = vec![f.title.bold().to_string()];
    if let Some(error) = f.watcher.unreachable() {
        top.push(format!(
            "{} {error}",
            "! broker unreachable, retrying:".red().bold()
        ));
    }
    if let Some(waiting) = f.waiting {
        top.push(fit(&format!("{} {waiting}", "…".yellow().bold()), f.width));
    }
    let last = f.watcher.last();
    for g in last
        .map(|s| s.snapshot.groups.as_slice())
        .unwrap_or_default()
    {
        top.push(group_header(g, f.changes));
        top.push(fit(&history_strip(f.watcher.history(&g.group_id)), f.width));
    }
    let table = marked_table(f.table, f.changes, f.mark_by);
    let fixed = top.iter().chain(&table).map(|l| visible_width(l));
    if fixed.max().unwrap_or(0) > f.width {
        return None;
    }
    Some(assemble(f, top, table))
}

/// Title, groups, table and as many changes as fit the height.
fn assemble(f: &Frame, top: Vec<String>, mut table: Vec<String>) -> String {
    let rows = f.height.saturating_sub(1).max(1);
    let room = rows.saturating_sub(top.len() + 2);
    if table.len() > room {
        let hidden = table.len() + 1 - room;
        table.truncate(room.saturating_sub(1));
        table.push(format!("… {hidden} more row(s): the terminal is too short"));
    }
    let mut lines = top;
    lines.push(String::new());
    lines.extend(table);
    let room = rows.saturating_sub(lines.len() + 2);
    let log = change_log(f, room);
    if !log.is_empty() {
        lines.push(String::new());
        lines.push("Changes, newest first (> since the previous sample):".into());
        lines.extend(log);
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(&l);
        out.push_str("\x1b[K\n");
    }
    out
}

fn change_log(f: &Frame, room: usize) -> Vec<String> {
    let now = f.watcher.last().map_or(0, |s| s.sampled_at_ms);
    // Samples newest first, each sample's changes in the order they were found.
    let mut older: Vec<(bool, i64, &Change)> =
        f.recent.iter().map(|(at, c)| (false, *at, c)).collect();
    older.sort_by_key(|(_, at, _)| std::cmp::Reverse(*at));
    let newest = f.changes.iter().map(|c| (true, now, c));
    newest
        .chain(older)
        .take(room)
        .map(|(fresh, at, c)| {
            let mark = if fresh {
                ">".green().bold().to_string()
            } else {
                " ".into()
            };
            let text = format!("{} {}", time::time_of_day_s(at), change_text(c));
            format!("{mark} {}", fit(&text, f.width.saturating_sub(2)))
        })
        .collect()
}

/// `app  Stable  group epoch 4 (was 3)  target epoch 4  topology epoch 0  members 2 (+1)  lag 0`.
fn group_header(g: &GroupDescription, changes: &[Change]) -> String {
    let mine = || {
        changes
            .iter()
            .filter(|c| c.group() == Some(g.group_id.as_str()))
    };
    let was = |v: String| format!("(was {v})").yellow().to_string();
    let mut state = g.state.clone();
    let (mut epoch, mut target) = (
        g.group_epoch.to_string(),
        g.target_assignment_epoch.to_string(),
    );
    let (mut joined, mut left) = (0, 0);
    for c in mine() {
        match c {
            Change::State { from, .. } => state = format!("{state} {}", was(from.clone())),
            Change::GroupEpoch { from, .. } => epoch = format!("{epoch} {}", was(from.to_string())),
            Change::TargetAssignmentEpoch { from, .. } => {
                target = format!("{target} {}", was(from.to_string()))
            }
            Change::MemberJoined { .. } => joined += 1,
            Change::MemberLeft { .. } => left += 1,
            _ => {}
        }
    }
    let mut members = g.members.len().to_string();
    if joined > 0 {
        members.push_str(&format!(" {}", format!("(+{joined})").green()));
    }
    if left > 0 {
        members.push_str(&format!(" {}", format!("(-{left})").red()));
    }
    format!(
        "{}  {state}  group epoch {epoch}  target epoch {target}  topology epoch {}  members {members}  lag {}",
        g.group_id.bold(),
        g.topology.epoch,
        lag(total_lag(g))
    )
}

/// `history (group/target epoch): 17:20:01 Stable 3/3 › 17:20:05 Reconciling 4/4 › ...`.
fn history_strip(points: &[Point]) -> String {
    let steps: Vec<String> = points
        .iter()
        .map(|p| {
            format!(
                "{} {} {}/{}",
                time::time_of_day_s(p.at_ms),
                p.state,
                p.group_epoch,
                p.target_epoch
            )
        })
        .collect();
    format!("  history (group/target epoch): {}", steps.join(" › "))
}

/// The table with a gutter: `+` a joined member, `*` a row with a change.
fn marked_table(table: &str, changes: &[Change], by: MarkBy) -> Vec<String> {
    let mut joined = Vec::new();
    let mut touched: Vec<&str> = Vec::new();
    for c in changes {
        match (by, c) {
            (MarkBy::Member, Change::MemberJoined { member, .. }) => joined.push(member.as_str()),
            (MarkBy::Member, Change::MemberEpoch { member, .. })
            | (MarkBy::Member, Change::MemberProgress { member, .. }) => touched.push(member),
            (MarkBy::Member, Change::TaskMoved { from, to, .. }) => {
                touched.extend(from.iter().chain(to).map(String::as_str))
            }
            (MarkBy::Group, c) if !matches!(c, Change::TaskMoved { .. }) => {
                touched.extend(c.group())
            }
            (MarkBy::Lag, Change::Lag { group, .. }) => touched.push(group),
            _ => {}
        }
    }
    let has = |line: &str, ids: &[&str]| match by {
        MarkBy::Member => line.split_whitespace().any(|cell| ids.contains(&cell)),
        MarkBy::Group | MarkBy::Lag => line
            .split_whitespace()
            .next()
            .is_some_and(|g| ids.contains(&g)),
    };
    table
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let mark = if i == 0 {
                " ".normal()
            } else if has(line, &joined) {
                "+".green().bold()
            } else if has(line, &touched) {
                "*".yellow().bold()
            } else {
                " ".normal()
            };
            format!("{mark} {line}")
        })
        .collect()
}

/// `text` cut to `width` characters, with `…` where it was cut.
fn fit(text: &str, width: usize) -> String {
    if visible_width(text) <= width || width == 0 {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// Characters a terminal shows: ANSI colour sequences take no room.
pub fn visible_width(s: &str) -> usize {
    let mut n = 0;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests;
