//! A broker's `group.streams.*` settings (the defaults it gives every streams group, and the
//! bounds it holds group configs to), and a group's effective configs: its own `streams.*`
//! configs over those defaults. Kafka's names and value syntax, as `kafka-configs.sh` takes them
//! and DescribeConfigs returns them.

use std::collections::BTreeMap;

use model::group::ClusterSettings;

use super::config::{BrokerBounds, GroupConfig, GroupConfigError};

/// What one broker setting sets.
#[derive(Clone, Copy)]
enum Target {
    Default(fn(&mut GroupConfig, i64)),
    Bound(fn(&mut BrokerBounds, i64)),
    /// Read and checked, but nothing here depends on it (`group.streams.assignors`, tags).
    Ignored,
}

/// Every `group.streams.*` setting of Kafka 4.1 to 4.4 this tool knows, with the smallest value
/// Kafka accepts for it.
const BROKER_KEYS: &[(&str, i64, Target)] = &[
    (
        "group.streams.session.timeout.ms",
        1,
        Target::Default(|c, v| c.session_timeout_ms = v),
    ),
    (
        "group.streams.heartbeat.interval.ms",
        1,
        Target::Default(|c, v| c.heartbeat_interval_ms = v),
    ),
    (
        "group.streams.num.standby.replicas",
        0,
        Target::Default(|c, v| c.num_standby_replicas = v as u32),
    ),
    (
        "group.streams.initial.rebalance.delay.ms",
        0,
        Target::Default(|c, v| c.initial_rebalance_delay_ms = v),
    ),
    (
        "group.streams.assignment.interval.ms",
        0,
        Target::Default(|c, v| c.assignment_interval_ms = v),
    ),
    (
        "group.streams.task.offset.interval.ms",
        1,
        Target::Default(|c, v| c.task_offset_interval_ms = v),
    ),
    (
        "group.streams.acceptable.recovery.lag",
        0,
        Target::Default(|c, v| c.acceptable_recovery_lag = v),
    ),
    (
        "group.streams.num.warmup.replicas",
        0,
        Target::Default(|c, v| c.num_warmup_replicas = v as u32),
    ),
    (
        "group.streams.max.size",
        1,
        Target::Default(|c, v| c.max_size = v.min(u32::MAX as i64) as u32),
    ),
    (
        "group.streams.min.session.timeout.ms",
        1,
        Target::Bound(|b, v| b.min_session_timeout_ms = v),
    ),
    (
        "group.streams.max.session.timeout.ms",
        1,
        Target::Bound(|b, v| b.max_session_timeout_ms = v),
    ),
    (
        "group.streams.min.heartbeat.interval.ms",
        1,
        Target::Bound(|b, v| b.min_heartbeat_interval_ms = v),
    ),
    (
        "group.streams.max.heartbeat.interval.ms",
        1,
        Target::Bound(|b, v| b.max_heartbeat_interval_ms = v),
    ),
    (
        "group.streams.max.standby.replicas",
        0,
        Target::Bound(|b, v| b.max_standby_replicas = v as u32),
    ),
    (
        "group.streams.min.assignment.interval.ms",
        0,
        Target::Bound(|b, v| b.min_assignment_interval_ms = v),
    ),
    (
        "group.streams.max.assignment.interval.ms",
        0,
        Target::Bound(|b, v| b.max_assignment_interval_ms = v),
    ),
    (
        "group.streams.min.task.offset.interval.ms",
        0,
        Target::Ignored,
    ),
    ("group.streams.max.warmup.replicas", 0, Target::Ignored),
    ("group.streams.assignors", 0, Target::Ignored),
    (
        "group.streams.rack.aware.assignment.tags",
        0,
        Target::Ignored,
    ),
];

/// A broker's streams-group settings. The default is a broker with Kafka's own defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrokerSettings {
    /// The configs a group gets when it sets none of its own.
    pub defaults: GroupConfig,
    pub bounds: BrokerBounds,
}

