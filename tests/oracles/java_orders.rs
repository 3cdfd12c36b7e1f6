//! The Java-order helpers (`streams_group::java`) against a real JVM, on many random
//! keys: `String.hashCode`/`compareTo`, `HashMap` iteration order (both constructors, `put`,
//! `computeIfAbsent`, `remove`, resizes, tree bins), `PriorityQueue` pop order on ties, and
//! HotSpot's identity hash codes with the tree-bin tie break that draws them.
//!
//! The ground truth is `tests/java/JavaOrders.java`, run with the JDK's source launcher. Without
//! `java` the tests fail with one line (never skipped).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use coordinator::java::hash_map::spread;
use coordinator::java::{
    java_string_cmp, java_string_hash, IdentityHashes, JavaHash, JavaHashMap, JavaPriorityQueue,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Jvm {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Jvm {
    fn start() -> Option<Jvm> {
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/java/JavaOrders.java");
        match Command::new("java")
            .arg(source)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(mut child) => {
                let stdin = child.stdin.take().expect("stdin");
                let stdout = BufReader::new(child.stdout.take().expect("stdout"));
                Some(Jvm {
                    child,
                    stdin,
                    stdout,
                })
            }
            Err(e) => panic!("java cannot run ({e}): the JVM comparison needs a JDK 17+"),
        }
    }

    fn ask(&mut self, case: &str) -> String {
        writeln!(self.stdin, "{case}").expect("write case");
        self.stdin.flush().expect("flush");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read answer");
        assert!(!line.is_empty(), "the JVM exited on: {case}");
        line.trim().to_string()
    }
}

impl Drop for Jvm {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn enc(s: &str) -> String {
    URL_SAFE_NO_PAD.encode(s.as_bytes())
}

/// A random string from ASCII, Latin-1, other BMP and supplementary characters.
fn random_string(rng: &mut impl Rng) -> String {
    let len = rng.gen_range(1..12);
    (0..len)
        .map(|_| match rng.gen_range(0..10) {
            0 => char::from_u32(rng.gen_range(0xA0..0x100)).expect("latin-1"),
            1 => char::from_u32(rng.gen_range(0x4E00..0x9FFF)).expect("cjk"),
            2 => char::from_u32(rng.gen_range(0xE000..0xFFFD)).expect("private use"),
            3 => char::from_u32(rng.gen_range(0x1F300..0x1F64F)).expect("emoji"),
            _ => rng.gen_range(b'!'..=b'~') as char,
        })
        .collect()
}

const BASE64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn uuid_like(rng: &mut impl Rng) -> String {
    (0..22)
        .map(|_| BASE64URL[rng.gen_range(0..64)] as char)
        .collect()
}

#[test]
fn string_hash_and_compare_match_the_jvm() {
    let Some(mut jvm) = Jvm::start() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let words: Vec<String> = (0..20).map(|_| random_string(&mut rng)).collect();
        let case = format!(
            "hash {}",
            words.iter().map(|w| enc(w)).collect::<Vec<_>>().join(" ")
        );
        let ours: Vec<String> = words
            .iter()
            .map(|w| {
                let sign = java_string_cmp(&words[0], w) as i32;
                format!("{}:{}", java_string_hash(w), sign)
            })
            .collect();
        assert_eq!(jvm.ask(&case), ours.join(" "), "{words:?}");
    }
}

/// Keys that share their bin in every table up to 1024 bins: their spread hashes agree in the
/// low 10 bits. Half of them come in families of equal hash codes ("Aa" and "BB" hash alike),
/// which tree bins order by `compareTo`.
fn colliding_keys(rng: &mut impl Rng, n: usize) -> Vec<String> {
    let target = rng.gen_range(0..1024);
    let mut keys = Vec::new();
    while keys.len() < n / 2 {
        let k: String = (0..6)
            .map(|_| BASE64URL[rng.gen_range(0..64)] as char)
            .collect();
        if spread(java_string_hash(&k)) & 1023 == target && !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut i = 0u32;
    while keys.len() < n {
        // "Aa" and "BB" have equal hash codes: the 16 mixes of 4 blocks share one hash.
        let blocks: String = (0..4)
            .map(|b| if i >> b & 1 == 0 { "Aa" } else { "BB" })
            .collect();
        let k = format!("{}{blocks}", i >> 4);
        if !keys.contains(&k) {
            keys.push(k);
        }
        i += 1;
    }
    keys
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Put,
    ComputeIfAbsent,
    Remove,
    Order,
}

fn run_map(jvm: &mut Jvm, cap: i64, ops: &[(Op, String)]) {
    let mut ours: JavaHashMap<String> = if cap < 0 {
        JavaHashMap::new()
    } else {
        JavaHashMap::with_capacity(cap as usize)
    };
    let mut case = format!("map {cap}");
    let mut expected = String::new();
    for (op, key) in ops {
        match op {
            Op::Put => {
                ours.put(key.clone());
                case += &format!(" P {}", enc(key));
            }
            Op::ComputeIfAbsent => {
                ours.compute_if_absent(key.clone());
                case += &format!(" C {}", enc(key));
            }
            Op::Remove => {
                ours.remove(key);
                case += &format!(" R {}", enc(key));
            }
            Op::Order => {
                case += " O";
                for k in ours.iter() {
                    expected += &enc(k);
                    expected.push(',');
                }
                expected.push(';');
            }
        }
    }
    let answer = jvm.ask(&case);
    assert!(ours.is_exact(), "a removal hit a tree bin");
    assert_eq!(
        answer,
        expected,
        "HashMap order differs (cap {cap}, trees {})",
        ours.has_tree_bins()
    );
}

fn random_ops(rng: &mut impl Rng, keys: &[String], removes: bool, head: bool) -> Vec<(Op, String)> {
    let mut ops = Vec::new();
    for k in keys {
        let op = if head && rng.gen_bool(0.7) {
            Op::ComputeIfAbsent
        } else {
            Op::Put
        };
        ops.push((op, k.clone()));
        if removes && rng.gen_bool(0.1) {
            let victim = &keys[rng.gen_range(0..keys.len())];
            ops.push((Op::Remove, victim.clone()));
        }
        if rng.gen_bool(0.05) {
            // computeIfAbsent of a present key may resize a map over its threshold.
            ops.push((
                Op::ComputeIfAbsent,
                keys[rng.gen_range(0..keys.len())].clone(),
            ));
        }
        if rng.gen_bool(0.03) {
            ops.push((Op::Order, String::new()));
        }
    }
    ops.push((Op::Order, String::new()));
    ops
}

#[test]
fn hash_map_order_matches_the_jvm() {
    let Some(mut jvm) = Jvm::start() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for round in 0..300 {
        let n = rng.gen_range(1..700);
        let keys: Vec<String> = (0..n)
            .map(|i| match round % 3 {
                0 => uuid_like(&mut rng),
                1 => format!("p{}-t{}", i / 4 + 1, i % 4 + 1),
                _ => random_string(&mut rng),
            })
            .collect();
        let cap = match rng.gen_range(0..4) {
            0 => -1,
            1 => 0,
            2 => rng.gen_range(1..20),
            _ => n as i64,
        };
        let ops = random_ops(&mut rng, &keys, round % 2 == 0, round % 4 < 2);
        run_map(&mut jvm, cap, &ops);
    }
}

#[test]
fn hash_map_tree_bins_match_the_jvm() {
    let Some(mut jvm) = Jvm::start() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut treeified = 0;
    for round in 0..200 {
        let count = rng.gen_range(9..40);
        let colliding = colliding_keys(&mut rng, count);
        // Filler keys grow the table (and split the tree bins on resize).
        let filler: Vec<String> = (0..rng.gen_range(0..300))
            .map(|_| uuid_like(&mut rng))
            .collect();
        let mut keys: Vec<String> = colliding.into_iter().chain(filler).collect();
        if round % 2 == 1 {
            use rand::seq::SliceRandom;
            keys.shuffle(&mut rng);
        }
        let cap = [-1, 64, 128, 2][round % 4];
        let ops = random_ops(&mut rng, &keys, false, round % 3 == 0);
        let mut probe: JavaHashMap<String> = JavaHashMap::with_capacity(64);
        ops.iter().for_each(|(_, k)| {
            probe.put(k.clone());
        });
        treeified += usize::from(probe.has_tree_bins());
        run_map(&mut jvm, cap, &ops);
    }
    assert!(treeified > 100, "only {treeified} rounds built tree bins");
}

#[test]
fn priority_queue_order_matches_the_jvm() {
    let Some(mut jvm) = Jvm::start() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let cmp = |a: &(u32, i32), b: &(u32, i32)| a.1.cmp(&b.1);
    for _ in 0..300 {
        let mut q = JavaPriorityQueue::new();
        let mut case = String::from("pq");
        let mut polled = Vec::new();
        let mut next = 0u32;
        let spread_of_values = rng.gen_range(1..6);
        for _ in 0..rng.gen_range(1..400) {
            if q.is_empty() || rng.gen_bool(0.6) {
                let v = rng.gen_range(0..spread_of_values);
                q.offer((next, v), cmp);
                next += 1;
                case += &format!(" A {v}");
            } else {
                polled.push(q.poll(cmp).map_or(-1, |e| e.0 as i64));
                case += " P";
            }
        }
        let ours: Vec<String> = polled.iter().map(i64::to_string).collect();
        assert_eq!(jvm.ask(&case), ours.join(" "));
    }
}

/// A key of the `idset` case: a given hash code, identity equality, no natural order; its
/// identity hash is drawn the first time a tree bin's tie break asks for it.
struct Keyed {
    hash: i32,
    index: usize,
    identity: std::cell::Cell<i32>,
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl JavaHash for Keyed {
    fn java_hash_code(&self) -> i32 {
        self.hash
    }
    fn java_compare(&self, _: &Self) -> Option<std::cmp::Ordering> {
        None
    }
}

/// Objects without a `hashCode` of their own, many with equal hash codes, in a `HashSet`: tree
/// bins order equal hashes by identity hash codes (`tieBreakOrder`), drawn from the thread's
/// generator as they are first compared. The set's order and the number of draws must match.
#[test]
fn identity_hash_tie_breaks_match_the_jvm() {
    let Some(mut jvm) = Jvm::start() else { return };
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut drew = 0;
    for round in 0..200 {
        let distinct: Vec<i32> = (0..rng.gen_range(1..6)).map(|_| rng.gen()).collect();
        let n = rng.gen_range(1..200);
        let hashes: Vec<i32> = (0..n)
            .map(|_| {
                if rng.gen_bool(0.7) {
                    distinct[rng.gen_range(0..distinct.len())]
                } else {
                    rng.gen()
                }
            })
            .collect();
        let cap = [0, 16, 64, 256][round % 4];
        let case = format!(
            "idset {cap} {}",
            hashes
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        let answer = jvm.ask(&case);
        let parts: Vec<Vec<i64>> = answer
            .split(';')
            .map(|p| {
                p.split_whitespace()
                    .map(|x| x.parse().expect("number"))
                    .collect()
            })
            .collect();
        let drawn: Vec<i32> = parts[0].iter().map(|&x| x as i32).collect();
        let mut gen = IdentityHashes::from_samples(&drawn).expect("one state fits");
        let mut set: JavaHashMap<Keyed> = JavaHashMap::with_capacity(cap);
        let mut draws = 0;
        for (index, &hash) in hashes.iter().enumerate() {
            let key = Keyed {
                hash,
                index,
                identity: std::cell::Cell::new(0),
            };
            let mut tie = |a: &Keyed, b: &Keyed| {
                for k in [a, b] {
                    if k.identity.get() == 0 {
                        k.identity.set(gen.next_hash());
                        draws += 1;
                    }
                }
                if a.identity.get() <= b.identity.get() {
                    std::cmp::Ordering::Less
                } else {
                    std::cmp::Ordering::Greater
                }
            };
            set.put_with_tie_break(key, &mut tie);
        }
        drew += draws;
        let order: Vec<i64> = set.iter().map(|k| k.index as i64).collect();
        assert_eq!(parts[1], order, "set order, case {case}");
        // The next draws continue where ours stopped.
        let next: Vec<i64> = (0..8).map(|_| i64::from(gen.next_hash())).collect();
        assert_eq!(
            parts[2], next,
            "draws after the adds ({draws} by the set), case {case}"
        );
    }
    assert!(
        drew > 1000,
        "only {drew} identity hashes drawn: too few tree bins"
    );
}
