//! What the user writes for the admin actions, read as Apache's `kafka-streams-groups.sh`
//! reads it: `--to-datetime` (`Utils.getDateTime`: `yyyy-MM-dd'T'HH:mm:ss.SSS` with an optional
//! `Z`, `±hh:mm` or `±hh` zone, UTC without one), `--by-duration` (`java.time.Duration.parse`:
//! `PnDTnHnMn.nS`), `--input-topic` (`topic` or `topic:0,1`) and `--from-file` (the CSV plan of
//! `CsvUtils`: `topic,partition,offset` or `group,topic,partition,offset`, no header).
//!
//! Where Apache's parser is lenient by accident (SimpleDateFormat reads `.5` as 5 ms and
//! ignores what follows a zone it could read), this one refuses, so a value never means
//! something else than it seems to.

use std::collections::BTreeMap;

use model::topic_name::is_valid_topic_name;

use model::TopicPartition;

/// An `--input-topic` value: a topic, with the partitions named after a colon if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicScope {
    pub topic: String,
    /// `None`: every partition of the topic.
    pub partitions: Option<Vec<i32>>,
}

/// `topic` or `topic:0,1,2`.
pub fn topic_scope(s: &str) -> Result<TopicScope, String> {
    let (topic, partitions) = match s.split_once(':') {
        None => (s, None),
        Some((t, ps)) => {
            let parts = ps
                .split(',')
                .map(|p| match p.trim().parse::<i32>() {
                    Ok(n) if n >= 0 => Ok(n),
                    _ => Err(format!(
                        "`{s}`: `{p}` is not a partition number (expected TOPIC or TOPIC:0,1,2)"
                    )),
                })
                .collect::<Result<Vec<i32>, String>>()?;
            (t, Some(parts))
        }
    };
    if !is_valid_topic_name(topic) {
        return Err(format!(
            "`{s}`: `{topic}` is not a topic name (expected TOPIC or TOPIC:0,1,2)"
        ));
    }
    Ok(TopicScope {
        topic: topic.to_string(),
        partitions,
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Exactly `n` ASCII digits at the start of `s`, as a number, and the rest.
fn digits(s: &str, n: usize) -> Option<(i64, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, &s[n..]))
}

fn expect(s: &str, c: char) -> Option<&str> {
    s.strip_prefix(c)
}

/// The zone suffix in milliseconds east of UTC: `` (UTC), `Z`, `±hh:mm` or `±hh`.
fn zone_offset_ms(z: &str) -> Option<i64> {
    if z.is_empty() || z == "Z" {
        return Some(0);
    }
    let sign = match z.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (h, rest) = digits(&z[1..], 2)?;
    let m = match rest {
        "" => 0,
        _ => {
            digits(expect(rest, ':')?, 2)
                .filter(|(_, r)| r.is_empty())?
                .0
        }
    };
    (h <= 23 && m <= 59).then_some(sign * (h * 60 + m) * 60_000)
}

/// `--to-datetime`: epoch milliseconds.
pub fn datetime(s: &str) -> Result<i64, String> {
    parse_datetime(s).ok_or_else(|| {
        format!(
            "`{s}` is not a datetime: expected YYYY-MM-DDTHH:mm:SS.sss with an optional zone \
             (Z, +01:00 or +01), e.g. 2024-05-01T08:30:00.000 (UTC without a zone)"
        )
    })
}

fn parse_datetime(s: &str) -> Option<i64> {
    let (y, r) = digits(s, 4)?;
    let (mo, r) = digits(expect(r, '-')?, 2)?;
    let (d, r) = digits(expect(r, '-')?, 2)?;
    let (h, r) = digits(expect(r, 'T')?, 2)?;
    let (mi, r) = digits(expect(r, ':')?, 2)?;
    let (sec, r) = digits(expect(r, ':')?, 2)?;
    let (ms, zone) = digits(expect(r, '.')?, 3)?;
    let valid = (1..=12).contains(&mo)
        && (1..=days_in_month(y, mo)).contains(&d)
        && h <= 23
        && mi <= 59
        && sec <= 59;
    if !valid {
        return None;
    }
    let offset = zone_offset_ms(zone)?;
    let day_ms = ((h * 60 + mi) * 60 + sec) * 1000 + ms;
    Some(days_from_civil(y, mo, d) * 86_400_000 + day_ms - offset)
}

/// `--by-duration`: nanoseconds (negative durations allowed, as Java's are).
pub fn duration(s: &str) -> Result<i128, String> {
    parse_duration(s).ok_or_else(|| {
        format!(
            "`{s}` is not a duration: expected PnDTnHnMnS (ISO-8601, as java.time.Duration \
             reads it), e.g. PT30M, P1DT2H or PT0.5S"
        )
    })
}

/// A signed whole number at the start of `s` (as many digits as there are), and the rest.
fn signed(s: &str) -> Option<(i128, &str)> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let n = body.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || n > 19 {
        return None;
    }
    let v: i128 = body[..n].parse().ok()?;
    Some((if neg { -v } else { v }, &body[n..]))
}

