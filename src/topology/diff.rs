//! Compare two topologies: what changed per subtopology, and the hazards of rolling the change
//! out (state rebuilt, records left in flight, copartitioning broken).
//!
//! * Order-insensitive: every list is compared as a set.
//! * Subtopologies are matched **by id**. Kafka numbers subtopologies in topology order, so
//!   inserting an operator early can shift every id after it; such a change shows up here as
//!   changed subtopologies (their topics moved), which is also what the coordinator sees: task
//!   `1_0` after the change is a different piece of work than `1_0` before it.
//! * Hazards are computed over the whole topology (a changelog that moved between
//!   subtopologies keeps its state and is no hazard).
//! * The epoch is reported but is not a difference: [`TopologyDiff::is_empty`] looks at content.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use model::topology::{Subtopology, TopicInfo, Topology};

use coordinator::topics::TopicMetadata;

/// Names added and removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ListChange {
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

impl ListChange {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }

    fn of<'a>(
        old: impl IntoIterator<Item = &'a str>,
        new: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let old: BTreeSet<&str> = old.into_iter().collect();
        let new: BTreeSet<&str> = new.into_iter().collect();
        ListChange {
            added: new.difference(&old).map(|s| s.to_string()).collect(),
            removed: old.difference(&new).map(|s| s.to_string()).collect(),
        }
    }
}

/// Copartition groups added and removed (each group sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GroupChange {
    pub added: Vec<Vec<String>>,
    pub removed: Vec<Vec<String>>,
}

impl GroupChange {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }
}

/// A change in the settings of an internal topic present on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TopicChange {
    pub topic: String,
    /// `repartition_source` or `changelog`.
    pub role: &'static str,
    /// Old and new partition count (0 = decided by the coordinator), when changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partitions: Option<(i32, i32)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replication_factor: Option<(i16, i16)>,
    /// Config keys added, removed or changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub configs: Vec<String>,
}

/// What changed inside one subtopology present on both sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SubtopologyDiff {
    pub id: String,
    pub source_topics: ListChange,
    pub source_topic_regex: ListChange,
    pub repartition_source_topics: ListChange,
    pub repartition_sink_topics: ListChange,
    pub changelog_topics: ListChange,
    pub copartition_groups: GroupChange,
    pub topic_changes: Vec<TopicChange>,
}

impl SubtopologyDiff {
    pub fn is_empty(&self) -> bool {
        self.source_topics.is_empty()
            && self.source_topic_regex.is_empty()
            && self.repartition_source_topics.is_empty()
            && self.repartition_sink_topics.is_empty()
            && self.changelog_topics.is_empty()
            && self.copartition_groups.is_empty()
            && self.topic_changes.is_empty()
    }
}

/// The kinds of rollout hazards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HazardKind {
    /// A changelog was replaced by another one in the same subtopology: the store's state is
    /// rebuilt from scratch under the new name.
    StoreRenamed,
    /// A changelog disappeared: its state is dropped.
    ChangelogRemoved,
    /// An internal topic with a generated name (`...-0000000003`) got another number: the old
    /// topic's data (state or records in flight) is abandoned.
    GeneratedNameShifted,
    /// A new repartition topic: records in flight on the old path are not repartitioned.
    RepartitionTopicAdded,
    /// A repartition topic disappeared: records still in it are never processed.
    RepartitionTopicRemoved,
    /// A new copartition group whose topics have different known partition counts.
    CopartitionBroken,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Hazard {
    pub kind: HazardKind,
    /// The subtopology it concerns (in the new topology, or the old one for removals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtopology: Option<String>,
    /// The topics involved (old name first for renames).
    pub topics: Vec<String>,
    pub message: String,
}

/// The difference between two topologies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TopologyDiff {
    pub old_epoch: i32,
    pub new_epoch: i32,
    pub added_subtopologies: Vec<String>,
    pub removed_subtopologies: Vec<String>,
    pub changed_subtopologies: Vec<SubtopologyDiff>,
    pub hazards: Vec<Hazard>,
}

