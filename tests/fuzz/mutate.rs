//! The structure-aware mutators: bytes (length prefixes and counts), text (lines, tokens, odd
//! characters), JSON (the parsed tree).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{text, MAX_INPUT};

// ------------------------------------------------------------------ mutators

/// Length prefixes and counts that decoders get wrong: as int16, int32 and unsigned varints.
pub(crate) fn interesting(rng: &mut ChaCha8Rng) -> Vec<u8> {
    const I32: &[i32] = &[
        0,
        1,
        -1,
        -2,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0xffff,
        0x10000,
        0x20000000,
        0x7fffffff,
        -0x80000000,
    ];
    const U32: &[u32] = &[
        0,
        1,
        2,
        0x7f,
        0x80,
        0x3fff,
        0x4000,
        0xffff,
        0x1f_ffff,
        0xfff_ffff,
        0x7fff_ffff,
        u32::MAX,
    ];
    match rng.gen_range(0..3) {
        0 => (I32[rng.gen_range(0..I32.len())] as i16)
            .to_be_bytes()
            .to_vec(),
        1 => I32[rng.gen_range(0..I32.len())].to_be_bytes().to_vec(),
        _ => {
            let mut v = U32[rng.gen_range(0..U32.len())];
            let mut out = Vec::new();
            while v >= 0x80 {
                out.push((v as u8 & 0x7f) | 0x80);
                v >>= 7;
            }
            out.push(v as u8);
            if rng.gen_bool(0.1) {
                // Over-long: a continuation bit too many.
                out.push(0x80);
            }
            out
        }
    }
}

pub(crate) fn mutate_bytes(rng: &mut ChaCha8Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut b = corpus[rng.gen_range(0..corpus.len())].clone();
    for _ in 0..rng.gen_range(1..=4) {
        let len = b.len();
        let pos = if len == 0 { 0 } else { rng.gen_range(0..len) };
        match rng.gen_range(0..11) {
            0 if len > 0 => b[pos] ^= 1 << rng.gen_range(0..8),
            1 if len > 0 => b[pos] = rng.gen(),
            2 | 3 => {
                let v = interesting(rng);
                if rng.gen_bool(0.5) {
                    for (i, x) in v.iter().enumerate() {
                        if pos + i < b.len() {
                            b[pos + i] = *x;
                        }
                    }
                } else {
                    b.splice(pos..pos, v);
                }
            }
            4 if len > 0 => {
                let end = (pos + rng.gen_range(1..=16)).min(len);
                b.drain(pos..end);
            }
            5 if len > 0 => {
                let end = (pos + rng.gen_range(1..=32)).min(len);
                let part = b[pos..end].to_vec();
                b.splice(pos..pos, part);
            }
            6 => {
                let n = rng.gen_range(1..=8);
                let junk: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
                b.splice(pos..pos, junk);
            }
            7 => {
                let other = &corpus[rng.gen_range(0..corpus.len())];
                let from = if other.is_empty() {
                    0
                } else {
                    rng.gen_range(0..other.len())
                };
                b.truncate(pos);
                b.extend_from_slice(&other[from..]);
            }
            8 if len > 0 => b.truncate(pos),
            9 if rng.gen_bool(0.2) => {
                // A long tail, so that a count checked only against the bytes left can be large.
                let n = rng.gen_range(1024..=64 * 1024);
                let fill = if rng.gen_bool(0.5) { 0 } else { 1 };
                b.extend(std::iter::repeat_n(fill, n));
            }
            _ if len > 0 => b[pos] = b[pos].wrapping_add(rng.gen_range(1..=4)),
            _ => b.push(rng.gen()),
        }
    }
    b.truncate(MAX_INPUT);
    b
}

/// Characters that break line-oriented and quoting code.
pub(crate) const ODD_CHARS: &[char] = &[
    '\0',
    '\r',
    '\n',
    '\t',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    '\u{2028}',
    '\u{feff}',
    'é',
    'ß',
    '\u{10ffff}',
    '😀',
    '\\',
    '"',
    '{',
    '[',
    ':',
    '=',
    ' ',
];

