//! Which coordinator runs: the one a Kafka release ships, or the KIP-1071 text.
//!
//! Every behaviour that differs between releases is a method here, so the heartbeat code reads
//! "if the profile does X" instead of comparing version numbers, and a newcomer finds in one
//! place what 4.1, 4.2.1, 4.2.2, 4.3.1, 4.3.2, 4.4 and the KIP do differently. The facts come from Apache's
//! `GroupMetadataManager`, `GroupCoordinatorService` and `CurrentAssignmentBuilder` of each
//! release, checked in lock-step by `tests/oracles/coordinator.rs`.

use model::KafkaVersion;

/// How the coordinator answers a topology that differs from the group's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyRules {
    /// Shipped brokers: a stale epoch joins with STALE_TOPOLOGY, any other change is
    /// INVALID_REQUEST "Topology updates are not supported yet.".
    Shipped,
    /// The KIP's epoch rules: ER = EG + 1 updates the topology.
    Kip,
}

/// What a release's coordinator does differently, as questions a `KafkaVersion` answers
/// (`version.supports_static_members()`). Only `KafkaVersion` implements it.
pub trait Profile: Copy {
    /// The release whose behaviour this is.
    fn release(self) -> KafkaVersion;

    fn topology_rules(self) -> TopologyRules {
        match self.release() {
            KafkaVersion::Kip => TopologyRules::Kip,
            _ => TopologyRules::Shipped,
        }
    }

    /// 4.2 and 4.3 refuse static members, task offsets and warm-up tasks at the service level.
    fn supports_static_members(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    fn supports_task_offsets(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    fn supports_warmup_tasks(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// 4.4.0 reconciles towards a refined target cached per assignment epoch (see
    /// `refined_cache`); its refiner is a stub, and later code has no such cache.
    fn caches_refined_assignment(self) -> bool {
        self.release() == KafkaVersion::V4_4
    }

    /// `group.streams.initial.rebalance.delay.ms` (and its ASSIGNMENT_DELAYED) exists from 4.2
    /// on: 4.1 computes the first target at the first group epoch bump.
    fn has_initial_rebalance_delay(self) -> bool {
        self.release() > KafkaVersion::V4_1
    }

    /// From 4.2 a newly validated topology epoch and changed assignment configs (standby
    /// replicas) bump the group epoch; 4.1 bumps only for member and metadata changes, so a new
    /// standby count waits for the next target computed for another reason.
    fn bumps_on_validation(self) -> bool {
        self.release() > KafkaVersion::V4_1
    }

    /// `group.streams.assignment.interval.ms` (KIP-1263) exists from 4.3 on.
    fn has_assignment_interval(self) -> bool {
        self.release() >= KafkaVersion::V4_3_1
    }

    /// 4.4 reconciles role changes inside one member in place (active → standby, standby ↔
    /// warm-up, promotion without a revoke round-trip); 4.2 and 4.3 revoke first.
    fn in_place_role_changes(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// 4.4 feeds the assignor each member's current assignment; 4.2 and 4.3 its previous target.
    fn assignor_sees_current_assignment(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// When the last member leaves (or is fenced), 4.3.2 and 4.4 write a target assignment at
    /// the new group epoch (KAFKA-20442); 4.3.1 and earlier leave the target epoch behind.
    fn resets_target_epoch_when_empty(self) -> bool {
        self.release() >= KafkaVersion::V4_3
    }

    /// 4.4 lets existing members and known static members rejoin a full group.
    fn max_size_exempts_known_members(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// 4.4 sends `AcceptableRecoveryLag` and `TaskOffsetIntervalMs`; earlier releases send 0.
    fn sends_recovery_settings(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// 4.2 jumps from group epoch 0 straight to 2 on the first bump.
    fn first_bump_skips_epoch_one(self) -> bool {
        matches!(self.release(), KafkaVersion::V4_2_1 | KafkaVersion::V4_2)
    }

    /// A new group's epochs: 0 in 4.1 and 4.2, 1 from 4.3 (`TargetAssignmentMetadata.INITIAL`).
    fn initial_group_epoch(self) -> i32 {
        if self.release() <= KafkaVersion::V4_2 {
            0
        } else {
            1
        }
    }

    /// During the initial rebalance delay, 4.1 and 4.2 answer with target epoch max(1, assignment
    /// epoch); later releases with the assignment epoch.
    fn initial_delay_epoch_at_least_one(self) -> bool {
        self.release() <= KafkaVersion::V4_2
    }

    /// 4.4 sends MISSING_CLIENT_TAGS to members without the rack-aware assignment tags.
    fn reports_missing_client_tags(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }

    /// The KIP text removes a member answered FENCED_MEMBER_EPOCH; releases keep it (the
    /// rejected request writes nothing) and let it rejoin with epoch 0.
    fn fencing_removes_member(self) -> bool {
        self.release() == KafkaVersion::Kip
    }

    /// Whose sticky assignor runs by default: the release's own (the KIP profile, 4.4's).
    fn shipped_assignor(self) -> crate::assignor::ShippedVersion {
        use crate::assignor::ShippedVersion;
        match self.release() {
            KafkaVersion::V4_1 => ShippedVersion::V4_1,
            KafkaVersion::V4_2_1 => ShippedVersion::V4_2_1,
            KafkaVersion::V4_2 => ShippedVersion::V4_2,
            KafkaVersion::V4_3_1 => ShippedVersion::V4_3_1,
            KafkaVersion::V4_3 => ShippedVersion::V4_3,
            KafkaVersion::V4_4 | KafkaVersion::Kip => ShippedVersion::V4_4,
        }
    }

    /// A new group's endpoint information epoch: -1 in 4.1, 0 later (clients start at -1, so
    /// their first heartbeat always gets the interactive-query map).
    fn initial_endpoint_information_epoch(self) -> i32 {
        if self.release() == KafkaVersion::V4_1 {
            -1
        } else {
            0
        }
    }

    /// 4.1 builds the interactive-query map in one pass over the stored members (the
    /// requester in its place, with its stored endpoint and new tasks; a new member is left
    /// out), sends null for an empty map, and caches nothing; 4.2 and later list the other
    /// members from a cache, then the requester as updated.
    fn endpoint_map_of_stored_members(self) -> bool {
        self.release() == KafkaVersion::V4_1
    }

    /// The StreamsGroupHeartbeat version a client of this release sends.
    fn heartbeat_version(self) -> i16 {
        if self.release() >= KafkaVersion::V4_4 {
            1
        } else {
            0
        }
    }

    /// 4.2.2, 4.3.2 and 4.4.0 list only partitions that exist (KAFKA-20885); 4.1, 4.2.1 and
    /// 4.3.1 cut a list only when the topic has fewer partitions than the member has tasks.
    fn endpoint_map_keeps_existing_partitions_only(self) -> bool {
        !matches!(
            self.release(),
            KafkaVersion::V4_1 | KafkaVersion::V4_2_1 | KafkaVersion::V4_3_1
        )
    }

    /// From 4.4 a member's warm-up tasks are listed with its standbys.
    fn endpoint_map_lists_warmups_as_standbys(self) -> bool {
        self.release() >= KafkaVersion::V4_4
    }
}

impl Profile for KafkaVersion {
    fn release(self) -> KafkaVersion {
        self
    }
}
