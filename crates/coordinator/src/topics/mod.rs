//! The coordinator's topology configuration (KIP-1071; Apache Kafka's `InternalTopicManager`):
//! given a topology and the cluster's topic partition counts, decide the partition count of
//! every internal topic, check copartitioning, find missing or mis-partitioned topics and, when
//! everything is in place, the number of tasks of every subtopology.
//!
//! Pipeline (the first problem stops it):
//! 1. every source topic must exist: MISSING_SOURCE_TOPICS;
//! 2. repartition topic counts: a fix-point from user-fixed counts and the subtopologies' inputs;
//!    a loop, or a repartition source that no subtopology writes, makes the topology invalid;
//! 3. copartition groups: all-repartition groups take the topology-wide fixed count, else the max;
//!    groups with external topics need equal external counts (INCORRECTLY_PARTITIONED_TOPICS);
//! 4. changelog counts: max partition count over the subtopology's sources and repartition
//!    sources (the behaviour of Kafka PR #19373); a changelog that is also a source topic is not
//!    internal;
//! 5. internal topics that exist must have the expected count (INCORRECTLY_PARTITIONED_TOPICS);
//!    the others are to be created (MISSING_INTERNAL_TOPICS with the list);
//! 6. ready: tasks per subtopology = max partition count over its input topics.
//!
//! Metadata entries with a partition count below 1 are treated as absent topics.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use crate::java::JavaHashMap;
use model::codes::{ErrorCode, StatusCode};
use model::topology::{Subtopology, Topology};

/// Topic name -> partition count, as the cluster's metadata shows them.
pub type TopicMetadata = BTreeMap<String, i32>;

/// A subtopology of a ready topology.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfiguredSubtopology {
    pub id: String,
    /// Number of tasks: the max partition count over source and repartition-source topics.
    pub num_tasks: i32,
    /// True when the subtopology has a changelog topic.
    pub stateful: bool,
    pub source_topics: Vec<String>,
    /// Repartition source topic -> partition count.
    pub repartition_source_topics: BTreeMap<String, i32>,
    /// Changelog topic -> partition count (including a source topic used as changelog).
    pub changelog_topics: BTreeMap<String, i32>,
}

/// An internal topic as the coordinator asks for it to be created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CreatableTopic {
    pub name: String,
    pub partitions: i32,
    /// -1: the broker default.
    pub replication_factor: i16,
    pub configs: BTreeMap<String, String>,
}

/// Why the topology is not ready; sent to members as a heartbeat status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TopicProblem {
    MissingSourceTopics {
        detail: String,
        topics: Vec<String>,
    },
    #[serde(rename = "INCORRECTLY_PARTITIONED_TOPICS")]
    IncorrectlyPartitioned {
        detail: String,
    },
    MissingInternalTopics {
        detail: String,
        to_create: Vec<CreatableTopic>,
        /// The missing topics in the order Kafka 4.1 names them (one `HashMap` of every
        /// internal topic); not part of the JSON.
        #[serde(skip)]
        #[schemars(skip)]
        all_in_hash_order: Vec<String>,
    },
}

impl TopicProblem {
    pub fn status_code(&self) -> StatusCode {
        match self {
            TopicProblem::MissingSourceTopics { .. } => StatusCode::MissingSourceTopics,
            TopicProblem::IncorrectlyPartitioned { .. } => StatusCode::IncorrectlyPartitionedTopics,
            TopicProblem::MissingInternalTopics { .. } => StatusCode::MissingInternalTopics,
        }
    }

    /// The status detail text.
    pub fn detail(&self) -> &str {
        match self {
            TopicProblem::MissingSourceTopics { detail, .. }
            | TopicProblem::IncorrectlyPartitioned { detail }
            | TopicProblem::MissingInternalTopics { detail, .. } => detail,
        }
    }

    /// The status detail as Kafka 4.1 words it: every missing topic, source topics sorted,
    /// internal topics as a Java set prints them ("[a, b]").
    pub fn detail_as_in_4_1(&self) -> String {
        match self {
            TopicProblem::MissingSourceTopics { topics, .. } => {
                format!("Source topics {} are missing.", topics.join(", "))
            }
            TopicProblem::MissingInternalTopics {
                all_in_hash_order, ..
            } => format!(
                "Internal topics are missing: [{}]",
                all_in_hash_order.join(", ")
            ),
            TopicProblem::IncorrectlyPartitioned { detail } => detail.clone(),
        }
    }
}

