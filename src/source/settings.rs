//! A group's settings as a snapshot records them: its `streams.*` configs and its coordinator's
//! `group.streams.*` settings (DescribeConfigs at the coordinator), for one group or for many at
//! once (one request per coordinator, the broker's configs read once for all its groups).

use std::collections::{BTreeMap, BTreeSet};

use kafka::client::{Cluster, ResourceConfigs};
use kafka::error::{KafkaError, KafkaResult};
use model::group::ClusterSettings;

/// The coordinator's settings a snapshot records.
const BROKER_PREFIX: &str = "group.streams.";
/// The group's configs a snapshot records (a group's configs include its consumer.* and
/// share.* ones).
const GROUP_PREFIX: &str = "streams.";
/// A broker config 4.2.2 and 4.3.2 have and 4.2.0, 4.2.1, 4.3.0 and 4.3.1 have not (measured):
/// what tells the patches of a line apart.
const MAX_DECOMPRESSED: &str = "max.decompressed.message.bytes";

/// DescribeConfigs resource types.
const GROUP_RESOURCE: i8 = 32;
const BROKER_RESOURCE: i8 = 4;

type Configs = BTreeMap<String, String>;

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
        Err(e @ KafkaError::Unsupported { .. }) => return Ok(unsupported(&e)),
        Err(e) => return Err(e),
    };
    let mut answers = answers.into_iter();
    let group = Part::read(answers.next(), GROUP_PREFIX, "group configs");
    let broker = Part::read(answers.next(), BROKER_PREFIX, "broker settings");
    Ok(group.with(broker))
}

/// [`settings`] of many groups (`groups` maps each to its coordinator): one DescribeConfigs per
/// coordinator for all its groups and itself, every coordinator at once. When that request
/// fails, its groups are asked one by one, as [`settings`] asks (which retries where the
/// coordinator moved).
pub async fn settings_of(
    cluster: &mut Cluster,
    groups: &BTreeMap<String, i32>,
) -> KafkaResult<BTreeMap<String, ClusterSettings>> {
    let mut by_coordinator: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for (g, c) in groups {
        by_coordinator.entry(*c).or_default().push(g.clone());
    }
    let mut out = BTreeMap::new();
    let mut answered = cluster
        .configs_at_coordinators_of(&by_coordinator, GROUP_RESOURCE, BROKER_RESOURCE)
        .await;
    for (node, gs) in by_coordinator {
        let answers = answered.remove(&node).unwrap_or_else(|| {
            Err(KafkaError::Protocol {
                addr: format!("node {node}"),
                detail: "no DescribeConfigs answer".into(),
            })
        });
        let Ok(answers) = answers else {
            for g in gs {
                let s = settings(cluster, node, &g).await?;
                out.insert(g, s);
            }
            continue;
        };
        let broker = Part::read(Some(answers.broker), BROKER_PREFIX, "broker settings");
        for (g, answer) in answers.groups {
            let group = Part::read(Some(answer), GROUP_PREFIX, "group configs");
            out.insert(g, group.with(broker.clone()));
        }
    }
    Ok(out)
}

/// Settings when the broker has no DescribeConfigs to offer.
fn unsupported(e: &KafkaError) -> ClusterSettings {
    ClusterSettings {
        unreadable: vec![format!("configs not read: {e}")],
        ..ClusterSettings::default()
    }
}

/// One resource's answer, cut to the part a snapshot records.
#[derive(Clone, Debug, Default)]
struct Part {
    configs: Option<Configs>,
    /// Why it could not be read.
    unreadable: Option<String>,
    /// The names of the configs set on the group itself (the group's only).
    set_on_group: Option<BTreeSet<String>>,
    /// Whether the answer lists `max.decompressed.message.bytes` (the broker's only).
    lists_max_decompressed: Option<bool>,
}

impl Part {
    fn read(answer: Option<Result<ResourceConfigs, KafkaError>>, prefix: &str, what: &str) -> Part {
        match answer {
            Some(Ok(all)) => Part {
                lists_max_decompressed: (prefix == BROKER_PREFIX)
                    .then(|| all.values.contains_key(MAX_DECOMPRESSED)),
                configs: Some(
                    all.values
                        .into_iter()
                        .filter(|(k, _)| k.starts_with(prefix))
                        .collect(),
                ),
                set_on_group: (prefix == GROUP_PREFIX).then_some(all.set_on_group),
                unreadable: None,
            },
            Some(Err(KafkaError::Broker { code, .. })) => Part {
                unreadable: Some(format!("{what} not read: {}", code.name())),
                ..Part::default()
            },
            Some(Err(e)) => Part {
                unreadable: Some(format!("{what} not read: {e}")),
                ..Part::default()
            },
            None => Part::default(),
        }
    }

    /// The group's part with its coordinator's: the settings of one group.
    fn with(self, broker: Part) -> ClusterSettings {
        ClusterSettings {
            group: self.configs,
            set_on_group: self.set_on_group,
            broker: broker.configs,
            unreadable: self
                .unreadable
                .into_iter()
                .chain(broker.unreadable)
                .collect(),
            lists_max_decompressed: broker.lists_max_decompressed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn configs(keys: &[&str]) -> Configs {
        keys.iter()
            .map(|k| (k.to_string(), "1".to_string()))
            .collect()
    }

    fn answered(keys: &[&str], set_on_group: &[&str]) -> ResourceConfigs {
        ResourceConfigs {
            values: configs(keys),
            set_on_group: set_on_group.iter().map(|k| k.to_string()).collect(),
        }
    }

    #[test]
    fn each_part_keeps_its_prefix_and_the_broker_tells_its_patch() {
        let group = Part::read(
            Some(Ok(answered(
                &["streams.num.standby.replicas", "consumer.x"],
                &["consumer.x"],
            ))),
            GROUP_PREFIX,
            "group configs",
        );
        let broker = Part::read(
            Some(Ok(answered(
                &["group.streams.max.size", MAX_DECOMPRESSED, "log.dirs"],
                &[],
            ))),
            BROKER_PREFIX,
            "broker settings",
        );
        let s = group.with(broker);
        assert_eq!(s.group, Some(configs(&["streams.num.standby.replicas"])));
        // What the group sets itself is kept whatever its prefix: any config of its own
        // decides which defaults Kafka 4.1 and 4.2 run it with.
        assert_eq!(s.set_on_group, Some(["consumer.x".to_string()].into()));
        assert_eq!(s.broker, Some(configs(&["group.streams.max.size"])));
        assert_eq!(s.lists_max_decompressed, Some(true));
        assert!(s.unreadable.is_empty());
    }

    #[test]
    fn unreadable_parts_are_named_group_first() {
        let denied = KafkaError::broker(31, None, "the configs of `g`");
        let group = Part::read(Some(Err(denied)), GROUP_PREFIX, "group configs");
        let broker = Part::read(None, BROKER_PREFIX, "broker settings");
        let s = group.with(broker);
        assert_eq!(s.group, None);
        assert_eq!(s.broker, None);
        assert_eq!(s.lists_max_decompressed, None);
        assert_eq!(
            s.unreadable,
            vec!["group configs not read: CLUSTER_AUTHORIZATION_FAILED".to_string()]
        );
    }
}
