//! Fuzz targets, one per parser and decoder of untrusted input (docs/dev/fuzzing.md).
//!
//! Each target replays its kept reproducers (`tests/data/fuzz-regressions/<target>/`) and seeds
//! first, then runs `FUZZ_INPUTS` (default 10,000) inputs made by a structure-aware mutator
//! (`fuzz/mutate.rs`) from real samples (`fuzz/seeds.rs`: the codec samples, kafka-protocol
//! responses encoded by the crate, the topology, snapshot and scenario fixtures). An input whose
//! outcome is new (a new kind of error, say) joins the corpus, so that later mutations start from
//! it. `FUZZ_SEED` picks another run (default 1); `cargo test --test fuzz target::NAME` runs one.
//!
//! Every input must (`fuzz/targets.rs`): not panic; hold at most 64 x its size + 1 MiB of memory
//! at once while it is decoded (a counting global allocator watches each call); and pass its
//! target's checks: our codecs' decode, encode, decode gives the same value; the guard refuses
//! nothing the kafka-protocol crate reads; an error is one line of plain text, as the README
//! promises; what is shown of a `--command-config` does not depend on the password.
//!
//! A failing input is shrunk, saved under `target/tmp/fuzz-failures/`, and shown in the panic.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::fmt::Display;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Instant;

use kafka_protocol::messages::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "mutate.rs"]
mod mutate;
#[path = "seeds.rs"]
mod seeds;
#[path = "targets.rs"]
mod targets;

use mutate::{mutate_bytes, mutate_json, mutate_text};
use seeds::*;

// ------------------------------------------------------------------ counting allocator

struct Counting;

#[global_allocator]
static ALLOC: Counting = Counting;

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LIMIT: Cell<isize> = const { Cell::new(isize::MAX) };
    static CURRENT: Cell<(&'static str, *const u8, usize)> =
        const { Cell::new(("", std::ptr::null(), 0)) };
}

fn account(delta: isize) {
    let _ = TRACKING.try_with(|on| {
        if !on.get() {
            return;
        }
        let live = LIVE.get() + delta;
        LIVE.set(live);
        if live > PEAK.get() {
            PEAK.set(live);
        }
        if live > LIMIT.get() {
            // Over the bound: say so now, in case this allocation aborts the process.
            on.set(false);
            report_from_allocator(live);
        }
    });
}

fn report_from_allocator(live: isize) {
    let (name, ptr, len) = CURRENT.get();
    if ptr.is_null() {
        return;
    }
    // SAFETY: `execute` sets CURRENT to its input slice and clears it before the slice goes.
    let input = unsafe { std::slice::from_raw_parts(ptr, len) };
    let path = save_failure(name, input);
    // Straight to the stderr file descriptor: the test harness's capture is lost on an abort.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz {name}: {live} bytes live for a {len}-byte input (bound {}); input saved to {}",
        bound(len),
        path.display()
    );
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        account(l.size() as isize);
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        account(l.size() as isize);
        System.alloc_zeroed(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        account(-(l.size() as isize));
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        account(new_size as isize - l.size() as isize);
        System.realloc(p, l, new_size)
    }
}

/// The most memory one call may hold at once for an input of `len` bytes.
fn bound(len: usize) -> isize {
    (64 * len + (1 << 20)) as isize
}

// ------------------------------------------------------------------ what a target is

/// What a target's run says about one input: `Ok(signature)`, a short text standing for the
/// outcome (new signatures grow the corpus), or `Err(problem)` when a check fails.
type Outcome = Result<String, String>;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Bytes,
    /// Valid UTF-8, text mutations.
    Text,
    /// Text mutations and, more often, mutations of the parsed JSON tree (valid JSON that gets
    /// past the syntax to the checks behind it).
    Json,
}

struct Target {
    name: &'static str,
    kind: Kind,
    seeds: fn() -> Vec<Vec<u8>>,
    /// Tokens the text mutator inserts; the binary mutator uses interesting integers.
    dict: &'static [&'static str],
    run: fn(&[u8]) -> Outcome,
}

/// The signature of an error: its text with digits folded, cut short.
fn sig(e: impl Display) -> String {
    let s: String = e
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_digit() { '0' } else { c })
        .take(60)
        .collect();
    format!("err:{s}")
}

