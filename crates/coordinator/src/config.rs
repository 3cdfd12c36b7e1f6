//! Group configuration: the broker's `group.streams.*` defaults, overridable per group
//! (`streams.*` group configs).

use crate::profile::Profile;
use serde::{Deserialize, Serialize};

use model::KafkaVersion;

/// Per-group configuration of the coordinator. Defaults are the shipped broker defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupConfig {
    /// `streams.session.timeout.ms` (default 45000).
    pub session_timeout_ms: i64,
    /// `streams.heartbeat.interval.ms` (default 5000).
    pub heartbeat_interval_ms: i64,
    /// `streams.num.standby.replicas` (default 0).
    pub num_standby_replicas: u32,
    /// `streams.initial.rebalance.delay.ms` (default 3000).
    pub initial_rebalance_delay_ms: i64,
    /// `streams.assignment.interval.ms` (default 1000, Kafka 4.3 and later): a new target
    /// assignment is computed at most this often.
    #[serde(default = "default_assignment_interval_ms")]
    pub assignment_interval_ms: i64,
    /// `streams.num.warmup.replicas` (default 2). Sent to clients; warm-up placement is a
    /// separate step of the target assignment (see `target`).
    pub num_warmup_replicas: u32,
    /// `streams.acceptable.recovery.lag` (default 10000).
    pub acceptable_recovery_lag: i64,
    /// `streams.task.offset.interval.ms` (default 60000).
    pub task_offset_interval_ms: i64,
    /// `group.streams.max.size` (default unlimited).
    pub max_size: u32,
    /// `streams.rack.aware.assignment.tags` (default none).
    pub rack_aware_assignment_tags: Vec<String>,
}

impl Default for GroupConfig {
    fn default() -> Self {
        GroupConfig {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 5_000,
            num_standby_replicas: 0,
            initial_rebalance_delay_ms: 3_000,
            assignment_interval_ms: default_assignment_interval_ms(),
            num_warmup_replicas: 2,
            acceptable_recovery_lag: 10_000,
            task_offset_interval_ms: 60_000,
            max_size: u32::MAX,
            rack_aware_assignment_tags: Vec::new(),
        }
    }
}

fn default_assignment_interval_ms() -> i64 {
    1_000
}

/// The broker's bounds on group configs (`group.streams.min/max.*`), with their defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerBounds {
    pub min_session_timeout_ms: i64,
    pub max_session_timeout_ms: i64,
    pub min_heartbeat_interval_ms: i64,
    pub max_heartbeat_interval_ms: i64,
    pub max_standby_replicas: u32,
    pub min_assignment_interval_ms: i64,
    pub max_assignment_interval_ms: i64,
}

impl Default for BrokerBounds {
    fn default() -> Self {
        BrokerBounds {
            min_session_timeout_ms: 45_000,
            max_session_timeout_ms: 60_000,
            min_heartbeat_interval_ms: 5_000,
            max_heartbeat_interval_ms: 15_000,
            max_standby_replicas: 2,
            min_assignment_interval_ms: 0,
            max_assignment_interval_ms: 15_000,
        }
    }
}

/// A configuration that cannot work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupConfigError(pub String);

impl std::fmt::Display for GroupConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GroupConfigError {}

impl GroupConfig {
    /// Checks the relations the broker enforces between the values.
    pub fn validate(&self) -> Result<(), GroupConfigError> {
        if self.heartbeat_interval_ms <= 0 {
            return Err(GroupConfigError(format!(
                "heartbeat interval must be positive, got {} ms",
                self.heartbeat_interval_ms
            )));
        }
        if self.session_timeout_ms <= self.heartbeat_interval_ms {
            return Err(GroupConfigError(format!(
                "session timeout ({} ms) must be greater than the heartbeat interval ({} ms)",
                self.session_timeout_ms, self.heartbeat_interval_ms
            )));
        }
        if self.initial_rebalance_delay_ms < 0 {
            return Err(GroupConfigError(
                "initial rebalance delay must not be negative".into(),
            ));
        }
        if self.assignment_interval_ms < 0 {
            return Err(GroupConfigError(
                "assignment interval must not be negative".into(),
            ));
        }
        if self.acceptable_recovery_lag < 0 {
            return Err(GroupConfigError(
                "acceptable recovery lag must not be negative".into(),
            ));
        }
        if self.max_size == 0 {
            return Err(GroupConfigError("group max size must be at least 1".into()));
        }
        Ok(())
    }

