//! A described group's input partitions: which topics are its inputs, which partitions need
//! their earliest offset, and the committed/end/lag rows `describe` shows. Pure: the cluster's
//! answers come in as maps.

use std::collections::{BTreeMap, BTreeSet};

use model::group::{CommittedOffsets, GroupDescription, PartitionOffsets};

/// Partition leaders per topic (topics that do not exist are absent).
pub type Leaders = BTreeMap<String, BTreeMap<i32, i32>>;

/// Lag of one partition: `end - committed`, or `end - earliest` when nothing is committed.
pub fn lag(committed: Option<i64>, end: Option<i64>, earliest: Option<i64>) -> Option<i64> {
    let end = end?;
    match committed {
        Some(c) if c >= 0 => Some((end - c).max(0)),
        _ => earliest.map(|e| (end - e).max(0)),
    }
}

/// The input topics of each group: its topology's, or (not initialised) the topics it has
/// committed offsets for.
pub fn input_topics(
    described: &[GroupDescription],
    committed: &BTreeMap<String, CommittedOffsets>,
) -> BTreeMap<String, BTreeSet<String>> {
    described
        .iter()
        .map(|d| {
            let topics: BTreeSet<String> = match &d.topology.subtopologies {
                Some(subs) => subs
                    .iter()
                    .flat_map(|s| s.input_topics().map(String::from).collect::<Vec<_>>())
                    .collect(),
                None => committed
                    .get(&d.group_id)
                    .map(|c| c.keys().map(|(t, _)| t.clone()).collect())
                    .unwrap_or_default(),
            };
            (d.group_id.clone(), topics)
        })
        .collect()
}

/// Every partition of `leaders`, with its leader.
pub fn partitions(leaders: &Leaders) -> BTreeMap<(String, i32), i32> {
    leaders
        .iter()
        .flat_map(|(t, ps)| ps.iter().map(move |(p, l)| ((t.clone(), *p), *l)))
        .collect()
}

/// The input partitions (with their leaders) some group has committed nothing for: only these
/// need their earliest offset, for the lag of a partition never committed.
pub fn uncommitted(
    described: &[GroupDescription],
    inputs: &BTreeMap<String, BTreeSet<String>>,
    leaders: &Leaders,
    committed_all: &BTreeMap<String, CommittedOffsets>,
) -> BTreeMap<(String, i32), i32> {
    let mut need = BTreeMap::new();
    for d in described {
        let committed = committed_all.get(&d.group_id);
        for t in inputs.get(&d.group_id).into_iter().flatten() {
            for (p, l) in leaders.get(t).into_iter().flatten() {
                let key = (t.clone(), *p);
                if committed.is_none_or(|c| !c.contains_key(&key)) {
                    need.insert(key, *l);
                }
            }
        }
    }
    need
}

/// What the cluster said of the input partitions: leaders, end and earliest offsets.
pub struct Offsets<'a> {
    pub leaders: &'a Leaders,
    pub ends: &'a BTreeMap<(String, i32), i64>,
    pub earliest: &'a BTreeMap<(String, i32), i64>,
}

impl Offsets<'_> {
    /// One row per input partition of a group, sorted; a topic that does not exist shows the
    /// committed offsets only, with a warning.
    pub fn rows<'t>(
        &self,
        group_id: &str,
        topics: impl Iterator<Item = &'t String>,
        committed: &CommittedOffsets,
        warnings: &mut Vec<String>,
    ) -> Vec<PartitionOffsets> {
        let mut rows = Vec::new();
        for t in topics {
            let Some(ps) = self.leaders.get(t) else {
                warnings.push(format!(
                    "group `{group_id}`: topic `{t}` does not exist (or is not visible)"
                ));
                rows.extend(committed.iter().filter(|((ct, _), _)| ct == t).map(
                    |((_, cp), (off, ep))| PartitionOffsets {
                        topic: t.clone(),
                        partition: *cp,
                        committed: Some(*off),
                        leader_epoch: Some(*ep).filter(|e| *e >= 0),
                        end: None,
                        lag: None,
                    },
                ));
                continue;
            };
            for p in ps.keys() {
                let key = (t.clone(), *p);
                let c = committed.get(&key);
                let end = self.ends.get(&key).copied();
                rows.push(PartitionOffsets {
                    topic: t.clone(),
                    partition: *p,
                    committed: c.map(|x| x.0),
                    leader_epoch: c.map(|x| x.1).filter(|e| *e >= 0),
                    end,
                    lag: lag(c.map(|x| x.0), end, self.earliest.get(&key).copied()),
                });
            }
        }
        rows.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag_rules() {
        assert_eq!(lag(Some(5), Some(10), None), Some(5));
        assert_eq!(lag(None, Some(10), Some(3)), Some(7));
        assert_eq!(lag(None, Some(10), None), None);
        assert_eq!(lag(Some(5), None, Some(0)), None);
        assert_eq!(lag(Some(12), Some(10), None), Some(0));
    }

    #[test]
    fn rows_cover_every_partition_and_a_missing_topic() {
        let leaders: Leaders = [("in".to_string(), [(0, 1), (1, 2)].into())].into();
        let ends = [(("in".to_string(), 0), 10), (("in".to_string(), 1), 7)].into();
        let earliest = [(("in".to_string(), 1), 2)].into();
        let committed: CommittedOffsets = [
            (("in".to_string(), 0), (4, 3)),
            (("gone".to_string(), 5), (9, -1)),
        ]
        .into();
        let offsets = Offsets {
            leaders: &leaders,
            ends: &ends,
            earliest: &earliest,
        };
        let topics = ["in".to_string(), "gone".to_string()];
        let mut warnings = Vec::new();
        let rows = offsets.rows("g", topics.iter(), &committed, &mut warnings);
        let got: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.topic.as_str(),
                    r.partition,
                    r.committed,
                    r.leader_epoch,
                    r.lag,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("gone", 5, Some(9), None, None),
                ("in", 0, Some(4), Some(3), Some(6)),
                ("in", 1, None, None, Some(5)),
            ]
        );
        assert_eq!(
            warnings,
            ["group `g`: topic `gone` does not exist (or is not visible)"]
        );
    }
}
