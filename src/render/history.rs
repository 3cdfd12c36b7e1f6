//! `history` output: the group's story as a table (JSON is the report itself).

use crate::history::replay::Decision;
use crate::history::report::HistoryReport;
use crate::history::verify::{TargetVerdict, Verification};
use crate::time::time_of_day;
use model::Assignment;

/// A header, then one row per change: TIME, OFFSET, WHAT.
pub fn table(r: &HistoryReport) -> String {
    let mut out = format!(
        "Group {}: __consumer_offsets-{} (coordinator broker {}), offsets {}..{}; {} write(s) in {} batch(es), {} record(s) of the group\n",
        r.group_id, r.partition, r.coordinator, r.log_start_offset, r.high_watermark, r.writes, r.batches, r.records
    );
    match (&r.history_from, r.compacted_through) {
        (Some(from), Some(through)) => out.push_str(&format!(
            "History from {from}: compaction removed records up to offset {through}, so \
             decisions before that may be missing\n"
        )),
        (Some(from), None) if r.log_start_offset > 0 => out.push_str(&format!(
            "History from {from} (the partition starts at offset {}: older records were deleted)\n",
            r.log_start_offset
        )),
        (Some(from), None) => out.push_str(&format!(
            "History from {from}: complete (no record of the partition was removed)\n"
        )),
        (None, _) => out.push_str("No record of the group in its partition\n"),
    }
    out.push_str(&format!(
        "Now: {} at group epoch {}, target assignment epoch {}, {} member(s)\n",
        r.state, r.group_epoch, r.assignment_epoch, r.members
    ));
    if let Some(last) = &r.last_offset_commit {
        out.push_str(&format!(
            "Offsets: {} commit(s) of the group's partitions, the last at {last}\n",
            r.offset_commits
        ));
    }
    if r.batches_by_codec.keys().any(|c| c != "none") {
        let codecs: Vec<String> = r
            .batches_by_codec
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        out.push_str(&format!(
            "Batches read, by compression: {}\n",
            codecs.join(", ")
        ));
    }
    if r.unknown_records + r.unknown_tagged_fields > 0 {
        out.push_str(&format!(
            "Skipped: {} record(s) of types this tool does not read, {} unknown field(s)\n",
            r.unknown_records, r.unknown_tagged_fields
        ));
    }
    for p in &r.problems {
        out.push_str(&format!("problem: {p}\n"));
    }
    out.push_str(&story(r));
    // `--verify`: the story first, then what the local coordinator recomputed of it.
    if let Some(v) = &r.verification {
        out.push_str(&verification(v));
    }
    out
}

/// One row per change: TIME, OFFSET, WHAT (nothing when no write changed anything).
fn story(r: &HistoryReport) -> String {
    let mut out = String::new();
    if r.events.is_empty() {
        return out;
    }
    let mut t = super::table::new(&["TIME", "OFFSET", "WHAT"]);
    for e in &r.events {
        for (i, c) in e.changes.iter().enumerate() {
            let (time, offset) = match i {
                0 => (time_of_day(e.at_ms), e.offset.to_string()),
                _ => (String::new(), String::new()),
            };
            t.add_row(vec![time, offset, what(c)]);
        }
    }
    out.push('\n');
    out.push_str(&super::table::render(&t));
    out
}

/// One change in words.
fn what(c: &Decision) -> String {
    match c {
        Decision::GroupCreated => "group created".into(),
        Decision::GroupEpoch { from, to } => format!("group epoch {from} -> {to}"),
        Decision::MemberJoined {
            member_id,
            process_id,
            client_id,
            client_host,
            instance_id,
        } => {
            let static_id = instance_id
                .as_ref()
                .map_or(String::new(), |i| format!(", instance {i}"));
            format!("+ {member_id} joined (process {process_id}, client {client_id} at {client_host}{static_id})")
        }
        Decision::MemberLeft {
            member_id,
            process_id,
        } => format!("- {member_id} left (process {process_id})"),
        Decision::TargetAssignment {
            epoch,
            moved_active,
            moved_standby,
            moves,
        } => {
            let listed: Vec<String> = moves
                .iter()
                .take(6)
                .map(|m| {
                    let side = |v: &[String]| match v.is_empty() {
                        true => "nobody".to_string(),
                        false => v.join("+"),
                    };
                    format!(
                        "{} {} {} -> {}",
                        m.role.name(),
                        m.task,
                        side(&m.from),
                        side(&m.to)
                    )
                })
                .collect();
            let more = moves.len().saturating_sub(listed.len());
            let tail = match (listed.is_empty(), more) {
                (true, _) => String::new(),
                (false, 0) => format!(": {}", listed.join(", ")),
                (false, n) => format!(": {} and {n} more", listed.join(", ")),
            };
            // A task nobody had before is placed, not moved (a group's first target).
            let placed = moves.iter().filter(|m| m.from.is_empty()).count();
            let placed = match placed {
                0 => String::new(),
                n => format!(", {n} placed"),
            };
            format!("target assignment epoch {epoch}: {moved_active} active, {moved_standby} standby moved{placed}{tail}")
        }
        Decision::MemberWaitingForFirstTarget {
            member_id,
            group_epoch,
            target_epoch,
        } => format!(
            "{member_id} waits for its first target (joined at group epoch {group_epoch}, \
             the target is of epoch {target_epoch})"
        ),
        Decision::MemberReachedTarget { member_id, epoch } => {
            format!("{member_id} reached its target (epoch {epoch})")
        }
        Decision::State { from, to } => format!("state {from} -> {to}"),
        Decision::TopologySet {
            epoch,
            subtopologies,
        } => format!("topology set: epoch {epoch}, {subtopologies} subtopologies"),
        Decision::TopologyCleared => "topology cleared".into(),
        Decision::GroupDeleted => "group deleted".into(),
    }
}