const NANOS_PER_SECOND: i128 = 1_000_000_000;

fn parse_duration(s: &str) -> Option<i128> {
    let upper = s.to_ascii_uppercase();
    let (negate, r) = match upper.as_bytes().first()? {
        b'-' => (true, &upper[1..]),
        b'+' => (false, &upper[1..]),
        _ => (false, upper.as_str()),
    };
    let mut r = expect(r, 'P')?;
    let mut total: i128 = 0;
    let mut any = false;
    if let Some((n, rest)) = signed(r).filter(|(_, rest)| rest.starts_with('D')) {
        total += n * 86_400 * NANOS_PER_SECOND;
        r = &rest[1..];
        any = true;
    }
    if let Some(t) = r.strip_prefix('T') {
        r = t;
        let mut in_t = false;
        for (unit, secs) in [('H', 3600), ('M', 60)] {
            if let Some((n, rest)) = signed(r).filter(|(_, rest)| rest.starts_with(unit)) {
                total += n * secs * NANOS_PER_SECOND;
                r = &rest[1..];
                in_t = true;
            }
        }
        if let Some((n, rest)) = signed(r) {
            let (frac, rest) = match rest.as_bytes().first() {
                Some(b'.') | Some(b',') => {
                    let f = &rest[1..];
                    let k = f.bytes().take_while(u8::is_ascii_digit).count();
                    if k > 9 {
                        return None;
                    }
                    let nanos: i128 = format!("{:0<9}", &f[..k]).parse().ok()?;
                    (nanos, &f[k..])
                }
                _ => (0, rest),
            };
            let rest = expect(rest, 'S')?;
            let neg = n < 0 || r.starts_with('-');
            let frac = if neg { -frac } else { frac };
            total += n * NANOS_PER_SECOND + frac;
            r = rest;
            in_t = true;
        }
        if !in_t {
            return None;
        }
        any = true;
    }
    (any && r.is_empty()).then_some(if negate { -total } else { total })
}

/// A `--from-file` plan: new offsets per group, per partition.
pub type FilePlan = BTreeMap<String, BTreeMap<TopicPartition, i64>>;

/// The fields of one CSV line, with RFC 4180 quotes (`"a,b"`, `""` for a quote).
fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cur.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cur.push(c),
            (false, '"') if cur.is_empty() && !was_quoted => {
                quoted = true;
                was_quoted = true;
            }
            (false, ',') => {
                out.push(std::mem::take(&mut cur));
                was_quoted = false;
            }
            (false, '"') => return None,
            (false, c) => cur.push(c),
        }
    }
    if quoted {
        return None;
    }
    out.push(cur);
    Some(out)
}

/// A CSV field as it is written: quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `topic,partition,offset` fields as a partition and its offset.
fn plan_entry(fields: &[String]) -> Result<(TopicPartition, i64), String> {
    let [topic, partition, offset] = fields else {
        return Err("expected TOPIC,PARTITION,OFFSET".into());
    };
    if !is_valid_topic_name(topic) {
        return Err(format!("`{topic}` is not a topic name"));
    }
    let partition: i32 = partition
        .trim()
        .parse()
        .ok()
        .filter(|p| *p >= 0)
        .ok_or_else(|| format!("`{partition}` is not a partition number"))?;
    let offset: i64 = offset
        .trim()
        .parse()
        .map_err(|_| format!("`{offset}` is not an offset"))?;
    Ok(((topic.clone(), partition), offset))
}

