//! `list` and `describe` against the cluster.

use super::{ListReport, ListRow};
use crate::error::Error;
use crate::kafka::{self, client::DescribeResult, config::ClientConfig};

/// The streams groups of the cluster in `states` (all when empty); `verbose` describes them too
/// for their epochs and member count.
pub fn list(
    client: &ClientConfig,
    states: Vec<String>,
    verbose: bool,
) -> Result<ListReport, Error> {
    let report = kafka::run_session(client.clone(), move |cluster| {
        Box::pin(async move {
            let groups = cluster.list_groups(&states).await?;
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
                let described = cluster.describe(&ids).await?;
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
            Ok(ListReport { groups: rows })
        })
    })?;
    Ok(report)
}

/// Which groups to describe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    Groups(Vec<String>),
}

/// Describe the groups: `None` when the selection is empty (a cluster without streams groups).
pub fn describe(
    client: &ClientConfig,
    selection: Selection,
) -> Result<Option<DescribeResult>, Error> {
    if let Selection::Groups(ids) = &selection {
        kafka::limits::check_group_ids(ids)?;
    }
    let result = kafka::run_session(client.clone(), move |cluster| {
        Box::pin(async move {
            let ids = match selection {
                Selection::All => cluster
                    .list_groups(&[])
                    .await?
                    .into_iter()
                    .map(|g| g.group_id)
                    .collect(),
                Selection::Groups(ids) => ids,
            };
            if ids.is_empty() {
                return Ok(None);
            }
            cluster.describe(&ids).await.map(Some)
        })
    })?;
    Ok(result.map(|mut r: DescribeResult| {
        crate::snapshot::fill_endpoint_partitions(&mut r.snapshot);
        r
    }))
}
