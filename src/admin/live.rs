//! The admin actions against the cluster: `reset-offsets`, `delete-offsets` and `delete`.
//!
//! Each reads the groups first (state, members, topology, committed offsets) and refuses, before
//! anything is written, a group that has live members ([`Error::GroupActive`]): the broker would
//! refuse the writes anyway (OffsetCommit UNKNOWN_MEMBER_ID, OffsetDelete
//! GROUP_SUBSCRIBED_TO_TOPIC, DeleteGroups NON_EMPTY_GROUP), but only partition by partition. A
//! dry run (`execute` false) stops after the plan; with `execute`, every partition, group and
//! topic gets the broker's own answer, so a partial failure shows what was and was not done.

use std::collections::{BTreeMap, BTreeSet};

use crate::admin::internal_topics;
use crate::admin::parse::{FilePlan, TopicScope};
use crate::admin::plan::{
    self, Adjustment, LogOffsets, PlanError, Planned, ResetScenario, ScopeError,
};
use crate::admin::report::{
    ActionStatus, DeleteOffsetsReport, DeleteReport, GroupDeletion, GroupReset, OffsetRow,
    ResetReport, ResetRow, TopicDeletion,
};
use crate::error::{ActiveGroup, Error, Fix};
use crate::source::live::{group_ids, GroupSelection};
use kafka::client::Cluster;
use kafka::config::ClientConfig;
use kafka::error::{KafkaError, KafkaResult};
use kafka::{self};
use model::group::{CoordinatorNode, GroupDescription};
use model::{ErrorCode, TopicPartition};

/// A group as the admin actions see it before they act.
#[derive(Clone, Debug)]
pub struct AdminGroup {
    pub group_id: String,
    /// `None` when the broker knows no streams group of that id (GROUP_ID_NOT_FOUND): it may
    /// not exist yet, or be a group of another type.
    pub description: Option<GroupDescription>,
    pub coordinator: CoordinatorNode,
    /// Every committed offset of the group, all topics.
    pub committed: BTreeMap<TopicPartition, i64>,
}

/// Each group's description (if it is a streams group), coordinator and committed offsets.
async fn read_groups(cluster: &mut Cluster, groups: &[String]) -> KafkaResult<Vec<AdminGroup>> {
    let mut described = cluster.describe_groups(groups).await?.groups;
    let coords = cluster.find_coordinators(groups).await?;
    let mut out = Vec::new();
    for g in groups {
        let coordinator = coords.get(g).cloned().ok_or_else(|| KafkaError::Protocol {
            addr: "the cluster".into(),
            detail: format!("no coordinator found for group `{g}`"),
        })?;
        let description = match described.remove(g) {
            Some(Ok((mut d, _))) => {
                d.coordinator = Some(coordinator.clone());
                Some(d)
            }
            Some(Err(KafkaError::Broker {
                code: ErrorCode::GroupIdNotFound,
                ..
            })) => None,
            Some(Err(e)) => return Err(e),
            None => None,
        };
        let committed = cluster
            .committed_offsets(coordinator.id, g)
            .await?
            .into_iter()
            .map(|(k, (offset, _))| (k, offset))
            .collect();
        out.push(AdminGroup {
            group_id: g.clone(),
            description,
            coordinator,
            committed,
        });
    }
    Ok(out)
}

/// Where `reset-offsets` moves the offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetTo {
    /// Any scenario but `FromFile`.
    Scenario(ResetScenario),
    /// The `--from-file` plan (the scope is ignored, as Apache ignores it).
    File(FilePlan),
}

/// A `reset-offsets` run.
#[derive(Clone, Debug)]
pub struct ResetRequest {
    pub groups: GroupSelection,
    /// `--input-topic` values; empty: the group's input topics.
    pub scopes: Vec<TopicScope>,
    pub to: ResetTo,
    /// The scenario as the user gave it, for the report.
    pub label: String,
    pub execute: bool,
}

/// What one group's session found, before the plan.
struct Scoped {
    group: AdminGroup,
    partitions: BTreeSet<TopicPartition>,
    scenario: ResetScenario,
    notes: Vec<String>,
}

