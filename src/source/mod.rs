//! Where a group comes from (a snapshot file or the live cluster), and where a topology comes
//! from (a topology file, a snapshot, or a live group): the one place commands read groups and
//! topologies. `live` reads groups from the cluster (selection, describe with offsets and
//! settings) for every command, `offsets` is its pure half, `choice` says which coordinator
//! profile a group's origin implies.

pub mod choice;
pub mod endpoints;
pub mod live;
pub mod offsets;
pub mod settings;

use std::path::{Path, PathBuf};

use crate::error::{Error, Fix};
use crate::snapshot;
use crate::topology::ResolvedTopology;
use kafka::{self, config::ClientConfig, error::KafkaError, waits::Waits};
use model::group::GroupDescription;
use model::processor_graph::StoredDescription;
use model::{ErrorCode, KafkaVersion};

/// Where the group a command works on comes from.
#[derive(Clone, Debug)]
pub enum GroupSource {
    /// A `describe --output json` snapshot, and the group to pick when it holds several.
    Snapshot {
        path: PathBuf,
        group: Option<String>,
    },
    /// A live group on the cluster.
    Live {
        group_id: String,
        client: Box<ClientConfig>,
    },
}

/// Where a group came from, with the Kafka version that tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A snapshot file, and the version it records (`None` for snapshots of older builds);
    /// `legacy_name` is the name it recorded that when its meaning has changed since ("4.3").
    Snapshot {
        file: String,
        recorded: Option<KafkaVersion>,
        legacy_name: Option<String>,
        /// What the snapshot says is not certain about the version (`kafka_version_note`).
        note: Option<String>,
    },
    /// A live group, the version detected from its broker, and what is not certain about it.
    Live {
        group_id: String,
        detected: Option<KafkaVersion>,
        note: Option<String>,
    },
}

impl Origin {
    /// How reports name it: the file, or `group:ID`.
    pub fn label(&self) -> String {
        match self {
            Origin::Snapshot { file, .. } => file.clone(),
            Origin::Live { group_id, .. } => format!("group:{group_id}"),
        }
    }
}

/// A group, and where it came from.
#[derive(Clone, Debug)]
pub struct SourcedGroup {
    pub group: GroupDescription,
    pub origin: Origin,
}

/// Read the group.
pub fn load_group(source: &GroupSource) -> Result<SourcedGroup, Error> {
    match source {
        GroupSource::Snapshot { path, group } => snapshot_group(path, group.as_deref()),
        GroupSource::Live { group_id, client } => {
            let (described, detected, note) = describe_live(client, group_id)?;
            Ok(SourcedGroup {
                group: described?,
                origin: Origin::Live {
                    group_id: group_id.clone(),
                    detected,
                    note,
                },
            })
        }
    }
}

/// Read the group, or learn that the cluster has none of that id (a first deployment): `None`
/// then, with the origin either way.
pub fn load_group_if_exists(
    source: &GroupSource,
) -> Result<(Option<GroupDescription>, Origin), Error> {
    let GroupSource::Live { group_id, client } = source else {
        let g = load_group(source)?;
        return Ok((Some(g.group), g.origin));
    };
    let (described, detected, note) = describe_live(client, group_id)?;
    let origin = Origin::Live {
        group_id: group_id.clone(),
        detected,
        note,
    };
    match described {
        Ok(g) => Ok((Some(g), origin)),
        Err(Error::Kafka(KafkaError::Broker {
            code: ErrorCode::GroupIdNotFound,
            message,
            ..
        })) if !message
            .as_deref()
            .unwrap_or("")
            .contains("is not a streams group") =>
        {
            Ok((None, origin))
        }
        Err(e) => Err(e),
    }
}

/// A group that cannot be picked from a snapshot; several groups want a name.
fn group_error(file: &str, e: snapshot::SnapshotError) -> Error {
    let message = format!("{file}: {e}");
    match e {
        snapshot::SnapshotError::SeveralGroups { .. } => {
            Error::InputWithFix(message, Fix::PickGroup)
        }
        _ => Error::input(message),
    }
}

fn snapshot_group(path: &Path, group: Option<&str>) -> Result<SourcedGroup, Error> {
    let s = snapshot::load_snapshot(path).map_err(|e| Error::input(e.to_string()))?;
    let file = path.display().to_string();
    let g = snapshot::find_group(&s, group).map_err(|e| group_error(&file, e))?;
    Ok(SourcedGroup {
        group: g.clone(),
        origin: Origin::Snapshot {
            file,
            recorded: s.kafka_version,
            legacy_name: s.legacy_version_name.clone(),
            note: s.kafka_version_note.clone(),
        },
    })
}

