//! Plain data shared by every part of the tool: tasks, topologies, heartbeats, described groups.
//! No logic beyond small accessors lives here.

pub mod assignment;
pub mod calendar;
pub mod codes;
pub mod group;
pub mod heartbeat;
pub mod input;
pub mod member;
pub mod movement;
pub mod natural;
pub mod processor_graph;
pub mod state;
pub mod task;
pub mod task_set;
pub mod topic_name;
pub mod topology;
pub mod version;
pub mod wait;

pub use assignment::Assignment;
pub use codes::{ErrorCode, StatusCode};
pub use group::{GroupDescription, MemberDescription, PartitionOffsets, Snapshot};
pub use heartbeat::{HeartbeatRequest, HeartbeatResponse};
pub use member::MemberIdentity;
pub use processor_graph::ProcessorGraph;
pub use state::GroupStateName;
pub use task::{TaskId, TaskRole};
pub use task_set::{TaskIds, TaskSet};
pub use topology::{Subtopology, TopicInfo, Topology};
pub use version::KafkaVersion;

/// A (topic, partition).
pub type TopicPartition = (String, i32);
