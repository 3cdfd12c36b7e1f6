//! The field-fidelity matrix (issue #32): simulate's predictions against real Kafka Streams
//! apps on real brokers, move by move, as a user would make them (`support::prediction`:
//! snapshot, simulate from it with samples, act with the harness, compare). Not part of
//! `cargo test`: `benches/field-fidelity.sh` runs it and prints the table that
//! docs/simulate.md keeps.
//!
//! `FIDELITY_VERSIONS` (default `4.2.2 4.3.2 4.4.0`), `FIDELITY_SHAPES` (`INSTANCESxTHREADS/STANDBYS`
//! items, default `3x1/0 2x3/2 3x4/1 2x8/1`), `FIDELITY_MOVES` (`stop kill join`),
//! `FIDELITY_SAMPLES` (default 1000, as many as `simulate` draws: a crash of 2 × 8 threads on
//! 4.2.2 has over 100 outcomes, the real one in 0.9 % of the samples) narrow or widen it.

#[path = "../support/mod.rs"]
mod support;

use support::prediction::{predict_then_act, start_app, Move, Verdict};
use support::Broker;

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

/// `3x4/1`: 3 instances of 4 threads, 1 standby replica.
fn shape(s: &str) -> (u32, u32, u32) {
    let parsed = s.split_once('/').and_then(|(it, sb)| {
        let (i, t) = it.split_once('x')?;
        Some((i.parse().ok()?, t.parse().ok()?, sb.parse().ok()?))
    });
    parsed.unwrap_or_else(|| {
        panic!("FIDELITY_SHAPES: `{s}` is not INSTANCESxTHREADS/STANDBYS (e.g. 3x4/1)")
    })
}

fn parse_move(m: &str) -> Move {
    match m {
        "stop" => Move::Stop,
        "kill" => Move::Kill,
        "join" => Move::Join,
        _ => panic!("FIDELITY_MOVES: `{m}` is not stop, kill or join"),
    }
}

fn row(version: &str, how: Move, shape: &str, v: &Verdict) -> String {
    let listed = match v.listed {
        None => "n/a (ids drawn)".to_string(),
        Some(None) => format!("NO (of {})", v.outcomes),
        Some(Some((i, c))) => format!("#{} of {} ({c}/{})", i + 1, v.outcomes, v.samples),
    };
    format!(
        "| {version} | {} | {shape} | {} | {listed} | {} | {:.1}-{:.1} s | {:.1}-{:.1} s | {} | {} |",
        how.name(),
        if v.exact { "Exact" } else { "sampled" },
        if v.exact_contradicted() { "CONTRADICTED" } else { "no" },
        v.predicted_ms.0 as f64 / 1000.0,
        v.predicted_ms.1 as f64 / 1000.0,
        v.real_ms.0 as f64 / 1000.0,
        v.real_ms.1 as f64 / 1000.0,
        if v.time_inside() { "yes" } else { "NO" },
        if v.outside.is_empty() { "yes".to_string() } else { format!("NO: {}", v.outside.join("; ")) },
    )
}

#[test]
fn field_fidelity() {
    let versions = env_or("FIDELITY_VERSIONS", "4.2.2 4.3.2 4.4.0");
    let shapes = env_or("FIDELITY_SHAPES", "3x1/0 2x3/2 3x4/1 2x8/1");
    let moves = env_or("FIDELITY_MOVES", "stop kill join");
    let samples: u32 = env_or("FIDELITY_SAMPLES", "1000")
        .parse()
        .expect("FIDELITY_SAMPLES is a count");
    // Bad settings fail before any broker starts.
    let shapes: Vec<(&str, (u32, u32, u32))> =
        shapes.split_whitespace().map(|s| (s, shape(s))).collect();
    let moves: Vec<Move> = moves.split_whitespace().map(parse_move).collect();
    let mut rows = Vec::new();
    let mut verdicts = Vec::new();
    for version in versions.split_whitespace() {
        let broker = Broker::start_version(version);
        for (n, &(s, (instances, threads, standbys))) in shapes.iter().enumerate() {
            for (m, &how) in moves.iter().enumerate() {
                let group = format!("fid-{}-{n}-{m}", version.replace('.', ""));
                let mut app = start_app(&broker, &group, instances, threads, standbys);
                let dir = tempfile::tempdir().unwrap();
                let v = predict_then_act(&broker, &mut app, how, samples, dir.path());
                let r = row(version, how, s, &v);
                eprintln!("fidelity: {r}");
                rows.push(r);
                verdicts.push((how, v));
                app.stop_all();
            }
        }
    }
    let runs = verdicts.len();
    let listed = verdicts.iter().filter(|(_, v)| v.outcome_listed()).count();
    let asked = verdicts.iter().filter(|(h, _)| *h != Move::Join).count();
    let contradicted = verdicts
        .iter()
        .filter(|(_, v)| v.exact_contradicted())
        .count();
    let timed = verdicts.iter().filter(|(_, v)| v.time_inside()).count();
    let inside = verdicts
        .iter()
        .filter(|(_, v)| v.outside.is_empty())
        .count();
    println!();
    println!("| Kafka | move | shape (instances x threads / standbys) | report | real outcome listed | Exact contradicted | predicted time to Stable | real (between two watch samples) | time inside | moves, loads, certain tasks inside |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for r in &rows {
        println!("{r}");
    }
    println!();
    println!(
        "{runs} runs: real outcome listed in {} of {asked} stops and crashes; Exact contradicted {contradicted}; time inside the range in {timed} of {runs} ({} %); moves, loads and certain tasks inside in {inside} of {runs}",
        listed - (runs - asked),
        timed * 100 / runs.max(1)
    );
}
