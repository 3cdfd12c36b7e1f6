//! Helper for benches/compare-assignor.sh (not a user-facing tool).
//!
//! * `spec <members> <per_process> <tasks> <standbys> fresh|incremental` prints a GroupSpec JSON
//!   (incremental: the exact 4.4 assignment of members - 1, plus one new member on a new
//!   process).
//! * `run <spec.json> [repeat] [assignor] [kafka-version]` prints `{"assignment": ..., "warnings":
//!   [...]}` of assignor `sticky` (default; Apache's of `kafka-version`, default 4.4) or
//!   `balanced-sticky`, the oracle's shape; timing on stderr.
//! * `same <reply.json> <reply.json>` prints `identical` or `DIFFERENT`.
//! * `eval <spec.json> <reply.json>` prints quality metrics of the reply's assignment as one
//!   JSON line.

use std::time::Instant;

use coordinator::assignor::{
    assignor_by_name, evaluate, synthetic_spec, AssignOutcome, GroupAssignment, GroupSpec,
    MemberSpec, ShippedVersion, StickyAssignor, TaskAssignor,
};

fn arg(args: &[String], i: usize) -> Result<&str, String> {
    args.get(i)
        .map(String::as_str)
        .ok_or_else(|| format!("missing argument {i}"))
}

fn num(args: &[String], i: usize) -> Result<usize, String> {
    arg(args, i)?
        .parse()
        .map_err(|e| format!("argument {i}: {e}"))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

/// An assignment with its warnings, as the oracle and `run` print it.
#[derive(serde::Deserialize, PartialEq)]
struct Reply {
    assignment: GroupAssignment,
    #[serde(default)]
    warnings: Vec<String>,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match arg(&args, 0)? {
        "spec" => {
            let (members, per, tasks) = (num(&args, 1)?, num(&args, 2)?, num(&args, 3)?);
            let standbys = num(&args, 4)? as u32;
            let spec = if arg(&args, 5)? == "incremental" {
                let before = synthetic_spec(members.saturating_sub(1), per, tasks, 100, standbys);
                // The previous target: what Apache's assignor gave the group without the new
                // member.
                let a = StickyAssignor::default()
                    .assign(&before)
                    .map_err(|e| e.to_string())?;
                let mut s = before.with_current_assignment(&a);
                s.members.push(MemberSpec {
                    member_id: "member-new".into(),
                    process_id: "process-new".into(),
                    ..Default::default()
                });
                s
            } else {
                synthetic_spec(members, per, tasks, 100, standbys)
            };
            println!(
                "{}",
                serde_json::to_string(&spec).map_err(|e| e.to_string())?
            );
        }
        "run" => {
            let spec: GroupSpec = read_json(arg(&args, 1)?)?;
            let repeat = args
                .get(2)
                .and_then(|r| r.parse().ok())
                .unwrap_or(1usize)
                .max(1);
            let name = args.get(3).map_or("sticky", String::as_str);
            let version = match args.get(4) {
                Some(v) => ShippedVersion::ALL
                    .into_iter()
                    .find(|s| s.kafka_version() == v.as_str())
                    .ok_or_else(|| format!("no shipped assignor for Kafka {v}"))?,
                None => ShippedVersion::V4_4,
            };
            let assignor = assignor_by_name(name, version).map_err(|e| e.to_string())?;
            let mut times = Vec::new();
            let mut out = AssignOutcome::default();
            for _ in 0..repeat {
                let start = Instant::now();
                let o = assignor
                    .assign_with_warnings(&spec)
                    .map_err(|e| e.to_string())?;
                times.push(start.elapsed().as_secs_f64() * 1e3);
                // Dropping the previous result is not part of the assignment.
                out = o;
            }
            if std::env::var_os("SHOW_TIMES").is_some() {
                eprintln!("{times:?}");
            }
            let first = times[0];
            times.sort_by(f64::total_cmp);
            eprintln!(
                "ours: runs={repeat} first_ms={first:.3} best_ms={:.3} median_ms={:.3}",
                times[0],
                times[repeat / 2]
            );
            let reply = serde_json::json!({
                "assignment": out.assignment,
                "warnings": out.warnings,
            });
            println!("{reply}");
        }
        "same" => {
            let a: Reply = read_json(arg(&args, 1)?)?;
            let b: Reply = read_json(arg(&args, 2)?)?;
            println!("{}", if a == b { "identical" } else { "DIFFERENT" });
        }
        "eval" => {
            let spec: GroupSpec = read_json(arg(&args, 1)?)?;
            let a = read_json::<Reply>(arg(&args, 2)?)?.assignment;
            let m = evaluate(&spec, &a);
            println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
        }
        other => return Err(format!("unknown mode {other}")),
    }
    Ok(())
}
