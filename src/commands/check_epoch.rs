//! `check-epoch`: would the coordinator accept a member joining with this topology and topology
//! epoch? (The check is `streams_group::check_epoch`.)

use model::KafkaVersion;
use streams_group::check_epoch::{check, CheckInput, CheckReport, Verdict};
use streams_group::render::{check_epoch as view, out};
use streams_group::source::choice;
use streams_group::source::{load_group_if_exists, resolve_topology, Origin};

use super::args::{source_arg, GroupArgs, KafkaVersionArg, SourceArg, TopicCountArgs};
use super::GlobalArgs;
use super::Outcome;
use crate::command_error::CommandError;
use crate::exit::Code;

const AFTER_HELP: &str = "\
Examples:
  streams-group check-epoch --snapshot group.json --topology new.txt --application-id my-app \\
      --topology-epoch 4
  streams-group check-epoch --group my-app --bootstrap-server localhost:9092 \\
      --topology new.json --topology-epoch 4 --rules broker

--topology takes a topology file (JSON or Topology#describe() text), a snapshot, or group:ID.
Exit status: 0 accepted, 1 rejected, 2 bad usage or input, 3 cluster unreachable.
The verdict is what the group's broker does: the Kafka version recorded in the snapshot or
detected live (else 4.4), or --kafka-version. Every release refuses topology changes;
--kafka-version kip (or --rules kip) applies the KIP-1071 epoch rules instead. A group the
cluster does not have yet is accepted: its first member initialises it.";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Rules {
    /// KIP-1071's topology epoch rules
    Kip,
    /// What shipped Apache Kafka brokers (4.1 to 4.4) do
    Broker,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = AFTER_HELP,
    mut_arg("kafka_version", |a| a.help(
        "The Kafka release whose coordinator decides: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also \
         4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (KIP-1071's epoch \
         rules). Default: the snapshot's or live broker's version, else 4.4")),
)]
pub struct Args {
    /// The new topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(long, value_name = "FILE|group:ID", value_hint = clap::ValueHint::FilePath,
          value_parser = source_arg)]
    pub topology: SourceArg,

    /// The topology epoch the new members will send
    #[arg(long, value_name = "E", allow_negative_numbers = true, value_parser = epoch_arg)]
    pub topology_epoch: i32,

    #[command(flatten)]
    pub group: GroupArgs,

    /// Application id: names internal topics of describe text and picks the group in a snapshot
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    #[command(flatten)]
    pub version: KafkaVersionArg,

    /// Alias: `kip` for --kafka-version kip; `broker` for the group's release (the default)
    #[arg(long, value_enum, conflicts_with = "kafka_version")]
    pub rules: Option<Rules>,

    #[command(flatten)]
    pub topics: TopicCountArgs,

    #[command(flatten)]
    pub connection: super::global::ConnectionArgs,
}

pub fn run(global: &GlobalArgs, args: &Args) -> Outcome {
    let report = build(global, args)?;
    out::report(global.format(), &report, |r| view::text(r, global.verbose))?;
    Ok(Code::answer(report.verdict == Verdict::Accepted))
}

/// Gather the inputs and run the check.
fn build(global: &GlobalArgs, args: &Args) -> Result<CheckReport, CommandError> {
    let app = args.application_id.as_deref();
    let Some(source) = args.group.source(global, app)? else {
        return Err(CommandError::usage(
            "check-epoch needs the group: --group GROUP (live) or --snapshot FILE",
        ));
    };
    let (group, origin) = load_group_if_exists(&source)?;
    let kafka_version = chosen_version(args, &origin);
    let group_id = match (&group, &args.group.group) {
        (Some(g), _) => g.group_id.clone(),
        (None, id) => id.clone().unwrap_or_default(),
    };
    if let (Some(app), Some(_)) = (app, &args.group.group) {
        if app != group_id {
            return Err(CommandError::usage(format!(
                "--application-id {app} is not the group {group_id}: a Streams application's \
                 group id is its application.id"
            )));
        }
    }
    let topology = resolve_topology(&args.topology.source(global)?, app, app)?;
    Ok(check(CheckInput {
        group,
        group_id,
        source: origin.label(),
        kafka_version,
        topology,
        topology_epoch: args.topology_epoch,
        topics: args.topics.counts(),
    })?)
}

/// `--rules` is an alias of `--kafka-version`: `kip` for the KIP's rules, `broker` for the
/// group's release.
fn chosen_version(args: &Args, origin: &Origin) -> KafkaVersion {
    let flag = match (args.version.kafka_version, args.rules) {
        (Some(v), _) => Some(v),
        (None, Some(Rules::Kip)) => Some(KafkaVersion::Kip.into()),
        _ => None,
    };
    let choice = choice::choose(flag, Some(origin));
    if let Some(n) = &choice.note {
        out::note(n);
    }
    if args.rules == Some(Rules::Broker) && choice.version == KafkaVersion::Kip {
        KafkaVersion::NEWEST
    } else {
        choice.version
    }
}

/// clap value parser for `--topology-epoch`: a topology epoch is an int32 of 0 or more; any other
/// number, however large, gets the same message.
fn epoch_arg(s: &str) -> Result<i32, String> {
    let range = || format!("{s} is not in 0..={}", i32::MAX);
    let n: i128 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, found {s:?}"))?;
    i32::try_from(n).ok().filter(|n| *n >= 0).ok_or_else(range)
}