impl TopologyDiff {
    /// No difference in content (epochs are not compared).
    pub fn is_empty(&self) -> bool {
        self.added_subtopologies.is_empty()
            && self.removed_subtopologies.is_empty()
            && self.changed_subtopologies.is_empty()
    }
}

/// Compare `old` with `new`; copartition partition counts are known only where the topology
/// fixes them (repartition topics with partitions != 0).
pub fn diff(old: &Topology, new: &Topology) -> TopologyDiff {
    diff_with_metadata(old, new, &TopicMetadata::new())
}

/// Like [`diff`], with topic partition counts from the cluster for the copartition check.
pub fn diff_with_metadata(
    old: &Topology,
    new: &Topology,
    metadata: &TopicMetadata,
) -> TopologyDiff {
    let old_subs = by_id(old);
    let new_subs = by_id(new);
    let mut d = TopologyDiff {
        old_epoch: old.epoch,
        new_epoch: new.epoch,
        ..TopologyDiff::default()
    };
    for id in new_subs.keys() {
        if !old_subs.contains_key(id) {
            d.added_subtopologies.push(id.to_string());
        }
    }
    for (id, o) in &old_subs {
        match new_subs.get(id) {
            None => d.removed_subtopologies.push(id.to_string()),
            Some(n) => {
                let sd = diff_subtopology(o, n);
                if !sd.is_empty() {
                    d.changed_subtopologies.push(sd);
                }
            }
        }
    }
    d.hazards = hazards(&old_subs, &new_subs, metadata);
    d
}

/// Subtopologies by id; with duplicate ids (an invalid topology) the first one wins.
fn by_id(t: &Topology) -> BTreeMap<&str, &Subtopology> {
    let mut m = BTreeMap::new();
    for s in &t.subtopologies {
        m.entry(s.id.as_str()).or_insert(s);
    }
    m
}

fn names(infos: &[TopicInfo]) -> impl Iterator<Item = &str> {
    infos.iter().map(|t| t.name.as_str())
}

/// The settings that changed of the topics (of one role) both sides have.
fn topic_changes_of(role: &'static str, oi: &[TopicInfo], ni: &[TopicInfo]) -> Vec<TopicChange> {
    let new_by_name: BTreeMap<&str, &TopicInfo> = ni.iter().map(|t| (t.name.as_str(), t)).collect();
    let old_by_name: BTreeMap<&str, &TopicInfo> = oi.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut out = Vec::new();
    for (name, a) in old_by_name {
        let Some(b) = new_by_name.get(name) else {
            continue;
        };
        let keys: BTreeSet<&String> = a
            .topic_configs
            .keys()
            .chain(b.topic_configs.keys())
            .collect();
        let configs: Vec<String> = keys
            .into_iter()
            .filter(|k| a.topic_configs.get(*k) != b.topic_configs.get(*k))
            .cloned()
            .collect();
        let change = TopicChange {
            topic: name.to_string(),
            role,
            partitions: (a.partitions != b.partitions).then_some((a.partitions, b.partitions)),
            replication_factor: (a.replication_factor != b.replication_factor)
                .then_some((a.replication_factor, b.replication_factor)),
            configs,
        };
        if change.partitions.is_some()
            || change.replication_factor.is_some()
            || !change.configs.is_empty()
        {
            out.push(change);
        }
    }
    out
}

fn diff_subtopology(o: &Subtopology, n: &Subtopology) -> SubtopologyDiff {
    let groups = |s: &Subtopology| -> BTreeSet<Vec<String>> {
        s.copartition_groups
            .iter()
            .map(|g| g.iter().cloned().collect())
            .collect()
    };
    let (og, ng) = (groups(o), groups(n));
    let mut topic_changes = topic_changes_of(
        "repartition_source",
        &o.repartition_source_topics,
        &n.repartition_source_topics,
    );
    topic_changes.extend(topic_changes_of(
        "changelog",
        &o.state_changelog_topics,
        &n.state_changelog_topics,
    ));
    SubtopologyDiff {
        id: n.id.clone(),
        source_topics: ListChange::of(
            o.source_topics.iter().map(String::as_str),
            n.source_topics.iter().map(String::as_str),
        ),
        source_topic_regex: ListChange::of(
            o.source_topic_regex.iter().map(String::as_str),
            n.source_topic_regex.iter().map(String::as_str),
        ),
        repartition_source_topics: ListChange::of(
            names(&o.repartition_source_topics),
            names(&n.repartition_source_topics),
        ),
        repartition_sink_topics: ListChange::of(
            o.repartition_sink_topics.iter().map(String::as_str),
            n.repartition_sink_topics.iter().map(String::as_str),
        ),
        changelog_topics: ListChange::of(
            names(&o.state_changelog_topics),
            names(&n.state_changelog_topics),
        ),
        copartition_groups: GroupChange {
            added: ng.difference(&og).cloned().collect(),
            removed: og.difference(&ng).cloned().collect(),
        },
        topic_changes,
    }
}