pub(crate) fn char_boundary(s: &str, rng: &mut ChaCha8Rng) -> usize {
    if s.is_empty() {
        return 0;
    }
    let mut i = rng.gen_range(0..=s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub(crate) fn mutate_text(rng: &mut ChaCha8Rng, corpus: &[Vec<u8>], dict: &[&str]) -> String {
    let mut t = text(&corpus[rng.gen_range(0..corpus.len())]);
    for _ in 0..rng.gen_range(1..=4) {
        let mut lines: Vec<String> = t.split_inclusive('\n').map(String::from).collect();
        let nl = lines.len();
        match rng.gen_range(0..12) {
            0 if nl > 0 => {
                lines.remove(rng.gen_range(0..nl));
                t = lines.concat();
            }
            1 if nl > 0 => {
                let i = rng.gen_range(0..nl);
                let l = lines[i].clone();
                lines.insert(rng.gen_range(0..=nl), l);
                t = lines.concat();
            }
            2 if nl > 1 => {
                let (a, b) = (rng.gen_range(0..nl), rng.gen_range(0..nl));
                lines.swap(a, b);
                t = lines.concat();
            }
            3 => {
                let other = text(&corpus[rng.gen_range(0..corpus.len())]);
                let ol: Vec<&str> = other.split_inclusive('\n').collect();
                if !ol.is_empty() {
                    let l = ol[rng.gen_range(0..ol.len())].to_string();
                    lines.insert(rng.gen_range(0..=nl), l);
                    t = lines.concat();
                }
            }
            4..=6 => {
                let i = char_boundary(&t, rng);
                t.insert_str(i, dict[rng.gen_range(0..dict.len())]);
            }
            7 => {
                // A number replaced by an edge value.
                let starts: Vec<usize> = t
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(i, _)| i)
                    .collect();
                if !starts.is_empty() {
                    let a = starts[rng.gen_range(0..starts.len())];
                    let e = t[a..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(t.len(), |x| a + x);
                    let v = [
                        "0",
                        "-1",
                        "1",
                        "2147483647",
                        "2147483648",
                        "4294967296",
                        "99999999999999999999",
                        "32767",
                        "1e3",
                    ];
                    t.replace_range(a..e, v[rng.gen_range(0..v.len())]);
                }
            }
            8 => {
                let a = char_boundary(&t, rng);
                let mut e = (a + rng.gen_range(1..=24)).min(t.len());
                while !t.is_char_boundary(e) {
                    e += 1;
                }
                t.replace_range(a..e, "");
            }
            9 => {
                let i = char_boundary(&t, rng);
                t.insert(i, ODD_CHARS[rng.gen_range(0..ODD_CHARS.len())]);
            }
            10 => {
                let a = char_boundary(&t, rng);
                let mut e = (a + rng.gen_range(1..=64)).min(t.len());
                while !t.is_char_boundary(e) {
                    e += 1;
                }
                let part = t[a..e].to_string();
                let i = char_boundary(&t, rng);
                t.insert_str(i, &part);
            }
            _ => {
                let i = char_boundary(&t, rng);
                t.truncate(i);
            }
        }
    }
    let mut cut = t.len().min(MAX_INPUT);
    while !t.is_char_boundary(cut) {
        cut -= 1;
    }
    t.truncate(cut);
    t
}

/// Object keys named in a JSON dictionary (`"name": `).
pub(crate) fn keys(dict: &[&str]) -> Vec<String> {
    dict.iter()
        .filter_map(|d| d.strip_prefix('"')?.strip_suffix("\": ").map(String::from))
        .collect()
}

pub(crate) fn edge_value(rng: &mut ChaCha8Rng) -> serde_json::Value {
    use serde_json::json;
    let long = "a".repeat(300);
    let vals = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1),
        json!(2),
        json!(i32::MAX),
        json!(i64::from(i32::MAX) + 1),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(1.5),
        json!(""),
        json!("0"),
        json!("x"),
        json!("4.4"),
        json!("Stable"),
        json!("wordcount"),
        json!("app-counts-changelog"),
        json!("a\r\nb\u{1b}[2J\u{202e}"),
        json!(long),
        json!([]),
        json!({}),
    ];
    vals[rng.gen_range(0..vals.len())].clone()
}

/// A node of `v`, reached by a random walk from the root.
pub(crate) fn pick<'a>(
    mut v: &'a mut serde_json::Value,
    rng: &mut ChaCha8Rng,
) -> &'a mut serde_json::Value {
    use serde_json::Value;
    loop {
        let n = match &*v {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if n == 0 || rng.gen_bool(0.2) {
            return v;
        }
        let i = rng.gen_range(0..n);
        v = match v {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).expect("in range"),
            _ => unreachable!(),
        };
    }
}

pub(crate) fn mutate_json(
    rng: &mut ChaCha8Rng,
    corpus: &[Vec<u8>],
    dict: &[&str],
) -> Option<String> {
    use serde_json::Value;
    let mut v: Value = serde_json::from_slice(&corpus[rng.gen_range(0..corpus.len())]).ok()?;
    let donor: Option<Value> = serde_json::from_slice(&corpus[rng.gen_range(0..corpus.len())]).ok();
    let names = keys(dict);
    for _ in 0..rng.gen_range(1..=3) {
        let subtree = donor.as_ref().map(|d| {
            let mut d = d.clone();
            pick(&mut d, rng).clone()
        });
        let node = pick(&mut v, rng);
        match (rng.gen_range(0..6), node) {
            (0, n) => *n = edge_value(rng),
            (1, n) => {
                if let Some(t) = subtree {
                    *n = t;
                }
            }
            (2, Value::Array(a)) if !a.is_empty() => {
                let i = rng.gen_range(0..a.len());
                match rng.gen_range(0..4) {
                    0 => {
                        a.remove(i);
                    }
                    1 => a.reverse(),
                    _ => {
                        let e = a[i].clone();
                        for _ in 0..rng.gen_range(1..=20) {
                            a.insert(i, e.clone());
                        }
                    }
                }
            }
            (3, Value::Object(o)) if !o.is_empty() && !names.is_empty() => {
                let k = o
                    .keys()
                    .nth(rng.gen_range(0..o.len()))
                    .cloned()
                    .expect("in range");
                let val = o.remove(&k).expect("present");
                match rng.gen_range(0..3) {
                    0 => {}
                    1 => {
                        o.insert(names[rng.gen_range(0..names.len())].clone(), val);
                    }
                    _ => {
                        o.insert(k, val);
                        let new = names[rng.gen_range(0..names.len())].clone();
                        let val = subtree.unwrap_or_else(|| edge_value(rng));
                        o.insert(new, val);
                    }
                }
            }
            (4, Value::String(st)) => {
                let c = ODD_CHARS[rng.gen_range(0..ODD_CHARS.len())];
                let i = char_boundary(st, rng);
                st.insert(i, c);
            }
            (_, Value::Number(x)) => {
                let d = rng.gen_range(-2i64..=2);
                *x = match x.as_i64() {
                    Some(i) => i.saturating_add(d).into(),
                    None => 0.into(),
                };
            }
            (_, n) => *n = edge_value(rng),
        }
    }
    Some(if rng.gen_bool(0.5) {
        serde_json::to_string(&v).ok()?
    } else {
        serde_json::to_string_pretty(&v).ok()?
    })
}