impl BrokerSettings {
    /// Set one setting, as `KEY=VALUE` in the broker's `server.properties` would.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), GroupConfigError> {
        let Some((_, min, target)) = BROKER_KEYS.iter().find(|(k, _, _)| *k == key) else {
            let known: Vec<&str> = BROKER_KEYS.iter().map(|(k, _, _)| *k).collect();
            return Err(GroupConfigError(format!(
                "unknown broker setting {key}; known: {}",
                known.join(", ")
            )));
        };
        if matches!(target, Target::Ignored) {
            return Ok(());
        }
        let n: i64 = value
            .trim()
            .parse()
            .ok()
            .filter(|n| n >= min)
            .ok_or_else(|| {
                GroupConfigError(format!(
                "invalid value {value:?} for broker setting {key}: expected a whole number of at \
                 least {min}"
            ))
            })?;
        match target {
            Target::Default(set) => set(&mut self.defaults, n),
            Target::Bound(set) => set(&mut self.bounds, n),
            Target::Ignored => {}
        }
        Ok(())
    }

    /// The settings a broker reported (DescribeConfigs): the ones this tool knows are applied;
    /// others (a later release's) are left alone.
    pub fn from_reported(reported: &BTreeMap<String, String>) -> Result<Self, GroupConfigError> {
        let mut s = BrokerSettings::default();
        for (k, v) in reported {
            if BROKER_KEYS.iter().any(|(known, _, _)| known == k) {
                s.set(k, v)?;
            }
        }
        Ok(s)
    }

    /// The group's effective configs: `group` (its `streams.*` configs, as DescribeConfigs on
    /// the group returns them) over this broker's defaults. Keys this tool does not model are
    /// left alone.
    pub fn group_config(
        &self,
        group: &BTreeMap<String, String>,
    ) -> Result<GroupConfig, GroupConfigError> {
        let mut c = self.defaults.clone();
        for (k, v) in group {
            let Some(broker_key) = k.strip_prefix("streams.") else {
                continue;
            };
            let broker_key = format!("group.streams.{broker_key}");
            if let Some((_, min, Target::Default(set))) =
                BROKER_KEYS.iter().find(|(k, _, _)| *k == broker_key)
            {
                let n: i64 = v.trim().parse().ok().filter(|n| n >= min).ok_or_else(|| {
                    GroupConfigError(format!("invalid value {v:?} for group config {k}"))
                })?;
                set(&mut c, n);
            }
        }
        Ok(c)
    }

    /// The configs a group runs with, from what DescribeConfigs reported of it (`recorded`:
    /// its configs, and the names of those set on the group itself). A group with no config of
    /// its own runs with this broker's defaults, whatever is reported: Kafka 4.1 and 4.2 report
    /// the static `streams.*` defaults for it (`GroupCoordinatorConfig.extractGroupConfigMap`
    /// gains its streams part in 4.3), while the coordinator, holding no config for the group,
    /// uses its own `group.streams.*` (measured on 4.2.2 with a 6 s session: reported 45000, a
    /// killed member gone in 6.6 s; once the group had a config of its own, 46.5 s). From 4.3
    /// the two agree. Group configs not read: this broker's defaults.
    pub fn group_config_recorded(
        &self,
        recorded: &ClusterSettings,
    ) -> Result<GroupConfig, GroupConfigError> {
        match (&recorded.group, &recorded.set_on_group) {
            (Some(_), Some(own)) if own.is_empty() => Ok(self.defaults.clone()),
            (Some(group), _) => self.group_config(group),
            (None, _) => Ok(self.defaults.clone()),
        }
    }

    /// The names of every setting [`BrokerSettings::set`] takes.
    pub fn known_keys() -> impl Iterator<Item = &'static str> {
        BROKER_KEYS.iter().map(|(k, _, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_test_broker_reported_as_kafka_4_4_does() {
        // What a 4.4.0 broker with a 500 ms heartbeat and a 6 s session answered.
        let broker = map(&[
            ("group.streams.assignors", "sticky"),
            ("group.streams.heartbeat.interval.ms", "500"),
            ("group.streams.min.heartbeat.interval.ms", "100"),
            ("group.streams.min.session.timeout.ms", "2000"),
            ("group.streams.session.timeout.ms", "6000"),
            ("group.streams.initial.rebalance.delay.ms", "0"),
            ("group.streams.some.future.setting", "7"),
        ]);
        let s = BrokerSettings::from_reported(&broker).unwrap();
        assert_eq!(s.defaults.heartbeat_interval_ms, 500);
        assert_eq!(s.defaults.session_timeout_ms, 6000);
        assert_eq!(s.bounds.min_heartbeat_interval_ms, 100);
        let group = map(&[
            ("streams.heartbeat.interval.ms", "500"),
            ("streams.num.standby.replicas", "1"),
            ("streams.assignor.name", "sticky"),
            ("streams.rack.aware.assignment.tags", ""),
        ]);
        let c = s.group_config(&group).unwrap();
        assert_eq!(c.num_standby_replicas, 1);
        assert_eq!(c.initial_rebalance_delay_ms, 0);
        assert!(c.validate_bounds(&s.bounds).is_ok());
        assert!(c.validate_bounds(&BrokerBounds::default()).is_err());
    }

    #[test]
    fn a_group_without_configs_of_its_own_runs_with_the_brokers() {
        // What a 4.2.2 broker with a 6 s session reports of a group: the static defaults.
        let s = BrokerSettings::from_reported(&map(&[
            ("group.streams.session.timeout.ms", "6000"),
            ("group.streams.heartbeat.interval.ms", "500"),
        ]))
        .unwrap();
        let recorded = |own: Option<&[&str]>| ClusterSettings {
            group: Some(map(&[
                ("streams.session.timeout.ms", "45000"),
                ("streams.heartbeat.interval.ms", "5000"),
            ])),
            set_on_group: own.map(|o| o.iter().map(|k| k.to_string()).collect()),
            ..ClusterSettings::default()
        };
        let times = |r: &ClusterSettings| {
            let c = s.group_config_recorded(r).unwrap();
            (c.session_timeout_ms, c.heartbeat_interval_ms)
        };
        assert_eq!(times(&recorded(Some(&[]))), (6000, 500));
        // Any config of its own: what is reported is what it runs with.
        let own = recorded(Some(&["streams.num.standby.replicas"]));
        assert_eq!(times(&own), (45000, 5000));
        // Not recorded (an older snapshot): what is reported.
        assert_eq!(times(&recorded(None)), (45000, 5000));
        // No group configs read: the broker's.
        assert_eq!(times(&ClusterSettings::default()), (6000, 500));
    }

    #[test]
    fn declared_settings_are_checked_by_name_and_value() {
        let mut s = BrokerSettings::default();
        s.set("group.streams.min.heartbeat.interval.ms", "100")
            .unwrap();
        assert_eq!(s.bounds.min_heartbeat_interval_ms, 100);
        let e = s
            .set("group.streams.heartbeat.interval", "1")
            .unwrap_err()
            .0;
        assert!(
            e.starts_with("unknown broker setting group.streams.heartbeat.interval;"),
            "{e}"
        );
        assert!(e.contains("group.streams.heartbeat.interval.ms"), "{e}");
        let e = s
            .set("group.streams.session.timeout.ms", "-5")
            .unwrap_err()
            .0;
        assert!(e.contains("at least 1"), "{e}");
        assert!(s.set("group.streams.max.standby.replicas", "x").is_err());
    }
}