/// An error as the user sees it (`error: ...` on stderr) must be one line of plain text.
fn one_line(e: impl Display) -> Result<(), String> {
    // As the binary's `CommandError::line` writes it.
    let line = model::input::one_line(&format!("error: {e}"));
    match line.chars().find(|c| {
        (c.is_control() && *c != '\t')
            || matches!(c, '\u{2028}' | '\u{2029}')
            || model::input::is_bidi_control(*c)
    }) {
        None => Ok(()),
        Some(c) => Err(format!(
            "error line holds {c:?}, so it is not one line of plain text: {line:?}"
        )),
    }
}

fn text(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

/// `f` with the allocator not counting: the checks' own work is not the decoder's.
fn untracked<T>(f: impl FnOnce() -> T) -> T {
    let was = TRACKING.with(|t| t.replace(false));
    let r = f();
    TRACKING.with(|t| t.set(was));
    r
}

/// A message that decoded must encode again and decode to the same value.
fn round_trip<T: PartialEq + std::fmt::Debug, E: Display, F: Display>(
    what: &str,
    version: i16,
    decoded: Result<T, E>,
    encode: impl Fn(&T) -> Result<Vec<u8>, F>,
    decode: impl Fn(&[u8]) -> Result<T, E>,
) -> Outcome {
    let value = match decoded {
        Ok(v) => v,
        Err(e) => return Ok(sig(e)),
    };
    untracked(|| {
        let bytes = match encode(&value) {
            Ok(b) => b,
            // A value only a newer version can carry, read from a malformed older one.
            Err(e) => return Ok(sig(e)),
        };
        match decode(&bytes) {
            Ok(again) if again == value => Ok(format!("ok v{version}")),
            Ok(again) => Err(format!(
                "{what} v{version}: decode, encode, decode changed the value:\n{value:?}\n{again:?}"
            )),
            Err(e) => Err(format!(
                "{what} v{version}: our own encoding does not decode: {e}"
            )),
        }
    })
}

// ------------------------------------------------------------------ the runner

fn inputs() -> usize {
    std::env::var("FUZZ_INPUTS")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(10_000)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn fnv(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf29ce484222325u64, |h, x| {
        (h ^ u64::from(*x)).wrapping_mul(0x100000001b3)
    })
}

fn save_failure(name: &str, input: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let p = dir.join(format!("{name}-{:016x}", fnv(input)));
    let _ = std::fs::write(&p, input);
    p
}

#[derive(Debug, PartialEq)]
enum Failure {
    Panic(String),
    Memory { peak: isize, bound: isize },
    Check(String),
}

impl Failure {
    fn kind(&self) -> String {
        match self {
            Failure::Panic(m) => format!("panic {}", m.lines().next().unwrap_or("")),
            Failure::Memory { .. } => "memory".into(),
            Failure::Check(m) => format!("check {}", m.chars().take(40).collect::<String>()),
        }
    }
}

impl Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Panic(m) => write!(f, "panic: {m}"),
            Failure::Memory { peak, bound } => {
                write!(f, "{peak} bytes live at once, over the bound of {bound}")
            }
            Failure::Check(m) => write!(f, "check failed: {m}"),
        }
    }
}

thread_local! {
    static FUZZING: Cell<bool> = const { Cell::new(false) };
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if FUZZING.with(Cell::get) {
                TRACKING.with(|t| t.set(false));
                let msg = match info.location() {
                    Some(l) => format!("{info} ({}:{})", l.file(), l.line()),
                    None => info.to_string(),
                };
                PANIC.with(|p| *p.borrow_mut() = Some(msg));
            } else {
                default(info);
            }
        }));
    });
}

/// Run one input with the allocator watching.
fn execute(t: &Target, input: &[u8]) -> Result<String, Failure> {
    let limit = bound(input.len());
    FUZZING.with(|f| f.set(true));
    CURRENT.set((t.name, input.as_ptr(), input.len()));
    LIVE.set(0);
    PEAK.set(0);
    LIMIT.set(limit);
    TRACKING.with(|x| x.set(true));
    let r = catch_unwind(AssertUnwindSafe(|| (t.run)(input)));
    TRACKING.with(|x| x.set(false));
    CURRENT.set(("", std::ptr::null(), 0));
    FUZZING.with(|f| f.set(false));
    let peak = PEAK.get();
    match r {
        Err(_) => Err(Failure::Panic(
            PANIC
                .with(|p| p.borrow_mut().take())
                .unwrap_or_else(|| "a panic".into()),
        )),
        Ok(_) if peak > limit => Err(Failure::Memory { peak, bound: limit }),
        Ok(Err(m)) => Err(Failure::Check(m)),
        Ok(Ok(s)) => Ok(s),
    }
}

