//! The built-in example application that `simulate` runs when no topology is given.
//!
//! An order-enrichment app (application id `orders-app`): subtopology 0 reads `orders`, re-keys
//! them by customer and writes a repartition topic; subtopology 1 joins that repartition topic
//! with the `customers` table (copartitioned) and keeps per-customer totals in a state store.

use std::collections::BTreeSet;

use model::{Subtopology, TopicInfo, Topology};

pub const APPLICATION_ID: &str = "orders-app";

pub fn topology() -> Topology {
    let repartition = format!("{APPLICATION_ID}-orders-by-customer-repartition");
    Topology {
        epoch: 0,
        subtopologies: vec![
            Subtopology {
                id: "0".into(),
                source_topics: vec!["orders".into()],
                repartition_sink_topics: vec![repartition.clone()],
                ..Subtopology::default()
            },
            Subtopology {
                id: "1".into(),
                source_topics: vec!["customers".into()],
                repartition_source_topics: vec![TopicInfo::named(repartition.clone())],
                state_changelog_topics: vec![
                    TopicInfo::named(format!("{APPLICATION_ID}-customers-store-changelog")),
                    TopicInfo::named(format!("{APPLICATION_ID}-totals-store-changelog")),
                ],
                copartition_groups: vec![BTreeSet::from(["customers".to_string(), repartition])],
                ..Subtopology::default()
            },
        ],
    }
}

/// The next version of the example, for the `deploy` scenario: a third subtopology that
/// aggregates totals per region, with its own repartition topic and store.
pub fn next_topology(epoch: i32) -> Topology {
    let mut t = topology();
    t.epoch = epoch;
    let by_region = format!("{APPLICATION_ID}-totals-by-region-repartition");
    t.subtopologies[1]
        .repartition_sink_topics
        .push(by_region.clone());
    t.subtopologies.push(Subtopology {
        id: "2".into(),
        repartition_source_topics: vec![TopicInfo::named(by_region)],
        state_changelog_topics: vec![TopicInfo::named(format!(
            "{APPLICATION_ID}-region-totals-changelog"
        ))],
        ..Subtopology::default()
    });
    t
}