type Inner<T> = KafkaResult<Result<T, Error>>;

fn run<T: 'static>(
    client: &ClientConfig,
    f: impl for<'a> FnOnce(
            &'a mut Cluster,
        )
            -> std::pin::Pin<Box<dyn std::future::Future<Output = Inner<T>> + 'a>>
        + 'static,
) -> Result<T, Error> {
    kafka::run_session(client.clone(), f)?
}

/// The state of a group as the reports show it (`None`: no streams group of that id).
fn state(g: &AdminGroup) -> Option<String> {
    g.description.as_ref().map(|d| d.state.clone())
}

/// Refuse the whole action when some group has live members, naming them.
fn refuse_active(groups: &[AdminGroup], dead_ok: bool) -> Result<(), Error> {
    for g in groups {
        let Some(d) = &g.description else { continue };
        let idle = d.state == "Empty" || (dead_ok && d.state == "Dead");
        if idle {
            continue;
        }
        let mut members: Vec<&model::group::MemberDescription> = d.members.iter().collect();
        members.sort_by(|a, b| model::natural::cmp(&a.member_id, &b.member_id));
        return Err(Error::GroupActive(ActiveGroup {
            group_id: g.group_id.clone(),
            state: d.state.clone(),
            members: members
                .iter()
                .map(|m| {
                    format!(
                        "{} (process {}, client {} on host {})",
                        m.member_id, m.process_id, m.client_id, m.client_host
                    )
                })
                .collect(),
        }));
    }
    Ok(())
}

