//! Which topics of a group's topology are its internal topics, by Apache's rule
//! (`StreamsGroupCommand.retrieveInternalTopics` and `isInferredInternalTopic`, 4.1 to 4.4):
//! the repartition-source and changelog topics of every subtopology that are not source
//! topics, whose name starts with `<group>-` and looks internal.

use std::collections::BTreeSet;

use model::topology::Subtopology;

/// A name Kafka Streams gives internal topics: `-changelog`, `-repartition`, the foreign-key
/// join topics.
pub fn matches_internal_format(topic: &str) -> bool {
    const SUFFIXES: [&str; 4] = [
        "-changelog",
        "-repartition",
        "-subscription-registration-topic",
        "-subscription-response-topic",
    ];
    SUFFIXES.iter().any(|s| topic.ends_with(s)) || is_fk_join_topic(topic)
}

/// `.+-KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-\d+-topic`.
fn is_fk_join_topic(topic: &str) -> bool {
    let Some(head) = topic.strip_suffix("-topic") else {
        return false;
    };
    let digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let head = &head[..head.len() - digits];
    ["REGISTRATION-", "RESPONSE-"].iter().any(|kind| {
        head.strip_suffix(kind)
            .and_then(|h| h.strip_suffix("-KTABLE-FK-JOIN-SUBSCRIPTION-"))
            .is_some_and(|prefix| !prefix.is_empty())
    })
}

/// An internal topic of application `group` by its name.
pub fn is_inferred_internal(topic: &str, group: &str) -> bool {
    topic.starts_with(&format!("{group}-")) && matches_internal_format(topic)
}

/// The internal topics of a topology: those to delete, and those kept because their name does
/// not look internal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InternalTopics {
    pub delete: BTreeSet<String>,
    pub keep: BTreeSet<String>,
}

pub fn of_topology(group: &str, subtopologies: &[Subtopology]) -> InternalTopics {
    let sources: BTreeSet<&str> = subtopologies
        .iter()
        .flat_map(|s| s.source_topics.iter().map(String::as_str))
        .collect();
    let mut out = InternalTopics::default();
    let candidates = subtopologies.iter().flat_map(|s| {
        s.repartition_source_topics
            .iter()
            .chain(&s.state_changelog_topics)
            .map(|t| t.name.as_str())
    });
    for t in candidates.filter(|t| !sources.contains(t)) {
        if is_inferred_internal(t, group) {
            out.delete.insert(t.to_string());
        } else {
            out.keep.insert(t.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::topology::TopicInfo;

    #[test]
    fn names_follow_apache() {
        for t in [
            "app-counts-changelog",
            "app-KSTREAM-AGGREGATE-0000000003-repartition",
            "app-x-subscription-registration-topic",
            "app-x-subscription-response-topic",
            "app-foo-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic",
            "app-foo-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-12-topic",
        ] {
            assert!(is_inferred_internal(t, "app"), "{t}");
        }
        for t in [
            "other-counts-changelog",
            "app-input",
            "apple-counts-changelog",
            "app-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION--topic",
            "app--KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-1-topics",
        ] {
            assert!(!is_inferred_internal(t, "app"), "{t}");
        }
    }

    #[test]
    fn topology_internal_topics_minus_sources_and_odd_names() {
        let subs = vec![
            Subtopology {
                id: "0".into(),
                source_topics: vec!["app-input".into()],
                repartition_sink_topics: vec!["app-by-word-repartition".into()],
                ..Subtopology::default()
            },
            Subtopology {
                id: "1".into(),
                source_topics: vec!["shared-changelog".into()],
                repartition_source_topics: vec![TopicInfo::named("app-by-word-repartition")],
                state_changelog_topics: vec![
                    TopicInfo::named("app-counts-changelog"),
                    TopicInfo::named("shared-changelog"),
                    TopicInfo::named("legacy-store"),
                ],
                ..Subtopology::default()
            },
        ];
        let it = of_topology("app", &subs);
        assert_eq!(
            it.delete.into_iter().collect::<Vec<_>>(),
            ["app-by-word-repartition", "app-counts-changelog"]
        );
        assert_eq!(it.keep.into_iter().collect::<Vec<_>>(), ["legacy-store"]);
    }
}
