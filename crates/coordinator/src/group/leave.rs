//! A member leaving by its own heartbeat: for good (member epoch -1), or a static member for
//! now (-2).

use crate::profile::Profile;
use model::heartbeat::STATIC_LEAVE_EPOCH;
use model::{Assignment, ErrorCode, HeartbeatRequest, HeartbeatResponse, KafkaVersion};

use super::{error_response, StreamsGroup};

impl StreamsGroup {
    /// A member leaves: for good (-1), or a static member temporarily (-2).
    pub(crate) fn leave(&mut self, req: &HeartbeatRequest) -> HeartbeatResponse {
        if req.shutdown_application {
            self.shutdown_requested_by
                .get_or_insert_with(|| req.member_id.clone());
        }
        let left = HeartbeatResponse {
            member_id: req.member_id.clone(),
            member_epoch: req.member_epoch,
            // 4.1 sets no status list at all (null); later releases an empty one.
            status: (self.version > KafkaVersion::V4_1).then(Vec::new),
            // Fields a leave does not set keep the schema default (-1 for the recovery lag).
            acceptable_recovery_lag: if self.version.sends_recovery_settings() {
                -1
            } else {
                0
            },
            ..HeartbeatResponse::default()
        };
        let static_id = req
            .instance_id
            .as_ref()
            .filter(|_| self.version.supports_static_members());
        if let Some(iid) = static_id {
            let holder = self.static_members.get(iid).cloned();
            let Some(holder) = holder else {
                return error_response(
                    ErrorCode::UnknownMemberId,
                    Some(format!("Instance id {iid} is unknown.")),
                );
            };
            if holder != req.member_id {
                return error_response(
                    ErrorCode::FencedInstanceId,
                    Some(format!(
                        "Static member {} with instance id {iid} was fenced by member {holder}.",
                        req.member_id
                    )),
                );
            }
            if req.member_epoch == STATIC_LEAVE_EPOCH {
                if let Some(mut m) = self.members.get(&holder).cloned() {
                    m.member_epoch = STATIC_LEAVE_EPOCH;
                    m.pending_revocation = Assignment::default();
                    self.put_member(m);
                }
                return HeartbeatResponse {
                    member_id: holder,
                    ..left
                };
            }
            self.fence(&holder);
            return left;
        }
        if !self.members.contains_key(&req.member_id) {
            return error_response(
                ErrorCode::UnknownMemberId,
                Some(format!(
                    "Member {} is not a member of group {}.",
                    req.member_id, self.group_id
                )),
            );
        }
        self.fence(&req.member_id);
        left
    }
}