fn tp_list(tps: &[TopicPartition]) -> String {
    tps.iter()
        .map(|(t, p)| format!("{t}-{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn scope_error(group: &str, e: ScopeError) -> Error {
    Error::input(match e {
        ScopeError::UnknownTopics(ts) => format!(
            "topic(s) {} do not exist (or are not visible to this principal)",
            ts.join(", ")
        ),
        ScopeError::UnknownPartitions(ps) => {
            format!("partition(s) {} do not exist", tp_list(&ps))
        }
        ScopeError::NoLeader(ps) => format!("partition(s) {} have no leader", tp_list(&ps)),
        ScopeError::NotInGroup(ps) => format!(
            "group `{group}` has no committed offset for {}: it does not read them (or has \
             not yet committed)",
            tp_list(&ps)
        ),
    })
}

fn plan_error(group: &str, e: PlanError) -> Error {
    Error::input(match e {
        PlanError::NoCommittedOffset((t, p)) => format!(
            "cannot shift the offset of {t}-{p} for group `{group}`: nothing is committed there"
        ),
        PlanError::UnknownLogOffset {
            tp: (t, p),
            earliest,
        } => format!(
            "the cluster gave no {} offset for {t}-{p}",
            if earliest { "log start" } else { "log end" }
        ),
    })
}

/// The source topics of a group's topology, and its repartition-source topics.
fn topology_topics(g: &AdminGroup) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
    let subs = g.description.as_ref()?.topology.subtopologies.as_ref()?;
    let sources = subs.iter().flat_map(|s| s.source_topics.clone()).collect();
    let repartition = subs
        .iter()
        .flat_map(|s| s.repartition_source_topics.iter().map(|t| t.name.clone()))
        .collect();
    Some((sources, repartition))
}

/// The partitions a group's action covers, checked against the cluster.
async fn scope_of(
    cluster: &mut Cluster,
    g: &AdminGroup,
    scopes: &[TopicScope],
    need_commit: bool,
    notes: &mut Vec<String>,
) -> KafkaResult<Result<BTreeSet<TopicPartition>, Error>> {
    let mut sources = BTreeSet::new();
    if scopes.is_empty() {
        let Some((src, repartition)) = topology_topics(g) else {
            return Ok(Err(Error::InputWithFix(
                format!(
                    "group `{}` has no topology the broker knows, so its input topics are \
                     unknown",
                    g.group_id
                ),
                Fix::NameInputTopics,
            )));
        };
        if !repartition.is_empty() {
            notes.push(format!(
                "repartition topic(s) {} left out: the input topics of a group are its source \
                 topics (as in kafka-streams-groups.sh); name a repartition topic as an input \
                 topic to include it",
                repartition.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        sources = src;
    }
    let topics: BTreeSet<String> = scopes.iter().map(|s| s.topic.clone()).collect();
    let partitions = cluster.leaders(&topics).await?;
    let r = plan::scope_partitions(scopes, &sources, &partitions, &g.committed, need_commit);
    if scopes.is_empty() {
        let covered: BTreeSet<&String> = g.committed.keys().map(|(t, _)| t).collect();
        for t in sources.iter().filter(|t| !covered.contains(t)) {
            notes.push(format!(
                "source topic {t} left out: the group has committed no offset on it"
            ));
        }
    }
    Ok(r.map_err(|e| scope_error(&g.group_id, e)))
}

/// The file's plan for one group, its partitions checked against the cluster.
async fn file_scope(
    cluster: &mut Cluster,
    g: &AdminGroup,
    plan: &FilePlan,
) -> KafkaResult<Result<(BTreeSet<TopicPartition>, ResetScenario), Error>> {
    let Some(mine) = plan.get(&g.group_id) else {
        return Ok(Err(Error::input(format!(
            "the file has no reset plan for group `{}`",
            g.group_id
        ))));
    };
    let mut by_topic: BTreeMap<String, Vec<i32>> = BTreeMap::new();
    for (t, p) in mine.keys() {
        by_topic.entry(t.clone()).or_default().push(*p);
    }
    let scopes: Vec<TopicScope> = by_topic
        .into_iter()
        .map(|(topic, ps)| TopicScope {
            topic,
            partitions: Some(ps),
        })
        .collect();
    Ok(scope_of(cluster, g, &scopes, false, &mut Vec::new())
        .await?
        .map(|parts| (parts, ResetScenario::FromFile(mine.clone()))))
}

/// Log start and end offsets of `parts`, and their offsets at `timestamp` if there is one.
async fn log_offsets(
    cluster: &mut Cluster,
    parts: &BTreeSet<TopicPartition>,
    timestamp: Option<i64>,
) -> KafkaResult<LogOffsets> {
    let ok = |m: BTreeMap<TopicPartition, Result<i64, _>>| -> BTreeMap<TopicPartition, i64> {
        m.into_iter()
            .filter_map(|(k, v)| v.ok().map(|v| (k, v)))
            .collect()
    };
    let earliest = ok(cluster.offsets_for(parts, -2).await?);
    let latest = ok(cluster.offsets_for(parts, -1).await?);
    let at_timestamp = match timestamp {
        Some(ts) => ok(cluster.offsets_for(parts, ts).await?),
        None => BTreeMap::new(),
    };
    Ok(LogOffsets {
        earliest,
        latest,
        at_timestamp,
    })
}

fn adjustment_note(a: Adjustment) -> String {
    match a {
        Adjustment::RaisedToLogStart { asked } => {
            format!("asked {asked}, below the log start offset")
        }
        Adjustment::LoweredToLogEnd { asked } => format!("asked {asked}, past the log end offset"),
        Adjustment::NoRecordSinceTimestamp => {
            "no record at or after the time: the log end offset".into()
        }
        Adjustment::NoCommitTakesLogEnd => "nothing committed: the log end offset".into(),
    }
}

fn reset_row(p: &Planned) -> ResetRow {
    ResetRow {
        topic: p.tp.0.clone(),
        partition: p.tp.1,
        current_offset: p.current,
        new_offset: p.new,
        change: p.current.map(|c| p.new - c),
        note: p.adjustment.map(adjustment_note),
        status: ActionStatus::Planned,
        error: None,
    }
}

/// Every group's scope, before anything is planned or written.
async fn reset_scopes(
    cluster: &mut Cluster,
    groups: Vec<AdminGroup>,
    req: &ResetRequest,
) -> Inner<Vec<Scoped>> {
    let mut out = Vec::new();
    for group in groups {
        let mut notes = Vec::new();
        let scoped = match &req.to {
            ResetTo::File(plan) => file_scope(cluster, &group, plan).await?,
            ResetTo::Scenario(s) => scope_of(cluster, &group, &req.scopes, true, &mut notes)
                .await?
                .map(|p| (p, s.clone())),
        };
        let (partitions, scenario) = match scoped {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        };
        out.push(Scoped {
            group,
            partitions,
            scenario,
            notes,
        });
    }
    Ok(Ok(out))
}

/// The broker's answer for one item (`what`: "partition", "group"): done, or why not.
fn outcome<K: Ord>(
    answers: &Result<BTreeMap<K, ErrorCode>, String>,
    key: &K,
    what: &str,
) -> Result<(), String> {
    match answers {
        Ok(a) => match a.get(key) {
            Some(ErrorCode::None) => Ok(()),
            Some(code) => Err(format!("{} ({})", code.name(), code.description())),
            None => Err(format!("the broker did not answer for this {what}")),
        },
        Err(e) => Err(e.clone()),
    }
}

/// Each row's status from the OffsetCommit answers (a partial failure leaves the rest done).
fn record_commits(
    rows: &mut [ResetRow],
    answers: &Result<BTreeMap<TopicPartition, ErrorCode>, String>,
) {
    for r in rows.iter_mut() {
        match outcome(answers, &(r.topic.clone(), r.partition), "partition") {
            Ok(()) => r.status = ActionStatus::Done,
            Err(e) => {
                r.status = ActionStatus::Failed;
                r.error = Some(e);
            }
        }
    }
}

/// Commit one group's plan; every row gets the broker's answer.
async fn commit(cluster: &mut Cluster, g: &AdminGroup, rows: &mut [ResetRow]) {
    let offsets: BTreeMap<TopicPartition, i64> = rows
        .iter()
        .map(|r| ((r.topic.clone(), r.partition), r.new_offset))
        .collect();
    let answers = cluster
        .commit_offsets(g.coordinator.id, &g.group_id, &offsets)
        .await
        .map_err(|e| e.to_string());
    record_commits(rows, &answers);
}

/// `reset-offsets`: the plan of every group, written with `execute`.
pub fn reset(client: &ClientConfig, req: ResetRequest) -> Result<ResetReport, Error> {
    run(client, move |cluster| {
        Box::pin(async move {
            let ids = group_ids(cluster, &req.groups).await?;
            let groups = read_groups(cluster, &ids).await?;
            let other = refuse_other_types(cluster, &groups).await?;
            if let Err(e) = other.and_then(|()| refuse_active(&groups, true)) {
                return Ok(Err(e));
            }
            let scoped = match reset_scopes(cluster, groups, &req).await? {
                Ok(s) => s,
                Err(e) => return Ok(Err(e)),
            };
            let timestamp = match &req.to {
                ResetTo::Scenario(ResetScenario::ToTimestamp(ts)) => Some(*ts),
                _ => None,
            };
            let all: BTreeSet<TopicPartition> =
                scoped.iter().flat_map(|s| s.partitions.clone()).collect();
            let logs = log_offsets(cluster, &all, timestamp).await?;
            let mut planned = Vec::new();
            for s in scoped {
                match plan::plan(&s.scenario, &s.partitions, &s.group.committed, &logs) {
                    Ok(p) => planned.push((s, p)),
                    Err(e) => return Ok(Err(plan_error(&s.group.group_id, e))),
                }
            }
            let mut report = ResetReport {
                execute: req.execute,
                scenario: req.label.clone(),
                groups: Vec::new(),
            };
            for (s, p) in planned {
                let mut rows: Vec<ResetRow> = p.iter().map(reset_row).collect();
                if req.execute && !rows.is_empty() {
                    commit(cluster, &s.group, &mut rows).await;
                }
                let topics: BTreeSet<String> = rows.iter().map(|r| r.topic.clone()).collect();
                report.groups.push(GroupReset {
                    group_id: s.group.group_id.clone(),
                    state: state(&s.group),
                    topics: topics.into_iter().collect(),
                    notes: s.notes,
                    partitions: rows,
                });
            }
            Ok(Ok(report))
        })
    })
}

/// `delete-offsets`: the committed offsets of a scope of one group.
pub fn delete_offsets(
    client: &ClientConfig,
    group: String,
    scopes: Vec<TopicScope>,
    execute: bool,
) -> Result<DeleteOffsetsReport, Error> {
    run(client, move |cluster| {
        Box::pin(async move {
            let groups = read_groups(cluster, std::slice::from_ref(&group)).await?;
            let other = refuse_other_types(cluster, &groups).await?;
            if let Err(e) = other.and_then(|()| refuse_active(&groups, true)) {
                return Ok(Err(e));
            }
            let g = &groups[0];
            let parts = match scope_of(cluster, g, &scopes, false, &mut Vec::new()).await? {
                Ok(p) => p,
                Err(e) => return Ok(Err(e)),
            };
            let mut report = DeleteOffsetsReport {
                execute,
                group_id: group.clone(),
                state: state(g),
                error: None,
                partitions: parts
                    .iter()
                    .map(|(t, p)| OffsetRow {
                        topic: t.clone(),
                        partition: *p,
                        current_offset: g.committed.get(&(t.clone(), *p)).copied(),
                        status: ActionStatus::Planned,
                        error: None,
                    })
                    .collect(),
            };
            if execute && !parts.is_empty() {
                let answer = cluster
                    .delete_offsets(g.coordinator.id, &group, &parts)
                    .await;
                record_deletions(&mut report, answer);
            }
            Ok(Ok(report))
        })
    })
}

fn record_deletions(
    report: &mut DeleteOffsetsReport,
    answer: KafkaResult<(ErrorCode, BTreeMap<TopicPartition, ErrorCode>)>,
) {
    let (top, per) = match answer {
        Ok(x) => x,
        Err(e) => (ErrorCode::Other(-1), {
            report.error = Some(e.to_string());
            BTreeMap::new()
        }),
    };
    if top != ErrorCode::None && report.error.is_none() {
        report.error = Some(format!("{} ({})", top.name(), top.description()));
    }
    for r in &mut report.partitions {
        match per.get(&(r.topic.clone(), r.partition)) {
            Some(ErrorCode::None) => r.status = ActionStatus::Done,
            Some(code) => {
                r.status = ActionStatus::Failed;
                r.error = Some(format!("{} ({})", code.name(), code.description()));
            }
            None => {
                r.status = ActionStatus::Failed;
                r.error = Some(report.error.clone().unwrap_or_else(|| "no answer".into()));
            }
        }
    }
}

/// The internal topics of the groups that exist in the cluster, as deletion rows.
async fn internal_topic_rows(
    cluster: &mut Cluster,
    groups: &[AdminGroup],
) -> KafkaResult<Vec<TopicDeletion>> {
    let mut rows = Vec::new();
    for g in groups {
        let subs = g
            .description
            .as_ref()
            .and_then(|d| d.topology.subtopologies.clone())
            .unwrap_or_default();
        let found = internal_topics::of_topology(&g.group_id, &subs);
        let existing = cluster.leaders(&found.delete).await?;
        let row = |topic: &String, status, note: Option<&str>| TopicDeletion {
            group_id: g.group_id.clone(),
            topic: topic.clone(),
            status,
            note: note.map(str::to_string),
            error: None,
        };
        for t in &found.delete {
            rows.push(match existing.contains_key(t) {
                true => row(t, ActionStatus::Planned, None),
                false => row(t, ActionStatus::Kept, Some("not in the cluster")),
            });
        }
        for t in &found.keep {
            rows.push(row(
                t,
                ActionStatus::Kept,
                Some("its name does not look internal (<group>-...-changelog, -repartition)"),
            ));
        }
    }
    Ok(rows)
}

/// Refuse a group id that belongs to a group of another type (a consumer group): its offsets
/// are not a streams application's. Apache's tool resets them anyway.
async fn refuse_other_types(cluster: &mut Cluster, groups: &[AdminGroup]) -> Inner<()> {
    let unknown: Vec<String> = groups
        .iter()
        .filter(|g| g.description.is_none())
        .map(|g| g.group_id.clone())
        .collect();
    if unknown.is_empty() {
        return Ok(Ok(()));
    }
    let other =
        cluster.list_groups(&[], &[]).await?.into_iter().find(|g| {
            unknown.contains(&g.group_id) && !g.group_type.eq_ignore_ascii_case("streams")
        });
    Ok(match other.map(|g| (g.group_id, g.group_type)) {
        None => Ok(()),
        Some((g, t)) => Err(Error::Kafka(kafka::error::KafkaError::Broker {
            code: ErrorCode::GroupIdNotFound,
            message: Some(format!("group `{g}` is a {t} group, not a streams group")),
            context: "refused, nothing was written".into(),
        })),
    })
}

/// Refuse groups the broker does not know as streams groups, before anything is written.
fn refuse_unknown(groups: &[AdminGroup]) -> Result<(), Error> {
    match groups.iter().find(|g| g.description.is_none()) {
        None => Ok(()),
        Some(g) => Err(Error::Kafka(kafka::error::KafkaError::Broker {
            code: ErrorCode::GroupIdNotFound,
            message: Some(format!(
                "group `{}` does not exist or is not a streams group",
                g.group_id
            )),
            context: "refused, nothing was written".into(),
        })),
    }
}

/// `delete`: the groups (their committed offsets go with them) and, with `internal_topics`,
/// their internal topics (only those of groups that were deleted).
pub fn delete(
    client: &ClientConfig,
    groups: Vec<String>,
    with_internal_topics: bool,
    execute: bool,
) -> Result<DeleteReport, Error> {
    run(client, move |cluster| {
        Box::pin(async move {
            let ids = group_ids(cluster, &GroupSelection::Groups(groups)).await?;
            let groups = read_groups(cluster, &ids).await?;
            if let Err(e) = refuse_unknown(&groups).and_then(|()| refuse_active(&groups, false)) {
                return Ok(Err(e));
            }
            let internal = match with_internal_topics {
                true => internal_topic_rows(cluster, &groups).await?,
                false => Vec::new(),
            };
            let mut report = DeleteReport {
                execute,
                groups: groups
                    .iter()
                    .map(|g| GroupDeletion {
                        group_id: g.group_id.clone(),
                        state: state(g).unwrap_or_default(),
                        committed_partitions: g.committed.len(),
                        status: ActionStatus::Planned,
                        error: None,
                    })
                    .collect(),
                internal_topics: internal,
            };
            if execute {
                execute_deletion(cluster, &ids, &mut report).await;
            }
            Ok(Ok(report))
        })
    })
}

async fn execute_deletion(cluster: &mut Cluster, ids: &[String], report: &mut DeleteReport) {
    let answers = cluster.delete_groups(ids).await.map_err(|e| e.to_string());
    for g in &mut report.groups {
        match outcome(&answers, &g.group_id, "group") {
            Ok(()) => g.status = ActionStatus::Done,
            Err(e) => {
                g.status = ActionStatus::Failed;
                g.error = Some(e);
            }
        }
    }
    let deleted: BTreeSet<&str> = report
        .groups
        .iter()
        .filter(|g| g.status == ActionStatus::Done)
        .map(|g| g.group_id.as_str())
        .collect();
    let mut to_delete = Vec::new();
    for t in &mut report.internal_topics {
        if t.status != ActionStatus::Planned {
            continue;
        }
        if deleted.contains(t.group_id.as_str()) {
            to_delete.push(t.topic.clone());
        } else {
            t.status = ActionStatus::Kept;
            t.note = Some("the group was not deleted".into());
        }
    }
    let answers = cluster.delete_topics(&to_delete).await;
    for t in report
        .internal_topics
        .iter_mut()
        .filter(|t| t.status == ActionStatus::Planned)
    {
        let answer = match &answers {
            Ok(a) => match a.get(&t.topic) {
                Some((ErrorCode::None, _)) => Ok(()),
                Some((code, msg)) => Err(match msg {
                    Some(m) if !m.is_empty() => format!("{} ({m})", code.name()),
                    _ => format!("{} ({})", code.name(), code.description()),
                }),
                None => Err("the broker did not answer for this topic".into()),
            },
            Err(e) => Err(e.to_string()),
        };
        match answer {
            Ok(()) => t.status = ActionStatus::Done,
            Err(e) => {
                t.status = ActionStatus::Failed;
                t.error = Some(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(p: i32) -> ResetRow {
        ResetRow {
            topic: "in".into(),
            partition: p,
            current_offset: Some(10),
            new_offset: 0,
            change: Some(-10),
            note: None,
            status: ActionStatus::Planned,
            error: None,
        }
    }

    #[test]
    fn a_partial_commit_says_per_partition_what_was_done() {
        let mut rows = vec![row(0), row(1), row(2)];
        let answers = Ok(BTreeMap::from([
            (("in".to_string(), 0), ErrorCode::None),
            (("in".to_string(), 1), ErrorCode::UnknownMemberId),
        ]));
        record_commits(&mut rows, &answers);
        let got: Vec<(ActionStatus, Option<&str>)> = rows
            .iter()
            .map(|r| (r.status, r.error.as_deref()))
            .collect();
        assert_eq!(got[0], (ActionStatus::Done, None));
        assert_eq!(got[1].0, ActionStatus::Failed);
        assert!(
            got[1].1.unwrap().starts_with("UNKNOWN_MEMBER_ID ("),
            "{got:?}"
        );
        assert_eq!(
            got[2],
            (
                ActionStatus::Failed,
                Some("the broker did not answer for this partition")
            )
        );
        let report = ResetReport {
            execute: true,
            scenario: "to-earliest".into(),
            groups: vec![GroupReset {
                group_id: "g".into(),
                state: Some("Empty".into()),
                topics: vec!["in".into()],
                notes: vec![],
                partitions: rows,
            }],
        };
        assert!(report.failed(), "a partial failure exits 4");
        let mut rows = vec![row(0)];
        record_commits(&mut rows, &Err("timed out".into()));
        assert_eq!(rows[0].error.as_deref(), Some("timed out"));
    }

    #[test]
    fn deletions_record_the_group_level_error_on_every_partition() {
        let mut report = DeleteOffsetsReport {
            execute: true,
            group_id: "g".into(),
            state: None,
            error: None,
            partitions: vec![OffsetRow {
                topic: "in".into(),
                partition: 0,
                current_offset: None,
                status: ActionStatus::Planned,
                error: None,
            }],
        };
        record_deletions(
            &mut report,
            Ok((ErrorCode::GroupIdNotFound, BTreeMap::new())),
        );
        assert!(report.failed());
        assert!(report
            .error
            .as_deref()
            .unwrap()
            .starts_with("GROUP_ID_NOT_FOUND"));
        assert_eq!(report.partitions[0].status, ActionStatus::Failed);
        assert_eq!(report.partitions[0].error, report.error);
    }

    #[test]
    fn a_group_with_members_is_refused_naming_them() {
        use model::group::{CoordinatorNode, GroupDescription};
        let snap: model::group::Snapshot = serde_json::from_str(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/snapshots/wordcount-epoch3.json"
            ))
            .unwrap(),
        )
        .unwrap();
        let d: GroupDescription = snap.groups[0].clone();
        let n = d.members.len();
        let g = AdminGroup {
            group_id: d.group_id.clone(),
            description: Some(d),
            coordinator: CoordinatorNode {
                id: 1,
                host: "h".into(),
                port: 1,
            },
            committed: BTreeMap::new(),
        };
        let Err(Error::GroupActive(a)) = refuse_active(std::slice::from_ref(&g), true) else {
            panic!("not refused");
        };
        assert_eq!(a.members.len(), n);
        assert!(a.to_string().contains("live member(s)"), "{a}");
        // A large group: three members named, then how to see the rest.
        let big = crate::error::ActiveGroup {
            members: (1..=7).map(|i| format!("m{i} (process p{i})")).collect(),
            ..a.clone()
        };
        let line = big.to_string();
        assert!(line.contains("7 live member(s): m1 (process p1); m2 (process p2); m3 (process p3); and 4 more (describe --group"), "{line}");
        assert!(!line.contains("m4"), "{line}");
        let mut empty = g.clone();
        if let Some(d) = empty.description.as_mut() {
            d.state = "Empty".into();
        }
        assert!(refuse_active(&[empty], false).is_ok());
    }
}
