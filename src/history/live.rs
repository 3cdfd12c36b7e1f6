//! Reading a group's records from its `__consumer_offsets` partition over the wire.

use std::collections::{BTreeMap, BTreeSet};

use kafka::batches::{read_batches, Batch};
use kafka::client::{block_on, Cluster, LeaderlessOr};
use kafka::codec::fetch::FetchRequest;
use kafka::config::ClientConfig;
use kafka::error::{KafkaError, KafkaResult};

use crate::source::live::settings;
use coordinator::broker_settings::BrokerSettings;
use coordinator::config::GroupConfig;
use model::group::ClusterSettings;
use model::KafkaVersion;

use super::pass::Listener;
use super::records::{group_of, GroupKind};
use super::replay::ReplayedGroup;
use super::report::{HistoryReport, Window};
use super::split::{writes_of_batch, LogRecord};
use super::verify::Verifier;
use super::{consumer_offsets_partition, Write};

pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// Bytes asked for per fetch: a few batches of a busy partition, far below any frame limit.
const FETCH_BYTES: i32 = 4 * 1024 * 1024;

/// The group's records as its partition holds them now.
#[derive(Clone, Debug, Default)]
pub struct GroupLog {
    pub partition: i32,
    /// The partition's leader, which is the group's coordinator.
    pub leader: i32,
    /// The first offset the partition still has (older records were deleted or compacted).
    pub log_start_offset: i64,
    /// Reading stopped here: the high watermark when it began.
    pub high_watermark: i64,
    /// The batches that hold records of the group, in offset order, with only those records.
    pub batches: Vec<Batch>,
    pub control_batches: u64,
    pub aborted_batches: u64,
    /// Batches read, of every group, by compression codec.
    pub codecs: BTreeMap<&'static str, u64>,
    /// What the reader noticed (a coordinator that is not the partition's leader, ...).
    pub notes: Vec<String>,
    /// The last offset up to which compaction removed records (closed segments keep only the
    /// last value per key): the group's decisions before it may be incomplete.
    pub compacted_through: Option<i64>,
}

impl GroupLog {
    /// The group's coordinator writes, for the pure replay: each batch cut into the writes it
    /// holds.
    pub fn writes(&self) -> Vec<Write> {
        self.batches
            .iter()
            .flat_map(|b| {
                let records = b
                    .records
                    .iter()
                    .map(|r| LogRecord {
                        offset: r.offset,
                        timestamp_ms: r.timestamp_ms,
                        key: r.key.clone().unwrap_or_default(),
                        value: r.value.clone(),
                    })
                    .collect();
                writes_of_batch(b.base_offset, records)
            })
            .collect()
    }
}

/// Read every record of `group` in its partition, from the log start to the high watermark
/// seen at the start. `progress` is told (offset reached, high watermark) after each fetch.
pub async fn read_group_log(
    cluster: &mut Cluster,
    group: &str,
    progress: &mut dyn FnMut(i64, i64),
) -> KafkaResult<GroupLog> {
    let topics = BTreeSet::from([OFFSETS_TOPIC.to_string()]);
    let leaders = cluster.leaders(&topics).await?;
    let Some(parts) = leaders.get(OFFSETS_TOPIC).filter(|p| !p.is_empty()) else {
        return Err(KafkaError::Broker {
            code: model::ErrorCode::UnknownTopicOrPartition,
            message: Some(format!(
                "this principal sees no {OFFSETS_TOPIC}: either no group was ever coordinated \
                 on this cluster, or it lacks the ACL Topic:{OFFSETS_TOPIC} READ (and DESCRIBE): \
                 kafka-acls.sh --add --allow-principal User:NAME --operation Read --operation \
                 Describe --topic {OFFSETS_TOPIC}"
            )),
            context: format!("reading the records of `{group}`"),
        });
    };
    let partition = consumer_offsets_partition(group, parts.len() as i32);
    let leader = parts.get(&partition).copied().unwrap_or(-1);
    let mut log = GroupLog {
        partition,
        leader,
        ..GroupLog::default()
    };
    if let Some(c) = cluster
        .find_coordinators(&[group.to_string()])
        .await?
        .get(group)
    {
        if c.id != leader {
            log.notes.push(format!(
                "FindCoordinator names broker {} for `{group}`, but {OFFSETS_TOPIC}-{partition} \
                 is led by broker {leader}: the partition may be moving",
                c.id
            ));
        }
    }
    let at = BTreeMap::from([((OFFSETS_TOPIC.to_string(), partition), leader)]);
    let offset = |r: BTreeMap<(String, i32), Result<i64, LeaderlessOr>>| {
        r.into_values().next().and_then(Result::ok)
    };
    let unreadable = || KafkaError::Config(format!("{OFFSETS_TOPIC}-{partition}: no offsets"));
    log.log_start_offset =
        offset(cluster.list_offsets_at(&at, -2).await?).ok_or_else(unreadable)?;
    log.high_watermark = offset(cluster.list_offsets_at(&at, -1).await?).ok_or_else(unreadable)?;
    read_range(cluster, group, &mut log, progress).await?;
    Ok(log)
}

