//! `lag`: warm-up and restoration lag per task of a group, against `acceptable.recovery.lag`.
use crate::error::Error;
use crate::lag::{all_changelog_topics, group_task_lags, LagReport, LagStatus, LogEnds};
use crate::source::{GroupSource, Origin};
use kafka;
use model::group::GroupDescription;
use model::KafkaVersion;

/// How often a Kafka Streams 4.4 member reports its task offsets, by default
/// (`streams.task.offset.interval.ms`).
pub const DEFAULT_TASK_OFFSET_INTERVAL_MS: i64 = 60_000;

/// The changelogs' log end offsets now, for a live group (`None` for a snapshot): what the
/// members have restored is compared with them rather than with the members' last reports.
pub fn changelog_ends(
    source: &GroupSource,
    g: &GroupDescription,
) -> Result<Option<(LogEnds, Vec<String>)>, Error> {
    let GroupSource::Live { client, .. } = source else {
        return Ok(None);
    };
    let topics = all_changelog_topics(g);
    if topics.is_empty() {
        return Ok(None);
    }
    let ends = kafka::run_session(client.as_ref().clone(), move |cluster| {
        Box::pin(async move { cluster.log_end_offsets(&topics).await })
    })?;
    Ok(Some(ends))
}

/// The lag of every task a member of `g` reports offsets for, against the changelogs' log end
/// offsets now when `ends` has them; `origin` tells, when nothing is reported, whether the
/// broker cannot report offsets or its members have not yet.
pub fn report(
    g: &GroupDescription,
    origin: &Origin,
    acceptable_recovery_lag: i64,
    ends: Option<(LogEnds, Vec<String>)>,
) -> LagReport {
    let (ends, warnings) = ends.map_or((None, Vec::new()), |(e, w)| (Some(e), w));
    let tasks = group_task_lags(g, acceptable_recovery_lag, ends.as_ref());
    let count = |s: LagStatus| tasks.iter().filter(|t| t.status == s).count();
    LagReport {
        group_id: g.group_id.clone(),
        acceptable_recovery_lag,
        caught_up: count(LagStatus::CaughtUp),
        lagging: count(LagStatus::Lagging),
        unknown: count(LagStatus::Unknown),
        nothing_to_check: tasks.is_empty().then(|| no_offsets_reason(g, origin)),
        tasks,
        warnings,
    }
}

/// Why no member of `g` reports task offsets: no members, a broker before Kafka 4.4 (it never
/// returns them), or 4.4 members that have not sent their first report yet.
pub fn no_offsets_reason(g: &GroupDescription, origin: &Origin) -> String {
    if g.members.is_empty() {
        return format!("the group has no members (it is {})", g.state);
    }
    let (from, old_broker, version) = match origin {
        Origin::Snapshot { file, recorded, .. } => (
            format!("the snapshot {file}"),
            format!("the snapshot {file} was taken from a Kafka 4.1-4.3 broker"),
            *recorded,
        ),
        Origin::Live { detected, .. } => (
            "the broker".to_string(),
            "the broker is Kafka 4.1-4.3".to_string(),
            *detected,
        ),
    };
    let interval = format!(
        "Kafka Streams 4.4 members report them every streams.task.offset.interval.ms ({} s by \
         default), so a member that joined less than that ago has none yet",
        DEFAULT_TASK_OFFSET_INTERVAL_MS / 1000
    );
    match version {
        Some(v) if v < KafkaVersion::V4_4 => format!(
            "{old_broker} (StreamsGroupDescribe v0), which never returns task offsets: they need \
             Kafka 4.4 brokers and clients"
        ),
        Some(_) => {
            format!("no member has reported task offsets yet: {interval}; try again after it")
        }
        None => format!(
            "no member reports task offsets and {from} does not record the broker's version: \
             brokers before Kafka 4.4 never return them, and {interval}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::group::DescribedTopology;

    fn group(members: usize) -> GroupDescription {
        let mut m = crate::lag::tests::member();
        m.task_offsets.clear();
        m.task_end_offsets.clear();
        GroupDescription {
            member_order: Vec::new(),
            group_id: "g".into(),
            state: if members == 0 { "Empty" } else { "Stable" }.into(),
            group_epoch: 3,
            target_assignment_epoch: 3,
            coordinator: None,
            topology: DescribedTopology::default(),
            members: vec![m; members],
            offsets: vec![],
            assignor: None,
            configs: None,
        }
    }

    fn live(v: Option<KafkaVersion>) -> Origin {
        Origin::Live {
            group_id: "g".into(),
            detected: v,
            note: None,
        }
    }

    #[test]
    fn nothing_reported_names_the_cause_and_fails_the_gate() {
        let r = report(&group(2), &live(Some(KafkaVersion::V4_3)), 10_000, None);
        assert!(!r.gate_passes());
        let why = r.nothing_to_check.unwrap();
        assert!(why.starts_with("the broker is Kafka 4.1-4.3 "), "{why}");
        assert!(!why.contains("interval"), "{why}");

        let why = no_offsets_reason(&group(2), &live(Some(KafkaVersion::V4_4)));
        assert!(
            why.contains("no member has reported task offsets yet"),
            "{why}"
        );
        assert!(why.contains("60 s"), "{why}");
        assert!(
            !why.contains("4.1-4.3"),
            "a 4.4 broker is not blamed: {why}"
        );

        let snapshot = Origin::Snapshot {
            file: "s.json".into(),
            recorded: None,
            legacy_name: None,
            note: None,
        };
        let why = no_offsets_reason(&group(1), &snapshot);
        assert!(
            why.contains("does not record the broker's version"),
            "{why}"
        );

        let why = no_offsets_reason(&group(0), &snapshot);
        assert_eq!(why, "the group has no members (it is Empty)");
    }
}