/// The name with a generated 10-digit number (before a `-changelog`, `-repartition` or
/// `-topic` suffix, or at the end) replaced by `#`; `None` when there is no such number.
pub fn generated_name_key(name: &str) -> Option<String> {
    let (stem, suffix) = ["-changelog", "-repartition", "-topic"]
        .iter()
        .find_map(|s| name.strip_suffix(s).map(|stem| (stem, *s)))
        .unwrap_or((name, ""));
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits != 10 {
        return None;
    }
    let head = &stem[..stem.len() - 10];
    if !head.ends_with('-') {
        return None;
    }
    Some(format!("{head}#{suffix}"))
}

/// Topic name -> subtopology id, for one role.
fn topic_owner<'a>(
    subs: &BTreeMap<&'a str, &'a Subtopology>,
    pick: impl Fn(&'a Subtopology) -> Vec<&'a str>,
) -> BTreeMap<&'a str, &'a str> {
    let mut m = BTreeMap::new();
    for (id, s) in subs {
        for t in pick(s) {
            m.entry(t).or_insert(*id);
        }
    }
    m
}

/// Internal changelogs; a source topic used as changelog is a user topic and never lost.
fn changelog_names(s: &Subtopology) -> Vec<&str> {
    s.state_changelog_topics
        .iter()
        .map(|t| t.name.as_str())
        .filter(|t| !s.source_topics.iter().any(|x| x == t))
        .collect()
}

fn repartition_names(s: &Subtopology) -> Vec<&str> {
    names(&s.repartition_source_topics).collect()
}

fn hazards(
    old: &BTreeMap<&str, &Subtopology>,
    new: &BTreeMap<&str, &Subtopology>,
    metadata: &TopicMetadata,
) -> Vec<Hazard> {
    let changelogs = (
        topic_owner(old, changelog_names),
        topic_owner(new, changelog_names),
    );
    let repartition = (
        topic_owner(old, repartition_names),
        topic_owner(new, repartition_names),
    );
    let mut out = Vec::new();
    let (removed, added) = renamed_topics("changelog", &changelogs.0, &changelogs.1, &mut out);
    changelog_hazards(removed, added, &changelogs.0, &changelogs.1, &mut out);
    let (removed, added) = renamed_topics("repartition", &repartition.0, &repartition.1, &mut out);
    repartition_hazards(removed, added, &repartition.0, &repartition.1, &mut out);
    copartition_hazards(old, new, metadata, &mut out);
    out.sort_by(|a, b| (a.kind, &a.topics).cmp(&(b.kind, &b.topics)));
    out
}

/// Topic -> the subtopology that has it.
type Owners<'a> = BTreeMap<&'a str, &'a str>;