/// Describe one group: the outcome for the group, the profile detected from the broker, and
/// what is not certain about it.
type Described = (
    Result<GroupDescription, Error>,
    Option<KafkaVersion>,
    Option<String>,
);

fn describe_live(client: &ClientConfig, group_id: &str) -> Result<Described, Error> {
    describe_live_with(client, group_id, false).map(|(d, _)| d)
}

/// [`describe_live`], and the topology description the broker stores when `descriptions`.
fn describe_live_with(
    client: &ClientConfig,
    group_id: &str,
    descriptions: bool,
) -> Result<(Described, StoredDescription), Error> {
    kafka::limits::check_group_ids(&[group_id])?;
    let ids = vec![group_id.to_string()];
    let locate = ids.clone();
    let mut result =
        kafka::run_session_locating(client.clone(), Waits::default(), locate, move |cluster| {
            if descriptions {
                cluster.ask_topology_descriptions();
            }
            Box::pin(async move { live::describe_groups(cluster, &ids).await })
        })?;
    let version = result.snapshot.kafka_version;
    let note = result.snapshot.kafka_version_note.clone();
    let stored = result
        .descriptions
        .remove(group_id)
        .unwrap_or(StoredDescription::NotRequested);
    if let Some((_, e)) = result.errors.into_iter().next() {
        return Ok(((Err(e.into()), version, note), stored));
    }
    match result.snapshot.groups.pop() {
        Some(g) => Ok(((Ok(g), version, note), stored)),
        None => Err(Error::Kafka(KafkaError::broker(
            -1,
            None,
            format!("the cluster did not describe group {group_id}"),
        ))),
    }
}

/// [`resolve_topology`], with the processors a live group's broker stores (Kafka 4.4 with a
/// topology description plugin, KIP-1331); a note says why when there are none.
pub fn resolve_topology_with_processors(
    source: &TopologySource,
    application_id: Option<&str>,
    group: Option<&str>,
) -> Result<ResolvedTopology, Error> {
    let TopologySource::Live { group_id, client } = source else {
        return resolve_topology(source, application_id, group);
    };
    let label = format!("group:{group_id}");
    let ((described, _, _), stored) = describe_live_with(client, group_id, true)?;
    let mut t = group_topology(described?, &label, true)?;
    let note = match stored {
        StoredDescription::Available(graph) => {
            t.graph = Some(crate::topology::picture::named_as_in(
                graph,
                &t.topology,
                group_id,
            ));
            return Ok(t);
        }
        StoredDescription::NotStored => {
            "the broker stores no topology description for the group's topology epoch, so no \
             processors are shown (Kafka 4.4 stores them when the broker config \
             group.streams.topology.description.plugin.class names a plugin, KIP-1331)"
        }
        StoredDescription::Failed => {
            "the broker's topology description plugin failed to read the description: no \
             processors are shown"
        }
        StoredDescription::NotRequested => {
            "the broker speaks StreamsGroupDescribe v0 (Kafka 4.1 to 4.3), which carries no \
             processors; Kafka 4.4 with a topology description plugin (KIP-1331) does"
        }
    };
    t.notes.push(note.to_string());
    Ok(t)
}

/// Where a topology comes from.
#[derive(Clone, Debug)]
pub enum TopologySource {
    /// A file: a JSON topology, `Topology#describe()` text, or a snapshot (recognised by its
    /// top-level `schema_version`).
    File(PathBuf),
    /// A live group's topology.
    Live {
        group_id: String,
        client: Box<ClientConfig>,
    },
}

/// Read a topology. `application_id` names the internal topics of describe text; `group` picks
/// the group of a snapshot with several.
pub fn resolve_topology(
    source: &TopologySource,
    application_id: Option<&str>,
    group: Option<&str>,
) -> Result<ResolvedTopology, Error> {
    match source {
        TopologySource::Live { group_id, client } => {
            let label = format!("group:{group_id}");
            let g = describe_live(client, group_id)?.0?;
            group_topology(g, &label, true)
        }
        TopologySource::File(path) => {
            let label = path.display().to_string();
            let text = model::input::read_document(path)
                .map_err(|e| Error::input(format!("{label}: cannot read the file: {e}")))?;
            if snapshot::looks_like_snapshot(&text) {
                let s = snapshot::parse_snapshot(&text, &label)
                    .map_err(|e| Error::input(e.to_string()))?;
                let g = snapshot::find_group(&s, group).map_err(|e| group_error(&label, e))?;
                return group_topology(g.clone(), &label, false);
            }
            parse_file_topology(&text, &label, application_id)
        }
    }
}

