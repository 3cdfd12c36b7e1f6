//! The topic metadata the group has seen: the partition counts of its required topics that
//! stand in for Apache's metadata hash, and when a heartbeat next recomputes them (Apache's
//! metadata refresh deadline).

use std::collections::BTreeMap;

use crate::topics::TopicMetadata;
use model::Topology;

use super::StreamsGroup;

/// Apache's `DeadlineAndEpoch` for the metadata refresh: the hash is recomputed from the deadline
/// on, or while the group epoch is below the epoch of the bump that set it (a bump whose records
/// were never written because the heartbeat failed later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RefreshDeadline {
    deadline_ms: i64,
    epoch: i32,
}

impl RefreshDeadline {
    /// `DeadlineAndEpoch.EMPTY`: due at once.
    pub(super) const EXPIRED: RefreshDeadline = RefreshDeadline {
        deadline_ms: 0,
        epoch: 0,
    };

    /// A heartbeat's bump: `METADATA_REFRESH_INTERVAL_MS` is `Integer.MAX_VALUE`.
    pub(super) fn after_bump(now_ms: i64, epoch: i32) -> RefreshDeadline {
        RefreshDeadline {
            deadline_ms: now_ms.saturating_add(i64::from(i32::MAX)),
            epoch,
        }
    }

    pub(super) fn expired(&self, now_ms: i64, group_epoch: i32) -> bool {
        now_ms >= self.deadline_ms || group_epoch < self.epoch
    }
}

impl StreamsGroup {
    /// A topic the group has seen was deleted. Apache's metadata hash covers the topic id, so a
    /// topic re-created with the same partition count is still a change: the count the group
    /// saw is replaced by 0, which `required_metadata` never yields, so that the next heartbeat
    /// sees a change whatever the topic looks like by then.
    pub(crate) fn topic_deleted(&mut self, topic: &str) {
        if let Some(seen) = self.metadata_seen.get_mut(topic) {
            if seen.is_some() {
                *seen = Some(0);
            }
        }
        if self.metadata_observed.contains_key(topic) {
            self.metadata_refresh = RefreshDeadline::EXPIRED;
        }
    }

    /// Apache's `onMetadataUpdate` calls `requestMetadataRefresh` on every group whose stored
    /// topology requires a changed topic; we learn of changes only when a heartbeat brings the
    /// metadata, which is the first moment the refresh can matter.
    pub(super) fn observe_metadata(&mut self, metadata: &TopicMetadata) {
        let Some(topology) = &self.topology else {
            return;
        };
        // `metadata_observed` always covers the stored topology's required topics (it is set
        // with the topology): when none of them changed there is nothing to build. Both maps
        // are sorted, so one walk through both answers it (every heartbeat asks).
        let mut topics = metadata.iter().peekable();
        let unchanged = self.metadata_observed.iter().all(|(t, seen)| {
            while topics
                .next_if(|(name, _)| name.as_str() < t.as_str())
                .is_some()
            {}
            let now = topics
                .next_if(|(name, _)| *name == t)
                .map(|(_, n)| *n)
                .filter(|n| *n > 0);
            now == *seen
        });
        if unchanged {
            return;
        }
        let now = self.required_metadata(topology, metadata);
        if now != self.metadata_observed {
            self.metadata_refresh = RefreshDeadline::EXPIRED;
            self.metadata_observed = now;
        }
    }

    pub(super) fn required_metadata(
        &self,
        topology: &Topology,
        metadata: &TopicMetadata,
    ) -> BTreeMap<String, Option<i32>> {
        topology
            .required_topics()
            .into_iter()
            .map(|t| {
                let n = metadata.get(&t).copied().filter(|n| *n > 0);
                (t, n)
            })
            .collect()
    }
}
