//! The partition counts of changelog topics (Apache's `ChangelogTopics`): each takes the largest
//! count of its subtopology's inputs.

use std::collections::{BTreeMap, BTreeSet};

use model::topology::Subtopology;

use super::{Count, InvalidTopology};

/// Each changelog (that is not also a source topic) takes the largest partition count of its
/// subtopology's inputs.
pub(super) fn changelog_counts<'a>(
    walk: &[&'a Subtopology],
    count_of: Count<'_>,
) -> Result<BTreeMap<&'a str, i32>, InvalidTopology> {
    let mut changelogs: BTreeMap<&str, i32> = BTreeMap::new();
    for s in walk {
        let sources: BTreeSet<&str> = s.source_topics.iter().map(String::as_str).collect();
        let internal: Vec<&str> = s
            .state_changelog_topics
            .iter()
            .map(|c| c.name.as_str())
            .filter(|c| !sources.contains(c))
            .collect();
        if internal.is_empty() {
            continue;
        }
        let Some(n) = s.input_topics().filter_map(count_of).max() else {
            // Apache's words (`ChangelogTopics.setup`): the broker answers with them.
            return Err(InvalidTopology::new(format!(
                "No source topics found for subtopology {}",
                s.id
            )));
        };
        for c in internal {
            let e = changelogs.entry(c).or_insert(n);
            *e = (*e).max(n);
        }
    }
    Ok(changelogs)
}
