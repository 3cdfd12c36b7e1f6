//! `list` and `describe` against the cluster; the groups are read by `crate::source::live`.

use super::{ListReport, ListRow};
use crate::error::Error;
use crate::source::live::{describe_groups_to, Depth, STREAMS};
use kafka::config::ClientConfig;
use kafka::error::KafkaError;
use kafka::{self};
use std::time::Duration;

/// The streams groups of the cluster in `states` (all when empty); `verbose` describes them too
/// for their epochs and member count. Each broker that did not answer the listing (while others
/// did) comes back as an error of its own: the groups it coordinates are missing.
pub fn list(
    client: &ClientConfig,
    states: Vec<String>,
    verbose: bool,
) -> Result<(ListReport, Vec<KafkaError>), Error> {
    let report = kafka::run_session(client.clone(), move |cluster| {
        Box::pin(async move {
            // `-v` describes the groups after: half the session is left for it.
            let leave = if verbose {
                cluster.timeout() / 2
            } else {
                Duration::ZERO
            };
            let listed = cluster
                .list_groups_leaving(&[STREAMS], &states, leave)
                .await?;
            let (groups, missing) = (listed.groups, listed.unanswered);
            let mut rows: Vec<ListRow> = groups
                .iter()
                .map(|g| ListRow {
                    group_id: g.group_id.clone(),
                    state: g.state.clone(),
                    group_epoch: None,
                    target_assignment_epoch: None,
                    members: None,
                })
                .collect();
            if verbose && !rows.is_empty() {
                let ids: Vec<String> = rows.iter().map(|r| r.group_id.clone()).collect();
                let described = describe_groups_to(cluster, &ids, Depth::Described).await?;
                for r in &mut rows {
                    if let Some(d) = described
                        .snapshot
                        .groups
                        .iter()
                        .find(|d| d.group_id == r.group_id)
                    {
                        r.group_epoch = Some(d.group_epoch);
                        r.target_assignment_epoch = Some(d.target_assignment_epoch);
                        r.members = Some(d.members.len());
                        r.state = d.state.clone();
                    }
                }
            }
            Ok((ListReport { groups: rows }, missing))
        })
    })?;
    Ok(report)
}