/// The `--from-file` CSV. With exactly one group and a three-column first line, every line is
/// `topic,partition,offset` (for that group); otherwise every line is
/// `group,topic,partition,offset`. Blank lines are skipped; a bad line is named by number.
pub fn csv_plan(text: &str, groups: &[String]) -> Result<FilePlan, String> {
    let lines: Vec<(usize, Vec<String>)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            csv_fields(l)
                .map(|f| (n, f))
                .ok_or_else(|| format!("line {n}: unbalanced quotes in `{l}`"))
        })
        .collect::<Result<_, _>>()?;
    let single = match groups {
        [g] if lines.first().is_some_and(|(_, f)| plan_entry(f).is_ok()) => Some(g),
        _ => None,
    };
    let mut plan = FilePlan::new();
    for (n, fields) in &lines {
        let (group, entry) = match single {
            Some(g) => (g.clone(), plan_entry(fields)),
            None => match fields.split_first() {
                Some((g, rest)) if fields.len() == 4 && !g.is_empty() => {
                    (g.clone(), plan_entry(rest))
                }
                _ => (
                    String::new(),
                    Err(
                        "expected GROUP,TOPIC,PARTITION,OFFSET (or TOPIC,PARTITION,OFFSET \
                         with one group)"
                            .into(),
                    ),
                ),
            },
        };
        let (tp, offset) = entry.map_err(|e| format!("line {n}: {e}"))?;
        if plan
            .entry(group)
            .or_default()
            .insert(tp.clone(), offset)
            .is_some()
        {
            return Err(format!(
                "line {n}: partition {}-{} appears twice",
                tp.0, tp.1
            ));
        }
    }
    if plan.is_empty() {
        return Err("the file holds no offsets".into());
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datetimes_as_apache_reads_them_utc_by_default() {
        assert_eq!(datetime("1970-01-01T00:00:00.000").unwrap(), 0);
        assert_eq!(datetime("1970-01-01T00:00:00.000Z").unwrap(), 0);
        assert_eq!(
            datetime("2024-02-29T12:34:56.789").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(
            datetime("2024-02-29T13:34:56.789+01:00").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(
            datetime("2024-02-29T10:34:56.789-02").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(datetime("1969-12-31T23:59:59.999").unwrap(), -1);
        for bad in [
            "2024-02-30T00:00:00.000",
            "2023-02-29T00:00:00.000",
            "2024-01-01T24:00:00.000",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.5",
            "2024-01-01 00:00:00.000",
            "2024-01-01T00:00:00.000+0100",
            "2024-01-01T00:00:00.000+01:00x",
            "yesterday",
            "",
        ] {
            let e = datetime(bad).unwrap_err();
            assert!(e.contains("is not a datetime"), "{bad}: {e}");
        }
    }

    #[test]
    fn durations_as_java_reads_them() {
        let s = |x: i128| x * NANOS_PER_SECOND;
        assert_eq!(duration("PT30M").unwrap(), s(1800));
        assert_eq!(duration("P1DT2H").unwrap(), s(86_400 + 7200));
        assert_eq!(duration("pt0.5s").unwrap(), NANOS_PER_SECOND / 2);
        assert_eq!(duration("P2D").unwrap(), s(172_800));
        assert_eq!(duration("-PT1H").unwrap(), s(-3600));
        assert_eq!(duration("PT-1H30M").unwrap(), s(-3600 + 1800));
        assert_eq!(duration("PT-0.5S").unwrap(), -NANOS_PER_SECOND / 2);
        for bad in [
            "", "P", "PT", "1H", "PT1", "P1H", "PT1H2D", "PT1.5M", "PT1HX",
        ] {
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn topic_scopes() {
        assert_eq!(
            topic_scope("in").unwrap(),
            TopicScope {
                topic: "in".into(),
                partitions: None
            }
        );
        assert_eq!(topic_scope("in:0,2").unwrap().partitions, Some(vec![0, 2]));
        for bad in ["in:", "in:x", "in:-1", ":0", "a b", "in:0:1"] {
            assert!(topic_scope(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn csv_formats_as_csvutils_writes_them() {
        let one = vec!["app".to_string()];
        let p = csv_plan("in,0,5\nin,1,7\n", &one).unwrap();
        assert_eq!(p["app"][&("in".to_string(), 1)], 7);
        // With the group column, even for one group.
        let p = csv_plan("app,in,0,5\r\nother,in,0,1\n", &one).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p["other"][&("in".to_string(), 0)], 1);
        // Two groups: the group column is required.
        let two = vec!["a".to_string(), "b".to_string()];
        let e = csv_plan("in,0,5\n", &two).unwrap_err();
        assert!(e.starts_with("line 1: expected GROUP"), "{e}");
        let e = csv_plan("in,0,5\n\nin,x,1\n", &one).unwrap_err();
        assert_eq!(e, "line 3: `x` is not a partition number");
        let e = csv_plan("in,0,5\nin,0,6\n", &one).unwrap_err();
        assert!(e.contains("line 2") && e.contains("twice"), "{e}");
        assert!(csv_plan("\n\n", &one).is_err());
        let p = csv_plan("\"a,b\",in,0,5\n", &one).unwrap();
        assert!(p.contains_key("a,b"));
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("in"), "in");
    }
}
