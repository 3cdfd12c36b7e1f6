//! `check-epoch`: would the coordinator accept a member joining with this topology and topology
//! epoch? Decided by the local coordinator (KIP-1071 rules), cross-checked with `kip_verdict`,
//! with what a shipped Apache Kafka broker (4.1 to 4.4) does instead.

use std::fmt::Write;
use std::path::PathBuf;

use colored::Colorize;
use serde::Serialize;

use super::profile::GroupOrigin;
use crate::cli::{GlobalArgs, OutputFormat};
use crate::coordinator::dry_run;
use crate::coordinator::topology_epoch::{
    broker_verdict, kip_verdict, BrokerVerdict, TopologyVerdict,
};
use crate::coordinator::KafkaVersion;
use crate::error::Failure;
use crate::exit;
use crate::model::group::GroupDescription;
use crate::model::Topology;
use crate::render;
use crate::snapshot;
use crate::topology::configure::{topics_to_create, CreatableTopic, TopicMetadata, TopicProblem};
use crate::topology::diff::{diff_with_metadata, Hazard, TopologyDiff};

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// KIP-1071's topology epoch rules
    Kip,
    /// What shipped Apache Kafka brokers (4.1 to 4.4) do
    Broker,
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The new topology: FILE (JSON, describe text, snapshot) or group:ID
    #[arg(long, value_name = "FILE|group:ID")]
    pub topology: String,

    /// The topology epoch the new members will send
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub topology_epoch: i64,

    /// The live group to check against (needs --bootstrap-server)
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,

    /// A snapshot of the group (`describe --output json`) to check against
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,

    /// Application id: names internal topics of describe text and picks the group in a snapshot
    #[arg(long, value_name = "ID")]
    pub application_id: Option<String>,

    /// The Kafka release whose coordinator decides: 4.2, 4.3, 4.4 or kip (KIP-1071's epoch
    /// rules). Default: the snapshot's or live broker's version, else 4.4
    #[arg(long, value_name = "VERSION", value_parser = super::profile::parse)]
    pub kafka_version: Option<KafkaVersion>,

    /// Alias: `kip` for --kafka-version kip; `broker` for the group's release (the default)
    #[arg(long, value_enum, conflicts_with = "kafka_version")]
    pub rules: Option<Rules>,

    /// Partitions of source topics whose count the group does not show
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub partitions: i32,

    /// Partition count of one topic (repeatable, or comma-separated)
    #[arg(long, value_name = "TOPIC=N", value_delimiter = ',')]
    pub topic_partitions: Vec<String>,
}

/// The group the check ran against.
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    pub group_id: String,
    pub state: String,
    /// -1 when the group has no topology.
    pub topology_epoch: i32,
    pub members: usize,
    pub source: String,
}

/// What a shipped broker does, with the way to deploy there.
#[derive(Clone, Debug, Serialize)]
pub struct BrokerReport {
    pub versions: &'static str,
    #[serde(flatten)]
    pub verdict: BrokerVerdict,
    pub accepted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

/// The `check-epoch` report.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// `accepted` or `rejected`, by the coordinator profile that ran.
    pub verdict: &'static str,
    /// The coordinator profile that decided: "4.2", "4.3", "4.4" or "kip".
    pub kafka_version: KafkaVersion,
    /// `kip` when the KIP-1071 rules decided, `broker` when a release did.
    pub rules: Rules,
    /// The error name when rejected (e.g. `STREAMS_TOPOLOGY_FENCED`).
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub group: GroupSummary,
    pub topology: String,
    pub topology_epoch: i32,
    /// The KIP-1071 verdict, as the local coordinator gave it.
    pub kip: TopologyVerdict,
    pub broker: BrokerReport,
    /// The change against the group's topology (null when the group has none).
    pub diff: Option<TopologyDiff>,
    pub internal_topics_to_create: Vec<CreatableTopic>,
    pub hazards: Vec<Hazard>,
    /// Why the new topology would not be ready on this cluster, if so.
    pub topic_problem: Option<TopicProblem>,
    /// The group's and the new topology, for the human rendering.
    #[serde(skip)]
    pub topologies: Option<(Topology, Topology)>,
}

pub fn run(global: &GlobalArgs, args: &Args) -> anyhow::Result<i32> {
    let report = check(global, args)?;
    match global.output {
        OutputFormat::Json => crate::emit!("{}", render::json::to_string(&report)),
        OutputFormat::Table => crate::emit!("{}", render_text(&report, global.verbose)),
    }
    Ok(if report.verdict == "accepted" {
        exit::SUCCESS
    } else {
        exit::NEGATIVE
    })
}

