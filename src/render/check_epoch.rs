//! `check-epoch` output: the verdict line first, then the details.

use std::fmt::Write;

use colored::Colorize;

use crate::check_epoch::{BrokerReport, CheckReport, Rules, Verdict};
use coordinator::topology_epoch::{BrokerVerdict, TopologyVerdict};
use model::Topology;

fn verdict_line(r: &CheckReport) -> String {
    let rejected = |code: &str, msg: &str| {
        format!(
            "{} {} — {}",
            "REJECTED:".red().bold(),
            code.red().bold(),
            msg
        )
    };
    if r.verdict == Verdict::Rejected {
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
            TopologyVerdict::Update if r.verdict == Verdict::Accepted => format!(
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
pub fn text(r: &CheckReport, verbose: bool) -> String {
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
        out.push_str(&super::diff::topology_diff_body(d, old, new));
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
        let mut t = super::table::new(&["TOPIC", "PARTITIONS"]);
        for c in &r.internal_topics_to_create {
            t.add_row(vec![c.name.clone(), c.partitions.to_string()]);
        }
        for line in super::table::render(&t).lines() {
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