/// The topics of one role removed and added, after taking out generated names that only
/// changed their number (each a hazard).
fn renamed_topics<'a>(
    role: &str,
    old_map: &Owners<'a>,
    new_map: &Owners<'a>,
    out: &mut Vec<Hazard>,
) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut removed: Vec<&str> = old_map
        .keys()
        .copied()
        .filter(|t| !new_map.contains_key(t))
        .collect();
    let mut added: Vec<&str> = new_map
        .keys()
        .copied()
        .filter(|t| !old_map.contains_key(t))
        .collect();
    let mut shifted = Vec::new();
    for r in &removed {
        let Some(key) = generated_name_key(r) else {
            continue;
        };
        if let Some(pos) = added
            .iter()
            .position(|a| generated_name_key(a).as_deref() == Some(key.as_str()))
        {
            shifted.push((*r, added.remove(pos)));
        }
    }
    removed.retain(|r| !shifted.iter().any(|(o, _)| o == r));
    let what = if role == "changelog" {
        "the store's state is rebuilt from scratch under the new name"
    } else {
        "records still in the old repartition topic are never processed"
    };
    for (o, n) in shifted {
        out.push(Hazard {
            kind: HazardKind::GeneratedNameShifted,
            subtopology: new_map.get(n).map(|s| s.to_string()),
            topics: vec![o.to_string(), n.to_string()],
            message: format!(
                "generated {role} topic name shifted from {o} to {n}: {what}; name the \
                 operator (Materialized.as, Grouped.as, Named.as) to pin it"
            ),
        });
    }
    (removed, added)
}

/// Renamed stores (a removed and an added changelog in the same subtopology) and removed
/// changelogs.
fn changelog_hazards(
    mut removed: Vec<&str>,
    mut added: Vec<&str>,
    old_map: &Owners<'_>,
    new_map: &Owners<'_>,
    out: &mut Vec<Hazard>,
) {
    let mut renamed = Vec::new();
    for r in &removed {
        let sub = old_map.get(r).copied();
        if let Some(pos) = added.iter().position(|a| new_map.get(a).copied() == sub) {
            renamed.push((*r, added.remove(pos)));
        }
    }
    removed.retain(|r| !renamed.iter().any(|(o, _)| o == r));
    for (o, n) in renamed {
        out.push(Hazard {
            kind: HazardKind::StoreRenamed,
            subtopology: new_map.get(n).map(|s| s.to_string()),
            topics: vec![o.to_string(), n.to_string()],
            message: format!(
                "changelog {o} replaced by {n}: the store's state is rebuilt from scratch"
            ),
        });
    }
    for r in removed {
        out.push(Hazard {
            kind: HazardKind::ChangelogRemoved,
            subtopology: old_map.get(r).map(|s| s.to_string()),
            topics: vec![r.to_string()],
            message: format!("changelog {r} removed: its store's state is dropped"),
        });
    }
}

/// Added and removed repartition topics.
fn repartition_hazards(
    removed: Vec<&str>,
    added: Vec<&str>,
    old_map: &Owners<'_>,
    new_map: &Owners<'_>,
    out: &mut Vec<Hazard>,
) {
    for a in added {
        out.push(Hazard {
            kind: HazardKind::RepartitionTopicAdded,
            subtopology: new_map.get(a).map(|s| s.to_string()),
            topics: vec![a.to_string()],
            message: format!(
                "repartition topic {a} added: records in flight on the old path at the \
                 switch are not repartitioned"
            ),
        });
    }
    for r in removed {
        out.push(Hazard {
            kind: HazardKind::RepartitionTopicRemoved,
            subtopology: old_map.get(r).map(|s| s.to_string()),
            topics: vec![r.to_string()],
            message: format!(
                "repartition topic {r} removed: records still in it are never processed"
            ),
        });
    }
}

