//! Reset planning, pure: given a scenario, the partitions in scope and what the cluster says
//! (committed offsets, log start and end offsets, offsets by timestamp), the new offset of
//! every partition, with Apache's rules (`OffsetsUtils` in 4.2/4.3, `GroupOffsetsResetter`
//! in 4.4):
//!
//! * `--to-offset`, `--shift-by` and `--from-file` are clamped to [log start, log end];
//! * `--to-earliest` / `--to-latest` are the log start / end;
//! * `--to-datetime` / `--by-duration` take the first offset at or after the timestamp, or the
//!   log end when no record is that recent;
//! * `--to-current` keeps the committed offset, or takes the log end when there is none.
//!
//! Scopes: `--all-input-topics` is the committed partitions of the topology's source topics
//! (repartition topics are left out, as Apache leaves them out); `--input-topic` partitions
//! must exist, have a leader and (for a reset) a committed offset.

use std::collections::{BTreeMap, BTreeSet};

use super::parse::TopicScope;
use model::TopicPartition;

/// Where a reset moves each partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetScenario {
    ToEarliest,
    ToLatest,
    ToOffset(i64),
    ShiftBy(i64),
    /// `--to-datetime` and `--by-duration`, as epoch milliseconds.
    ToTimestamp(i64),
    ToCurrent,
    /// This group's lines of the `--from-file` plan.
    FromFile(BTreeMap<TopicPartition, i64>),
}

/// What the cluster says of the partitions in scope.
#[derive(Clone, Debug, Default)]
pub struct LogOffsets {
    pub earliest: BTreeMap<TopicPartition, i64>,
    pub latest: BTreeMap<TopicPartition, i64>,
    /// Offsets by timestamp; -1 where no record is that recent.
    pub at_timestamp: BTreeMap<TopicPartition, i64>,
}

/// Why a partition's new offset is not simply what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjustment {
    /// The offset asked for is below the log start offset.
    RaisedToLogStart { asked: i64 },
    /// The offset asked for is past the log end offset.
    LoweredToLogEnd { asked: i64 },
    /// No record is as recent as the timestamp: the log end offset.
    NoRecordSinceTimestamp,
    /// `--to-current` without a committed offset: the log end offset.
    NoCommitTakesLogEnd,
}

/// One partition of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub tp: TopicPartition,
    pub current: Option<i64>,
    pub new: i64,
    pub adjustment: Option<Adjustment>,
}

/// Why no plan can be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// `--shift-by` needs a committed offset to shift.
    NoCommittedOffset(TopicPartition),
    /// The cluster gave no log start (`earliest`) or end offset for the partition.
    UnknownLogOffset { tp: TopicPartition, earliest: bool },
}

/// A scope that cannot be used: the partitions named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeError {
    UnknownTopics(Vec<String>),
    UnknownPartitions(Vec<TopicPartition>),
    NoLeader(Vec<TopicPartition>),
    /// Partitions the group has committed nothing for.
    NotInGroup(Vec<TopicPartition>),
}