/// Fetch from the log start to the high watermark, keeping the group's records.
async fn read_range(
    cluster: &mut Cluster,
    group: &str,
    log: &mut GroupLog,
    progress: &mut dyn FnMut(i64, i64),
) -> KafkaResult<()> {
    let mut offset = log.log_start_offset;
    let keep = |key: &[u8]| group_of(key).is_some_and(|(_, g)| g == group);
    while offset < log.high_watermark {
        let request = FetchRequest {
            topic: OFFSETS_TOPIC.into(),
            partition: log.partition,
            offset,
            max_wait_ms: 100,
            max_bytes: FETCH_BYTES,
        };
        // The leader may move while a big partition is read (a rolling restart): follow it.
        let (leader, fetched) = cluster.fetch_from_leader(log.leader, &request).await?;
        if leader != log.leader {
            log.notes.push(format!(
                "{OFFSETS_TOPIC}-{} moved from broker {} to broker {leader} during the read",
                log.partition, log.leader
            ));
            log.leader = leader;
        }
        if fetched.error_code != 0 {
            return Err(fetch_error(fetched.error_code, log, offset));
        }
        let read = read_batches(&fetched.records, &fetched.aborted, &keep).map_err(|e| {
            KafkaError::Protocol {
                addr: format!("broker {}", log.leader),
                detail: format!("{OFFSETS_TOPIC}-{}: {e}", log.partition),
            }
        })?;
        let skipped_to = read
            .first_offset
            .filter(|first| *first > offset)
            .map(|f| f - 1);
        log.compacted_through = log
            .compacted_through
            .max(skipped_to)
            .max(read.missing_through);
        log.control_batches += read.control_batches;
        log.aborted_batches += read.aborted_batches;
        for (codec, n) in read.codecs {
            *log.codecs.entry(codec).or_default() += n;
        }
        let hw = log.high_watermark;
        log.batches.extend(
            read.batches
                .into_iter()
                .filter(|b| b.base_offset < hw && !b.records.is_empty()),
        );
        match read.next_offset {
            Some(next) if next > offset => offset = next,
            // Nothing whole came back below the high watermark: the rest is not readable yet.
            _ => break,
        }
        progress(offset.min(hw), hw);
    }
    Ok(())
}

/// A Fetch error, with what to grant when the principal may not read the topic.
fn fetch_error(code: i16, log: &GroupLog, offset: i64) -> KafkaError {
    let code = model::ErrorCode::from_code(code);
    let message = (code == model::ErrorCode::TopicAuthorizationFailed).then(|| {
        format!(
            "history needs the ACL Topic:{OFFSETS_TOPIC} READ (and DESCRIBE) for this principal: \
             kafka-acls.sh --add --allow-principal User:NAME --operation Read --operation \
             Describe --topic {OFFSETS_TOPIC}"
        )
    });
    KafkaError::Broker {
        code,
        message,
        context: format!(
            "reading {OFFSETS_TOPIC}-{} at offset {offset} from broker {}",
            log.partition, log.leader
        ),
    }
}

/// A group id whose records are not a streams group's is refused as `describe` refuses it
/// (GROUP_ID_NOT_FOUND, "Group G is not a streams group."), naming what it is: its type as
/// the broker lists it, else as its last records show. Offsets alone (a classic group that
/// only committed, e.g. by `kafka-consumer-groups.sh --reset-offsets`) show no kind: the
/// broker's list tells, while the group exists.
async fn refuse_other_kinds(cluster: &mut Cluster, group: &str, log: &GroupLog) -> KafkaResult<()> {
    let types = log
        .batches
        .iter()
        .flat_map(|b| &b.records)
        .filter_map(|r| group_of(r.key.as_deref()?).map(|(t, _)| t));
    let from_records = GroupKind::of_log(types);
    if from_records == Some(GroupKind::Streams) || log.batches.is_empty() {
        return Ok(());
    }
    let listed = cluster.list_groups(&[], &[]).await?;
    let listed = listed.into_iter().find(|g| g.group_id == group);
    let (what, tool) = match (&listed, from_records) {
        (Some(g), _) if g.group_type.eq_ignore_ascii_case("streams") => return Ok(()),
        (Some(g), _) => {
            let kind = g.group_type.to_ascii_lowercase();
            let tool = match kind.as_str() {
                "share" => "kafka-share-groups.sh",
                _ => "kafka-consumer-groups.sh",
            };
            (format!("it is a {kind} group"), tool)
        }
        (None, Some(GroupKind::Share)) => (
            "its records are a share group's".to_string(),
            "kafka-share-groups.sh",
        ),
        (None, Some(k)) => (
            format!("its records are a {} group's", k.name()),
            "kafka-consumer-groups.sh",
        ),
        (None, None) => (
            "its records are offset commits only".to_string(),
            "kafka-consumer-groups.sh",
        ),
    };
    let records: usize = log.batches.iter().map(|b| b.records.len()).sum();
    Err(KafkaError::Broker {
        code: model::ErrorCode::GroupIdNotFound,
        message: Some(format!(
            "Group {group} is not a streams group: {what} ({records} records in \
             {OFFSETS_TOPIC}-{}); `{tool} --describe --group {group}` shows it",
            log.partition
        )),
        context: format!("streams group `{group}`"),
    })
}

