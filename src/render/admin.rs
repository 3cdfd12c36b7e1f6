//! The admin actions' reports as tables, and a reset plan as Apache's CSV (`--export`).

use super::table;
use crate::admin::parse::csv_field;
use crate::admin::report::{ActionStatus, DeleteOffsetsReport, DeleteReport, ResetReport};

fn opt(v: Option<i64>) -> String {
    v.map_or_else(|| "-".into(), |x| x.to_string())
}

fn change(v: Option<i64>) -> String {
    match v {
        Some(c) if c > 0 => format!("+{c}"),
        Some(c) => c.to_string(),
        None => "-".into(),
    }
}

/// A row's status in words: `done` is what the action did (`reset`, `deleted`).
fn status(s: ActionStatus, done: &str, error: Option<&String>, note: Option<&String>) -> String {
    match s {
        ActionStatus::Planned => format!("would be {done}"),
        ActionStatus::Done => done.to_string(),
        ActionStatus::Failed => format!("failed: {}", error.map_or("", String::as_str)),
        ActionStatus::Kept => format!("kept: {}", note.map_or("", String::as_str)),
    }
}

/// `GROUP TOPIC PARTITION CURRENT-OFFSET NEW-OFFSET CHANGE`, and STATUS once executed.
pub fn reset_table(r: &ResetReport) -> String {
    let mut header = vec![
        "GROUP",
        "TOPIC",
        "PARTITION",
        "CURRENT-OFFSET",
        "NEW-OFFSET",
        "CHANGE",
    ];
    if r.execute {
        header.push("STATUS");
    }
    let mut t = table::new(&header);
    for g in &r.groups {
        for p in &g.partitions {
            let mut row = vec![
                g.group_id.clone(),
                p.topic.clone(),
                p.partition.to_string(),
                opt(p.current_offset),
                p.new_offset.to_string(),
                change(p.change),
            ];
            if r.execute {
                row.push(status(p.status, "reset", p.error.as_ref(), p.note.as_ref()));
            }
            t.add_row(row);
        }
    }
    table::render(&t)
}

/// The plan as `kafka-streams-groups.sh --export` writes it: `topic,partition,offset` for one
/// group, `group,topic,partition,offset` otherwise; no header.
pub fn reset_csv(r: &ResetReport, single_group: bool) -> String {
    let mut out = String::new();
    for g in &r.groups {
        for p in &g.partitions {
            if !single_group {
                out.push_str(&csv_field(&g.group_id));
                out.push(',');
            }
            out.push_str(&format!("{},{},{}\n", p.topic, p.partition, p.new_offset));
        }
    }
    out
}

/// `GROUP TOPIC PARTITION CURRENT-OFFSET STATUS`.
pub fn delete_offsets_table(r: &DeleteOffsetsReport) -> String {
    let mut t = table::new(&["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "STATUS"]);
    for p in &r.partitions {
        t.add_row(vec![
            r.group_id.clone(),
            p.topic.clone(),
            p.partition.to_string(),
            opt(p.current_offset),
            status(p.status, "deleted", p.error.as_ref(), None),
        ]);
    }
    table::render(&t)
}

/// `GROUP STATE COMMITTED-PARTITIONS STATUS`, then `GROUP INTERNAL-TOPIC STATUS`.
pub fn delete_table(r: &DeleteReport) -> String {
    let mut t = table::new(&["GROUP", "STATE", "COMMITTED-PARTITIONS", "STATUS"]);
    for g in &r.groups {
        t.add_row(vec![
            g.group_id.clone(),
            g.state.clone(),
            g.committed_partitions.to_string(),
            status(g.status, "deleted", g.error.as_ref(), None),
        ]);
    }
    let mut out = table::render(&t);
    if !r.internal_topics.is_empty() {
        let mut t = table::new(&["GROUP", "INTERNAL-TOPIC", "STATUS"]);
        for x in &r.internal_topics {
            t.add_row(vec![
                x.group_id.clone(),
                x.topic.clone(),
                status(x.status, "deleted", x.error.as_ref(), x.note.as_ref()),
            ]);
        }
        out.push('\n');
        out.push_str(&table::render(&t));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin::report::{GroupReset, ResetRow};

    fn report(execute: bool) -> ResetReport {
        let row = |p, cur, new, status| ResetRow {
            topic: "in".into(),
            partition: p,
            current_offset: cur,
            new_offset: new,
            change: cur.map(|c| new - c),
            note: None,
            status,
            error: (status == ActionStatus::Failed).then(|| "UNKNOWN_MEMBER_ID".to_string()),
        };
        ResetReport {
            execute,
            scenario: "to-earliest".into(),
            groups: vec![GroupReset {
                group_id: "app".into(),
                state: Some("Empty".into()),
                topics: vec!["in".into()],
                notes: vec![],
                partitions: vec![
                    row(0, Some(250), 0, ActionStatus::Done),
                    row(1, None, 7, ActionStatus::Failed),
                ],
            }],
        }
    }

    #[test]
    fn reset_plan_table_and_csv() {
        let dry = reset_table(&report(false));
        let lines: Vec<Vec<&str>> = dry
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            lines,
            [
                vec![
                    "GROUP",
                    "TOPIC",
                    "PARTITION",
                    "CURRENT-OFFSET",
                    "NEW-OFFSET",
                    "CHANGE"
                ],
                vec!["app", "in", "0", "250", "0", "-250"],
                vec!["app", "in", "1", "-", "7", "-"],
            ]
        );
        let done = reset_table(&report(true));
        assert!(done.lines().nth(1).unwrap().ends_with("reset"), "{done}");
        assert!(done.contains("failed: UNKNOWN_MEMBER_ID"), "{done}");
        assert_eq!(reset_csv(&report(false), true), "in,0,0\nin,1,7\n");
        assert_eq!(reset_csv(&report(false), false), "app,in,0,0\napp,in,1,7\n");
        assert_eq!(change(Some(3)), "+3");
    }
}