    /// This config with one group config set as `kafka-configs.sh --alter --entity-type groups
    /// --add-config KEY=VALUE` sets it: the key must exist in that release (4.2 has no
    /// `streams.assignment.interval.ms`, 4.1 no `streams.initial.rebalance.delay.ms` either), the value must be a whole number, and the result
    /// must be within a default broker's bounds.
    pub fn with_group_config(
        &self,
        key: &str,
        value: &str,
        version: KafkaVersion,
    ) -> Result<GroupConfig, GroupConfigError> {
        let mut c = self.clone();
        let n: i64 = value.trim().parse().map_err(|_| {
            GroupConfigError(format!(
                "Invalid value {value} for configuration {key}: Not a number of type INT"
            ))
        })?;
        match key {
            "streams.session.timeout.ms" => c.session_timeout_ms = n,
            "streams.heartbeat.interval.ms" => c.heartbeat_interval_ms = n,
            "streams.initial.rebalance.delay.ms" if version.has_initial_rebalance_delay() => {
                c.initial_rebalance_delay_ms = n
            }
            "streams.assignment.interval.ms" if version.has_assignment_interval() => {
                c.assignment_interval_ms = n
            }
            "streams.num.standby.replicas" => {
                c.num_standby_replicas = u32::try_from(n).map_err(|_| {
                    GroupConfigError(format!(
                        "Invalid value {value} for configuration {key}: Value must be at least 0"
                    ))
                })?
            }
            _ => {
                return Err(GroupConfigError(format!(
                    "Unknown group config name: {key}"
                )))
            }
        }
        c.validate_bounds(&BrokerBounds::default())?;
        Ok(c)
    }

    /// Checks the group configs against a broker's bounds, as `kafka-configs.sh --alter` on a
    /// group is checked (`GroupConfig.validate`): the message names the bound and the broker
    /// setting that moves it.
    pub fn validate_bounds(&self, bounds: &BrokerBounds) -> Result<(), GroupConfigError> {
        // The broker's bounds first: a value below a minimum is named with the setting that
        // moves it, before what it breaks in relation to the others.
        self.within_bounds(bounds)?;
        self.validate()
    }

    fn within_bounds(&self, bounds: &BrokerBounds) -> Result<(), GroupConfigError> {
        let check = |ok: bool, what: &str, value: i64, rel: &str, bound: i64, setting: &str| {
            if ok {
                Ok(())
            } else {
                Err(GroupConfigError(format!(
                    "{what} is {value}, but a broker requires it to be {rel} {bound} \
                     (broker setting {setting})"
                )))
            }
        };
        let b = bounds;
        check(
            self.heartbeat_interval_ms >= b.min_heartbeat_interval_ms,
            "streams.heartbeat.interval.ms",
            self.heartbeat_interval_ms,
            "at least",
            b.min_heartbeat_interval_ms,
            "group.streams.min.heartbeat.interval.ms",
        )?;
        check(
            self.heartbeat_interval_ms <= b.max_heartbeat_interval_ms,
            "streams.heartbeat.interval.ms",
            self.heartbeat_interval_ms,
            "at most",
            b.max_heartbeat_interval_ms,
            "group.streams.max.heartbeat.interval.ms",
        )?;
        check(
            self.session_timeout_ms >= b.min_session_timeout_ms,
            "streams.session.timeout.ms",
            self.session_timeout_ms,
            "at least",
            b.min_session_timeout_ms,
            "group.streams.min.session.timeout.ms",
        )?;
        check(
            self.session_timeout_ms <= b.max_session_timeout_ms,
            "streams.session.timeout.ms",
            self.session_timeout_ms,
            "at most",
            b.max_session_timeout_ms,
            "group.streams.max.session.timeout.ms",
        )?;
        check(
            self.num_standby_replicas <= b.max_standby_replicas,
            "streams.num.standby.replicas",
            i64::from(self.num_standby_replicas),
            "at most",
            i64::from(b.max_standby_replicas),
            "group.streams.max.standby.replicas",
        )?;
        check(
            self.assignment_interval_ms >= b.min_assignment_interval_ms,
            "streams.assignment.interval.ms",
            self.assignment_interval_ms,
            "at least",
            b.min_assignment_interval_ms,
            "group.streams.min.assignment.interval.ms",
        )?;
        check(
            self.assignment_interval_ms <= b.max_assignment_interval_ms,
            "streams.assignment.interval.ms",
            self.assignment_interval_ms,
            "at most",
            b.max_assignment_interval_ms,
            "group.streams.max.assignment.interval.ms",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_relations_are_named() {
        assert!(GroupConfig::default().validate().is_ok());
        let c = GroupConfig {
            session_timeout_ms: 1000,
            heartbeat_interval_ms: 5000,
            ..GroupConfig::default()
        };
        assert!(c.validate().unwrap_err().0.contains("session timeout"));
    }

    #[test]
    fn broker_bounds_name_the_setting_that_moves_them() {
        let b = BrokerBounds::default();
        assert!(GroupConfig::default().validate_bounds(&b).is_ok());
        let c = GroupConfig {
            num_standby_replicas: 3,
            ..GroupConfig::default()
        };
        let e = c.validate_bounds(&b).unwrap_err().0;
        assert!(e.contains("at most 2"), "{e}");
        assert!(e.contains("group.streams.max.standby.replicas"), "{e}");
        let c = GroupConfig {
            heartbeat_interval_ms: 1_000,
            ..GroupConfig::default()
        };
        assert!(c
            .validate_bounds(&b)
            .unwrap_err()
            .0
            .contains("group.streams.min.heartbeat.interval.ms"));
    }
}
