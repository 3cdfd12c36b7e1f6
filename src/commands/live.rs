//! Live group access for the offline-first commands (`diff`, `check-epoch`, `simulate
//! --from-group`): the one place they reach a cluster.

use crate::cli::GlobalArgs;
use crate::kafka;
use crate::model::group::GroupDescription;

/// Describe one streams group (state, members, topology, offsets) on the cluster given by
/// `--bootstrap-server`.
pub fn describe_group(global: &GlobalArgs, group_id: &str) -> anyhow::Result<GroupDescription> {
    let cfg = kafka::client_config(global).map_err(|f| {
        f.with_hint(
            "or describe the group to a file with `describe --output json` and pass that file",
        )
    })?;
    let ids = vec![group_id.to_string()];
    let mut result = kafka::run_session(cfg, move |cluster| {
        Box::pin(async move { cluster.describe(&ids).await })
    })?;
    if let Some((_, e)) = result.errors.into_iter().next() {
        return Err(e.to_failure().into());
    }
    match result.snapshot.groups.pop() {
        Some(g) => Ok(g),
        None => Err(crate::error::Failure::kafka(format!(
            "the cluster did not describe group {group_id}"
        ))
        .into()),
    }
}
