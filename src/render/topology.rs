//! `topology` output: the subtopologies, the internal topics to create, and the verdict.

use crate::topology::report::{ConfigurationReport, TopologyReport};

fn cell(items: &[String]) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join("\n")
    }
}

/// The table form of the report.
pub fn table(r: &TopologyReport) -> String {
    let mut out = subtopologies(r);
    let c = &r.configuration;
    if !c.internal_topics_to_create.is_empty() {
        out.push_str("\nInternal topics the coordinator asks to create:\n");
        out.push_str(&topics_to_create(c));
    }
    out.push('\n');
    out.push_str(&verdict(r));
    out.push_str(&partition_counts(r));
    for n in &r.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// The counts read (from the cluster or a snapshot) on one line, the assumed ones on another.
fn partition_counts(r: &TopologyReport) -> String {
    let (read, assumed): (Vec<_>, Vec<_>) = r
        .topic_partitions
        .iter()
        .partition(|(t, _)| r.partitions_read.contains(t));
    let list = |v: Vec<(&String, &i32)>| {
        v.iter()
            .map(|(t, n)| format!("{t}={n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    if let Some(from) = r.partitions_read_from.filter(|_| !read.is_empty()) {
        out.push_str(&format!("Partitions ({}): {}\n", from.phrase(), list(read)));
    }
    if !assumed.is_empty() {
        out.push_str(&format!("Assumed partitions: {}\n", list(assumed)));
    }
    out
}

fn subtopologies(r: &TopologyReport) -> String {
    let mut t = super::table::new(&[
        "SUBTOPOLOGY",
        "STATEFUL",
        "TASKS",
        "SOURCE TOPICS",
        "REPARTITION SOURCES",
        "REPARTITION SINKS",
        "CHANGELOGS",
        "COPARTITIONED",
    ]);
    for s in &r.subtopologies {
        let mut sources = s.source_topics.clone();
        sources.extend(s.source_topic_regex.iter().map(|p| format!("/{p}/")));
        let groups: Vec<String> = s
            .copartition_groups
            .iter()
            .map(|g| format!("{{{}}}", g.join(", ")))
            .collect();
        t.add_row(vec![
            s.id.clone(),
            if s.stateful { "yes" } else { "no" }.to_string(),
            s.tasks.map(|n| n.to_string()).unwrap_or_else(|| "-".into()),
            cell(&sources),
            cell(&s.repartition_source_topics),
            cell(&s.repartition_sink_topics),
            cell(&s.changelog_topics),
            cell(&groups),
        ]);
    }
    super::table::render(&t)
}

fn topics_to_create(c: &ConfigurationReport) -> String {
    let mut t = super::table::new(&["TOPIC", "PARTITIONS", "REPLICATION"]);
    for it in &c.internal_topics_to_create {
        t.add_row(vec![
            it.name.clone(),
            it.partitions.to_string(),
            if it.replication_factor < 0 {
                "default".to_string()
            } else {
                it.replication_factor.to_string()
            },
        ]);
    }
    super::table::render(&t)
}

/// Ready (once the internal topics exist), not ready, or not accepted.
fn verdict(r: &TopologyReport) -> String {
    let c = &r.configuration;
    if !c.ready {
        return match (&c.error_code, &c.detail) {
            (Some(code), Some(d)) => format!("Not accepted: {} ({code}): {d}\n", c.status),
            (_, Some(d)) => format!("Not ready: {}: {d}\n", c.status),
            _ => format!("Not ready: {}\n", c.status),
        };
    }
    let n = r.subtopologies.len();
    let when = if c.internal_topics_to_create.is_empty() {
        "Ready"
    } else {
        "Ready once the internal topics above exist"
    };
    let what = if n == 1 {
        "subtopology"
    } else {
        "subtopologies"
    };
    format!("{when}: {} tasks in {n} {what}.\n", c.total_tasks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{resolve_topology, TopologySource};
    use crate::topology::report::report;
    use crate::topology::topic_counts::{assumed_metadata, read_counts, TopicCounts};

    /// The snapshot fixture's group, read as `group:ID` would give it when `live`.
    fn table_of(live: bool, overrides: &[(&str, i32)]) -> String {
        let file = TopologySource::File("tests/data/snapshots/wordcount-epoch3.json".into());
        let mut t = resolve_topology(&file, None, None).unwrap();
        t.live = live;
        let counts = TopicCounts {
            partitions: 8,
            overrides: overrides.iter().map(|(t, n)| (t.to_string(), *n)).collect(),
        };
        let metadata = assumed_metadata(&t, &counts);
        table(&report(&t, None, metadata).with_read_counts(read_counts(&t, &counts)))
    }

    #[test]
    fn counts_a_live_group_shows_are_labelled_as_read_from_the_cluster() {
        let out = table_of(true, &[]);
        assert!(
            out.contains(
                "Partitions (read from the cluster): streams-plaintext-input=6, \
                 wordcount-counts-store-changelog=6, wordcount-counts-store-repartition=6\n"
            ),
            "{out}"
        );
        assert!(!out.contains("Assumed"), "{out}");
        let out = table_of(true, &[("streams-plaintext-input", 4)]);
        assert!(
            out.contains("Assumed partitions: streams-plaintext-input=4\n"),
            "{out}"
        );
        assert!(
            out.contains("Partitions (read from the cluster): wordcount-counts-store-changelog=6"),
            "{out}"
        );
    }
}