/// The result of [`configure`].
///
/// * Ready (`problem` is `None`): `subtopologies` has every subtopology with its task count,
///   sorted by id; `internal_topics` lists every internal topic with its count.
/// * Not ready: `subtopologies` is empty (a coordinator assigns no tasks). `internal_topics`
///   lists the internal topics with their expected counts when those could be decided (missing
///   or mis-partitioned internal topics), and is empty otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Configuration {
    pub subtopologies: Vec<ConfiguredSubtopology>,
    pub internal_topics: Vec<CreatableTopic>,
    pub problem: Option<TopicProblem>,
}

impl Configuration {
    pub fn is_ready(&self) -> bool {
        self.problem.is_none()
    }

    /// Tasks of a subtopology (only when ready).
    pub fn num_tasks(&self, id: &str) -> Option<i32> {
        self.subtopologies
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.num_tasks)
    }

    /// Total number of tasks (0 when not ready).
    pub fn total_tasks(&self) -> i64 {
        self.subtopologies
            .iter()
            .map(|s| i64::from(s.num_tasks))
            .sum()
    }

    fn not_ready(problem: TopicProblem) -> Self {
        Configuration {
            subtopologies: Vec::new(),
            internal_topics: Vec::new(),
            problem: Some(problem),
        }
    }
}

/// A topology the coordinator rejects with STREAMS_INVALID_TOPOLOGY (130).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InvalidTopology {
    pub message: String,
}

impl InvalidTopology {
    fn new(message: impl Into<String>) -> Self {
        InvalidTopology {
            message: message.into(),
        }
    }

    pub fn error_code(&self) -> ErrorCode {
        ErrorCode::StreamsInvalidTopology
    }
}

impl fmt::Display for InvalidTopology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InvalidTopology {}

/// `names` (duplicates ignored) in the iteration order of a `java.util.HashSet` or `HashMap`
/// they were added to in this order.
fn java_hash_order<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut m = JavaHashMap::<String>::new();
    for n in names {
        m.put(n.to_string());
    }
    m.iter().cloned().collect()
}

/// A topic's partition count, if it is known (exists, or was decided).
type Count<'a> = &'a dyn Fn(&str) -> Option<i32>;

/// Configure `topology` against `metadata`; see the module documentation.
pub fn configure(
    topology: &Topology,
    metadata: &TopicMetadata,
) -> Result<Configuration, InvalidTopology> {
    let mut subs: Vec<&Subtopology> = topology.subtopologies.iter().collect();
    subs.sort_by(|a, b| a.id.cmp(&b.id));
    validate(&subs)?;
    let existing = |t: &str| metadata.get(t).copied().filter(|c| *c >= 1);

    // 1. Missing source topics.
    if let Some(problem) = missing_sources(&subs, &existing) {
        return Ok(Configuration::not_ready(problem));
    }
    let walk = java_walk(topology, &subs);

    // 2. Repartition topic partition counts.
    let mut counts = repartition_counts(&walk, &existing)?;

    // 3. Copartitioning.
    if let Err(problem) = enforce_copartitioning(&walk, &existing, &mut counts)? {
        return Ok(Configuration::not_ready(problem));
    }

    let count_of = |t: &str| existing(t).or_else(|| counts.get(t).copied());

    // 4. Changelog partition counts.
    let changelogs = changelog_counts(&walk, &count_of)?;

    // 5. Internal topics: the create list, then what exists.
    let wanted = wanted_internal_topics(&subs, &counts, &changelogs);
    let internal_topics: Vec<CreatableTopic> = wanted.values().cloned().collect();
    let problem = mispartitioned(&walk, &wanted, &existing)
        .or_else(|| missing_internal(&subs, wanted, &existing));
    if let Some(problem) = problem {
        return Ok(Configuration {
            subtopologies: Vec::new(),
            internal_topics,
            problem: Some(problem),
        });
    }

    // 6. Ready.
    Ok(Configuration {
        subtopologies: subs.iter().map(|s| configured(s, &count_of)).collect(),
        internal_topics,
        problem: None,
    })
}

/// MISSING_SOURCE_TOPICS, if a source topic does not exist.
fn missing_sources(subs: &[&Subtopology], existing: Count<'_>) -> Option<TopicProblem> {
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

/// Apache walks the subtopologies in the order of its `HashMap` by id (filled in the request's
/// order); where that order matters (repartition counts decided in passes, the first
/// mis-partitioned topic named), so do we.
fn java_walk<'a>(topology: &Topology, subs: &[&'a Subtopology]) -> Vec<&'a Subtopology> {
    let by_id: BTreeMap<&str, &Subtopology> = subs.iter().map(|s| (s.id.as_str(), *s)).collect();
    java_hash_order(topology.subtopologies.iter().map(|s| s.id.as_str()))
        .iter()
        .filter_map(|id| by_id.get(id.as_str()).copied())
        .collect()
}