fn parse_file_topology(
    text: &str,
    label: &str,
    application_id: Option<&str>,
) -> Result<ResolvedTopology, Error> {
    let (text, described, mut notes) = match described_json(text) {
        Some(t) => (
            std::borrow::Cow::Owned(t),
            true,
            vec![
                "changelog partition counts are the broker's decisions (a topology copied from \
                 a snapshot): read as 0, as members send them"
                    .to_string(),
            ],
        ),
        None => (std::borrow::Cow::Borrowed(text), false, Vec::new()),
    };
    let needs_app_id = application_id.is_none()
        && crate::topology::detect_format(&text).ok()
            == Some(crate::topology::TopologyFormat::DescribeText);
    let (topology, parsed_notes, graph) =
        crate::topology::parse_topology_graph(&text, application_id).map_err(|e| {
            let message = e.in_file(label).to_string();
            if needs_app_id {
                Error::InputWithFix(message, Fix::GiveApplicationId)
            } else {
                Error::input(message)
            }
        })?;
    notes.extend(parsed_notes);
    Ok(ResolvedTopology {
        topology,
        label: label.to_string(),
        group: None,
        live: false,
        described,
        notes,
        graph,
    })
}

/// A JSON topology whose changelog topics have partition counts is a described topology (copied
/// out of a snapshot): the same text with those counts at 0, as members send them.
fn described_json(text: &str) -> Option<String> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut value: serde_json::Value = serde_json::from_str(body).ok()?;
    let subs = value.get_mut("subtopologies")?.as_array_mut()?;
    let mut described = false;
    for s in subs {
        let Some(changelogs) = s
            .get_mut("state_changelog_topics")
            .and_then(|c| c.as_array_mut())
        else {
            continue;
        };
        for c in changelogs {
            if let Some(p) = c.get_mut("partitions").filter(|p| p.as_i64() > Some(0)) {
                *p = serde_json::Value::from(0);
                described = true;
            }
        }
    }
    described.then(|| serde_json::to_string_pretty(&value).unwrap_or_default())
}

fn group_topology(g: GroupDescription, label: &str, live: bool) -> Result<ResolvedTopology, Error> {
    let topology = crate::topology::described::topology_of(&g).ok_or_else(|| {
        Error::input(format!(
            "{label}: group {} shows no topology (subtopologies are null: the group is not \
             initialised, or its topics are missing)",
            g.group_id
        ))
    })?;
    Ok(ResolvedTopology {
        topology,
        label: label.to_string(),
        group: Some(g),
        live,
        described: true,
        notes: Vec::new(),
        graph: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topology_copied_from_a_snapshot_reads_as_members_send_it() {
        let text = r#"{"epoch": 3, "subtopologies": [{"id": "1",
            "repartition_source_topics": [{"name": "r", "partitions": 6}],
            "state_changelog_topics": [{"name": "c", "partitions": 6}]}]}"#;
        let t = parse_file_topology(text, "t.json", None).unwrap();
        assert!(t.described);
        assert_eq!(t.topology.epoch, 3);
        let s = &t.topology.subtopologies[0];
        assert_eq!(s.state_changelog_topics[0].partitions, 0);
        assert_eq!(s.repartition_source_topics[0].partitions, 6);
        assert_eq!(t.notes.len(), 1);
        let plain = r#"{"subtopologies": [{"id": "0", "source_topics": ["a"]}]}"#;
        let t = parse_file_topology(plain, "t.json", None).unwrap();
        assert!(!t.described && t.notes.is_empty());
    }

    #[test]
    fn errors_name_the_file() {
        let e = resolve_topology(
            &TopologySource::File("/nonexistent/t.json".into()),
            None,
            None,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("/nonexistent/t.json: cannot read the file"),
            "{e}"
        );
        let e = parse_file_topology("Topologies:\n", "t.txt", None).unwrap_err();
        assert!(e.to_string().contains("--application-id") || e.to_string().starts_with("t.txt"));
    }
}
