//! The topology's topics against the cluster's (the checks of Apache's `InternalTopicManager`):
//! missing source topics, the internal topics wanted with their partition counts, and those of
//! them that exist with another count or do not exist yet.

use std::collections::{BTreeMap, BTreeSet};

use model::topology::Subtopology;

use super::{java_hash_order, Count, CreatableTopic, TopicProblem};

/// MISSING_SOURCE_TOPICS, if a source topic does not exist.
pub(super) fn missing_sources(subs: &[&Subtopology], existing: Count<'_>) -> Option<TopicProblem> {
    let missing: BTreeSet<&str> = subs
        .iter()
        .flat_map(|s| s.source_topics.iter().map(String::as_str))
        .filter(|t| existing(t).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let topics: Vec<String> = missing.iter().map(|t| t.to_string()).collect();
    Some(TopicProblem::MissingSourceTopics {
        detail: missing_sources_detail(&topics),
        topics,
    })
}

/// "Source topics a, b, c and N additional topics are missing." (at most three names).
pub(super) fn missing_sources_detail(topics: &[String]) -> String {
    const SHOWN: usize = 3;
    if topics.len() <= SHOWN {
        format!("Source topics {} are missing.", topics.join(", "))
    } else {
        format!(
            "Source topics {} and {} additional topics are missing.",
            topics[..SHOWN].join(", "),
            topics.len() - SHOWN
        )
    }
}

/// Every internal topic with the count it needs: repartition topics (fixed or decided), then
/// changelogs; the first mention of a topic wins.
pub(super) fn wanted_internal_topics(
    subs: &[&Subtopology],
    counts: &BTreeMap<String, i32>,
    changelogs: &BTreeMap<&str, i32>,
) -> BTreeMap<String, CreatableTopic> {
    let mut wanted: BTreeMap<String, CreatableTopic> = BTreeMap::new();
    let creatable = |t: &model::TopicInfo, partitions| CreatableTopic {
        name: t.name.clone(),
        partitions,
        replication_factor: replication(t.replication_factor),
        configs: t.topic_configs.clone(),
    };
    for s in subs {
        for r in &s.repartition_source_topics {
            let partitions = if r.partitions != 0 {
                r.partitions
            } else {
                counts.get(&r.name).copied().unwrap_or(0)
            };
            wanted
                .entry(r.name.clone())
                .or_insert_with(|| creatable(r, partitions));
        }
    }
    for s in subs {
        for c in &s.state_changelog_topics {
            let Some(&partitions) = changelogs.get(c.name.as_str()) else {
                continue; // a source topic used as changelog
            };
            wanted
                .entry(c.name.clone())
                .or_insert_with(|| creatable(c, partitions));
        }
    }
    wanted
}

/// INCORRECTLY_PARTITIONED_TOPICS for an existing internal topic with another count. Apache
/// checks the existing internal topics in the iteration order of the topology's
/// required-topics `HashSet`, filled walking the subtopologies, so the first mismatch it names
/// is the first in that order.
pub(super) fn mispartitioned(
    walk: &[&Subtopology],
    wanted: &BTreeMap<String, CreatableTopic>,
    existing: Count<'_>,
) -> Option<TopicProblem> {
    let required = java_hash_order(walk.iter().flat_map(|s| {
        s.source_topics
            .iter()
            .map(String::as_str)
            .chain(s.repartition_source_topics.iter().map(|t| t.name.as_str()))
            .chain(s.state_changelog_topics.iter().map(|t| t.name.as_str()))
    }));
    required.iter().find_map(|name| {
        let (t, found) = (wanted.get(name.as_str())?, existing(name)?);
        (found != t.partitions).then(|| TopicProblem::IncorrectlyPartitioned {
            detail: format!(
                "Existing topic {} has different number of partitions: expected {}, found {}",
                t.name, t.partitions, found
            ),
        })
    })
}

/// MISSING_INTERNAL_TOPICS with the topics to create, if any is missing. The topics to create
/// are a `HashMap` filled per subtopology, from its own `HashMap`s of repartition sources, then
/// changelogs; the status names the first three in its order.
pub(super) fn missing_internal(
    subs: &[&Subtopology],
    wanted: BTreeMap<String, CreatableTopic>,
    existing: Count<'_>,
) -> Option<TopicProblem> {
    let mut per_subtopology: Vec<String> = Vec::new();
    for s in subs {
        let names = |ts: &[model::TopicInfo]| java_hash_order(ts.iter().map(|t| t.name.as_str()));
        per_subtopology.extend(names(&s.repartition_source_topics));
        per_subtopology.extend(names(&s.state_changelog_topics));
    }
    let missing = java_hash_order(per_subtopology.iter().map(String::as_str));
    let missing: Vec<&str> = missing
        .iter()
        .map(String::as_str)
        .filter(|n| existing(n).is_none() && wanted.contains_key(*n))
        .collect();
    let to_create: Vec<CreatableTopic> = wanted
        .into_values()
        .filter(|t| existing(&t.name).is_none())
        .collect();
    if to_create.is_empty() {
        return None;
    }
    let names: Vec<&str> = missing.iter().take(3).copied().collect();
    let more = match missing.len() {
        n if n > 3 => format!(" and {} additional topics", n - 3),
        _ => String::new(),
    };
    // 4.1 puts every subtopology's internal topics into one map and names those left.
    let all_in_hash_order = java_hash_order(per_subtopology.iter().map(String::as_str))
        .into_iter()
        .filter(|n| to_create.iter().any(|t| t.name == *n))
        .collect();
    Some(TopicProblem::MissingInternalTopics {
        detail: format!("Internal topics are missing: {}{more}", names.join(", ")),
        to_create,
        all_in_hash_order,
    })
}

fn replication(rf: i16) -> i16 {
    if rf > 0 {
        rf
    } else {
        -1
    }
}