/// Each changelog (that is not also a source topic) takes the largest partition count of its
/// subtopology's inputs.
fn changelog_counts<'a>(
    walk: &[&'a Subtopology],
    count_of: Count<'_>,
) -> Result<BTreeMap<&'a str, i32>, InvalidTopology> {
    let mut changelogs: BTreeMap<&str, i32> = BTreeMap::new();
    for s in walk {
        let sources: BTreeSet<&str> = s.source_topics.iter().map(String::as_str).collect();
        let internal: Vec<&str> = s
            .state_changelog_topics
            .iter()
            .map(|c| c.name.as_str())
            .filter(|c| !sources.contains(c))
            .collect();
        if internal.is_empty() {
            continue;
        }
        let Some(n) = s.input_topics().filter_map(count_of).max() else {
            // Apache's words (`ChangelogTopics.setup`): the broker answers with them.
            return Err(InvalidTopology::new(format!(
                "No source topics found for subtopology {}",
                s.id
            )));
        };
        for c in internal {
            let e = changelogs.entry(c).or_insert(n);
            *e = (*e).max(n);
        }
    }
    Ok(changelogs)
}

/// Every internal topic with the count it needs: repartition topics (fixed or decided), then
/// changelogs; the first mention of a topic wins.
fn wanted_internal_topics(
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
fn mispartitioned(
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
fn missing_internal(
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

/// A subtopology of a ready topology: its tasks and topic partition counts.
fn configured(s: &Subtopology, count_of: Count<'_>) -> ConfiguredSubtopology {
    let mut source_topics = s.source_topics.clone();
    source_topics.sort();
    source_topics.dedup();
    let counts = |ts: &[model::TopicInfo]| -> BTreeMap<String, i32> {
        ts.iter()
            .map(|t| (t.name.clone(), count_of(&t.name).unwrap_or(0)))
            .collect()
    };
    ConfiguredSubtopology {
        id: s.id.clone(),
        num_tasks: s.input_topics().filter_map(count_of).max().unwrap_or(0),
        stateful: s.is_stateful(),
        source_topics,
        repartition_source_topics: counts(&s.repartition_source_topics),
        changelog_topics: counts(&s.state_changelog_topics),
    }
}

fn replication(rf: i16) -> i16 {
    if rf > 0 {
        rf
    } else {
        -1
    }
}

/// "Source topics a, b, c and N additional topics are missing." (at most three names).
fn missing_sources_detail(topics: &[String]) -> String {
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

/// Checks a coordinator makes before configuring (STREAMS_INVALID_TOPOLOGY).
fn validate(subs: &[&Subtopology]) -> Result<(), InvalidTopology> {
    let mut ids = BTreeSet::new();
    for s in subs {
        if s.id.is_empty() {
            return Err(InvalidTopology::new("Subtopology id must not be empty."));
        }
        if !ids.insert(s.id.as_str()) {
            return Err(InvalidTopology::new(format!(
                "Duplicate subtopology id {}.",
                s.id
            )));
        }
        if s.input_topics().next().is_none() && s.source_topic_regex.is_empty() {
            return Err(InvalidTopology::new(format!(
                "Subtopology {} has no source or repartition source topics.",
                s.id
            )));
        }
        if !s.source_topic_regex.is_empty() {
            return Err(InvalidTopology::new(format!(
                "Subtopology {} uses source topic regular expressions ({}): not supported (a \
                 broker answers INVALID_REQUEST \"Regular expressions for source topics are not \
                 supported yet.\")",
                s.id,
                s.source_topic_regex.join(", ")
            )));
        }
        if let Some(c) = s.state_changelog_topics.iter().find(|c| c.partitions != 0) {
            return Err(InvalidTopology::new(format!(
                "Changelog topic {} must have an undefined partition count, but it is set to {}.",
                c.name, c.partitions
            )));
        }
        if let Some(r) = s
            .repartition_source_topics
            .iter()
            .find(|r| r.partitions < 0)
        {
            return Err(InvalidTopology::new(format!(
                "Repartition topic {} has a negative partition count ({}).",
                r.name, r.partitions
            )));
        }
        let inputs: BTreeSet<&str> = s.input_topics().collect();
        for g in &s.copartition_groups {
            if let Some(t) = g.iter().find(|t| !inputs.contains(t.as_str())) {
                return Err(InvalidTopology::new(format!(
                    "Copartition group of subtopology {} names {t}, which is not one of its \
                     source or repartition source topics.",
                    s.id
                )));
            }
        }
    }
    // A repartition topic sized by the user must be sized the same everywhere.
    let mut fixed: BTreeMap<&str, i32> = BTreeMap::new();
    for s in subs {
        for r in s
            .repartition_source_topics
            .iter()
            .filter(|r| r.partitions != 0)
        {
            if let Some(prev) = fixed.insert(r.name.as_str(), r.partitions) {
                if prev != r.partitions {
                    return Err(InvalidTopology::new(format!(
                        "Repartition topic {} is given different partition counts ({prev} and {}).",
                        r.name, r.partitions
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Step 2: the fix-point over repartition sink topics.
fn repartition_counts(
    subs: &[&Subtopology],
    existing: &dyn Fn(&str) -> Option<i32>,
) -> Result<BTreeMap<String, i32>, InvalidTopology> {
    let mut counts: BTreeMap<String, i32> = BTreeMap::new();
    for s in subs {
        for r in s
            .repartition_source_topics
            .iter()
            .filter(|r| r.partitions > 0)
        {
            counts.insert(r.name.clone(), r.partitions);
        }
    }
    loop {
        let mut progress = false;
        let mut need_more = false;
        for s in subs {
            for sink in &s.repartition_sink_topics {
                if counts.contains_key(sink) {
                    continue;
                }
                // Upstream repartition topics count as computed, never as they exist (as
                // Apache's RepartitionTopics does): once copartitioning has resized one, the
                // existing count would change what its downstream repartition topic must be,
                // and an existing topic of another count is reported as mis-partitioned.
                let from_repartition = s
                    .repartition_source_topics
                    .iter()
                    .filter_map(|x| counts.get(&x.name).copied());
                let from_sources = s
                    .source_topics
                    .iter()
                    .filter_map(|x| existing(x).or_else(|| counts.get(x).copied()));
                match from_repartition.chain(from_sources).max() {
                    Some(c) => {
                        counts.insert(sink.clone(), c);
                        progress = true;
                    }
                    None => need_more = true,
                }
            }
        }
        if !need_more {
            break;
        }
        if !progress {
            // Apache's words (`RepartitionTopics`), as the broker answers them.
            return Err(InvalidTopology::new(
                "Failed to compute number of partitions for all repartition topics. There may \
                 be loops in the topology that cannot be resolved.",
            ));
        }
    }
    for s in subs {
        for r in &s.repartition_source_topics {
            if !counts.contains_key(&r.name) {
                return Err(InvalidTopology::new(
                    "Failed to compute number of partitions for all repartition topics, because \
                     a repartition source topic is never used as a sink topic.",
                ));
            }
        }
    }
    Ok(counts)
}

/// Step 3. The outer `Result` is an invalid topology, the inner one a status problem.
fn enforce_copartitioning(
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

/// The internal topics a coordinator would create for `topology` on a cluster with `metadata`
/// (sorted by name), and any other topic problem it has. An invalid topology has neither: its
/// error is what the coordinator answers.
pub fn topics_to_create(
    topology: &Topology,
    metadata: &TopicMetadata,
) -> (Vec<CreatableTopic>, Option<TopicProblem>) {
    let Ok(c) = configure(topology, metadata) else {
        return (Vec::new(), None);
    };
    let mut create: Vec<CreatableTopic> = c
        .internal_topics
        .iter()
        .filter(|t| metadata.get(&t.name).is_none_or(|n| *n <= 0))
        .cloned()
        .collect();
    if let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = &c.problem {
        for t in to_create {
            if !create.iter().any(|x| x.name == t.name) {
                create.push(t.clone());
            }
        }
    }
    create.sort_by(|a, b| a.name.cmp(&b.name));
    let problem = c
        .problem
        .filter(|p| !matches!(p, TopicProblem::MissingInternalTopics { .. }));
    (create, problem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::topology::TopicInfo;

    fn sub(id: &str) -> Subtopology {
        Subtopology {
            id: id.into(),
            ..Subtopology::default()
        }
    }

    fn info(name: &str, partitions: i32) -> TopicInfo {
        TopicInfo {
            partitions,
            ..TopicInfo::named(name)
        }
    }

    fn md(entries: &[(&str, i32)]) -> TopicMetadata {
        entries.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    /// Found by the lock-step oracle (seed 4242, scenario 16, group `g1`): three repartition
    /// topics are mis-partitioned; Apache 4.2.2 names `g1-rep8`, the first of them in its
    /// required-topics `HashSet`, and expects 6 for it because a repartition source counts as
    /// decided (6, from `g1-in2`), not as the 5 partitions it has.
    #[test]
    fn the_first_mis_partitioned_topic_is_apaches() {
        let text = include_str!("../../../../tests/data/configure/java-order-g1.json");
        let topology: Topology = serde_json::from_str(text).expect("topology");
        let mut metadata = md(&[
            ("g1-in0", 6),
            ("g1-in1", 2),
            ("g1-in2", 6),
            ("g1-rep4", 5),
            ("g1-rep6", 5),
            ("g1-rep7", 2),
            ("g1-rep8", 5),
        ]);
        for (c, n) in [
            ("s1-store0", 6),
            ("s3-store0", 2),
            ("s3-store1", 2),
            ("s5-store0", 2),
            ("s5-store1", 2),
            ("s6-store0", 5),
            ("s6-store1", 5),
            ("s7-store0", 2),
            ("s8-store0", 5),
            ("s8-store1", 5),
        ] {
            metadata.insert(format!("g1-{c}-changelog"), n);
        }
        let c = configure(&topology, &metadata).expect("valid");
        assert_eq!(
            c.problem.map(|p| p.detail().to_string()).as_deref(),
            Some("Existing topic g1-rep8 has different number of partitions: expected 6, found 5")
        );
    }

    /// input -> [0] -> app-rep -> [1] (store changelog)
    fn wordcount() -> Topology {
        let mut s0 = sub("0");
        s0.source_topics = vec!["input".into()];
        s0.repartition_sink_topics = vec!["app-rep".into()];
        let mut s1 = sub("1");
        s1.repartition_source_topics = vec![info("app-rep", 0)];
        s1.state_changelog_topics = vec![info("app-store-changelog", 0)];
        Topology {
            epoch: 0,
            subtopologies: vec![s1, s0],
        }
    }

    #[test]
    fn missing_source_topics_message() {
        let mut s = sub("0");
        s.source_topics = vec!["e".into(), "d".into(), "b".into(), "a".into(), "c".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        let c = configure(&t, &md(&[("c", 1)])).unwrap();
        assert!(!c.is_ready());
        let p = c.problem.unwrap();
        assert_eq!(p.status_code(), StatusCode::MissingSourceTopics);
        assert_eq!(
            p.detail(),
            "Source topics a, b, d and 1 additional topics are missing."
        );
        assert_eq!(
            missing_sources_detail(&["x".into()]),
            "Source topics x are missing."
        );
    }

    #[test]
    fn wordcount_missing_internal_then_ready() {
        let t = wordcount();
        let c = configure(&t, &md(&[("input", 6)])).unwrap();
        let Some(TopicProblem::MissingInternalTopics {
            to_create, detail, ..
        }) = &c.problem
        else {
            panic!("{c:?}");
        };
        assert_eq!(
            detail,
            "Internal topics are missing: app-rep, app-store-changelog"
        );
        assert_eq!(
            to_create
                .iter()
                .map(|t| (t.name.as_str(), t.partitions, t.replication_factor))
                .collect::<Vec<_>>(),
            vec![("app-rep", 6, -1), ("app-store-changelog", 6, -1)]
        );
        assert!(c.subtopologies.is_empty());
        assert_eq!(c.total_tasks(), 0);

        let c = configure(
            &t,
            &md(&[("input", 6), ("app-rep", 6), ("app-store-changelog", 6)]),
        )
        .unwrap();
        assert!(c.is_ready(), "{c:?}");
        assert_eq!(c.num_tasks("0"), Some(6));
        assert_eq!(c.num_tasks("1"), Some(6));
        assert_eq!(c.total_tasks(), 12);
        assert_eq!(c.subtopologies[0].id, "0", "sorted by id");
        assert!(!c.subtopologies[0].stateful);
        assert!(c.subtopologies[1].stateful);
        assert_eq!(
            c.subtopologies[1].changelog_topics["app-store-changelog"],
            6
        );
    }

    #[test]
    fn wrong_internal_count() {
        let c = configure(
            &wordcount(),
            &md(&[("input", 6), ("app-rep", 6), ("app-store-changelog", 5)]),
        )
        .unwrap();
        assert_eq!(
            c.problem.as_ref().map(TopicProblem::detail),
            Some(
                "Existing topic app-store-changelog has different number of partitions: \
                 expected 6, found 5"
            )
        );
        assert_eq!(c.internal_topics.len(), 2);
    }

    #[test]
    fn existing_repartition_topic_keeps_its_count_downstream() {
        // app-rep exists with 3 partitions although its upstream has 6: the changelog follows
        // the existing topic (3) and the repartition topic is reported as mis-partitioned.
        let c = configure(&wordcount(), &md(&[("input", 6), ("app-rep", 3)])).unwrap();
        assert_eq!(
            c.problem.as_ref().map(TopicProblem::detail),
            Some("Existing topic app-rep has different number of partitions: expected 6, found 3")
        );
    }

    #[test]
    fn creating_what_was_asked_for_makes_a_chain_after_a_coerced_join_ready() {
        // input(6) -> [0] -> r1 -> [1: join r1 with table(3)] -> r2 -> [2]. r1 is coerced to
        // the table's 3; r2 is computed from r1 before that (6), also once r1 exists with 3.
        let mut s0 = sub("0");
        s0.source_topics = vec!["input".into()];
        s0.repartition_sink_topics = vec!["r1".into()];
        let mut s1 = sub("1");
        s1.source_topics = vec!["table".into()];
        s1.repartition_source_topics = vec![info("r1", 0)];
        s1.copartition_groups = vec![["r1".to_string(), "table".to_string()].into()];
        s1.repartition_sink_topics = vec!["r2".into()];
        let mut s2 = sub("2");
        s2.repartition_source_topics = vec![info("r2", 0)];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s0, s1, s2],
        };
        let mut m = md(&[("input", 6), ("table", 3)]);
        let first = configure(&t, &m).unwrap();
        for topic in &first.internal_topics {
            m.insert(topic.name.clone(), topic.partitions);
        }
        let c = configure(&t, &m).unwrap();
        assert!(c.is_ready(), "{:?}", c.problem);
        assert_eq!(
            (c.num_tasks("0"), c.num_tasks("1"), c.num_tasks("2")),
            (Some(6), Some(3), Some(6))
        );
    }

    #[test]
    fn user_fixed_repartition_count() {
        let mut t = wordcount();
        t.subtopologies[0].repartition_source_topics[0].partitions = 2;
        t.subtopologies[0].repartition_source_topics[0].replication_factor = 3;
        let c = configure(&t, &md(&[("input", 6)])).unwrap();
        let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
            panic!()
        };
        assert_eq!(to_create[0].partitions, 2);
        assert_eq!(to_create[0].replication_factor, 3);
        assert_eq!(
            to_create[1].partitions, 2,
            "changelog follows the repartition source"
        );
    }

    #[test]
    fn chained_repartitions_resolve_in_any_order() {
        // input(4) -> [2] -> r1 -> [1] -> r2 -> [0]
        let mut a = sub("0");
        a.repartition_source_topics = vec![info("r2", 0)];
        let mut b = sub("1");
        b.repartition_source_topics = vec![info("r1", 0)];
        b.repartition_sink_topics = vec!["r2".into()];
        let mut c = sub("2");
        c.source_topics = vec!["input".into()];
        c.repartition_sink_topics = vec!["r1".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![a, b, c],
        };
        let conf = configure(&t, &md(&[("input", 4), ("r1", 4), ("r2", 4)])).unwrap();
        assert!(conf.is_ready(), "{conf:?}");
        assert_eq!(conf.total_tasks(), 12);
    }

    #[test]
    fn loops_and_unwritten_repartition_topics_are_invalid() {
        let mut a = sub("0");
        a.repartition_source_topics = vec![info("rp-b", 0)];
        a.repartition_sink_topics = vec!["rp-a".into()];
        let mut b = sub("1");
        b.repartition_source_topics = vec![info("rp-a", 0)];
        b.repartition_sink_topics = vec!["rp-b".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![a, b],
        };
        let e = configure(&t, &md(&[])).unwrap_err();
        assert!(e.message.contains("loops"), "{e}");
        assert_eq!(e.error_code().code(), 130);

        let mut s = sub("0");
        s.source_topics = vec!["in".into()];
        s.repartition_source_topics = vec![info("rp", 0)];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        let e = configure(&t, &md(&[("in", 1)])).unwrap_err();
        assert!(e.message.contains("never used as a sink topic"), "{e}");
    }

    #[test]
    fn invalid_inputs() {
        let mut s = sub("0");
        s.source_topics = vec!["in".into()];
        s.state_changelog_topics = vec![info("c", 3)];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s.clone()],
        };
        assert!(configure(&t, &md(&[("in", 1)])).is_err());
        s.state_changelog_topics.clear();
        s.source_topic_regex = vec!["a.*".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s.clone(), sub("x")],
        };
        assert!(configure(&t, &md(&[("in", 1)]))
            .unwrap_err()
            .message
            .contains("regular expressions"));
        s.source_topic_regex.clear();
        s.id = "1".into();
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s.clone(), s],
        };
        assert!(configure(&t, &md(&[]))
            .unwrap_err()
            .message
            .contains("Duplicate"));
    }

    fn join(a: &str, b: &str) -> Subtopology {
        let mut s = sub("0");
        s.source_topics = vec![a.into(), b.into()];
        s.copartition_groups = vec![[a.to_string(), b.to_string()].into_iter().collect()];
        s
    }

    #[test]
    fn external_copartitioned_topics_must_match() {
        let t = Topology {
            epoch: 0,
            subtopologies: vec![join("left", "right")],
        };
        let c = configure(&t, &md(&[("left", 4), ("right", 8)])).unwrap();
        assert_eq!(
            c.problem.as_ref().map(TopicProblem::detail),
            Some("Following topics do not have the same number of partitions: [{left=4, right=8}]")
        );
        assert_eq!(
            c.problem.unwrap().status_code(),
            StatusCode::IncorrectlyPartitionedTopics
        );
        let c = configure(&t, &md(&[("left", 4), ("right", 4)])).unwrap();
        assert!(c.is_ready());
        assert_eq!(c.total_tasks(), 4);
    }

    /// [0] reads a(2) -> r1; [1] reads b(8) -> r2; [2] joins r1 and r2 (flexible): both get
    /// max(2, 8) = 8.
    fn repartition_join(fixed_r1: i32, fixed_r2: i32) -> Topology {
        let mut s0 = sub("0");
        s0.source_topics = vec!["a".into()];
        s0.repartition_sink_topics = vec!["r1".into()];
        let mut s1 = sub("1");
        s1.source_topics = vec!["b".into()];
        s1.repartition_sink_topics = vec!["r2".into()];
        let mut s2 = sub("2");
        s2.repartition_source_topics = vec![info("r1", fixed_r1), info("r2", fixed_r2)];
        s2.copartition_groups = vec![["r1".to_string(), "r2".to_string()].into_iter().collect()];
        s2.state_changelog_topics = vec![info("s-changelog", 0)];
        Topology {
            epoch: 0,
            subtopologies: vec![s0, s1, s2],
        }
    }

    #[test]
    fn flexible_repartition_topics_take_the_max() {
        let c = configure(&repartition_join(0, 0), &md(&[("a", 2), ("b", 8)])).unwrap();
        let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
            panic!()
        };
        let got: Vec<(&str, i32)> = to_create
            .iter()
            .map(|t| (t.name.as_str(), t.partitions))
            .collect();
        assert_eq!(got, vec![("r1", 8), ("r2", 8), ("s-changelog", 8)]);
    }

    #[test]
    fn fixed_repartition_topics_win_and_must_agree() {
        let c = configure(&repartition_join(3, 0), &md(&[("a", 2), ("b", 8)])).unwrap();
        let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = c.problem else {
            panic!("{c:?}")
        };
        let got: Vec<(&str, i32)> = to_create
            .iter()
            .map(|t| (t.name.as_str(), t.partitions))
            .collect();
        assert_eq!(got, vec![("r1", 3), ("r2", 3), ("s-changelog", 3)]);

        let c = configure(&repartition_join(3, 5), &md(&[("a", 2), ("b", 8)])).unwrap();
        assert!(c
            .problem
            .unwrap()
            .detail()
            .starts_with("Following repartition topics have a fixed but different number"));
    }

    #[test]
    fn mixed_group_coerces_repartition_topic_to_external_count() {
        // [0] reads a(2) -> r; [1] joins r with table t(6).
        let mut s0 = sub("0");
        s0.source_topics = vec!["a".into()];
        s0.repartition_sink_topics = vec!["r".into()];
        let mut s1 = sub("1");
        s1.source_topics = vec!["t".into()];
        s1.repartition_source_topics = vec![info("r", 0)];
        s1.copartition_groups = vec![["r".to_string(), "t".to_string()].into_iter().collect()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s0, s1.clone()],
        };
        let c = configure(&t, &md(&[("a", 2), ("t", 6), ("r", 6)])).unwrap();
        assert!(c.is_ready(), "{c:?}");
        assert_eq!(c.num_tasks("0"), Some(2));
        assert_eq!(c.num_tasks("1"), Some(6));

        // Fixed r = 4 cannot follow t = 6.
        s1.repartition_source_topics[0].partitions = 4;
        let mut s0 = sub("0");
        s0.source_topics = vec!["a".into()];
        s0.repartition_sink_topics = vec!["r".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s0, s1],
        };
        let c = configure(&t, &md(&[("a", 2), ("t", 6)])).unwrap();
        assert_eq!(
            c.problem.unwrap().detail(),
            "Number of partitions [4] of repartition topic [r] doesn't match number of \
             partitions [6] of the source topic."
        );
    }

    #[test]
    fn source_topic_as_changelog_is_not_internal() {
        let mut s = sub("0");
        s.source_topics = vec!["table".into()];
        s.state_changelog_topics = vec![info("table", 0)];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        let c = configure(&t, &md(&[("table", 3)])).unwrap();
        assert!(c.is_ready(), "{c:?}");
        assert!(c.internal_topics.is_empty());
        assert!(c.subtopologies[0].stateful);
        assert_eq!(c.subtopologies[0].changelog_topics["table"], 3);
    }

    #[test]
    fn subtopology_without_inputs_and_changelog_is_invalid() {
        let mut s = sub("0");
        s.state_changelog_topics = vec![info("c", 0)];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        assert!(configure(&t, &md(&[]))
            .unwrap_err()
            .message
            .contains("has no source or repartition source topics"));
    }

    #[test]
    fn zero_partition_metadata_counts_as_missing() {
        let mut s = sub("0");
        s.source_topics = vec!["a".into()];
        let t = Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        let c = configure(&t, &md(&[("a", 0)])).unwrap();
        assert_eq!(
            c.problem.unwrap().status_code(),
            StatusCode::MissingSourceTopics
        );
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        const TOPICS: [&str; 8] = ["s0", "s1", "s2", "r0", "r1", "r2", "c0", "c1"];

        fn arb_sub(id: usize) -> impl Strategy<Value = Subtopology> {
            (
                proptest::sample::subsequence(vec!["s0", "s1", "s2"], 0..=2),
                proptest::sample::subsequence(vec!["r0", "r1", "r2"], 0..=2),
                proptest::collection::vec(0i32..4, 3),
                proptest::sample::subsequence(vec!["r0", "r1", "r2"], 0..=2),
                proptest::sample::subsequence(vec!["c0", "c1", "s0"], 0..=2),
                any::<bool>(),
            )
                .prop_map(move |(src, rsrc, fixed, rsink, logs, group)| {
                    let mut s = sub(&id.to_string());
                    s.source_topics = src.iter().map(|t| t.to_string()).collect();
                    s.repartition_source_topics = rsrc
                        .iter()
                        .map(|t| {
                            let i = t[1..].parse::<usize>().unwrap_or(0);
                            info(t, fixed[i % fixed.len()])
                        })
                        .collect();
                    s.repartition_sink_topics = rsink.iter().map(|t| t.to_string()).collect();
                    s.state_changelog_topics = logs.iter().map(|t| info(t, 0)).collect();
                    let inputs: BTreeSet<String> = s.input_topics().map(str::to_string).collect();
                    if group && inputs.len() >= 2 {
                        s.copartition_groups = vec![inputs];
                    }
                    s
                })
        }

        fn arb_topology() -> impl Strategy<Value = Topology> {
            (1usize..4)
                .prop_flat_map(|n| (0..n).map(arb_sub).collect::<Vec<_>>())
                .prop_map(|subtopologies| Topology {
                    epoch: 0,
                    subtopologies,
                })
        }

        fn arb_metadata() -> impl Strategy<Value = TopicMetadata> {
            proptest::collection::btree_map(
                proptest::sample::select(TOPICS.to_vec()).prop_map(str::to_string),
                -1i32..6,
                0..8,
            )
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            #[test]
            fn never_panics_and_ready_means_topics_in_place(t in arb_topology(), m in arb_metadata()) {
                if let Ok(c) = configure(&t, &m) {
                    if c.is_ready() {
                        for it in &c.internal_topics {
                            prop_assert_eq!(m.get(&it.name).copied(), Some(it.partitions));
                        }
                        for s in &c.subtopologies {
                            prop_assert!(s.num_tasks >= 1);
                        }
                    } else {
                        prop_assert!(c.subtopologies.is_empty());
                        prop_assert_eq!(c.total_tasks(), 0);
                    }
                }
            }

            #[test]
            fn creating_requested_topics_never_asks_again(t in arb_topology(), m in arb_metadata()) {
                let Ok(c) = configure(&t, &m) else { return Ok(()); };
                if let Some(TopicProblem::MissingInternalTopics { to_create, .. }) = &c.problem {
                    let mut m2 = m.clone();
                    for it in to_create {
                        prop_assert!(it.partitions >= 1, "{:?}", it);
                        m2.insert(it.name.clone(), it.partitions);
                    }
                    let again = configure(&t, &m2);
                    prop_assert!(again.is_ok(), "{:?}", again);
                    if let Ok(again) = again {
                        prop_assert!(
                            again.is_ready() || matches!(again.problem, Some(TopicProblem::IncorrectlyPartitioned { .. })),
                            "{:?}", again
                        );
                    }
                }
            }

            #[test]
            fn order_of_subtopologies_does_not_matter(t in arb_topology(), m in arb_metadata()) {
                let mut rev = t.clone();
                rev.subtopologies.reverse();
                prop_assert_eq!(configure(&t, &m), configure(&rev, &m));
            }
        }
    }
}
