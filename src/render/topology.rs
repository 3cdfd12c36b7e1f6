//! `topology` output: the subtopologies, the internal topics to create, and the verdict.

use crate::usecase::topology::Report;

fn cell(items: &[String]) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join("\n")
    }
}

/// The table form of the report.
pub fn table(r: &Report) -> String {
    let mut out = String::new();
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
    out.push_str(&super::table::render(&t));

    let c = &r.configuration;
    if !c.internal_topics_to_create.is_empty() {
        out.push_str("\nInternal topics the coordinator asks to create:\n");
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
        out.push_str(&super::table::render(&t));
    }
    out.push('\n');
    if c.ready {
        let n = r.subtopologies.len();
        let when = if c.internal_topics_to_create.is_empty() {
            "Ready"
        } else {
            "Ready once the internal topics above exist"
        };
        out.push_str(&format!(
            "{when}: {} tasks in {n} {}.\n",
            c.total_tasks,
            if n == 1 {
                "subtopology"
            } else {
                "subtopologies"
            }
        ));
    } else {
        match (&c.error_code, &c.detail) {
            (Some(code), Some(d)) => {
                out.push_str(&format!("Not accepted: {} ({code}): {d}\n", c.status))
            }
            (_, Some(d)) => out.push_str(&format!("Not ready: {}: {d}\n", c.status)),
            _ => out.push_str(&format!("Not ready: {}\n", c.status)),
        }
    }
    let assumed: Vec<String> = r
        .topic_partitions
        .iter()
        .map(|(t, n)| format!("{t}={n}"))
        .collect();
    if !assumed.is_empty() {
        out.push_str(&format!("Assumed partitions: {}\n", assumed.join(", ")));
    }
    for n in &r.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}