/// New copartition groups with different known partition counts.
fn copartition_hazards(
    old: &BTreeMap<&str, &Subtopology>,
    new: &BTreeMap<&str, &Subtopology>,
    metadata: &TopicMetadata,
    out: &mut Vec<Hazard>,
) {
    let fixed: BTreeMap<&str, i32> = new
        .values()
        .flat_map(|s| s.repartition_source_topics.iter())
        .filter(|t| t.partitions > 0)
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    let count = |t: &str| {
        metadata
            .get(t)
            .copied()
            .filter(|c| *c >= 1)
            .or_else(|| fixed.get(t).copied())
    };
    for (id, s) in new {
        let old_groups: BTreeSet<&BTreeSet<String>> = old
            .get(id)
            .map(|o| o.copartition_groups.iter().collect())
            .unwrap_or_default();
        for g in s
            .copartition_groups
            .iter()
            .filter(|g| !old_groups.contains(g))
        {
            let known: BTreeMap<&str, i32> = g
                .iter()
                .filter_map(|t| count(t).map(|c| (t.as_str(), c)))
                .collect();
            let distinct: BTreeSet<i32> = known.values().copied().collect();
            if distinct.len() <= 1 {
                continue;
            }
            let counts: Vec<String> = known.iter().map(|(t, c)| format!("{t}={c}")).collect();
            out.push(Hazard {
                kind: HazardKind::CopartitionBroken,
                subtopology: Some(id.to_string()),
                topics: known.keys().map(|t| t.to_string()).collect(),
                message: format!(
                    "new copartition group in subtopology {id} has different partition \
                     counts ({}): the coordinator answers INCORRECTLY_PARTITIONED_TOPICS",
                    counts.join(", ")
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str) -> TopicInfo {
        TopicInfo::named(name)
    }

    fn sub(id: &str) -> Subtopology {
        Subtopology {
            id: id.into(),
            ..Subtopology::default()
        }
    }

    fn wordcount(store: &str) -> Topology {
        let mut s0 = sub("0");
        s0.source_topics = vec!["input".into()];
        s0.repartition_sink_topics = vec![format!("app-{store}-repartition")];
        let mut s1 = sub("1");
        s1.repartition_source_topics = vec![info(&format!("app-{store}-repartition"))];
        s1.state_changelog_topics = vec![info(&format!("app-{store}-changelog"))];
        Topology {
            epoch: 0,
            subtopologies: vec![s0, s1],
        }
    }

    #[test]
    fn identical_up_to_order_is_empty() {
        let a = wordcount("counts");
        let mut b = a.clone();
        b.subtopologies.reverse();
        b.epoch = 3;
        let d = diff(&a, &b);
        assert!(d.is_empty(), "{d:?}");
        assert!(d.hazards.is_empty());
        assert_eq!((d.old_epoch, d.new_epoch), (0, 3));
    }

    #[test]
    fn generated_keys() {
        assert_eq!(
            generated_name_key("app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog").as_deref(),
            Some("app-KSTREAM-AGGREGATE-STATE-STORE-#-changelog")
        );
        assert_eq!(
            generated_name_key("KSTREAM-JOINTHIS-0000000004-store").as_deref(),
            None
        );
        assert_eq!(
            generated_name_key("KTABLE-SOURCE-0000000004").as_deref(),
            Some("KTABLE-SOURCE-#")
        );
        assert_eq!(generated_name_key("app-counts-changelog"), None);
        assert_eq!(generated_name_key("app-x123-changelog"), None);
        assert_eq!(generated_name_key("0000000003"), None);
    }

    #[test]
    fn shifted_generated_names() {
        let a = wordcount("KSTREAM-AGGREGATE-STATE-STORE-0000000003");
        let b = wordcount("KSTREAM-AGGREGATE-STATE-STORE-0000000004");
        let d = diff(&a, &b);
        assert!(!d.is_empty());
        assert_eq!(d.changed_subtopologies.len(), 2);
        let s1 = &d.changed_subtopologies[1];
        assert_eq!(s1.id, "1");
        assert_eq!(
            s1.changelog_topics.added,
            vec!["app-KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog"]
        );
        assert_eq!(
            s1.changelog_topics.removed,
            vec!["app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog"]
        );
        let kinds: Vec<HazardKind> = d.hazards.iter().map(|h| h.kind).collect();
        assert_eq!(
            kinds,
            vec![
                HazardKind::GeneratedNameShifted,
                HazardKind::GeneratedNameShifted
            ]
        );
        assert_eq!(
            d.hazards[0].topics,
            vec![
                "app-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog",
                "app-KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog"
            ]
        );
    }

    #[test]
    fn renamed_store_and_repartition_topic() {
        let d = diff(&wordcount("counts"), &wordcount("totals"));
        let kinds: Vec<HazardKind> = d.hazards.iter().map(|h| h.kind).collect();
        assert_eq!(
            kinds,
            vec![
                HazardKind::StoreRenamed,
                HazardKind::RepartitionTopicAdded,
                HazardKind::RepartitionTopicRemoved
            ]
        );
        assert_eq!(d.hazards[0].subtopology.as_deref(), Some("1"));
        assert_eq!(
            d.hazards[0].topics,
            vec!["app-counts-changelog", "app-totals-changelog"]
        );
    }

    #[test]
    fn removed_changelog_and_subtopology() {
        let old = wordcount("counts");
        let mut new = old.clone();
        new.subtopologies.truncate(1);
        new.subtopologies[0].repartition_sink_topics.clear();
        let d = diff(&old, &new);
        assert_eq!(d.removed_subtopologies, vec!["1"]);
        assert!(d.added_subtopologies.is_empty());
        assert_eq!(
            d.changed_subtopologies[0].repartition_sink_topics.removed,
            vec!["app-counts-repartition"]
        );
        let kinds: Vec<HazardKind> = d.hazards.iter().map(|h| h.kind).collect();
        assert_eq!(
            kinds,
            vec![
                HazardKind::ChangelogRemoved,
                HazardKind::RepartitionTopicRemoved
            ]
        );
        assert_eq!(d.hazards[0].subtopology.as_deref(), Some("1"));
        // And the other way round: no hazard for a new store.
        let d = diff(&new, &old);
        assert_eq!(d.added_subtopologies, vec!["1"]);
        let kinds: Vec<HazardKind> = d.hazards.iter().map(|h| h.kind).collect();
        assert_eq!(kinds, vec![HazardKind::RepartitionTopicAdded]);
    }

    #[test]
    fn changelog_moving_between_subtopologies_is_no_hazard() {
        let old = wordcount("counts");
        let mut new = old.clone();
        new.subtopologies[0].id = "1".into();
        new.subtopologies[1].id = "0".into();
        let d = diff(&old, &new);
        assert_eq!(d.changed_subtopologies.len(), 2);
        assert!(d.hazards.is_empty(), "{:?}", d.hazards);
    }

    #[test]
    fn topic_setting_and_copartition_changes() {
        let mut old = sub("0");
        old.source_topics = vec!["a".into()];
        old.repartition_source_topics = vec![TopicInfo {
            partitions: 4,
            ..info("r")
        }];
        let mut new = old.clone();
        new.repartition_source_topics[0].partitions = 8;
        new.repartition_source_topics[0]
            .topic_configs
            .insert("retention.ms".into(), "1000".into());
        new.copartition_groups = vec![["a".to_string(), "r".to_string()].into_iter().collect()];
        let t = |s: Subtopology| Topology {
            epoch: 0,
            subtopologies: vec![s],
        };
        let d = diff_with_metadata(&t(old), &t(new), &[("a".to_string(), 3)].into());
        let sd = &d.changed_subtopologies[0];
        assert_eq!(sd.topic_changes.len(), 1);
        assert_eq!(sd.topic_changes[0].partitions, Some((4, 8)));
        assert_eq!(sd.topic_changes[0].configs, vec!["retention.ms"]);
        assert_eq!(
            sd.copartition_groups.added,
            vec![vec!["a".to_string(), "r".to_string()]]
        );
        assert_eq!(d.hazards.len(), 1);
        assert_eq!(d.hazards[0].kind, HazardKind::CopartitionBroken);
        assert!(
            d.hazards[0].message.contains("a=3, r=8"),
            "{}",
            d.hazards[0].message
        );
        // Without metadata, a's count is unknown: no hazard.
        let mut old = sub("0");
        old.source_topics = vec!["a".into()];
        let mut new = old.clone();
        new.repartition_source_topics = vec![TopicInfo {
            partitions: 8,
            ..info("r")
        }];
        new.copartition_groups = vec![["a".to_string(), "r".to_string()].into_iter().collect()];
        assert!(diff(&t(old), &t(new))
            .hazards
            .iter()
            .all(|h| h.kind != HazardKind::CopartitionBroken));
    }

    #[test]
    fn serializes_kinds_in_snake_case() {
        let d = diff(&wordcount("counts"), &wordcount("totals"));
        let v = serde_json::to_value(&d).unwrap();
        assert_eq!(v["hazards"][0]["kind"], "store_renamed");
    }
}
