//! Live group access for the offline-first commands (`diff`, `check-epoch`): the one place they
//! reach a cluster. The lead wires this to the wire client (`crate::kafka`).

use crate::cli::GlobalArgs;
use crate::error::Failure;
use crate::model::group::GroupDescription;

/// Describe one streams group on the cluster given by `--bootstrap-server`.
pub fn describe_group(global: &GlobalArgs, group_id: &str) -> anyhow::Result<GroupDescription> {
    if global.bootstrap_server.is_none() {
        return Err(Failure::unreachable(format!(
            "live groups need --bootstrap-server (to read group {group_id})"
        ))
        .with_hint("or describe the group to a file and use --snapshot FILE")
        .into());
    }
    Err(Failure::usage("live group access is not built in this build yet").into())
}
