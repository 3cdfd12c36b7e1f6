//! The group as described back: StreamsGroupDescribe's view of it, and the interactive-query
//! map its members would receive now.

use std::collections::BTreeMap;

use crate::endpoints;
use crate::topics::{Configuration, TopicMetadata};
use model::group::{DescribedTopology, GroupDescription, MemberDescription};
use model::heartbeat::EndpointPartitions;
use model::{Subtopology, Topology};

use super::StreamsGroup;

impl StreamsGroup {
    /// The group as StreamsGroupDescribe shows it.
    pub fn describe(&self) -> GroupDescription {
        let epoch = self.topology.as_ref().map_or(-1, |t| t.epoch);
        let subtopologies = match (&self.topology, &self.configuration) {
            (Some(t), Some(c)) if c.is_ready() => Some(configured_subtopologies(t, c)),
            (Some(t), _) => Some(t.subtopologies.clone()),
            _ => None,
        };
        GroupDescription {
            member_order: self.member_order.iter().map(String::from).collect(),
            group_id: self.group_id.clone(),
            state: self.state().name().to_string(),
            group_epoch: self.group_epoch,
            target_assignment_epoch: self.target_assignment_epoch,
            coordinator: None,
            topology: DescribedTopology {
                epoch,
                subtopologies,
            },
            members: self
                .members
                .values()
                .map(|m| MemberDescription {
                    task_offsets: m.task_offsets.clone(),
                    task_end_offsets: m.task_end_offsets.clone(),
                    assignment: m.assigned.clone(),
                    target_assignment: self.target.get(&m.member_id).cloned().unwrap_or_default(),
                    ..MemberDescription::new(
                        &m.member_id,
                        m.member_epoch,
                        m.identity.clone(),
                        m.topology_epoch,
                    )
                })
                .collect(),
            offsets: Vec::new(),
            assignor: None,
            configs: None,
        }
    }

    /// The interactive-query map as a member receives it now: every member with an endpoint, in
    /// Apache's member order, computed afresh (no cache); members whose entry Apache could not
    /// build are left out.
    pub fn current_endpoint_map(&self, metadata: &TopicMetadata) -> Vec<EndpointPartitions> {
        let topics = self
            .configuration
            .as_ref()
            .filter(|c| !c.subtopologies.is_empty())
            .map(|c| endpoints::subtopology_topics(&c.subtopologies));
        self.member_order
            .iter()
            .filter_map(|id| self.members.get(id))
            .filter_map(|m| {
                let e = m.identity.user_endpoint.as_ref()?;
                endpoints::member_partitions(
                    self.version,
                    e,
                    &m.assigned,
                    topics.as_ref(),
                    metadata,
                )
                .ok()
            })
            .collect()
    }
}

/// The topology with the partition counts the configuration decided, as describe shows it.
fn configured_subtopologies(t: &Topology, c: &Configuration) -> Vec<Subtopology> {
    let counts: BTreeMap<&str, i32> = c
        .internal_topics
        .iter()
        .map(|t| (t.name.as_str(), t.partitions))
        .collect();
    t.subtopologies
        .iter()
        .map(|s| {
            let mut s = s.clone();
            for info in s
                .repartition_source_topics
                .iter_mut()
                .chain(s.state_changelog_topics.iter_mut())
            {
                if let Some(n) = counts.get(info.name.as_str()) {
                    info.partitions = *n;
                }
            }
            s
        })
        .collect()
}
