//! Reading streams groups from the cluster, for every command that needs one: which groups
//! (`GroupSelection`, `group_ids`), each described with its committed offsets, end offsets, lag
//! and settings (`describe`, `describe_groups`), and the settings alone (`settings`). The pure steps are in
//! `offsets`.

use std::collections::{BTreeMap, BTreeSet};

use super::endpoints::fill_endpoint_partitions;
use super::offsets::{input_topics, partitions, uncommitted, Offsets};
pub use super::settings::settings;
use super::settings::settings_of;
use crate::error::Error;
use kafka::client::Cluster;
use kafka::config::ClientConfig;
use kafka::error::{KafkaError, KafkaResult};
use kafka::waits::Waits;
use model::group::{GroupDescription, Snapshot, SNAPSHOT_SCHEMA_VERSION};
use model::processor_graph::StoredDescription;
use model::KafkaVersion;

/// Result of describing several groups.
#[derive(Debug)]
pub struct DescribeResult {
    pub snapshot: Snapshot,
    /// Groups that failed, with their error, by group id; an empty id for a broker that did
    /// not answer ListGroups of `--all-groups` (the groups it coordinates are unknown).
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

/// The group ids selected, listed by the cluster or given, without repeats. Every broker
/// must answer the listing: what acts on the groups needs them all.
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

/// [`group_ids`] for reading: the brokers that answered the listing within half the
/// session give the groups, and each one that did not is an error of its own (the groups it
/// coordinates are unknown), so that a reading shows what it can.
async fn group_ids_answered(
    cluster: &mut Cluster,
    selection: &GroupSelection,
) -> KafkaResult<(Vec<String>, Vec<(String, KafkaError)>)> {
    let GroupSelection::All = selection else {
        return Ok((group_ids(cluster, selection).await?, Vec::new()));
    };
    let leave = cluster.timeout() / 2;
    let listed = cluster.list_groups_leaving(&[STREAMS], &[], leave).await?;
    let missing = listed
        .unanswered
        .into_iter()
        .map(|e| (String::new(), e))
        .collect();
    Ok((
        listed.groups.into_iter().map(|g| g.group_id).collect(),
        missing,
    ))
}

/// Describe the groups to `depth`: `None` when the selection is empty (a cluster without
/// streams groups).
pub fn describe(
    client: &ClientConfig,
    selection: GroupSelection,
    depth: Depth,
) -> Result<Option<DescribeResult>, Error> {
    describe_telling(client, selection, depth, Waits::default())
}

/// [`describe`], telling `waits` what it waits for as it goes (a watch says so when late).
pub fn describe_telling(
    client: &ClientConfig,
    selection: GroupSelection,
    depth: Depth,
    waits: Waits,
) -> Result<Option<DescribeResult>, Error> {
    let named = match &selection {
        GroupSelection::Groups(ids) => {
            kafka::limits::check_group_ids(ids)?;
            ids.clone()
        }
        GroupSelection::All => Vec::new(),
    };
    let result = kafka::run_session_locating(client.clone(), waits, named, move |cluster| {
        Box::pin(async move {
            let (ids, missing) = group_ids_answered(cluster, &selection).await?;
            if ids.is_empty() && missing.is_empty() {
                return Ok(None);
            }
            let mut described = describe_groups_to(cluster, &ids, depth).await?;
            described.errors.extend(missing);
            Ok(Some(described))
        })
    })?;
    Ok(result.map(|mut r: DescribeResult| {
        fill_endpoint_partitions(&mut r.snapshot);
        r
    }))
}

/// How much of each group a reading asks the cluster for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// What StreamsGroupDescribe answers alone (state, epochs, members, their tasks, the
    /// topology): all the `--state` and `--members` tables print, one round trip per
    /// coordinator, as Apache's tool reads them.
    Described,
    /// Also committed offsets, end offsets, lag and settings: the full snapshot.
    Full,
}

/// Describe groups with their committed offsets, end offsets and lag; the release is detected
/// from the StreamsGroupDescribe version the broker speaks.
pub async fn describe_groups(
    cluster: &mut Cluster,
    groups: &[String],
) -> KafkaResult<DescribeResult> {
    describe_groups_to(cluster, groups, Depth::Full).await
}

/// [`describe_groups`] to `depth`. Each request goes once to each coordinator (or partition
/// leader) for all the groups it holds, not once per group.
pub async fn describe_groups_to(
    cluster: &mut Cluster,
    groups: &[String],
    depth: Depth,
) -> KafkaResult<DescribeResult> {
    // A full reading goes on to the groups' offsets and settings: a coordinator that does not
    // answer is waited for only until a quarter of the session is left for them.
    let leave = match depth {
        Depth::Full => cluster.timeout() / 4,
        Depth::Described => std::time::Duration::ZERO,
    };
    let answered = cluster.describe_groups_leaving(groups, leave).await?;
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
    let mut described: Vec<GroupDescription> = groups.iter().filter_map(|g| ok.remove(g)).collect();
    let mut warnings = Vec::new();
    if depth == Depth::Full {
        read_offsets_and_settings(cluster, &mut described, &mut warnings).await?;
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

/// The groups' committed offsets and settings (one request each per coordinator), then the
/// end offsets (and earliest, where nothing is committed) of their input partitions and the
/// lag rows.
async fn read_offsets_and_settings(
    cluster: &mut Cluster,
    described: &mut [GroupDescription],
    warnings: &mut Vec<String>,
) -> KafkaResult<()> {
    let coordinators: BTreeMap<String, i32> = described
        .iter()
        .map(|d| {
            (
                d.group_id.clone(),
                d.coordinator.as_ref().map_or(-1, |c| c.id),
            )
        })
        .collect();
    let mut committed_all = cluster.committed_offsets_of(&coordinators).await?;
    let mut settings_all = settings_of(cluster, &coordinators).await?;
    for d in described.iter_mut() {
        d.configs = settings_all.remove(&d.group_id);
    }
    let inputs = input_topics(described, &committed_all);
    let all_topics: BTreeSet<String> = inputs.values().flatten().cloned().collect();
    let leaders = cluster.leaders(&all_topics).await?;
    let ends = cluster
        .offsets_at(&partitions(&leaders), -1, warnings)
        .await?;
    // Earliest only where some group has no commit.
    let need_earliest = uncommitted(described, &inputs, &leaders, &committed_all);
    let earliest = if need_earliest.is_empty() {
        BTreeMap::new()
    } else {
        cluster.offsets_at(&need_earliest, -2, warnings).await?
    };
    let offsets = Offsets {
        leaders: &leaders,
        ends: &ends,
        earliest: &earliest,
    };
    for d in described.iter_mut() {
        let committed = committed_all.remove(&d.group_id).unwrap_or_default();
        let topics = inputs.get(&d.group_id).into_iter().flatten();
        d.offsets = offsets.rows(&d.group_id, topics, &committed, warnings);
    }
    Ok(())
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