/// The partitions of a scope: `scopes` (`--input-topic`; empty = `--all-input-topics`, the
/// committed partitions of `source_topics`), checked against the cluster's `partitions`
/// (topic -> partition -> leader). `need_commit`: every partition must have a committed
/// offset (a reset; Apache: "One or more topics are not part of the group").
pub fn scope_partitions(
    scopes: &[TopicScope],
    source_topics: &BTreeSet<String>,
    partitions: &BTreeMap<String, BTreeMap<i32, i32>>,
    committed: &BTreeMap<TopicPartition, i64>,
    need_commit: bool,
) -> Result<BTreeSet<TopicPartition>, ScopeError> {
    if scopes.is_empty() {
        return Ok(committed
            .keys()
            .filter(|(t, _)| source_topics.contains(t))
            .cloned()
            .collect());
    }
    let unknown: Vec<String> = scopes
        .iter()
        .filter(|s| !partitions.contains_key(&s.topic))
        .map(|s| s.topic.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !unknown.is_empty() {
        return Err(ScopeError::UnknownTopics(unknown));
    }
    let mut out = BTreeSet::new();
    let mut missing = Vec::new();
    for s in scopes {
        let known = &partitions[&s.topic];
        match &s.partitions {
            None => out.extend(known.keys().map(|p| (s.topic.clone(), *p))),
            Some(ps) => {
                for p in ps {
                    let tp = (s.topic.clone(), *p);
                    if known.contains_key(p) {
                        out.insert(tp);
                    } else {
                        missing.push(tp);
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(ScopeError::UnknownPartitions(missing));
    }
    let leaderless: Vec<TopicPartition> = out
        .iter()
        .filter(|(t, p)| partitions[t][p] < 0)
        .cloned()
        .collect();
    if !leaderless.is_empty() {
        return Err(ScopeError::NoLeader(leaderless));
    }
    let uncommitted: Vec<TopicPartition> = out
        .iter()
        .filter(|tp| !committed.contains_key(*tp))
        .cloned()
        .collect();
    if need_commit && !uncommitted.is_empty() {
        return Err(ScopeError::NotInGroup(uncommitted));
    }
    Ok(out)
}

fn log_offset(
    map: &BTreeMap<TopicPartition, i64>,
    tp: &TopicPartition,
    earliest: bool,
) -> Result<i64, PlanError> {
    map.get(tp)
        .copied()
        .ok_or_else(|| PlanError::UnknownLogOffset {
            tp: tp.clone(),
            earliest,
        })
}

/// `asked`, clamped to the partition's [log start, log end] (Apache checks the end first).
fn clamp(
    tp: &TopicPartition,
    asked: i64,
    logs: &LogOffsets,
) -> Result<(i64, Option<Adjustment>), PlanError> {
    let end = log_offset(&logs.latest, tp, false)?;
    if asked > end {
        return Ok((end, Some(Adjustment::LoweredToLogEnd { asked })));
    }
    let start = log_offset(&logs.earliest, tp, true)?;
    if asked < start {
        return Ok((start, Some(Adjustment::RaisedToLogStart { asked })));
    }
    Ok((asked, None))
}

/// The new offset of one partition.
fn plan_one(
    scenario: &ResetScenario,
    tp: &TopicPartition,
    current: Option<i64>,
    logs: &LogOffsets,
) -> Result<(i64, Option<Adjustment>), PlanError> {
    let latest = || log_offset(&logs.latest, tp, false);
    match scenario {
        ResetScenario::ToEarliest => Ok((log_offset(&logs.earliest, tp, true)?, None)),
        ResetScenario::ToLatest => Ok((latest()?, None)),
        ResetScenario::ToOffset(n) => clamp(tp, *n, logs),
        ResetScenario::ShiftBy(n) => {
            let c = current.ok_or_else(|| PlanError::NoCommittedOffset(tp.clone()))?;
            clamp(tp, c.saturating_add(*n), logs)
        }
        ResetScenario::ToTimestamp(_) => match logs.at_timestamp.get(tp) {
            Some(o) if *o >= 0 => Ok((*o, None)),
            _ => Ok((latest()?, Some(Adjustment::NoRecordSinceTimestamp))),
        },
        ResetScenario::ToCurrent => match current {
            Some(c) => Ok((c, None)),
            None => Ok((latest()?, Some(Adjustment::NoCommitTakesLogEnd))),
        },
        ResetScenario::FromFile(plan) => match plan.get(tp) {
            Some(asked) => clamp(tp, *asked, logs),
            None => Ok((latest()?, None)),
        },
    }
}

/// The plan of one group: every partition of `partitions` (for `FromFile`, the file's),
/// sorted by topic and partition.
pub fn plan(
    scenario: &ResetScenario,
    partitions: &BTreeSet<TopicPartition>,
    committed: &BTreeMap<TopicPartition, i64>,
    logs: &LogOffsets,
) -> Result<Vec<Planned>, PlanError> {
    partitions
        .iter()
        .map(|tp| {
            let current = committed.get(tp).copied();
            let (new, adjustment) = plan_one(scenario, tp, current, logs)?;
            Ok(Planned {
                tp: tp.clone(),
                current,
                new,
                adjustment,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(t: &str, p: i32) -> TopicPartition {
        (t.to_string(), p)
    }

    /// in-0: log [10, 100), committed 50; in-1: log [0, 20), nothing committed.
    fn logs() -> (BTreeMap<TopicPartition, i64>, LogOffsets) {
        let committed = BTreeMap::from([(tp("in", 0), 50)]);
        let logs = LogOffsets {
            earliest: BTreeMap::from([(tp("in", 0), 10), (tp("in", 1), 0)]),
            latest: BTreeMap::from([(tp("in", 0), 100), (tp("in", 1), 20)]),
            at_timestamp: BTreeMap::from([(tp("in", 0), 42), (tp("in", 1), -1)]),
        };
        (committed, logs)
    }

    fn news(s: &ResetScenario) -> Vec<(i64, Option<Adjustment>)> {
        let (c, l) = logs();
        let parts = BTreeSet::from([tp("in", 0), tp("in", 1)]);
        plan(s, &parts, &c, &l)
            .unwrap()
            .into_iter()
            .map(|p| (p.new, p.adjustment))
            .collect()
    }

    #[test]
    fn scenarios_follow_apache() {
        use Adjustment::*;
        assert_eq!(news(&ResetScenario::ToEarliest), [(10, None), (0, None)]);
        assert_eq!(news(&ResetScenario::ToLatest), [(100, None), (20, None)]);
        assert_eq!(
            news(&ResetScenario::ToOffset(15)),
            [(15, None), (15, None)],
            "inside both logs"
        );
        assert_eq!(
            news(&ResetScenario::ToOffset(5)),
            [(10, Some(RaisedToLogStart { asked: 5 })), (5, None)]
        );
        assert_eq!(
            news(&ResetScenario::ToOffset(500)),
            [
                (100, Some(LoweredToLogEnd { asked: 500 })),
                (20, Some(LoweredToLogEnd { asked: 500 }))
            ]
        );
        assert_eq!(
            news(&ResetScenario::ToTimestamp(0)),
            [(42, None), (20, Some(NoRecordSinceTimestamp))]
        );
        assert_eq!(
            news(&ResetScenario::ToCurrent),
            [(50, None), (20, Some(NoCommitTakesLogEnd))]
        );
        let (c, l) = logs();
        let one = BTreeSet::from([tp("in", 0)]);
        let shifted = |n| plan(&ResetScenario::ShiftBy(n), &one, &c, &l).unwrap()[0].new;
        assert_eq!((shifted(-5), shifted(-45), shifted(60)), (45, 10, 100));
        let both = BTreeSet::from([tp("in", 0), tp("in", 1)]);
        assert_eq!(
            plan(&ResetScenario::ShiftBy(1), &both, &c, &l),
            Err(PlanError::NoCommittedOffset(tp("in", 1)))
        );
        let file = ResetScenario::FromFile(BTreeMap::from([(tp("in", 0), 7), (tp("in", 1), 3)]));
        assert_eq!(
            news(&file),
            [(10, Some(RaisedToLogStart { asked: 7 })), (3, None)]
        );
        let unknown = BTreeSet::from([tp("other", 0)]);
        assert_eq!(
            plan(&ResetScenario::ToEarliest, &unknown, &c, &l),
            Err(PlanError::UnknownLogOffset {
                tp: tp("other", 0),
                earliest: true
            })
        );
    }

    #[test]
    fn scopes_follow_apache() {
        let parts = BTreeMap::from([
            ("in".to_string(), BTreeMap::from([(0, 1), (1, 1)])),
            ("app-rep-repartition".to_string(), BTreeMap::from([(0, 1)])),
            ("dark".to_string(), BTreeMap::from([(0, -1)])),
        ]);
        let committed = BTreeMap::from([
            (tp("in", 0), 5),
            (tp("app-rep-repartition", 0), 3),
            (tp("dark", 0), 1),
        ]);
        let sources = BTreeSet::from(["in".to_string()]);
        let all = scope_partitions(&[], &sources, &parts, &committed, true).unwrap();
        assert_eq!(
            all,
            BTreeSet::from([tp("in", 0)]),
            "committed source partitions only"
        );
        let s = |x: &str| super::super::parse::topic_scope(x).unwrap();
        assert_eq!(
            scope_partitions(&[s("in")], &sources, &parts, &committed, true),
            Err(ScopeError::NotInGroup(vec![tp("in", 1)]))
        );
        assert_eq!(
            scope_partitions(&[s("in")], &sources, &parts, &committed, false)
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            scope_partitions(
                &[s("in:0"), s("app-rep-repartition")],
                &sources,
                &parts,
                &committed,
                true
            )
            .unwrap()
            .len(),
            2
        );
        assert_eq!(
            scope_partitions(&[s("nope"), s("in")], &sources, &parts, &committed, true),
            Err(ScopeError::UnknownTopics(vec!["nope".into()]))
        );
        assert_eq!(
            scope_partitions(&[s("in:0,7")], &sources, &parts, &committed, true),
            Err(ScopeError::UnknownPartitions(vec![tp("in", 7)]))
        );
        assert_eq!(
            scope_partitions(&[s("dark")], &sources, &parts, &committed, true),
            Err(ScopeError::NoLeader(vec![tp("dark", 0)]))
        );
    }
}
