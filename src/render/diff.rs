//! Human output of `diff topology`, `diff assignment` and the diff part of `check-epoch`.
//! Colour comes from `colored`, switched on or off globally by `render::color::init`.

use model::movement::{OwnerDiff, TaskMove};
use std::fmt::Write;

use colored::Colorize;

use crate::diff::{AssignmentDiffReport, ComparedBy, TopologyDiffReport};
use crate::topology::diff::{Hazard, ListChange, SubtopologyDiff, TopologyDiff};
use model::topology::{Subtopology, Topology};
use model::TaskSet;

/// The whole `diff topology` report.
pub fn topology_report(r: &TopologyDiffReport) -> String {
    let (old, new) = (&r.topologies.0, &r.topologies.1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} (topology epoch {}) -> {} (topology epoch {})",
        "Topology diff:".bold(),
        r.old,
        r.diff.old_epoch,
        r.new,
        r.diff.new_epoch
    );
    out.push_str(&topology_diff_body(&r.diff, old, new));
    out
}

/// The changes and hazards of a topology diff, without a title line.
pub fn topology_diff_body(d: &TopologyDiff, old: &Topology, new: &Topology) -> String {
    let mut out = String::new();
    if d.is_empty() {
        let _ = writeln!(out, "{}", "No differences in content.".green());
        return out;
    }
    let _ = writeln!(
        out,
        "Subtopologies: {} added, {} removed, {} changed",
        d.added_subtopologies.len(),
        d.removed_subtopologies.len(),
        d.changed_subtopologies.len()
    );
    if !d.hazards.is_empty() {
        out.push('\n');
        out.push_str(&hazards(&d.hazards));
    }
    for id in &d.added_subtopologies {
        let _ = writeln!(out, "\n{}", format!("+ subtopology {id} (added)").green());
        if let Some(s) = new.subtopology(id) {
            out.push_str(&subtopology_lines(s, "+"));
        }
    }
    for id in &d.removed_subtopologies {
        let _ = writeln!(out, "\n{}", format!("- subtopology {id} (removed)").red());
        if let Some(s) = old.subtopology(id) {
            out.push_str(&subtopology_lines(s, "-"));
        }
    }
    for sd in &d.changed_subtopologies {
        out.push_str(&changed_subtopology(sd));
    }
    out
}

/// One changed subtopology: its list changes, copartition groups and topic settings.
fn changed_subtopology(sd: &SubtopologyDiff) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{}",
        format!("~ subtopology {} (changed)", sd.id).yellow()
    );
    list_change(&mut out, "source topics", &sd.source_topics);
    list_change(&mut out, "source topic patterns", &sd.source_topic_regex);
    list_change(
        &mut out,
        "repartition source topics",
        &sd.repartition_source_topics,
    );
    list_change(
        &mut out,
        "repartition sink topics",
        &sd.repartition_sink_topics,
    );
    list_change(&mut out, "changelog topics", &sd.changelog_topics);
    for g in &sd.copartition_groups.added {
        let _ = writeln!(
            out,
            "    copartition group: {}",
            format!("+ [{}]", g.join(", ")).green()
        );
    }
    for g in &sd.copartition_groups.removed {
        let _ = writeln!(
            out,
            "    copartition group: {}",
            format!("- [{}]", g.join(", ")).red()
        );
    }
    for c in &sd.topic_changes {
        let mut parts = Vec::new();
        if let Some((a, b)) = c.partitions {
            parts.push(format!("partitions {} -> {}", count(a), count(b)));
        }
        if let Some((a, b)) = c.replication_factor {
            parts.push(format!("replication factor {a} -> {b}"));
        }
        if !c.configs.is_empty() {
            parts.push(format!("configs changed: {}", c.configs.join(", ")));
        }
        let _ = writeln!(
            out,
            "    {} {}: {}",
            c.role.replace('_', " "),
            c.topic,
            parts.join("; ")
        );
    }
    out
}

fn count(n: i32) -> String {
    if n == 0 {
        "auto".to_string()
    } else {
        n.to_string()
    }
}