/// Smaller inputs that fail the same way: chunks removed, halving down to single bytes.
fn shrink(t: &Target, mut input: Vec<u8>, kind: &str) -> Vec<u8> {
    let same = |b: &[u8]| match execute(t, b) {
        Err(f) => f.kind() == kind,
        Ok(_) => false,
    };
    let mut chunk = input.len() / 2;
    let mut tries = 0;
    while chunk >= 1 && tries < 4000 {
        let mut i = 0;
        let mut progressed = false;
        while i < input.len() && tries < 4000 {
            tries += 1;
            let end = (i + chunk).min(input.len());
            let mut c = input[..i].to_vec();
            c.extend_from_slice(&input[end..]);
            if (t.kind == Kind::Bytes || std::str::from_utf8(&c).is_ok()) && same(&c) {
                input = c;
                progressed = true;
            } else {
                i += chunk;
            }
        }
        if !progressed {
            chunk /= 2;
        }
    }
    input
}

fn preview(b: &[u8], text: bool) -> String {
    if text {
        let t = String::from_utf8_lossy(b);
        let t: String = t.chars().take(2000).collect();
        format!("{t:?}")
    } else {
        let h = kafka::wire::to_hex(&b[..b.len().min(1000)]);
        format!("hex {h}{}", if b.len() > 1000 { "..." } else { "" })
    }
}

fn fail(t: &Target, origin: &str, input: Vec<u8>, f: Failure) -> ! {
    let small = shrink(t, input.clone(), &f.kind());
    let f2 = execute(t, &small).err().unwrap_or(f);
    let path = save_failure(t.name, &small);
    panic!(
        "fuzz target {}: {f2}\n  input: {origin}, {} bytes (shrunk from {}), saved to {}\n  \
         keep it with the fix as tests/data/fuzz-regressions/{}/<what-it-shows>.{}\n  {}",
        t.name,
        small.len(),
        input.len(),
        path.display(),
        t.name,
        if t.kind == Kind::Bytes { "bin" } else { "txt" },
        preview(&small, t.kind != Kind::Bytes)
    );
}

fn regressions(name: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = data("tests/data/fuzz-regressions").join(name);
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin" || x == "txt"))
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect();
    out.sort();
    out
}

const MAX_CORPUS: usize = 512;
const MAX_INPUT: usize = 256 * 1024;

fn fuzz(t: &Target) {
    install_panic_hook();
    let start = Instant::now();
    let regs = regressions(t.name);
    for (p, b) in &regs {
        if let Err(f) = execute(t, b) {
            panic!(
                "fuzz target {}: kept reproducer {}: {f}",
                t.name,
                p.display()
            );
        }
    }
    let mut corpus = (t.seeds)();
    assert!(!corpus.is_empty(), "{}: no seeds", t.name);
    let mut seen = BTreeSet::new();
    for (i, b) in corpus.clone().iter().enumerate() {
        match execute(t, b) {
            Ok(s) => {
                seen.insert(s);
            }
            Err(f) => fail(t, &format!("seed {i}"), b.clone(), f),
        }
    }
    corpus.extend(regs.into_iter().map(|(_, b)| b));
    // Seeds and reproducers stay; inputs with new outcomes fill the rest and replace each other.
    let kept = corpus.len();
    let mut seen: BTreeSet<u64> = seen.iter().map(|s| fnv(s.as_bytes())).collect();
    let n = inputs();
    let run_seed = seed();
    let mut slowest = std::time::Duration::ZERO;
    let mut slowest_input = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(run_seed ^ fnv(t.name.as_bytes()));
    for i in 0..n {
        // A quarter of the inputs start from the real samples again, so the corpus cannot drift
        // into nothing but garbage.
        let pool: &[Vec<u8>] = if rng.gen_bool(0.25) {
            &corpus[..kept]
        } else {
            &corpus
        };
        let input = match t.kind {
            Kind::Bytes => mutate_bytes(&mut rng, pool),
            Kind::Json if rng.gen_bool(0.6) => mutate_json(&mut rng, pool, t.dict)
                .unwrap_or_else(|| mutate_text(&mut rng, pool, t.dict))
                .into_bytes(),
            _ => mutate_text(&mut rng, pool, t.dict).into_bytes(),
        };
        let began = Instant::now();
        let outcome = execute(t, &input);
        if began.elapsed() > slowest {
            slowest = began.elapsed();
            slowest_input = input.clone();
        }
        match outcome {
            Ok(s) => {
                if seen.len() < 1_000_000
                    && seen.insert(fnv(s.as_bytes()))
                    && input.len() <= 64 * 1024
                {
                    if corpus.len() >= MAX_CORPUS.max(kept + 1) {
                        let k = rng.gen_range(kept..corpus.len());
                        corpus[k] = input;
                    } else {
                        corpus.push(input);
                    }
                }
            }
            Err(f) => fail(t, &format!("FUZZ_SEED={run_seed}, input {i}"), input, f),
        }
    }
    let took = start.elapsed();
    // Kept for a look: `target/tmp/fuzz-failures/<target>-slowest`.
    let _ = std::fs::write(
        save_failure(t.name, b"").with_file_name(format!("{}-slowest", t.name)),
        &slowest_input,
    );
    // Printed with --nocapture; docs/dev/fuzzing.md quotes these lines.
    println!(
        "fuzz {}: {n} inputs in {:.1} s ({:.0}/s, slowest {:.1} ms), {} outcomes, corpus {}",
        t.name,
        took.as_secs_f64(),
        n as f64 / took.as_secs_f64().max(1e-9),
        slowest.as_secs_f64() * 1e3,
        seen.len(),
        corpus.len()
    );
}

