//! Reading streams groups from the cluster, for every command that needs one: which groups
//! (`GroupSelection`, `group_ids`), each described with its committed offsets, end offsets, lag
//! and settings (`describe`, `describe_groups`), and the settings alone (`settings`). The pure steps are in
//! `offsets`.

use std::collections::{BTreeMap, BTreeSet};

use super::endpoints::fill_endpoint_partitions;
use super::offsets::{input_topics, partitions, uncommitted, Offsets};
use crate::error::Error;
use kafka::client::Cluster;
use kafka::config::ClientConfig;
use kafka::error::{KafkaError, KafkaResult};
use kafka::waits::Waits;
use model::group::{
    ClusterSettings, CommittedOffsets, GroupDescription, Snapshot, SNAPSHOT_SCHEMA_VERSION,
};
use model::processor_graph::StoredDescription;
use model::KafkaVersion;

/// Result of describing several groups.
#[derive(Debug)]
pub struct DescribeResult {
    pub snapshot: Snapshot,
    /// Groups that failed, with their error, by group id.
    pub errors: Vec<(String, KafkaError)>,
    /// StreamsGroupDescribe version used (1 = Kafka 4.4+).
    pub describe_version: i16,
    /// Per group, the topology description the broker stores (asked for only after
    /// [`Cluster::ask_topology_descriptions`]).
    pub descriptions: BTreeMap<String, StoredDescription>,
    /// Things the user should know (one line each).
    pub warnings: Vec<String>,
}

/// The group type of streams groups, as ListGroups names it.
pub const STREAMS: &str = "streams";

/// Which groups a command acts on: `--group` (repeatable) or `--all-groups`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupSelection {
    /// Every streams group of the cluster.
    All,
    Groups(Vec<String>),
}

/// The group ids selected, listed by the cluster or given, without repeats.
pub async fn group_ids(
    cluster: &mut Cluster,
    selection: &GroupSelection,
) -> KafkaResult<Vec<String>> {
    let ids = match selection {
        GroupSelection::All => cluster
            .list_groups(&[STREAMS], &[])
            .await?
            .into_iter()
            .map(|g| g.group_id)
            .collect(),
        GroupSelection::Groups(ids) => ids.clone(),
    };
    let mut seen = BTreeSet::new();
    Ok(ids.into_iter().filter(|g| seen.insert(g.clone())).collect())
}

/// Describe the groups: `None` when the selection is empty (a cluster without streams groups).
pub fn describe(
    client: &ClientConfig,
    selection: GroupSelection,
) -> Result<Option<DescribeResult>, Error> {
    describe_telling(client, selection, Waits::default())
}

/// [`describe`], telling `waits` what it waits for as it goes (a watch says so when late).
pub fn describe_telling(
    client: &ClientConfig,
    selection: GroupSelection,
    waits: Waits,
) -> Result<Option<DescribeResult>, Error> {
    if let GroupSelection::Groups(ids) = &selection {
        kafka::limits::check_group_ids(ids)?;
    }
    let result = kafka::run_session_telling(client.clone(), waits, move |cluster| {
        Box::pin(async move {
            let ids = group_ids(cluster, &selection).await?;
            if ids.is_empty() {
                return Ok(None);
            }
            describe_groups(cluster, &ids).await.map(Some)
        })
    })?;
    Ok(result.map(|mut r: DescribeResult| {
        fill_endpoint_partitions(&mut r.snapshot);
        r
    }))
}

/// Describe groups with their committed offsets, end offsets and lag; the release is detected
/// from the StreamsGroupDescribe version the broker speaks.
pub async fn describe_groups(
    cluster: &mut Cluster,
    groups: &[String],
) -> KafkaResult<DescribeResult> {
    let answered = cluster.describe_groups(groups).await?;
    let mut descriptions = BTreeMap::new();
    let mut errors = Vec::new();
    let mut ok = BTreeMap::new();
    for (g, r) in answered.groups {
        match r {
            Ok((d, stored)) => {
                descriptions.insert(g.clone(), stored);
                ok.insert(g, d);
            }
            Err(e) => errors.push((g, e)),
        }
    }
    let mut described: Vec<GroupDescription> = Vec::new();
    let mut committed_all: BTreeMap<String, CommittedOffsets> = BTreeMap::new();
    for g in groups {
        if let Some(mut d) = ok.remove(g) {
            let coordinator = d.coordinator.as_ref().map_or(-1, |c| c.id);
            let committed = cluster.committed_offsets(coordinator, g).await?;
            committed_all.insert(g.clone(), committed);
            d.configs = Some(settings(cluster, coordinator, g).await?);
            described.push(d);
        }
    }
    let mut warnings = Vec::new();
    let inputs = input_topics(&described, &committed_all);
    let all_topics: BTreeSet<String> = inputs.values().flatten().cloned().collect();
    let leaders = cluster.leaders(&all_topics).await?;
    let ends = cluster
        .offsets_at(&partitions(&leaders), -1, &mut warnings)
        .await?;
    // Earliest only where some group has no commit.
    let need_earliest = uncommitted(&described, &inputs, &leaders, &committed_all);
    let earliest = if need_earliest.is_empty() {
        BTreeMap::new()
    } else {
        cluster
            .offsets_at(&need_earliest, -2, &mut warnings)
            .await?
    };
    let offsets = Offsets {
        leaders: &leaders,
        ends: &ends,
        earliest: &earliest,
    };
    for d in &mut described {
        let committed = committed_all.remove(&d.group_id).unwrap_or_default();
        let topics = inputs.get(&d.group_id).into_iter().flatten();
        d.offsets = offsets.rows(&d.group_id, topics, &committed, &mut warnings);
    }
    described.sort_by(|a, b| a.group_id.cmp(&b.group_id));
    let (kafka_version, kafka_version_note) = release(cluster, &described, answered.version);
    Ok(DescribeResult {
        snapshot: Snapshot {
            kafka_version,
            kafka_version_note,
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            groups: described,
            legacy_version_name: None,
        },
        errors,
        describe_version: answered.version,
        descriptions,
        warnings,
    })
}

