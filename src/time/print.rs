//! Instants and durations as people read them. Instants are milliseconds since the Unix epoch,
//! printed in UTC.

use model::calendar;

/// `2026-12-02T17:20:01.123Z`.
pub fn rfc3339(ms: i64) -> String {
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = calendar::civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{}Z", time_of_day(ms_of_day))
}

/// `17:20:01.123`, the UTC time of day.
pub fn time_of_day(ms: i64) -> String {
    let t = ms.rem_euclid(86_400_000);
    let (h, min, s, milli) = (t / 3_600_000, t / 60_000 % 60, t / 1000 % 60, t % 1000);
    format!("{h:02}:{min:02}:{s:02}.{milli:03}")
}

/// `17:20:01`, to the second.
pub fn time_of_day_s(ms: i64) -> String {
    time_of_day(ms)[..8].to_string()
}

/// A duration for people: `0.4 s`, `12.5 s`, `3 min 20 s`.
pub fn format_duration(ms: i64) -> String {
    if ms < 60_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{} min {} s", ms / 60_000, ms / 1000 % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_are_utc_text() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_796_232_001_123), "2026-12-02T17:20:01.123Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(time_of_day_s(1_796_232_001_123), "17:20:01");
    }

    #[test]
    fn durations_read_as_seconds_or_minutes() {
        assert_eq!(format_duration(400), "0.4 s");
        assert_eq!(format_duration(12_500), "12.5 s");
        assert_eq!(format_duration(200_000), "3 min 20 s");
    }
}
