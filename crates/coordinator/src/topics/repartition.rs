//! The partition counts of repartition topics (Apache's `RepartitionTopics`): a fix-point over
//! the repartition sink topics, from user-fixed counts and each subtopology's inputs.

use std::collections::BTreeMap;

use model::topology::Subtopology;

use super::InvalidTopology;

/// Step 2: the fix-point over repartition sink topics.
pub(super) fn repartition_counts(
    subs: &[&Subtopology],
    existing: &dyn Fn(&str) -> Option<i32>,
) -> Result<BTreeMap<String, i32>, InvalidTopology> {
    let mut counts: BTreeMap<String, i32> = BTreeMap::new();
    for s in subs {
        for r in s
            .repartition_source_topics
            .iter()
            .filter(|r| r.partitions > 0)
        {
            counts.insert(r.name.clone(), r.partitions);
        }
    }
    loop {
        let mut progress = false;
        let mut need_more = false;
        for s in subs {
            for sink in &s.repartition_sink_topics {
                if counts.contains_key(sink) {
                    continue;
                }
                // Upstream repartition topics count as computed, never as they exist (as
                // Apache's RepartitionTopics does): once copartitioning has resized one, the
                // existing count would change what its downstream repartition topic must be,
                // and an existing topic of another count is reported as mis-partitioned.
                let from_repartition = s
                    .repartition_source_topics
                    .iter()
                    .filter_map(|x| counts.get(&x.name).copied());
                let from_sources = s
                    .source_topics
                    .iter()
                    .filter_map(|x| existing(x).or_else(|| counts.get(x).copied()));
                match from_repartition.chain(from_sources).max() {
                    Some(c) => {
                        counts.insert(sink.clone(), c);
                        progress = true;
                    }
                    None => need_more = true,
                }
            }
        }
        if !need_more {
            break;
        }
        if !progress {
            // Apache's words (`RepartitionTopics`), as the broker answers them.
            return Err(InvalidTopology::new(
                "Failed to compute number of partitions for all repartition topics. There may \
                 be loops in the topology that cannot be resolved.",
            ));
        }
    }
    for s in subs {
        for r in &s.repartition_source_topics {
            if !counts.contains_key(&r.name) {
                return Err(InvalidTopology::new(
                    "Failed to compute number of partitions for all repartition topics, because \
                     a repartition source topic is never used as a sink topic.",
                ));
            }
        }
    }
    Ok(counts)
}