/// The release the groups' coordinator runs, from its ApiVersions (the release line) and its
/// configs (4.2.1 or 4.2.2, 4.3.1 or 4.3.2), and what is not certain; from the StreamsGroupDescribe version
/// when no coordinator was reached.
fn release(
    cluster: &Cluster,
    described: &[GroupDescription],
    describe_version: i16,
) -> (Option<KafkaVersion>, Option<String>) {
    let coordinator = described.iter().find_map(|d| d.coordinator.as_ref());
    let maxima = coordinator
        .map(|c| cluster.api_maxima(c.id))
        .unwrap_or_default();
    let line = KafkaVersion::line_from_api_versions(&|k| maxima.get(&k).copied());
    let Some(line) = line.filter(|_| !maxima.is_empty()) else {
        let v = KafkaVersion::detect(Some(describe_version));
        return (v, v.and_then(KafkaVersion::detection_note));
    };
    let listed = described
        .iter()
        .find_map(|d| d.configs.as_ref()?.lists_max_decompressed);
    let (v, note) = KafkaVersion::of_line(line, listed);
    (Some(v), note)
}

/// The coordinator's settings a snapshot records.
const BROKER_PREFIX: &str = "group.streams.";
/// A broker config 4.2.2 and 4.3.2 have and 4.2.0, 4.2.1, 4.3.0 and 4.3.1 have not (measured):
/// what tells the patches of a line apart.
const MAX_DECOMPRESSED: &str = "max.decompressed.message.bytes";

/// DescribeConfigs resource types.
const GROUP_RESOURCE: i8 = 32;
const BROKER_RESOURCE: i8 = 4;

/// The group's `streams.*` configs and its coordinator's `group.streams.*` settings. A part the
/// principal may not read (or a broker that has no such resource) is named, never fatal.
pub async fn settings(
    cluster: &mut Cluster,
    coordinator: i32,
    group: &str,
) -> KafkaResult<ClusterSettings> {
    let answers = match cluster
        .configs_at_coordinator(coordinator, group, GROUP_RESOURCE, BROKER_RESOURCE)
        .await
    {
        Ok(a) => a,
        Err(e @ KafkaError::Unsupported { .. }) => {
            let line = format!("configs not read: {e}");
            return Ok(ClusterSettings {
                unreadable: vec![line],
                ..ClusterSettings::default()
            });
        }
        Err(e) => return Err(e),
    };
    let mut answers = answers.into_iter();
    let mut unreadable = Vec::new();
    // Only the streams-group part of each: a group's configs include its consumer.* and
    // share.* ones, a broker's every setting it has.
    let mut lists_max_decompressed = None;
    let mut read = |prefix: &str, what: &str| match answers.next() {
        Some(Ok(all)) => {
            if prefix == BROKER_PREFIX {
                lists_max_decompressed = Some(all.iter().any(|(k, _)| k == MAX_DECOMPRESSED));
            }
            Some(
                all.into_iter()
                    .filter(|(k, _)| k.starts_with(prefix))
                    .collect(),
            )
        }
        Some(Err(KafkaError::Broker { code, .. })) => {
            unreadable.push(format!("{what} not read: {}", code.name()));
            None
        }
        Some(Err(e)) => {
            unreadable.push(format!("{what} not read: {e}"));
            None
        }
        None => None,
    };
    let group = read("streams.", "group configs");
    let broker = read(BROKER_PREFIX, "broker settings");
    let out = ClusterSettings {
        group,
        broker,
        unreadable,
        lists_max_decompressed,
    };
    Ok(out)
}
