//! Helper for benches/compare-assignor.sh (not a user-facing tool).
//!
//! * `spec <members> <per_process> <tasks> <standbys> fresh|incremental` prints a GroupSpec JSON
//!   (incremental: our assignment of members - 1, plus one new member on a new process).
//! * `run <spec.json> [repeat]` prints our assignment JSON; timing on stderr.
//! * `eval <spec.json> <assignment.json>` prints quality metrics as one JSON line.

use std::time::Instant;

use streams_group::coordinator::assignor::{
    evaluate, synthetic_spec, BalancedStickyAssignor, GroupAssignment, GroupSpec, MemberSpec,
    TaskAssignor,
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

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match arg(&args, 0)? {
        "spec" => {
            let (members, per, tasks) = (num(&args, 1)?, num(&args, 2)?, num(&args, 3)?);
            let standbys = num(&args, 4)? as u32;
            let spec = if arg(&args, 5)? == "incremental" {
                let before = synthetic_spec(members.saturating_sub(1), per, tasks, 100, standbys);
                let a = BalancedStickyAssignor
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
            let mut times = Vec::new();
            let mut out = GroupAssignment::new();
            for _ in 0..repeat {
                let start = Instant::now();
                out = BalancedStickyAssignor
                    .assign(&spec)
                    .map_err(|e| e.to_string())?;
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
            let first = times[0];
            times.sort_by(f64::total_cmp);
            eprintln!(
                "ours: runs={repeat} first_ms={first:.3} best_ms={:.3} median_ms={:.3}",
                times[0],
                times[repeat / 2]
            );
            println!(
                "{}",
                serde_json::to_string(&out).map_err(|e| e.to_string())?
            );
        }
        "eval" => {
            let spec: GroupSpec = read_json(arg(&args, 1)?)?;
            let a: GroupAssignment = read_json(arg(&args, 2)?)?;
            let m = evaluate(&spec, &a);
            println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
        }
        other => return Err(format!("unknown mode {other}")),
    }
    Ok(())
}
