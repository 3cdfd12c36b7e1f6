//! `lag` output: one row per task with its status, then a summary line.

use colored::Colorize;

use crate::lag::LagReport;
use crate::lag::LagStatus;

/// One row per task, then a summary line.
/// CHANGELOG-END is shown when it is known for some task (a live group).
pub fn table(r: &LagReport) -> String {
    let live = r.tasks.iter().any(|l| l.changelog_end_offset.is_some());
    let mut header = vec![
        "GROUP",
        "MEMBER",
        "PROCESS",
        "TASK",
        "ROLE",
        "OFFSET",
        "END-OFFSET",
    ];
    if live {
        header.push("CHANGELOG-END");
    }
    header.extend(["LAG", "STATUS"]);
    let mut t = super::table::new(&header);
    let num = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    for l in &r.tasks {
        let status = match l.status {
            LagStatus::CaughtUp => "caught-up".green().to_string(),
            LagStatus::Lagging => "lagging".yellow().to_string(),
            LagStatus::Unknown => "unknown".dimmed().to_string(),
        };
        let mut row = vec![
            l.group_id.clone(),
            l.member_id.clone(),
            l.process_id.clone(),
            l.task.to_string(),
            l.role.map_or("on-disk".to_string(), |r| r.to_string()),
            num(l.offset),
            num(l.end_offset),
        ];
        if live {
            row.push(num(l.changelog_end_offset));
        }
        row.extend([num(l.lag), status]);
        t.add_row(row);
    }
    let mut out = String::new();
    if !r.tasks.is_empty() {
        out.push_str(&super::table::render(&t));
    }
    out.push_str(&format!(
        "{}: {} caught up, {} lagging, {} unknown (acceptable.recovery.lag = {})\n",
        r.group_id, r.caught_up, r.lagging, r.unknown, r.acceptable_recovery_lag
    ));
    out
}
