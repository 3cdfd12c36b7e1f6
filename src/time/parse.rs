//! Instants and durations as the user writes them: intervals (`2`, `500ms`, `7d`), Apache's
//! datetimes and ISO-8601 durations (as `kafka-streams-groups.sh` reads them), and "an instant or
//! a time ago". Where Apache's parser is lenient by accident (SimpleDateFormat reads `.5` as 5 ms
//! and ignores what follows a zone it could read), these refuse, so a value never means something
//! else than it seems to.

use model::calendar;

/// An interval:  `2`, `0.5` (seconds), `500ms`, `2s`, `1m`, `1h`, `7d`; more
/// than 0, at most a year.
pub fn parse_interval(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (number, unit) = (&s[..split], s[split..].trim());
    let how = "give seconds (2, 0.5) or a number with a unit (500ms, 2s, 1m, 1h, 7d)";
    let v: f64 = number.trim().parse().map_err(|_| how.to_string())?;
    let ms_per = match unit {
        "" | "s" => 1000.0,
        "ms" => 1.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        _ => return Err(how.into()),
    };
    let ms = v * ms_per;
    if ms.is_nan() || ms < 1.0 {
        return Err("must be more than 0 (at least 1 ms), e.g. 2 for every 2 seconds".into());
    }
    if ms > 86_400_000.0 * 365.0 {
        return Err("at most a year".into());
    }
    Ok(std::time::Duration::from_millis(ms.round() as u64))
}