/// Run the check and build the report.
pub fn check(global: &GlobalArgs, args: &Args) -> anyhow::Result<CheckReport> {
    let epoch = i32::try_from(args.topology_epoch)
        .ok()
        .filter(|e| *e >= 0)
        .ok_or_else(|| {
            Failure::usage(format!(
                "--topology-epoch must be between 0 and {}, got {}",
                i32::MAX,
                args.topology_epoch
            ))
        })?;
    if args.partitions <= 0 {
        return Err(Failure::usage(format!(
            "--partitions must be at least 1, got {}",
            args.partitions
        ))
        .into());
    }
    let overrides = parse_topic_partitions(&args.topic_partitions)?;
    let app = args.application_id.as_deref();
    let (group, source, version) = match (&args.group, &args.snapshot) {
        (Some(_), Some(_)) => {
            return Err(
                Failure::usage("give either --group (live) or --snapshot FILE, not both").into(),
            )
        }
        (None, None) => {
            return Err(Failure::usage(
                "check-epoch needs the group: --group GROUP (live) or --snapshot FILE",
            )
            .into())
        }
        (Some(id), None) => {
            let (g, detected) = super::live::describe_group_if_exists(global, id)?;
            let g = g.unwrap_or_else(|| absent_group(id));
            let v = chosen_version(args, &GroupOrigin::Live { detected });
            (g, format!("group:{id}"), v)
        }
        (None, Some(path)) => {
            let s = snapshot::load_snapshot(path).map_err(|e| Failure::usage(e.to_string()))?;
            let g = snapshot::find_group(&s, app)
                .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
            let file = path.display().to_string();
            let v = chosen_version(
                args,
                &GroupOrigin::Snapshot {
                    file: &file,
                    recorded: s.kafka_version,
                },
            );
            (g.clone(), file, v)
        }
    };
    if let (Some(app), Some(_)) = (app, &args.group) {
        if app != group.group_id {
            return Err(Failure::usage(format!(
                "--application-id {app} is not the group {}: a Streams application's group id \
                 is its application.id",
                group.group_id
            ))
            .into());
        }
    }

    let resolved = super::diff::resolve_topology(global, &args.topology, app, None)?;
    // A file carries no wire order, and the broker compares lists in the order the client sends
    // them (the same build sends the same order): both sides are compared order-free.
    let mut new = resolved.topology.normalized();
    new.epoch = epoch;

    let group_topology = current_topology(&group, &new)?.map(|t| t.normalized());
    let mut metadata = snapshot::topic_metadata(&group, args.partitions);
    for t in new
        .subtopologies
        .iter()
        .flat_map(|s| s.source_topics.iter())
    {
        metadata.entry(t.clone()).or_insert(args.partitions);
    }
    metadata.extend(overrides);

    // The KIP's verdict is always computed, as information; the profile's run decides.
    let (kip_error, kip_message) = dry_run::join_with(
        KafkaVersion::Kip,
        &group.group_id,
        group_topology.as_ref(),
        &new,
        &metadata,
    )
    .map_err(|e| Failure::usage(e.to_string()))?;
    let kip = kip_verdict(group_topology.as_ref(), &new);
    if !dry_run::agrees(&kip, kip_error) {
        return Err(anyhow::anyhow!(
            "internal error: the local coordinator ({}) and the topology epoch rules ({kip:?}) \
             disagree; please report this bug",
            kip_error.map_or("accepted".to_string(), |e| e.name())
        ));
    }
    let (error, message) = if version == KafkaVersion::Kip {
        (kip_error, kip_message)
    } else {
        dry_run::join_with(
            version,
            &group.group_id,
            group_topology.as_ref(),
            &new,
            &metadata,
        )
        .map_err(|e| Failure::usage(e.to_string()))?
    };
    let broker = broker_report(
        &group.group_id,
        broker_verdict(group_topology.as_ref(), &new),
    );

    let diff = group_topology
        .as_ref()
        .map(|old| diff_with_metadata(old, &new, &metadata));
    let hazards = diff.as_ref().map(|d| d.hazards.clone()).unwrap_or_default();
    let (internal_topics_to_create, topic_problem) = topics_to_create(&new, &metadata);

    let verdict_accepted = error.is_none();
    let (error_code, error_message) = (error.map(|e| e.name()), message);
    Ok(CheckReport {
        verdict: if verdict_accepted {
            "accepted"
        } else {
            "rejected"
        },
        kafka_version: version,
        rules: if version == KafkaVersion::Kip {
            Rules::Kip
        } else {
            Rules::Broker
        },
        error_code,
        error_message,
        group: GroupSummary {
            group_id: group.group_id.clone(),
            state: group.state.clone(),
            topology_epoch: group_topology.as_ref().map_or(-1, |t| t.epoch),
            members: group.members.len(),
            source,
        },
        topology: resolved.label,
        topology_epoch: epoch,
        kip,
        broker,
        diff,
        internal_topics_to_create,
        hazards,
        topic_problem,
        topologies: group_topology.map(|g| (g, new)),
    })
}

