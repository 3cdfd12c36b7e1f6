//! Argument value parsers and groups several commands share, each defined once: the same
//! flag means the same thing, takes the same values and has the same default in every command.

use std::path::PathBuf;

use coordinator::broker_settings::BrokerSettings;
use model::version::{RequestedVersion, UnknownVersion};
use streams_group::simulate::setup::{MAX_MEMBERS, MAX_PARTITIONS};
use streams_group::source::live::GroupSelection;
use streams_group::source::{GroupSource, TopologySource};
use streams_group::topology::topic_counts::TopicCounts;

use super::GlobalArgs;
use crate::command_error::CommandError;

/// Partitions assumed for a source topic whose count is not known otherwise, in every command.
pub const DEFAULT_PARTITIONS: i32 = 8;

/// clap value parser for `--kafka-version`: the profile, and the release named when another
/// release's profile serves it (said in a note by `source::choice::choose`).
pub fn kafka_version(s: &str) -> Result<RequestedVersion, String> {
    s.parse().map_err(|e: UnknownVersion| e.to_string())
}

/// clap value parser for a member count.
pub fn members(s: &str) -> Result<u32, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of members, found {s:?}"))?;
    if n <= 0 || n > i64::from(MAX_MEMBERS) {
        return Err(format!("{n} is not in 1..={MAX_MEMBERS}"));
    }
    Ok(n as u32)
}

/// clap value parser for `--seed`: any whole number from 0 to 2^64 - 1.
pub fn seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}, not {s:?}", u64::MAX))
}

/// clap value parser for a count that must not be negative (a lag, a delay).
pub fn non_negative(s: &str) -> Result<i64, String> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, found {s:?}"))?;
    if n < 0 {
        return Err(format!("must not be negative, got {n}"));
    }
    Ok(n)
}

/// clap value parser for `--topic-partitions TOPIC=N`: a topic name and a count; 0 models a
/// missing topic.
pub fn topic_count(s: &str) -> Result<(String, i32), String> {
    let (topic, n) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("expected TOPIC=N, found {s:?}"))?;
    let topic = topic.trim();
    if topic.is_empty() {
        return Err(format!("expected TOPIC=N, found {s:?} (empty topic name)"));
    }
    let n: i32 = n
        .trim()
        .parse()
        .map_err(|_| format!("expected a partition count after '=', found {n:?}"))?;
    if !(0..=MAX_PARTITIONS).contains(&n) {
        return Err(format!(
            "a partition count is between 0 (a missing topic) and {MAX_PARTITIONS}, found {n}"
        ));
    }
    Ok((topic.to_string(), n))
}

/// `--group` (repeatable) or `--all-groups`. A command words the help for its own verb with
/// `#[command(mut_arg("groups", ..))]`.
#[derive(Debug, Clone, clap::Args)]
pub struct GroupSelectionArgs {
    /// Group id (repeatable)
    #[arg(
        long = "group",
        short = 'g',
        value_name = "GROUP",
        required_unless_present = "all_groups",
        conflicts_with = "all_groups"
    )]
    pub groups: Vec<String>,

    /// Every streams group of the cluster
    #[arg(long)]
    pub all_groups: bool,
}

impl GroupSelectionArgs {
    /// The selection; an empty group id is a usage error.
    pub fn selection(&self) -> Result<GroupSelection, CommandError> {
        check_groups(&self.groups)?;
        Ok(match self.all_groups {
            true => GroupSelection::All,
            false => GroupSelection::Groups(self.groups.clone()),
        })
    }
}

/// `--kafka-version`: the release whose group coordinator runs. A command words the help for
/// its own use with `#[command(mut_arg("kafka_version", ..))]`.
#[derive(Debug, Clone, clap::Args)]
pub struct KafkaVersionArg {
    /// Kafka release whose group coordinator runs: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0),
    /// 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (the KIP-1071 text, with
    /// topology epoch updates). Default: the snapshot's or live broker's version, else 4.4
    #[arg(long, value_name = "VERSION", value_parser = kafka_version)]
    pub kafka_version: Option<RequestedVersion>,
}

/// `--group` values must not be empty.
pub fn check_groups(groups: &[String]) -> Result<(), CommandError> {
    if groups.iter().any(|g| g.trim().is_empty()) {
        return Err(CommandError::usage("--group needs a non-empty group id"));
    }
    Ok(())
}

/// Assumed partition counts of topics: `--partitions` and `--topic-partitions`.
#[derive(Debug, Clone, clap::Args)]
pub struct TopicCountArgs {
    /// Partitions of every source topic whose count is not known otherwise (from
    /// --topic-partitions, or from the group)
    #[arg(allow_negative_numbers = true, long, value_name = "N", default_value_t = DEFAULT_PARTITIONS,
          value_parser = clap::value_parser!(i32).range(1..=MAX_PARTITIONS as i64))]
    pub partitions: i32,

    /// Partition count of one topic (repeatable, or comma-separated); internal topics too, to
    /// model existing ones; 0 = the topic is missing
    #[arg(long, value_name = "TOPIC=N", value_delimiter = ',', value_parser = topic_count)]
    pub topic_partitions: Vec<(String, i32)>,
}

impl TopicCountArgs {
    pub fn counts(&self) -> TopicCounts {
        TopicCounts {
            partitions: self.partitions,
            overrides: self.topic_partitions.clone(),
        }
    }
}

