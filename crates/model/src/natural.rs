//! Natural order of ids, for what reports list: runs of digits compare as numbers, so `p2`
//! sorts before `p10`, `p99` before `p100` and subtopology `2` before `10`. A run of digits
//! sorts before any other character. UUIDs and hex ids (Kafka Streams' process ids) are random
//! digits and letters, not numbers: they compare as plain text (`27782641-…` before
//! `78d594b7-…`), after every other id. Presentation only: the coordinator keeps Apache's own
//! orders (`coordinator::java`), which its lock-step oracle checks.

use std::cmp::Ordering;

/// `a` against `b` in natural order. Ids equal but for leading zeros (`p01`, `p1`) are told
/// apart by their text, so that the order is total.
pub fn cmp(a: &str, b: &str) -> Ordering {
    match (is_hex_id(a), is_hex_id(b)) {
        (true, true) => a.cmp(b),
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => natural(a, b),
    }
}

/// A UUID or hex id: at least 8 characters, only hex digits and dashes, with both digits and
/// letters (so `12345678` stays a number and `cafe` a name).
fn is_hex_id(s: &str) -> bool {
    s.len() >= 8
        && s.bytes().all(|c| c.is_ascii_hexdigit() || c == b'-')
        && s.bytes().any(|c| c.is_ascii_digit())
        && s.bytes().any(|c| c.is_ascii_alphabetic())
}

fn natural(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        let (Some(&c), Some(&d)) = (x.first(), y.first()) else {
            return x.len().cmp(&y.len()).then_with(|| a.cmp(b));
        };
        let order = match (c.is_ascii_digit(), d.is_ascii_digit()) {
            (true, true) => {
                let (n, rest_x) = split_digits(x);
                let (m, rest_y) = split_digits(y);
                x = rest_x;
                y = rest_y;
                numbers(n, m)
            }
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => {
                x = &x[1..];
                y = &y[1..];
                c.cmp(&d)
            }
        };
        if order != Ordering::Equal {
            return order;
        }
    }
}

/// A sort key in natural order: `v.sort_by_key(|m| Natural(&m.id))`, also inside tuples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Natural<'a>(pub &'a str);

impl Ord for Natural<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        cmp(self.0, other.0)
    }
}

impl PartialOrd for Natural<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(Ord::cmp(self, other))
    }
}

/// Sort ids in natural order.
pub fn sort<S: AsRef<str>>(ids: &mut [S]) {
    ids.sort_by(|a, b| cmp(a.as_ref(), b.as_ref()));
}

/// The leading run of digits, and the rest.
fn split_digits(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(s.len());
    s.split_at(end)
}

/// Two runs of digits as numbers, of any length (no overflow).
fn numbers(n: &[u8], m: &[u8]) -> Ordering {
    let trim = |s: &[u8]| -> usize { s.iter().take_while(|c| **c == b'0').count() };
    let (n, m) = (&n[trim(n)..], &m[trim(m)..]);
    n.len().cmp(&m.len()).then_with(|| n.cmp(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(ids: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        sort(&mut v);
        v
    }

    #[test]
    fn numbers_inside_ids_sort_as_numbers() {
        assert_eq!(
            sorted(&["p10-t1", "p2-t1", "p1-t10", "p1-t2", "p100-t1", "p99-t1"]),
            ["p1-t2", "p1-t10", "p2-t1", "p10-t1", "p99-t1", "p100-t1"]
        );
        assert_eq!(
            sorted(&["member-10", "member-9", "process-b", "process-a"]),
            ["member-9", "member-10", "process-a", "process-b"]
        );
    }

    #[test]
    fn subtopology_ids_numbers_first_then_names() {
        assert_eq!(
            sorted(&["b", "10", "a", "2", "0"]),
            ["0", "2", "10", "a", "b"]
        );
    }

    #[test]
    fn prefixes_and_restarted_members() {
        assert_eq!(
            sorted(&["p1-t1-r3", "p1-t1", "p1", "p1-t1-r10"]),
            ["p1", "p1-t1", "p1-t1-r3", "p1-t1-r10"]
        );
    }

    #[test]
    fn uuids_and_hex_ids_sort_as_text_after_names() {
        assert_eq!(
            sorted(&[
                "78d594b7-5d0e-4f4e-9a43-0c5e8a1b2c3d",
                "p2",
                "27782641-0b1e-4c2d-8e3f-4a5b6c7d8e9f",
                "3fa9",
                "12345678",
            ]),
            [
                "3fa9",
                "12345678",
                "p2",
                "27782641-0b1e-4c2d-8e3f-4a5b6c7d8e9f",
                "78d594b7-5d0e-4f4e-9a43-0c5e8a1b2c3d",
            ]
        );
    }

    #[test]
    fn the_order_is_total_and_consistent() {
        assert_eq!(cmp("p01", "p1"), "p01".cmp("p1"));
        assert_ne!(cmp("p01", "p1"), Ordering::Equal);
        assert_eq!(cmp("x", "x"), Ordering::Equal);
        // No overflow on long digit runs.
        assert_eq!(
            cmp("t99999999999999999999999", "t100000000000000000000000"),
            Ordering::Less
        );
        let ids = ["a1", "a01", "a", "1", "01", "a1b", "a1-", "é2", "e10"];
        for x in ids {
            for y in ids {
                assert_eq!(cmp(x, y), cmp(y, x).reverse(), "{x} {y}");
                for z in ids {
                    if cmp(x, y).is_le() && cmp(y, z).is_le() {
                        assert!(cmp(x, z).is_le(), "{x} {y} {z}");
                    }
                }
            }
        }
    }
}
