//! Live group access for the offline-first commands (`diff`, `check-epoch`, `simulate
//! --from-group`): the one place they reach a cluster.

use crate::cli::GlobalArgs;
use crate::kafka;
use crate::model::group::GroupDescription;
use crate::model::{ErrorCode, KafkaVersion};

/// Describe one streams group (state, members, topology, offsets) on the cluster given by
/// `--bootstrap-server`.
pub fn describe_group(global: &GlobalArgs, group_id: &str) -> anyhow::Result<GroupDescription> {
    Ok(describe_group_versioned(global, group_id)?.0)
}

/// Describe one streams group, or learn that the cluster has none of that id (a first
/// deployment): `None` then, with the profile detected from the broker either way.
pub fn describe_group_if_exists(
    global: &GlobalArgs,
    group_id: &str,
) -> anyhow::Result<(Option<GroupDescription>, Option<KafkaVersion>)> {
    let (result, version) = describe_raw(global, group_id)?;
    match result {
        Ok(g) => Ok((Some(g), version)),
        Err(kafka::error::KafkaError::Broker {
            code: ErrorCode::GroupIdNotFound,
            message,
            ..
        }) if !message
            .as_deref()
            .unwrap_or("")
            .contains("is not a streams group") =>
        {
            Ok((None, version))
        }
        Err(e) => Err(e.to_failure().into()),
    }
}

/// The same, with the coordinator profile detected from the broker.
pub fn describe_group_versioned(
    global: &GlobalArgs,
    group_id: &str,
) -> anyhow::Result<(GroupDescription, Option<KafkaVersion>)> {
    let (result, version) = describe_raw(global, group_id)?;
    match result {
        Ok(g) => Ok((g, version)),
        Err(e) => Err(e.to_failure().into()),
    }
}

type Described = Result<GroupDescription, kafka::error::KafkaError>;

fn describe_raw(
    global: &GlobalArgs,
    group_id: &str,
) -> anyhow::Result<(Described, Option<KafkaVersion>)> {
    kafka::limits::check_group_ids(&[group_id]).map_err(|e| e.to_failure())?;
    let cfg = kafka::client_config(global).map_err(|f| {
        f.with_hint(
            "or describe the group to a file with `describe --output json` and pass that file",
        )
    })?;
    let ids = vec![group_id.to_string()];
    let mut result = kafka::run_session(cfg, move |cluster| {
        Box::pin(async move { cluster.describe(&ids).await })
    })?;
    let version = result.snapshot.kafka_version;
    if let Some((_, e)) = result.errors.into_iter().next() {
        return Ok((Err(e), version));
    }
    match result.snapshot.groups.pop() {
        Some(g) => Ok((Ok(g), version)),
        None => Err(crate::error::Failure::kafka(format!(
            "the cluster did not describe group {group_id}"
        ))
        .into()),
    }
}