/// `--rules` is an alias of `--kafka-version`: `kip` for the KIP's rules, `broker` for the
/// group's release.
fn chosen_version(args: &Args, origin: &GroupOrigin<'_>) -> KafkaVersion {
    let flag = match (args.kafka_version, args.rules) {
        (Some(v), _) => Some(v),
        (None, Some(Rules::Kip)) => Some(KafkaVersion::Kip),
        _ => None,
    };
    let v = super::profile::choose(flag, origin);
    if args.rules == Some(Rules::Broker) && v == KafkaVersion::Kip {
        KafkaVersion::NEWEST
    } else {
        v
    }
}

/// A group the cluster does not have: the first member to join creates it.
fn absent_group(id: &str) -> GroupDescription {
    GroupDescription {
        group_id: id.to_string(),
        state: "absent".into(),
        group_epoch: 0,
        target_assignment_epoch: 0,
        coordinator: None,
        topology: crate::model::group::DescribedTopology {
            epoch: -1,
            subtopologies: None,
        },
        members: Vec::new(),
        offsets: Vec::new(),
        assignor: None,
    }
}

/// The group's topology as its members sent it, or `None` when it has none.
fn current_topology(g: &GroupDescription, new: &Topology) -> anyhow::Result<Option<Topology>> {
    match snapshot::topology_of(g) {
        Some(mut t) => {
            snapshot::align_decided_counts(&mut t, new);
            Ok(Some(t))
        }
        None if g.topology.epoch < 0 => Ok(None),
        None => Err(Failure::usage(format!(
            "group {} has topology epoch {} but shows no subtopologies (its topics are missing \
             or mis-partitioned), so its topology cannot be compared",
            g.group_id, g.topology.epoch
        ))
        .into()),
    }
}

fn parse_topic_partitions(specs: &[String]) -> anyhow::Result<TopicMetadata> {
    let mut out = TopicMetadata::new();
    for spec in specs {
        let (topic, n) = spec.rsplit_once('=').ok_or_else(|| {
            Failure::usage(format!("--topic-partitions takes TOPIC=N, got `{spec}`"))
        })?;
        let n: i32 = n.trim().parse().ok().filter(|n| *n > 0).ok_or_else(|| {
            Failure::usage(format!(
                "--topic-partitions {topic}: `{n}` is not a positive number"
            ))
        })?;
        out.insert(topic.trim().to_string(), n);
    }
    Ok(out)
}

fn broker_report(group_id: &str, verdict: BrokerVerdict) -> BrokerReport {
    let (status, advice) = match &verdict {
        BrokerVerdict::AcceptedStale => (
            Some("STALE_TOPOLOGY".to_string()),
            Some(
                "the member joins but runs the group's topology, and every heartbeat carries \
                 status STALE_TOPOLOGY"
                    .to_string(),
            ),
        ),
        BrokerVerdict::Rejected { .. } => (
            None,
            Some(format!(
                "topology changes are not supported there: deploy under a new application.id, \
                 or stop every instance, delete the (then empty) group with \
                 `kafka-streams-groups.sh --bootstrap-server <broker> --delete --group {group_id}` \
                 and start the new version"
            )),
        ),
        _ => (None, None),
    };
    BrokerReport {
        versions: "Apache Kafka 4.1 to 4.4",
        accepted: verdict.is_accepted(),
        verdict,
        status,
        advice,
    }
}