fn list_change(out: &mut String, what: &str, c: &ListChange) {
    for t in &c.added {
        let _ = writeln!(out, "    {what}: {}", format!("+ {t}").green());
    }
    for t in &c.removed {
        let _ = writeln!(out, "    {what}: {}", format!("- {t}").red());
    }
}

fn subtopology_lines(s: &Subtopology, sign: &str) -> String {
    let mut out = String::new();
    let mut line = |what: &str, items: Vec<String>| {
        if !items.is_empty() {
            let _ = writeln!(out, "    {what}: {sign} {}", items.join(", "));
        }
    };
    let sorted = |v: Vec<String>| {
        let mut v = v;
        v.sort();
        v
    };
    line("source topics", sorted(s.source_topics.clone()));
    line(
        "source topic patterns",
        sorted(s.source_topic_regex.clone()),
    );
    line(
        "repartition source topics",
        sorted(
            s.repartition_source_topics
                .iter()
                .map(|t| t.name.clone())
                .collect(),
        ),
    );
    line(
        "repartition sink topics",
        sorted(s.repartition_sink_topics.clone()),
    );
    line(
        "changelog topics",
        sorted(
            s.state_changelog_topics
                .iter()
                .map(|t| t.name.clone())
                .collect(),
        ),
    );
    let mut groups: Vec<String> = s
        .copartition_groups
        .iter()
        .map(|g| format!("[{}]", g.iter().cloned().collect::<Vec<_>>().join(", ")))
        .collect();
    groups.sort();
    line("copartition groups", groups);
    out
}

/// Hazards, one per line, flagged.
pub fn hazards(hs: &[Hazard]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", format!("HAZARDS ({}):", hs.len()).red().bold());
    for h in hs {
        let kind = serde_json::to_value(h.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(out, "  {} [{}] {}", "!".red().bold(), kind, h.message);
    }
    out
}

/// The whole `diff assignment` report.
pub fn assignment_report(r: &AssignmentDiffReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} group {}: {} -> {} (per {})",
        "Assignment diff:".bold(),
        r.group_id,
        r.before,
        r.after,
        r.compared_by
    );
    for n in &r.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    if r.identical {
        let _ = writeln!(out, "{}", "No differences.".green());
        return out;
    }
    let _ = writeln!(
        out,
        "Moved: {} active, {} standby",
        r.moved_active.to_string().bold(),
        r.moved_standby.to_string().bold()
    );
    out.push('\n');
    let owner = if r.compared_by == ComparedBy::Process {
        "PROCESS"
    } else {
        "MEMBER"
    };
    out.push_str(&moves_and_owners(&r.moves, &r.owners, owner));
    out
}

/// The task moves (TASK ROLE FROM TO) and the per-owner changes (OWNER BEFORE AFTER GAINED
/// LOST) of an assignment diff.
pub fn moves_and_owners(moves: &[TaskMove], owners: &[OwnerDiff], owner: &str) -> String {
    let mut out = String::new();
    let mut t = super::table::new(&["TASK", "ROLE", "FROM", "TO"]);
    for m in moves {
        let side = |v: &Vec<String>| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(", ")
            }
        };
        t.add_row(vec![
            m.task.clone(),
            m.role.to_string(),
            side(&m.from),
            side(&m.to),
        ]);
    }
    out.push_str(&super::table::render(&t));
    out.push('\n');
    let mut t = super::table::new(&[owner, "BEFORE", "AFTER", "GAINED", "LOST"]);
    for o in owners {
        let roles = |sets: [(&str, &TaskSet); 3]| {
            let v: Vec<String> = sets
                .iter()
                .filter(|(_, s)| !s.is_empty())
                .map(|(n, s)| format!("{n} {}", s.compact()))
                .collect();
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join("  ")
            }
        };
        t.add_row(vec![
            o.owner.clone(),
            o.tasks_before.to_string(),
            o.tasks_after.to_string(),
            roles([
                ("active", &o.gained_active),
                ("standby", &o.gained_standby),
                ("warmup", &o.gained_warmup),
            ]),
            roles([
                ("active", &o.lost_active),
                ("standby", &o.lost_standby),
                ("warmup", &o.lost_warmup),
            ]),
        ]);
    }
    out.push_str(&super::table::render(&t));
    out
}
