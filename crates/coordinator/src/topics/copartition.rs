//! Copartitioning (Apache's `CopartitionedTopicsEnforcer`): the topics of each copartition group
//! get one partition count, or the group is reported as incorrectly partitioned.

use std::collections::{BTreeMap, BTreeSet};

use model::topology::Subtopology;

use super::{InvalidTopology, TopicProblem};

/// Step 3. The outer `Result` is an invalid topology, the inner one a status problem.
pub(super) fn enforce_copartitioning(
    subs: &[&Subtopology],
    existing: &dyn Fn(&str) -> Option<i32>,
    counts: &mut BTreeMap<String, i32>,
) -> Result<Result<(), TopicProblem>, InvalidTopology> {
    let repartition: BTreeSet<&str> = subs
        .iter()
        .flat_map(|s| s.repartition_source_topics.iter().map(|r| r.name.as_str()))
        .collect();
    // User-sized repartition topics, topology-wide.
    let fixed: BTreeMap<String, i32> = subs
        .iter()
        .flat_map(|s| s.repartition_source_topics.iter())
        .filter(|r| r.partitions != 0)
        .map(|r| (r.name.clone(), r.partitions))
        .collect();
    for s in subs {
        let mut groups: Vec<&BTreeSet<String>> = s.copartition_groups.iter().collect();
        groups.sort();
        for group in groups {
            let (rep, external): (Vec<&str>, Vec<&str>) = group
                .iter()
                .map(String::as_str)
                .partition(|t| repartition.contains(t));
            let chosen = match group_partitions(&rep, &external, &fixed, counts, existing)? {
                Ok(n) => n,
                Err(problem) => return Ok(Err(problem)),
            };
            for t in rep {
                if let Some(&f) = fixed.get(t) {
                    if f != chosen {
                        return Ok(Err(TopicProblem::IncorrectlyPartitioned {
                            detail: format!(
                                "Number of partitions [{f}] of repartition topic [{t}] doesn't \
                                 match number of partitions [{chosen}] of the source topic."
                            ),
                        }));
                    }
                }
                counts.insert(t.to_string(), chosen);
            }
        }
    }
    Ok(Ok(()))
}

/// The partition count of one copartition group: its external topics' common count, else the
/// common fixed count of the topology's user-sized repartition topics, else the largest count
/// decided for its repartition topics so far.
fn group_partitions(
    rep: &[&str],
    external: &[&str],
    fixed: &BTreeMap<String, i32>,
    counts: &BTreeMap<String, i32>,
    existing: &dyn Fn(&str) -> Option<i32>,
) -> Result<Result<i32, TopicProblem>, InvalidTopology> {
    if !external.is_empty() {
        let found: BTreeMap<&str, i32> = external
            .iter()
            .map(|t| (*t, existing(t).unwrap_or(0)))
            .collect();
        let distinct: BTreeSet<i32> = found.values().copied().collect();
        if distinct.len() > 1 {
            return Ok(Err(TopicProblem::IncorrectlyPartitioned {
                detail: format!(
                    "Following topics do not have the same number of partitions: [{}]",
                    map_text(found.iter().map(|(k, v)| (*k, *v)))
                ),
            }));
        }
        return Ok(Ok(distinct.into_iter().next().unwrap_or(0)));
    }
    if !fixed.is_empty() {
        let distinct: BTreeSet<i32> = fixed.values().copied().collect();
        if distinct.len() > 1 {
            return Ok(Err(TopicProblem::IncorrectlyPartitioned {
                detail: format!(
                    "Following repartition topics have a fixed but different number \
                     of partitions: [{}]",
                    map_text(fixed.iter().map(|(k, v)| (k.as_str(), *v)))
                ),
            }));
        }
        return Ok(Ok(distinct.into_iter().next().unwrap_or(0)));
    }
    let max = rep
        .iter()
        .filter_map(|t| counts.get(*t).copied())
        .max()
        .unwrap_or(0);
    if max <= 0 {
        return Err(InvalidTopology::new(format!(
            "No partition count could be found for the copartitioned \
             repartition topics {}.",
            rep.join(", ")
        )));
    }
    Ok(Ok(max))
}

/// `{a=1, b=2}`, the way Java prints a sorted map.
fn map_text<'a>(entries: impl Iterator<Item = (&'a str, i32)>) -> String {
    let parts: Vec<String> = entries.map(|(k, v)| format!("{k}={v}")).collect();
    format!("{{{}}}", parts.join(", "))
}