/// A topology or group argument: a file (a JSON topology, `Topology#describe()` text, or a
/// snapshot) or `group:ID` for a live group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceArg {
    File(PathBuf),
    Group(String),
}

/// clap value parser for a file or `group:ID`.
pub fn source_arg(s: &str) -> Result<SourceArg, String> {
    match s.strip_prefix("group:") {
        Some("") => Err("group: needs a group id, as in group:my-app".into()),
        Some(id) => Ok(SourceArg::Group(id.to_string())),
        None => Ok(SourceArg::File(s.into())),
    }
}

impl SourceArg {
    /// The use case's source; a live group needs the cluster.
    pub fn source(&self, global: &GlobalArgs) -> Result<TopologySource, CommandError> {
        Ok(match self {
            SourceArg::File(p) => TopologySource::File(p.clone()),
            SourceArg::Group(id) => TopologySource::Live {
                group_id: id.clone(),
                client: Box::new(super::connect::group_client(global)?),
            },
        })
    }

    /// A group argument read as a group: the snapshot file (picking `group`), or the live group.
    pub fn group_source(
        &self,
        global: &GlobalArgs,
        group: Option<&str>,
    ) -> Result<GroupSource, CommandError> {
        match self {
            SourceArg::File(p) => Ok(GroupSource::Snapshot {
                path: p.clone(),
                group: group.map(str::to_string),
            }),
            SourceArg::Group(id) => super::connect::live_group(global, id),
        }
    }
}

/// Where the group comes from: `--snapshot FILE`, or the live cluster. `--group` names the
/// group either way (in a snapshot, it picks one of several).
#[derive(Debug, Clone, clap::Args)]
pub struct GroupArgs {
    /// The group: live (with --bootstrap-server), or the one to pick in --snapshot
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// Read the group from a `describe --output json` snapshot instead of the cluster
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub snapshot: Option<PathBuf>,
}

impl GroupArgs {
    /// The source; `pick` names the group in a snapshot when `--group` does not.
    pub fn source(
        &self,
        global: &GlobalArgs,
        pick: Option<&str>,
    ) -> Result<Option<GroupSource>, CommandError> {
        match (&self.snapshot, &self.group) {
            (Some(path), group) => Ok(Some(GroupSource::Snapshot {
                path: path.clone(),
                group: group.clone().or(pick.map(str::to_string)),
            })),
            (None, Some(id)) => super::connect::live_group(global, id).map(Some),
            (None, None) => Ok(None),
        }
    }
}

/// Group configs a simulation sets (`group.streams.*` on a broker).
#[derive(Debug, Clone, clap::Args)]
pub struct GroupConfigArgs {
    /// streams.num.standby.replicas (default: what the starting group shows, else 0)
    #[arg(allow_negative_numbers = true, long, value_name = "N")]
    pub standby_replicas: Option<u32>,

    /// streams.session.timeout.ms (default: the starting group's, else the broker's, else
    /// 45000)
    #[arg(allow_negative_numbers = true, long, value_name = "MS",
          value_parser = clap::value_parser!(i64).range(1..=i32::MAX as i64))]
    pub session_timeout: Option<i64>,

    /// streams.heartbeat.interval.ms (default: the starting group's, else the broker's, else
    /// 5000)
    #[arg(allow_negative_numbers = true, long, value_name = "MS",
          value_parser = clap::value_parser!(i64).range(1..=i32::MAX as i64))]
    pub heartbeat_interval: Option<i64>,

    /// streams.initial.rebalance.delay.ms (default: the starting group's, else the broker's,
    /// else 3000)
    #[arg(allow_negative_numbers = true, long, value_name = "MS",
          value_parser = clap::value_parser!(i64).range(0..=i32::MAX as i64))]
    pub initial_rebalance_delay: Option<i64>,

    /// A broker setting, as in its server.properties (repeatable): group.streams.* defaults and
    /// bounds, e.g. group.streams.min.heartbeat.interval.ms=100. Default: what the broker
    /// reported for the starting group, else Kafka's defaults
    #[arg(long, value_name = "KEY=VALUE", value_parser = broker_config)]
    pub broker_config: Vec<(String, String)>,
}

/// clap value parser for `--broker-config KEY=VALUE`: a known `group.streams.*` setting with a
/// value Kafka would take.
pub fn broker_config(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, found {s:?}"))?;
    let (k, v) = (k.trim(), v.trim());
    BrokerSettings::default()
        .set(k, v)
        .map_err(|e| e.to_string())?;
    Ok((k.to_string(), v.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_counts_parse() {
        assert_eq!(topic_count("a=4"), Ok(("a".to_string(), 4)));
        assert_eq!(topic_count("a.b=0"), Ok(("a.b".to_string(), 0)));
        assert_eq!(topic_count(" a = 2"), Ok(("a".to_string(), 2)));
        assert!(topic_count("a").is_err());
        assert!(topic_count("=3").is_err());
        assert!(topic_count("a=-1").is_err());
        assert!(topic_count("a=x").is_err());
        assert!(topic_count("a=100001").is_err());
    }

    #[test]
    fn source_args() {
        assert_eq!(source_arg("group:g"), Ok(SourceArg::Group("g".into())));
        assert_eq!(source_arg("t.json"), Ok(SourceArg::File("t.json".into())));
        assert!(source_arg("group:").is_err());
        assert!(members("0").is_err());
        assert_eq!(members("7"), Ok(7));
    }
}
