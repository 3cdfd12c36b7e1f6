//! A group rebuilt from a described group (a `describe` snapshot), as a coordinator rebuilds
//! its state from the offsets topic.

use crate::topics::{self, TopicMetadata};
use model::group::GroupDescription;
use model::{KafkaVersion, Topology};

use super::StreamsGroup;
use crate::config::GroupConfig;
use crate::member::Member;
use crate::member_order::MemberOrder;

impl StreamsGroup {
    /// Rebuild a group from a description (a `describe` snapshot), as a coordinator rebuilds its
    /// state from the offsets topic: epochs, topology, members with their current and target
    /// assignments. Sessions start at `now_ms`.
    pub fn restore(
        desc: &GroupDescription,
        topology: Topology,
        config: GroupConfig,
        metadata: &TopicMetadata,
        now_ms: i64,
    ) -> StreamsGroup {
        StreamsGroup::restore_as(
            desc,
            topology,
            config,
            metadata,
            now_ms,
            KafkaVersion::NEWEST,
        )
    }

    pub fn restore_as(
        desc: &GroupDescription,
        topology: Topology,
        config: GroupConfig,
        metadata: &TopicMetadata,
        now_ms: i64,
        version: KafkaVersion,
    ) -> StreamsGroup {
        let mut g = StreamsGroup::with_version(&desc.group_id, config, version);
        g.persisted = true;
        g.group_epoch = desc.group_epoch;
        g.target_assignment_epoch = desc.target_assignment_epoch;
        g.metadata_seen = g.required_metadata(&topology, metadata);
        g.metadata_observed = g.metadata_seen.clone();
        g.configuration = topics::configure(&topology, metadata).ok();
        g.validated_topology_epoch = match &g.configuration {
            Some(c) if c.is_ready() => topology.epoch,
            _ => -1,
        };
        g.topology = Some(topology);
        for d in &desc.members {
            let mut m = Member::new(&d.member_id);
            m.identity = d.identity();
            m.topology_epoch = d.topology_epoch;
            m.rebalance_timeout_ms = 300_000;
            m.member_epoch = d.member_epoch;
            m.previous_member_epoch = d.member_epoch;
            m.assigned = d.assignment.clone();
            m.task_offsets = d.task_offsets.clone();
            m.task_end_offsets = d.task_end_offsets.clone();
            m.session_deadline_ms = now_ms.saturating_add(g.config.session_timeout_ms);
            if let Some(iid) = &m.identity.instance_id {
                g.static_members.insert(iid.clone(), m.member_id.clone());
            }
            g.target
                .insert(d.member_id.clone(), d.target_assignment.clone());
            g.member_order.put(&m.member_id);
            g.put_member(m);
        }
        // The coordinator's own order, when the description kept it, decides ties as the
        // broker's would; else the members' order stands in for it.
        let listed = desc.member_order.len() == g.members.len()
            && desc
                .member_order
                .iter()
                .all(|id| g.members.contains_key(id));
        if let Some(order) = listed
            .then(|| MemberOrder::from_iteration(&desc.member_order))
            .flatten()
        {
            g.member_order = order;
        }
        g
    }

    /// The member last heartbeated at `at_ms`: its session runs out a session timeout later.
    /// A restored group's sessions all start at the restore, as after a failover; a snapshot of
    /// a running group instead has each member at its own point of its heartbeat schedule, and
    /// a member that then dies expires from its own last heartbeat (`scheduleStreamsGroup
    /// SessionTimeout` resets the member's timer on every heartbeat).
    pub fn heard_from(&mut self, member_id: &str, at_ms: i64) {
        let session = self.config.session_timeout_ms;
        self.update_member(member_id, |m| {
            m.session_deadline_ms = at_ms.saturating_add(session);
        });
    }
}
