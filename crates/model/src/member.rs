//! Who a member is: what its heartbeats declare about its client (instance, rack, client id
//! and host, process, endpoint, tags), as the coordinator keeps it and a simulated client sends
//! it. One value, so that every copy is one assignment.

use std::collections::BTreeMap;

use crate::heartbeat::Endpoint;

/// A member's identity. A described member (`group::MemberDescription`) keeps the same fields
/// flat, in StreamsGroupDescribe's order, and converts with `MemberDescription::identity` and
/// `MemberDescription::new`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberIdentity {
    /// `group.instance.id` of a static member.
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    /// The Kafka Streams instance (one per application instance, shared by its threads).
    pub process_id: String,
    /// `application.server`: where the instance serves interactive queries.
    pub user_endpoint: Option<Endpoint>,
    pub client_tags: BTreeMap<String, String>,
}