// ------------------------------------------------------------------ one test per target

macro_rules! targets {
    ($($name:ident, $kind:ident, $seeds:expr, $dict:expr, $run:expr;)*) => {
        /// `cargo test --test fuzz target::NAME` runs one.
        mod target {
            use super::*;
            $(
                #[test]
                fn $name() {
                    fuzz(&Target {
                        name: stringify!($name),
                        kind: Kind::$kind,
                        seeds: $seeds,
                        dict: $dict,
                        run: $run,
                    });
                }
            )*
        }
    };
}

targets! {
    describe_response, Bytes, describe_response_seeds, &[], targets::describe_response;
    describe_request, Bytes, describe_request_seeds, &[], targets::describe_request;
    heartbeat_response, Bytes, heartbeat_response_seeds, &[], targets::heartbeat_response;
    heartbeat_request, Bytes, heartbeat_request_seeds, &[], targets::heartbeat_request;
    api_versions_response, Bytes, api_versions_seeds, &[], targets::kp_response::<ApiVersionsResponse>;
    metadata_response, Bytes, metadata_seeds, &[], targets::kp_response::<MetadataResponse>;
    find_coordinator_response, Bytes, find_coordinator_seeds, &[], targets::kp_response::<FindCoordinatorResponse>;
    list_groups_response, Bytes, list_groups_seeds, &[], targets::kp_response::<ListGroupsResponse>;
    offset_fetch_response, Bytes, offset_fetch_seeds, &[], targets::kp_response::<OffsetFetchResponse>;
    list_offsets_response, Bytes, list_offsets_seeds, &[], targets::kp_response::<ListOffsetsResponse>;
    sasl_handshake_response, Bytes, sasl_handshake_seeds, &[], targets::kp_response::<SaslHandshakeResponse>;
    sasl_authenticate_response, Bytes, sasl_authenticate_seeds, &[], targets::kp_response::<SaslAuthenticateResponse>;
    offset_commit_response, Bytes, offset_commit_seeds, &[], targets::kp_response::<OffsetCommitResponse>;
    offset_delete_response, Bytes, offset_delete_seeds, &[], targets::kp_response::<OffsetDeleteResponse>;
    delete_groups_response, Bytes, delete_groups_seeds, &[], targets::kp_response::<DeleteGroupsResponse>;
    delete_topics_response, Bytes, delete_topics_seeds, &[], targets::kp_response::<DeleteTopicsResponse>;
    response_frame, Bytes, frame_seeds, &[], targets::response_frame;
    scram_server_messages, Text, scram_seeds, SCRAM, targets::scram;
    describe_text, Text, describe_text_seeds, DESCRIBE_TEXT, targets::describe_text;
    topology_json, Json, topology_json_seeds, JSON, targets::topology_json;
    snapshot, Json, snapshot_seeds, JSON, targets::snapshot;
    scenario, Json, scenario_seeds, JSON, targets::scenario;
    properties, Text, properties_seeds, PROPERTIES, targets::properties;
    one_line, Text, one_line_seeds, ONE_LINE, targets::one_line_target;
    admin_input, Text, admin_input_seeds, ADMIN_INPUT, targets::admin_input;
    coordinator_record, Bytes, coordinator_record_seeds, &[], targets::coordinator_record;
    record_batches, Bytes, record_batches_seeds, &[], targets::record_batches;
}
