//! The checks a coordinator makes of a topology before configuring it: what it rejects with
//! STREAMS_INVALID_TOPOLOGY whatever the cluster's topics are.

use std::collections::{BTreeMap, BTreeSet};

use model::topology::Subtopology;

use super::InvalidTopology;

/// Checks a coordinator makes before configuring (STREAMS_INVALID_TOPOLOGY).
pub(super) fn validate(subs: &[&Subtopology]) -> Result<(), InvalidTopology> {
    let mut ids = BTreeSet::new();
    for s in subs {
        if s.id.is_empty() {
            return Err(InvalidTopology::new("Subtopology id must not be empty."));
        }
        if !ids.insert(s.id.as_str()) {
            return Err(InvalidTopology::new(format!(
                "Duplicate subtopology id {}.",
                s.id
            )));
        }
        if s.input_topics().next().is_none() && s.source_topic_regex.is_empty() {
            return Err(InvalidTopology::new(format!(
                "Subtopology {} has no source or repartition source topics.",
                s.id
            )));
        }
        if !s.source_topic_regex.is_empty() {
            return Err(InvalidTopology::new(format!(
                "Subtopology {} uses source topic regular expressions ({}): not supported (a \
                 broker answers INVALID_REQUEST \"Regular expressions for source topics are not \
                 supported yet.\")",
                s.id,
                s.source_topic_regex.join(", ")
            )));
        }
        if let Some(c) = s.state_changelog_topics.iter().find(|c| c.partitions != 0) {
            return Err(InvalidTopology::new(format!(
                "Changelog topic {} must have an undefined partition count, but it is set to {}.",
                c.name, c.partitions
            )));
        }
        if let Some(r) = s
            .repartition_source_topics
            .iter()
            .find(|r| r.partitions < 0)
        {
            return Err(InvalidTopology::new(format!(
                "Repartition topic {} has a negative partition count ({}).",
                r.name, r.partitions
            )));
        }
        let inputs: BTreeSet<&str> = s.input_topics().collect();
        for g in &s.copartition_groups {
            if let Some(t) = g.iter().find(|t| !inputs.contains(t.as_str())) {
                return Err(InvalidTopology::new(format!(
                    "Copartition group of subtopology {} names {t}, which is not one of its \
                     source or repartition source topics.",
                    s.id
                )));
            }
        }
    }
    // A repartition topic sized by the user must be sized the same everywhere.
    let mut fixed: BTreeMap<&str, i32> = BTreeMap::new();
    for s in subs {
        for r in s
            .repartition_source_topics
            .iter()
            .filter(|r| r.partitions != 0)
        {
            if let Some(prev) = fixed.insert(r.name.as_str(), r.partitions) {
                if prev != r.partitions {
                    return Err(InvalidTopology::new(format!(
                        "Repartition topic {} is given different partition counts ({prev} and {}).",
                        r.name, r.partitions
                    )));
                }
            }
        }
    }
    Ok(())
}
