//! Plain data shared by every part of the tool: tasks, topologies, heartbeats, described groups.
//! No logic beyond small accessors lives here.

pub mod codes;
pub mod group;
pub mod heartbeat;
pub mod movement;
pub mod natural;
pub mod processor_graph;
pub mod state;
pub mod task;
pub mod task_set;
pub mod topology;
pub mod version;

pub use codes::{ErrorCode, StatusCode};
pub use group::{GroupDescription, MemberDescription, PartitionOffsets, Snapshot};
pub use heartbeat::{HeartbeatRequest, HeartbeatResponse};
pub use processor_graph::ProcessorGraph;
pub use state::GroupStateName;
pub use task::{Assignment, TaskId, TaskRole, TaskSet};
pub use topology::{Subtopology, TopicInfo, Topology};
pub use version::KafkaVersion;

/// A (topic, partition).
pub type TopicPartition = (String, i32);
