//! Group configuration: the broker's `group.streams.*` defaults, overridable per group
//! (`streams.*` group configs).

use serde::{Deserialize, Serialize};

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
            num_warmup_replicas: 2,
            acceptable_recovery_lag: 10_000,
            task_offset_interval_ms: 60_000,
            max_size: u32::MAX,
            rack_aware_assignment_tags: Vec::new(),
        }
    }
}

/// A configuration that cannot work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl GroupConfig {
    /// Checks the relations the broker enforces between the values.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.heartbeat_interval_ms <= 0 {
            return Err(ConfigError(format!(
                "heartbeat interval must be positive, got {} ms",
                self.heartbeat_interval_ms
            )));
        }
        if self.session_timeout_ms <= self.heartbeat_interval_ms {
            return Err(ConfigError(format!(
                "session timeout ({} ms) must be greater than the heartbeat interval ({} ms)",
                self.session_timeout_ms, self.heartbeat_interval_ms
            )));
        }
        if self.initial_rebalance_delay_ms < 0 {
            return Err(ConfigError(
                "initial rebalance delay must not be negative".into(),
            ));
        }
        if self.acceptable_recovery_lag < 0 {
            return Err(ConfigError(
                "acceptable recovery lag must not be negative".into(),
            ));
        }
        if self.max_size == 0 {
            return Err(ConfigError("group max size must be at least 1".into()));
        }
        Ok(())
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
}