/// An instant or a time ago (`--since`, `--until`, `--at`): epoch milliseconds. A time ago is an
/// interval ([`parse_interval`]: 90s, 30m, 2h, 7d) before `now_ms`; an instant is a datetime
/// ([`parse_datetime`]), to the millisecond or to the second.
pub fn parse_instant_or_ago(s: &str, now_ms: i64) -> Result<i64, String> {
    match parse_interval(s) {
        Ok(ago) => return Ok(now_ms - ago.as_millis() as i64),
        // A time ago, too far back: say so, not that it is no datetime.
        Err(e) if e == "at most a year" => {
            return Err(format!(
                "`{s}` ago is more than a year: a time ago is at most 365d; give a datetime \
                 (YYYY-MM-DDTHH:mm:SS) for an instant before that"
            ))
        }
        Err(_) => {}
    }
    // Kafka's tools want milliseconds (10:00:00.000); to the second is enough here.
    let with_millis = match s.get(19..20) {
        Some(".") => s.to_string(),
        _ if s.len() >= 19 && s.is_char_boundary(19) => format!("{}.000{}", &s[..19], &s[19..]),
        _ => s.to_string(),
    };
    parse_datetime(&with_millis)
        .map_err(|e| format!("{e}; or a time ago: a number with ms, s, m, h or d (30m, 2h)"))
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

/// A datetime as Apache's tools read it (`Utils.getDateTime`, `--to-datetime`:
/// `yyyy-MM-dd'T'HH:mm:ss.SSS` with an optional `Z`, `±hh:mm` or `±hh` zone, UTC without one):
/// epoch milliseconds.
pub fn parse_datetime(s: &str) -> Result<i64, String> {
    datetime_ms(s).ok_or_else(|| {
        format!(
            "`{s}` is not a datetime: expected YYYY-MM-DDTHH:mm:SS.sss with an optional zone \
             (Z, +01:00 or +01), e.g. 2024-05-01T08:30:00.000 (UTC without a zone)"
        )
    })
}

fn datetime_ms(s: &str) -> Option<i64> {
    let (y, r) = digits(s, 4)?;
    let (mo, r) = digits(expect(r, '-')?, 2)?;
    let (d, r) = digits(expect(r, '-')?, 2)?;
    let (h, r) = digits(expect(r, 'T')?, 2)?;
    let (mi, r) = digits(expect(r, ':')?, 2)?;
    let (sec, r) = digits(expect(r, ':')?, 2)?;
    let (ms, zone) = digits(expect(r, '.')?, 3)?;
    let valid = (1..=12).contains(&mo)
        && (1..=calendar::days_in_month(y, mo)).contains(&d)
        && h <= 23
        && mi <= 59
        && sec <= 59;
    if !valid {
        return None;
    }
    let offset = zone_offset_ms(zone)?;
    let day_ms = ((h * 60 + mi) * 60 + sec) * 1000 + ms;
    Some(calendar::days_from_civil(y, mo, d) * 86_400_000 + day_ms - offset)
}

/// An ISO-8601 duration as `java.time.Duration.parse` reads it (`PnDTnHnMn.nS`, `--by-duration`):
/// nanoseconds (negative durations allowed, as Java's are).
pub fn parse_iso_duration(s: &str) -> Result<i128, String> {
    iso_duration_nanos(s).ok_or_else(|| {
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

fn iso_duration_nanos(s: &str) -> Option<i128> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations_are_seconds_or_have_a_unit_and_are_positive() {
        assert_eq!(parse_interval("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_interval("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_interval("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_interval("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_interval("7d"), Ok(Duration::from_secs(7 * 86_400)));
        for bad in [
            "0",
            "-1",
            "0ms",
            "nan",
            "2 weeks",
            "",
            "0.0001",
            "2026-12-03T09:00:00Z",
        ] {
            assert!(parse_interval(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn datetimes_as_apache_reads_them_utc_by_default() {
        assert_eq!(parse_datetime("1970-01-01T00:00:00.000").unwrap(), 0);
        assert_eq!(parse_datetime("1970-01-01T00:00:00.000Z").unwrap(), 0);
        assert_eq!(
            parse_datetime("2024-02-29T12:34:56.789").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(
            parse_datetime("2024-02-29T13:34:56.789+01:00").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(
            parse_datetime("2024-02-29T10:34:56.789-02").unwrap(),
            1_709_210_096_789
        );
        assert_eq!(parse_datetime("1969-12-31T23:59:59.999").unwrap(), -1);
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
            let e = parse_datetime(bad).unwrap_err();
            assert!(e.contains("is not a datetime"), "{bad}: {e}");
        }
    }

    #[test]
    fn durations_as_java_reads_them() {
        let s = |x: i128| x * NANOS_PER_SECOND;
        assert_eq!(parse_iso_duration("PT30M").unwrap(), s(1800));
        assert_eq!(parse_iso_duration("P1DT2H").unwrap(), s(86_400 + 7200));
        assert_eq!(parse_iso_duration("pt0.5s").unwrap(), NANOS_PER_SECOND / 2);
        assert_eq!(parse_iso_duration("P2D").unwrap(), s(172_800));
        assert_eq!(parse_iso_duration("-PT1H").unwrap(), s(-3600));
        assert_eq!(parse_iso_duration("PT-1H30M").unwrap(), s(-3600 + 1800));
        assert_eq!(
            parse_iso_duration("PT-0.5S").unwrap(),
            -NANOS_PER_SECOND / 2
        );
        for bad in [
            "", "P", "PT", "1H", "PT1", "P1H", "PT1H2D", "PT1.5M", "PT1HX",
        ] {
            assert!(parse_iso_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_instant_or_a_time_ago() {
        let now = 1_796_232_001_123;
        assert_eq!(parse_instant_or_ago("2h", now), Ok(now - 7_200_000));
        assert_eq!(
            parse_instant_or_ago("2026-12-02T17:20:01Z", now),
            Ok(1_796_232_001_000)
        );
        assert_eq!(
            parse_instant_or_ago("2026-12-02T17:20:01.123Z", now),
            Ok(now)
        );
        let e = parse_instant_or_ago("soon", now).unwrap_err();
        assert!(e.contains("or a time ago"), "{e}");
        // A time ago beyond the bound names the bound, not a datetime.
        let e = parse_instant_or_ago("366d", now).unwrap_err();
        assert!(e.starts_with("`366d` ago is more than a year"), "{e}");
        assert_eq!(
            parse_instant_or_ago("365d", now),
            Ok(now - 365 * 86_400_000)
        );
    }
}