/// What one connection read: the group's story, the group at the window's end and the partition
/// counts of the topics its topology names.
struct Read {
    report: HistoryReport,
    replayed: ReplayedGroup,
    counts: BTreeMap<String, i32>,
}

/// Read the group's log and replay it once: the story, and `verifier` when given.
async fn read(
    cluster: &mut Cluster,
    group: &str,
    window: Window,
    verifier: Option<&mut Verifier>,
    progress: &mut dyn FnMut(i64, i64),
) -> KafkaResult<Read> {
    let log = read_group_log(cluster, group, progress).await?;
    refuse_other_kinds(cluster, group, &log).await?;
    let verifier = verifier.map(|v| v as &mut dyn Listener);
    let (mut report, mut replayed) = super::report::build(group, &log.writes(), window, verifier);
    // The topology record leaves internal topics unsized: the cluster's counts now stand in.
    let topics = replayed.topics();
    let counts: BTreeMap<String, i32> = match topics.is_empty() {
        true => BTreeMap::new(),
        false => cluster
            .leaders(&topics)
            .await?
            .into_iter()
            .map(|(t, parts)| (t, parts.len() as i32))
            .collect(),
    };
    replayed.size_internal_topics(&counts);
    report.partition = log.partition;
    report.coordinator = log.leader;
    report.log_start_offset = log.log_start_offset;
    report.high_watermark = log.high_watermark;
    report.notes = log.notes;
    report.compacted_through = log.compacted_through;
    report.batches_by_codec = log
        .codecs
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    Ok(Read {
        report,
        replayed,
        counts,
    })
}

/// Read the group's partition and tell its story inside `window`: the report, and the group
/// as it was at the window's end. Every request is bounded by the client's timeout; the read
/// as a whole is not (a big partition takes a while: `progress` shows it).
pub fn read_history(
    client: &ClientConfig,
    group: &str,
    window: Window,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<(HistoryReport, ReplayedGroup), KafkaError> {
    kafka::limits::check_group_ids(&[group])?;
    let r = block_on(async {
        let mut cluster = Cluster::connect(client.clone()).await?;
        read(&mut cluster, group, window, None, progress).await
    })
    .map_err(|e| KafkaError::Runtime(format!("cannot start the runtime: {e}")))??;
    Ok((r.report, r.replayed))
}

/// Read the group's whole history and recompute every target assignment in it with the local
/// coordinator of `version` (default: the release the broker and the records show). The
/// writes are replayed once, for the story and the verifier together.
pub fn verify_history(
    client: &ClientConfig,
    group: &str,
    version: Option<KafkaVersion>,
    progress: &mut dyn FnMut(i64, i64),
) -> Result<HistoryReport, KafkaError> {
    kafka::limits::check_group_ids(&[group])?;
    let mut verifier = Verifier::default();
    let (r, wire, configs) = block_on(async {
        let mut cluster = Cluster::connect(client.clone()).await?;
        let window = Window::default();
        let r = read(&mut cluster, group, window, Some(&mut verifier), progress).await?;
        let wire = cluster.describe_groups(&[group.to_string()]).await?.version;
        let configs = settings(&mut cluster, r.report.coordinator, group).await?;
        Ok::<_, KafkaError>((r, wire, configs))
    })
    .map_err(|e| KafkaError::Runtime(format!("cannot start the runtime: {e}")))??;
    let fallback = group_config_now(&configs)?;
    let (verification, notes) = verifier.verify_release(version, wire, &r.counts, &fallback);
    let mut report = r.report;
    report.notes.extend(notes);
    report.verification = Some(verification);
    Ok(report)
}

/// The group's configs now, over the coordinator's defaults, as DescribeConfigs read them.
fn group_config_now(configs: &ClusterSettings) -> Result<GroupConfig, KafkaError> {
    let broker = match &configs.broker {
        Some(b) => BrokerSettings::from_reported(b)
            .map_err(|e| KafkaError::Config(format!("the coordinator's settings: {e}")))?,
        None => BrokerSettings::default(),
    };
    broker
        .group_config_recorded(configs)
        .map_err(|e| KafkaError::Config(format!("the group's configs: {e}")))
}