fn verdict_line(r: &CheckReport) -> String {
    let rejected = |code: &str, msg: &str| {
        format!(
            "{} {} — {}",
            "REJECTED:".red().bold(),
            code.red().bold(),
            msg
        )
    };
    if r.verdict == "rejected" {
        return rejected(
            r.error_code.as_deref().unwrap_or("?"),
            r.error_message.as_deref().unwrap_or(""),
        );
    }
    match r.rules {
        Rules::Kip => match &r.kip {
            TopologyVerdict::Initialize => format!(
                "{} (the group has no topology yet: initialised at topology epoch {})",
                "ACCEPTED".green().bold(),
                r.topology_epoch
            ),
            TopologyVerdict::Unchanged => format!(
                "{} (same topology at topology epoch {})",
                "ACCEPTED".green().bold(),
                r.topology_epoch
            ),
            TopologyVerdict::Update if r.verdict == "accepted" => format!(
                "{} (update to topology epoch {})",
                "ACCEPTED".green().bold(),
                r.topology_epoch
            ),
            _ => rejected(
                r.error_code.as_deref().unwrap_or("?"),
                r.error_message.as_deref().unwrap_or(""),
            ),
        },
        Rules::Broker => match &r.broker.verdict {
            BrokerVerdict::Rejected { error, message } => rejected(&error.name(), message),
            BrokerVerdict::AcceptedStale => format!(
                "{} (stale: joins with status STALE_TOPOLOGY and runs the group's topology epoch {})",
                "ACCEPTED".green().bold(),
                r.group.topology_epoch
            ),
            BrokerVerdict::Accepted => format!(
                "{} (same topology at topology epoch {})",
                "ACCEPTED".green().bold(),
                r.topology_epoch
            ),
            BrokerVerdict::Initialize => format!(
                "{} (the group has no topology yet: initialised at topology epoch {})",
                "ACCEPTED".green().bold(),
                r.topology_epoch
            ),
        },
    }
}

fn kip_line(v: &TopologyVerdict, r: &CheckReport) -> String {
    match v {
        TopologyVerdict::Initialize => "accepted: the group's topology is initialised".into(),
        TopologyVerdict::Unchanged => "accepted: same topology, same epoch".into(),
        TopologyVerdict::Update => format!(
            "accepted: the group's topology is updated (epoch {} -> {})",
            r.group.topology_epoch, r.topology_epoch
        ),
        TopologyVerdict::Reject { error, message } => {
            format!("rejected with {error}: {message}")
        }
    }
}

fn broker_line(b: &BrokerReport) -> String {
    match &b.verdict {
        BrokerVerdict::Initialize => "accepted: the group's topology is initialised".into(),
        BrokerVerdict::Accepted => "accepted: same topology, same epoch".into(),
        BrokerVerdict::AcceptedStale => {
            "accepted with status STALE_TOPOLOGY (the member runs the group's topology)".into()
        }
        BrokerVerdict::Rejected { error, message } => {
            format!("rejected with {error}: \"{message}\"")
        }
    }
}

/// The human report: the verdict line first, then details.
pub fn render_text(r: &CheckReport, verbose: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", verdict_line(r));
    out.push('\n');
    let _ = writeln!(
        out,
        "Group:                {} ({}, topology epoch {}, {} member(s)) from {}",
        r.group.group_id, r.group.state, r.group.topology_epoch, r.group.members, r.group.source
    );
    let _ = writeln!(
        out,
        "New topology:         {} at topology epoch {}",
        r.topology, r.topology_epoch
    );
    let _ = writeln!(out, "KIP-1071 rules:       {}", kip_line(&r.kip, r));
    let _ = writeln!(out, "Apache Kafka 4.1-4.4: {}", broker_line(&r.broker));
    if let Some(a) = &r.broker.advice {
        let _ = writeln!(out, "  {a}");
    }
    let _ = writeln!(
        out,
        "Exit status decided by: {}",
        match r.rules {
            Rules::Kip => "the KIP-1071 rules (--kafka-version kip)".to_string(),
            Rules::Broker => format!("the Kafka {} coordinator", r.kafka_version),
        }
    );
    if let Some(d) = &r.diff {
        out.push('\n');
        let _ = writeln!(
            out,
            "{} topology epoch {} -> {}",
            "Topology changes:".bold(),
            d.old_epoch,
            d.new_epoch
        );
        let empty = (Topology::default(), Topology::default());
        let (old, new) = r.topologies.as_ref().unwrap_or(&empty);
        out.push_str(&render::diff::topology_diff_body(d, old, new));
    }
    out.push('\n');
    if r.internal_topics_to_create.is_empty() {
        let _ = writeln!(out, "Internal topics to create: none");
    } else {
        let _ = writeln!(
            out,
            "{}",
            format!(
                "Internal topics to create ({}):",
                r.internal_topics_to_create.len()
            )
            .bold()
        );
        let mut t = render::table::new(&["TOPIC", "PARTITIONS"]);
        for c in &r.internal_topics_to_create {
            t.add_row(vec![c.name.clone(), c.partitions.to_string()]);
        }
        for line in render::table::render(&t).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(p) = &r.topic_problem {
        let _ = writeln!(
            out,
            "{} {}: {}",
            "Topics:".yellow().bold(),
            p.status_code(),
            p.detail()
        );
    }
    if verbose {
        let _ = writeln!(
            out,
            "\n(decided by a local KIP-1071 coordinator seeded with the group's topology)"
        );
    }
    out
}