/// `--verify`: each difference, then the verdict line.
fn verification(v: &Verification) -> String {
    let mut out = format!(
        "\nRecomputed with Kafka {}'s coordinator: {} target assignment(s)\n",
        v.kafka_version, v.verified
    );
    for a in &v.assumptions {
        out.push_str(&format!("assumed: {a}\n"));
    }
    for s in &v.skipped {
        out.push_str(&format!("skipped: {s}\n"));
    }
    for d in &v.differences {
        let why = match d.verdict {
            TargetVerdict::Differs => "differs",
            TargetVerdict::MayDependOnTaskOffsets => {
                "differs, maybe by the task offsets members reported (not in the records)"
            }
        };
        out.push_str(&format!(
            "target epoch {} at {} (offset {}) {why}:\n",
            d.epoch, d.at, d.offset
        ));
        for m in &d.members {
            out.push_str(&format!(
                "  {}: broker {}; computed {}\n",
                m.member_id,
                tasks(&m.broker),
                tasks(&m.computed)
            ));
        }
    }
    let uncertain = v.differences.len() - v.faults().count();
    let tail = match uncertain {
        0 => String::new(),
        n => format!(" ({n} maybe by unrecorded task offsets)"),
    };
    out.push_str(&format!(
        "verified: {} target assignments, {} differences{tail}\n",
        v.verified,
        v.differences.len()
    ));
    out
}

/// An assignment in one line: active, standby and warm-up tasks.
fn tasks(a: &Assignment) -> String {
    let mut parts = vec![format!("active {}", a.active.compact())];
    if !a.standby.is_empty() {
        parts.push(format!("standby {}", a.standby.compact()));
    }
    if !a.warmup.is_empty() {
        parts.push(format!("warm-up {}", a.warmup.compact()));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::movement::TaskMove;
    use model::TaskRole;

    /// A first target places tasks nobody had: told as placed, not as 0 moved.
    #[test]
    fn a_first_target_places_tasks() {
        let mv = |task: &str, from: &[&str], to: &str| TaskMove {
            task: task.into(),
            role: TaskRole::Active,
            from: from.iter().map(|s| s.to_string()).collect(),
            to: vec![to.into()],
        };
        let first = Decision::TargetAssignment {
            epoch: 1,
            moved_active: 0,
            moved_standby: 0,
            moves: vec![mv("0_0", &[], "a"), mv("0_1", &[], "b")],
        };
        assert_eq!(
            what(&first),
            "target assignment epoch 1: 0 active, 0 standby moved, 2 placed: \
             active 0_0 nobody -> a, active 0_1 nobody -> b"
        );
        let later = Decision::TargetAssignment {
            epoch: 2,
            moved_active: 1,
            moved_standby: 0,
            moves: vec![mv("0_1", &["b"], "a")],
        };
        assert_eq!(
            what(&later),
            "target assignment epoch 2: 1 active, 0 standby moved: active 0_1 b -> a"
        );
    }

    /// `--verify` tells the story too, then what was recomputed (issue #33).
    #[test]
    fn verify_tells_the_story_then_the_verdict() {
        use crate::history::report::HistoryEntry;
        let report = HistoryReport {
            group_id: "g".into(),
            events: vec![HistoryEntry {
                at: "2026-12-05T06:00:00Z".into(),
                at_ms: 1_796_450_400_000,
                offset: 7,
                batch_offset: 5,
                changes: vec![Decision::GroupEpoch { from: 1, to: 2 }],
            }],
            verification: Some(Verification {
                kafka_version: "4.4.0".into(),
                verified: 1,
                differences: vec![],
                skipped: vec![],
                assumptions: vec![],
            }),
            ..HistoryReport::default()
        };
        let out = table(&report);
        let story = out.find("group epoch 1 -> 2").expect(&out);
        let verdict = out
            .find("verified: 1 target assignments, 0 differences")
            .expect(&out);
        assert!(story < verdict, "{out}");
    }
}
