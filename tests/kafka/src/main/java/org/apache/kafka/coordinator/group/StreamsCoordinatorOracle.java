package org.apache.kafka.coordinator.group;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.common.runtime.CoordinatorOperationExceptionHelper;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.common.runtime.CoordinatorResult;
import org.apache.kafka.coordinator.group.metrics.GroupCoordinatorMetricsShard;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;
import org.apache.kafka.coordinator.group.streams.StreamsGroup;
import org.apache.kafka.coordinator.group.streams.StreamsGroupHeartbeatResult;
import org.apache.kafka.coordinator.group.streams.StreamsGroupMember;
import org.apache.kafka.coordinator.group.streams.TasksTuple;
import org.apache.kafka.coordinator.group.streams.topics.ConfiguredSubtopology;
import org.apache.kafka.coordinator.group.streams.topics.ConfiguredTopology;
import org.apache.kafka.timeline.SnapshotRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-process oracle of Apache Kafka's streams group coordinator (KIP-1071): Apache's own
 * {@link GroupMetadataManager} driven with a fake clock, plus the request checks that the broker
 * runs around it, behind a JSON-lines protocol on stdin/stdout. Used by streams-group's Rust
 * tests (tests/support/gmm_oracle.rs) to compare the local coordinator with Kafka 4.1, 4.2, 4.3
 * and 4.4 step by step. It lives in Apache's package because the GMM Builder is package-private.
 *
 * <h2>Protocol</h2>
 * One JSON object per line in, exactly one JSON object per line out, in order. Any op may carry
 * {@code "now_ms"}: the clock first moves there (never backwards), running every timer that is
 * due by then, one by one at its own deadline, in deadline order (ties: scheduling order).
 * Timers that fired are listed in the reply as {@code "timers":[{"key","at_ms","error"}]}
 * ({@code error} null, or Apache's error name when the timer's operation failed).
 * Malformed input (bad JSON, unknown op or field, wrong type, bad hex, trailing bytes, a
 * heartbeat version this kafka-clients lacks, time going backwards) prints one line on stderr
 * and exits with status 2; an internal failure exits with 1. EOF on stdin exits with 0.
 *
 * <pre>
 * {"op":"init","broker_config":{"group.streams.session.timeout.ms":"45000",...}}
 *     optional, first line only (otherwise Apache's defaults). Keys must be group-coordinator or
 *     share-group broker configs.
 *   -> {"ok":true,"kafka_version":"4.3.1","heartbeat_versions":[0,0]}
 *
 * {"op":"heartbeat","now_ms":N,"version":V,"request":"HEX","client_id":"c","client_host":"/127.0.0.1"}
 *     HEX: the StreamsGroupHeartbeat request body at version V (no header). client_id defaults
 *     to "client", client_host ("[name]/ip-literal", as InetAddress.toString prints it) to
 *     "/127.0.0.1". Runs, in the broker's order: KafkaApis' topic checks (internal topics,
 *     invalid names: STREAMS_INVALID_TOPOLOGY), GroupCoordinatorService's checks (unsupported
 *     features, then validity), then GroupMetadataManager.streamsGroupHeartbeat as a write
 *     operation (records replayed; on an exception no record is replayed, the soft state the
 *     handler changed stays, and the exception is mapped by CoordinatorOperationExceptionHelper).
 *   -> {"now_ms":N,"timers":[...],"response":"HEX","rejected_by":null|"kafka_apis"|"service"|"coordinator",
 *       "creatable_topics":{"t":{"partitions":P,"replication":R,"configs":{...}}},"group":SNAPSHOT|null}
 *
 * {"op":"advance","now_ms":N}
 *   -> {"now_ms":N,"timers":[...],"groups":{"g":SNAPSHOT,...}}          every known streams group
 *
 * {"op":"topics","set":{"name":partitions,...},"delete":["name",...]}
 *     creates or grows topics (shrinking is an error), deletes topics, then calls
 *     GroupMetadataManager.onMetadataUpdate(delta, image) as the KRaft metadata publisher does
 *     (4.1 and 4.2: onNewMetadataImage(image, delta); 4.1 with KRaft's own MetadataImage).
 *   -> {"now_ms":N,"timers":[...],"ok":true,"topics":{"name":partitions,...}}
 *
 * {"op":"group_config","group":"g","props":{"streams.num.standby.replicas":"1"},"delete":["k"]}
 *     kafka-configs.sh --alter --entity-type groups (--add-config / --delete-config): merges into
 *     the group's stored config, validates the result as the controller does, then applies it
 *     with GroupConfigManager.updateGroupConfig as the broker's config publisher does.
 *   -> {"now_ms":N,"timers":[...],"ok":true,"config":{...}}
 *      or {"now_ms":N,"timers":[...],"ok":false,"error":"Apache's message","error_code":"INVALID_CONFIG"}
 *
 * {"op":"describe","group":"g"}            -> {"now_ms":N,"timers":[...],"group":SNAPSHOT|null}
 * {"op":"describe"}                        -> {"now_ms":N,"timers":[...],"groups":{...}}
 *
 * SNAPSHOT, read from Apache's StreamsGroup / StreamsGroupMember objects (keys and task lists
 * sorted; task sets as [{"subtopology":"0","partitions":[0,1]}]):
 * {"group_id":"g","state":"EMPTY|NOT_READY|ASSIGNING|RECONCILING|STABLE|DEAD","group_epoch":N,
 *  "assignment_epoch":N,"assignment_timestamp_ms":N|null (null before 4.3),"topology_epoch":N|null,
 *  "validated_topology_epoch":N|null (null in 4.1),"metadata_hash":N,"configured":null|{"ready":B,"tasks":{"0":4}},
 *  "shutdown_requested_by":"m"|null,"endpoint_information_epoch":N,"last_assignment_configs":{...}|null (null in 4.1),
 *  "member_order":["m2","m1"]   (iteration order of the group's TimelineHashMap of members),
 *  "members":{"m1":{"member_epoch":N,"previous_member_epoch":N,"state":"STABLE|UNREVOKED_TASKS|UNRELEASED_TASKS|UNKNOWN",
 *     "topology_epoch":N,"process_id":"p","instance_id":null,"rack_id":null,"client_id":"c",
 *     "client_host":"/127.0.0.1","rebalance_timeout_ms":N,"client_tags":{},"user_endpoint":null|{"host","port"},
 *     "assigned":{"active":[..],"standby":[..],"warmup":[..]},"active_task_epochs":{"0":{"1":3}}|null (null in 4.1),
 *     "pending_revocation":{...},"target":{...}}}}
 * </pre>
 *
 * Not modelled: ACLs, asynchronous internal-topic creation (the caller creates the reported
 * topics with a "topics" op when it wants), the runtime's batching and commit latency, metadata
 * propagation delay, group expiration through offsets, the topology-description plugin (4.4).
 */
public final class StreamsCoordinatorOracle {

    /** An internal failure: the driver stops with status 1. */
    static final class Fatal extends RuntimeException {
        Fatal(String message) {
            super(message);
        }

        Fatal(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Malformed input: the driver stops with status 2. */
    static final class ProtocolError extends RuntimeException {
        ProtocolError(String message) {
            super(message);
        }
    }

    /** A write operation threw: nothing was replayed; {@code cause} is Apache's exception. */
    static final class OperationFailed extends Exception {
        OperationFailed(Throwable cause) {
            super(cause);
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(StreamsCoordinatorOracle.class);
    private static final int MAX_TIMER_RUNS_PER_ADVANCE = 1_000_000;
    /** With STREAMS_ORACLE_TRACE=1 every replayed record is printed on stderr. */
    private static final boolean TRACE = "1".equals(System.getenv("STREAMS_ORACLE_TRACE"));

    private final ObjectMapper json = new ObjectMapper();
    private final OracleTime time = new OracleTime(0);
    private final OracleTimer timer = new OracleTimer(time);
    private final SnapshotRegistry snapshots = OracleShims.newSnapshotRegistry();
    private final Map<Class<?>, Method> replayMethods = new HashMap<>();
    private final Set<String> groupIds = new TreeSet<>();
    private final Map<String, Map<String, String>> storedGroupConfigs = new HashMap<>();

    private GroupCoordinatorConfig config;
    private ShareGroupConfig shareConfig;
    private GroupConfigManager groupConfigManager;
    private GroupMetadataManager gmm;
    private OracleMetadata image = new OracleMetadata();
    private long lastWrittenOffset = 0;
    private int correlationId = 0;
    private ArrayNode firedTimers;

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        // Nothing but the protocol may reach stdout.
        System.setOut(System.err);
        if (args.length != 0) {
            System.err.println("usage: StreamsCoordinatorOracle < requests.jsonl > replies.jsonl (see the class comment)");
            System.exit(2);
        }
        StreamsCoordinatorOracle oracle = new StreamsCoordinatorOracle();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long lineNo = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) continue;
            try {
                out.println(oracle.json.writeValueAsString(oracle.handle(line, lineNo == 1)));
                out.flush();
            } catch (ProtocolError e) {
                System.err.println("StreamsCoordinatorOracle: line " + lineNo + ": " + e.getMessage());
                System.exit(2);
            } catch (Throwable e) {
                System.err.println("StreamsCoordinatorOracle: line " + lineNo + ": internal failure: " + e);
                e.printStackTrace(System.err);
                System.exit(1);
            }
        }
        System.exit(0);
    }

    // ------------------------------------------------------------------------------ dispatch

    private ObjectNode handle(String line, boolean first) throws Exception {
        JsonNode req;
        try {
            req = json.readTree(line);
        } catch (Exception e) {
            throw new ProtocolError("not JSON: " + e.getMessage());
        }
        if (req == null || !req.isObject()) throw new ProtocolError("a request must be a JSON object");
        String op = text(req, "op", true);
        if (gmm == null && !op.equals("init")) init(Map.of());
        switch (op) {
            case "init":
                allow(req, "op", "broker_config");
                if (!first || gmm != null) throw new ProtocolError("init must be the first line");
                init(stringMap(req, "broker_config"));
                ObjectNode r = json.createObjectNode();
                r.put("ok", true);
                r.put("kafka_version", OracleShims.kafkaVersion());
                ArrayNode versions = r.putArray("heartbeat_versions");
                versions.add(StreamsGroupHeartbeatRequestData.LOWEST_SUPPORTED_VERSION);
                versions.add(StreamsGroupHeartbeatRequestData.HIGHEST_SUPPORTED_VERSION);
                return r;
            case "heartbeat":
                allow(req, "op", "now_ms", "version", "request", "client_id", "client_host");
                return heartbeatOp(req);
            case "advance":
                allow(req, "op", "now_ms");
                if (!req.has("now_ms")) throw new ProtocolError("advance needs now_ms");
                ObjectNode a = begin(req);
                a.set("groups", allGroups());
                return a;
            case "topics":
                allow(req, "op", "now_ms", "set", "delete");
                return topicsOp(req);
            case "group_config":
                allow(req, "op", "now_ms", "group", "props", "delete");
                return groupConfigOp(req);
            case "describe":
                allow(req, "op", "now_ms", "group");
                ObjectNode d = begin(req);
                if (req.has("group")) {
                    d.set("group", snapshot(text(req, "group", true)));
                } else {
                    d.set("groups", allGroups());
                }
                return d;
            default:
                throw new ProtocolError("unknown op '" + op + "' (init|heartbeat|advance|topics|group_config|describe)");
        }
    }

    /** Moves the clock (when the request has now_ms) and starts the reply with now_ms and timers. */
    private ObjectNode begin(JsonNode req) {
        firedTimers = json.createArrayNode();
        if (req.has("now_ms")) advanceTo(longValue(req, "now_ms"));
        ObjectNode reply = json.createObjectNode();
        reply.put("now_ms", time.milliseconds());
        reply.set("timers", firedTimers);
        return reply;
    }

    // ------------------------------------------------------------------------------ set-up

    private void init(Map<String, String> brokerConfig) {
        Set<String> known = new TreeSet<>(GroupCoordinatorConfig.CONFIG_DEF.names());
        known.addAll(ShareGroupConfig.CONFIG_DEF.names());
        for (String k : brokerConfig.keySet()) {
            if (!known.contains(k)) throw new ProtocolError("broker_config: '" + k + "' is not a group coordinator config");
        }
        Map<String, Object> props = new HashMap<>(brokerConfig);
        try {
            config = GroupCoordinatorConfig.fromProps(props);
            shareConfig = new ShareGroupConfig(new AbstractConfig(
                Utils.mergeConfigs(List.of(ShareGroupConfig.CONFIG_DEF, GroupCoordinatorConfig.CONFIG_DEF)), props, false));
        } catch (RuntimeException e) {
            // The broker would not start with this configuration.
            throw new ProtocolError("broker_config rejected: " + e.getMessage());
        }
        groupConfigManager = OracleShims.newGroupConfigManager(config, shareConfig);

        snapshots.idempotentCreateSnapshot(lastWrittenOffset);
        GroupMetadataManager.Builder builder = new GroupMetadataManager.Builder()
            .withSnapshotRegistry(snapshots)
            .withTime(time)
            .withTimer(timer.proxy())
            .withExecutor(new OracleExecutor())
            .withConfig(config)
            .withGroupConfigManager(groupConfigManager)
            .withGroupCoordinatorMetricsShard(new GroupCoordinatorMetricsShard(
                snapshots, Map.of(), new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, 0)))
            .withShareGroupAssignor(config.shareGroupAssignors().get(0));
        image.installIn(builder);
        OracleShims.maybeWithStreamsGroupAssignors(builder, config);
        gmm = builder.build();
        // GroupCoordinatorShard.onLoaded
        image.loadedInto(gmm);
        gmm.onLoaded();
    }

    // ------------------------------------------------------------------------------ time

    private void advanceTo(long nowMs) {
        if (nowMs < time.milliseconds()) {
            throw new ProtocolError("now_ms " + nowMs + " is before the oracle's clock " + time.milliseconds());
        }
        for (int runs = 0; ; runs++) {
            if (runs == MAX_TIMER_RUNS_PER_ADVANCE) throw new Fatal("timers keep firing at " + time.milliseconds());
            OracleTimer.Task task = timer.nextDue(nowMs);
            if (task == null) break;
            if (task.deadlineMs > time.milliseconds()) time.setMs(task.deadlineMs);
            timer.take(task);
            ObjectNode fired = firedTimers.addObject();
            fired.put("key", task.key);
            fired.put("at_ms", time.milliseconds());
            try {
                write(() -> timer.generate(task));
                fired.putNull("error");
            } catch (OperationFailed e) {
                Throwable cause = e.getCause();
                fired.put("error", ApiError.fromThrowable(cause).error().name());
                if (cause instanceof NotCoordinatorException || cause instanceof CoordinatorLoadInProgressException) continue;
                if (!task.retry) LOG.error("timer {} failed; not retried", task.key, cause);
                timer.maybeRetry(task);
            }
        }
        time.setMs(nowMs);
    }

    // ------------------------------------------------------------------------------ write operations

    /**
     * Runs one write operation as CoordinatorRuntime.CoordinatorWriteEvent does: on an exception
     * the event completes with it and nothing is reverted (the runtime reverts only when appending
     * records fails), so soft state the handler set before throwing stays; otherwise replay the
     * records, advance the offset and snapshot. Snapshots older than the last written offset are
     * dropped at once (immediate commit).
     */
    @SuppressWarnings("unchecked")
    private <T> CoordinatorResult<T, CoordinatorRecord> write(Callable<CoordinatorResult<?, ?>> op) throws OperationFailed {
        CoordinatorResult<T, CoordinatorRecord> result;
        try {
            result = (CoordinatorResult<T, CoordinatorRecord>) op.call();
        } catch (Fatal | ProtocolError e) {
            throw e;
        } catch (Throwable e) {
            throw new OperationFailed(e);
        }
        if (result == null) return null;
        for (CoordinatorRecord record : result.records()) {
            if (TRACE) System.err.println("record @" + lastWrittenOffset + " t=" + time.milliseconds() + ": " + record);
            if (result.replayRecords()) replay(record);
            lastWrittenOffset++;
        }
        snapshots.idempotentCreateSnapshot(lastWrittenOffset);
        snapshots.deleteSnapshotsUpTo(lastWrittenOffset);
        return result;
    }

    /** GroupCoordinatorShard.replay, found by the record key's class. */
    private void replay(CoordinatorRecord record) {
        ApiMessage key = record.key();
        Method m = replayMethods.computeIfAbsent(key.getClass(), k -> {
            for (Method c : GroupMetadataManager.class.getMethods()) {
                if (c.getName().equals("replay") && c.getParameterCount() == 2 && c.getParameterTypes()[0] == k) return c;
            }
            return null;
        });
        if (m == null) throw new Fatal("no GroupMetadataManager.replay for record key " + key.getClass().getName());
        try {
            m.invoke(gmm, key, record.value() == null ? null : record.value().message());
        } catch (ReflectiveOperationException e) {
            throw new Fatal("replaying " + record + " failed: " + OracleShims.unwrap(e), OracleShims.unwrap(e));
        }
    }

    // ------------------------------------------------------------------------------ heartbeat

    private ObjectNode heartbeatOp(JsonNode req) throws Exception {
        if (!req.has("now_ms") || !req.has("version") || !req.has("request")) {
            throw new ProtocolError("heartbeat needs now_ms, version and request");
        }
        ObjectNode reply = begin(req);
        long v = longValue(req, "version");
        if (v < StreamsGroupHeartbeatRequestData.LOWEST_SUPPORTED_VERSION
            || v > StreamsGroupHeartbeatRequestData.HIGHEST_SUPPORTED_VERSION) {
            throw new ProtocolError("StreamsGroupHeartbeat v" + v + " is not supported by kafka-clients "
                + OracleShims.kafkaVersion() + " (v" + StreamsGroupHeartbeatRequestData.LOWEST_SUPPORTED_VERSION
                + "-v" + StreamsGroupHeartbeatRequestData.HIGHEST_SUPPORTED_VERSION + ")");
        }
        short version = (short) v;
        ByteBuffer buf = ByteBuffer.wrap(unhex(text(req, "request", true)));
        StreamsGroupHeartbeatRequestData request;
        try {
            request = new StreamsGroupHeartbeatRequestData(new ByteBufferAccessor(buf), version);
        } catch (RuntimeException e) {
            throw new ProtocolError("cannot parse the heartbeat request at v" + version + ": " + e);
        }
        if (buf.remaining() != 0) throw new ProtocolError(buf.remaining() + " trailing bytes after the heartbeat request");
        String clientId = req.has("client_id") ? text(req, "client_id", true) : "client";
        InetAddress address = address(req.has("client_host") ? text(req, "client_host", true) : "/127.0.0.1");
        OracleContext context = new OracleContext(clientId, address, version, correlationId++);
        if (request.groupId() != null) groupIds.add(request.groupId());

        StreamsGroupHeartbeatResponseData response;
        Map<String, CreateTopicsRequestData.CreatableTopic> creatable = Map.of();
        String rejectedBy = null;
        response = kafkaApisTopicChecks(request);
        if (response != null) {
            rejectedBy = "kafka_apis";
        } else {
            try {
                OracleShims.serviceChecks(request);
            } catch (Throwable e) {
                ApiError error = ApiError.fromThrowable(e);
                response = new StreamsGroupHeartbeatResponseData()
                    .setErrorCode(error.error().code())
                    .setErrorMessage(error.message());
                rejectedBy = "service";
            }
        }
        if (response == null) {
            try {
                CoordinatorResult<StreamsGroupHeartbeatResult, CoordinatorRecord> result =
                    write(() -> gmm.streamsGroupHeartbeat(context, request));
                response = result.response().data();
                creatable = result.response().creatableTopics();
            } catch (OperationFailed e) {
                response = CoordinatorOperationExceptionHelper.handleOperationException(
                    "streams-group-heartbeat", request, e.getCause(),
                    (error, message) -> new StreamsGroupHeartbeatResponseData()
                        .setErrorCode(error.code())
                        .setErrorMessage(message),
                    LOG);
                rejectedBy = "coordinator";
            }
        }

        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer out = ByteBuffer.allocate(response.size(cache, version));
        response.write(new ByteBufferAccessor(out), cache, version);
        reply.put("response", hex(out.array()));
        if (rejectedBy == null) reply.putNull("rejected_by");
        else reply.put("rejected_by", rejectedBy);
        ObjectNode topics = reply.putObject("creatable_topics");
        new TreeMap<>(creatable).forEach((name, t) -> {
            ObjectNode n = topics.putObject(name);
            n.put("partitions", t.numPartitions());
            n.put("replication", t.replicationFactor());
            ObjectNode configs = n.putObject("configs");
            TreeMap<String, String> sorted = new TreeMap<>();
            t.configs().forEach(c -> sorted.put(c.name(), c.value()));
            sorted.forEach(configs::put);
        });
        reply.set("group", request.groupId() == null ? null : snapshot(request.groupId()));
        return reply;
    }

    /**
     * KafkaApis.handleStreamsGroupHeartbeat's checks before the coordinator, when a topology is
     * sent: every required topic (sources, repartition sinks, repartition sources, changelogs,
     * subtopology by subtopology, first occurrence kept) must not be a Kafka-internal topic and
     * must be a valid topic name. The DESCRIBE ACL check that follows is not modelled.
     */
    private static StreamsGroupHeartbeatResponseData kafkaApisTopicChecks(StreamsGroupHeartbeatRequestData request) {
        if (request.topology() == null) return null;
        Set<String> required = new java.util.LinkedHashSet<>();
        for (StreamsGroupHeartbeatRequestData.Subtopology s : request.topology().subtopologies()) {
            required.addAll(s.sourceTopics());
            required.addAll(s.repartitionSinkTopics());
            s.repartitionSourceTopics().forEach(t -> required.add(t.name()));
            s.stateChangelogTopics().forEach(t -> required.add(t.name()));
        }
        List<String> internal = new ArrayList<>();
        List<String> invalid = new ArrayList<>();
        for (String t : required) {
            if (Topic.isInternal(t)) internal.add(t);
            if (!Topic.isValid(t)) invalid.add(t);
        }
        if (!internal.isEmpty()) {
            return new StreamsGroupHeartbeatResponseData()
                .setErrorCode(Errors.STREAMS_INVALID_TOPOLOGY.code())
                .setErrorMessage("Use of Kafka internal topics " + String.join(",", internal)
                    + " in a Kafka Streams topology is prohibited.");
        }
        if (!invalid.isEmpty()) {
            return new StreamsGroupHeartbeatResponseData()
                .setErrorCode(Errors.STREAMS_INVALID_TOPOLOGY.code())
                .setErrorMessage("Topic names " + String.join(",", invalid) + " are not valid topic names.");
        }
        return null;
    }

    // ------------------------------------------------------------------------------ topics and configs

    private ObjectNode topicsOp(JsonNode req) {
        ObjectNode reply = begin(req);
        Map<String, Integer> set = new TreeMap<>();
        if (req.has("set")) {
            JsonNode s = req.get("set");
            if (!s.isObject()) throw new ProtocolError("topics: set must be an object of name to partition count");
            s.fields().forEachRemaining(e -> {
                if (!e.getValue().canConvertToInt()) throw new ProtocolError("topics: partition count of '" + e.getKey() + "' must be an integer");
                set.put(e.getKey(), e.getValue().intValue());
            });
        }
        List<String> delete = stringList(req, "delete");
        try {
            image = image.update(gmm, set, delete);
        } catch (IllegalArgumentException | org.apache.kafka.common.errors.InvalidTopicException e) {
            throw new ProtocolError("topics: " + e.getMessage());
        }
        reply.put("ok", true);
        ObjectNode topics = reply.putObject("topics");
        image.partitionCounts().forEach(topics::put);
        return reply;
    }

    private ObjectNode groupConfigOp(JsonNode req) {
        ObjectNode reply = begin(req);
        String group = text(req, "group", true);
        Map<String, String> merged = new TreeMap<>(storedGroupConfigs.getOrDefault(group, Map.of()));
        merged.putAll(stringMap(req, "props"));
        for (String k : stringList(req, "delete")) merged.remove(k);
        try {
            if (group.isEmpty()) throw new org.apache.kafka.common.errors.InvalidRequestException("Default group resources are not allowed.");
            OracleShims.validateGroupConfig(new HashMap<>(merged), config, shareConfig);
        } catch (Throwable e) {
            ApiError error = ApiError.fromThrowable(e);
            reply.put("ok", false);
            reply.put("error", error.message());
            reply.put("error_code", error.error().name());
            return reply;
        }
        storedGroupConfigs.put(group, merged);
        java.util.Properties props = new java.util.Properties();
        props.putAll(merged);
        groupConfigManager.updateGroupConfig(group, props);
        groupIds.add(group);
        reply.put("ok", true);
        ObjectNode c = reply.putObject("config");
        merged.forEach(c::put);
        return reply;
    }

    // ------------------------------------------------------------------------------ snapshots

    private ObjectNode allGroups() {
        ObjectNode groups = json.createObjectNode();
        for (String id : groupIds) {
            ObjectNode s = snapshot(id);
            if (s != null) groups.set(id, s);
        }
        return groups;
    }

    private ObjectNode snapshot(String groupId) {
        StreamsGroup group;
        try {
            group = gmm.streamsGroup(groupId);
        } catch (GroupIdNotFoundException e) {
            return null;
        }
        ObjectNode g = json.createObjectNode();
        g.put("group_id", group.groupId());
        g.put("state", group.state().name());
        g.put("group_epoch", group.groupEpoch());
        g.put("assignment_epoch", group.assignmentEpoch());
        Long ts = OracleShims.assignmentTimestamp(group);
        if (ts == null) g.putNull("assignment_timestamp_ms");
        else g.put("assignment_timestamp_ms", ts);
        if (group.topology().isPresent()) g.put("topology_epoch", group.topology().get().topologyEpoch());
        else g.putNull("topology_epoch");
        Integer validated = OracleShims.validatedTopologyEpoch(group);
        if (validated == null) g.putNull("validated_topology_epoch");
        else g.put("validated_topology_epoch", validated);
        g.put("metadata_hash", group.metadataHash());
        if (group.configuredTopology().isPresent()) {
            ConfiguredTopology ct = group.configuredTopology().get();
            ObjectNode c = g.putObject("configured");
            c.put("ready", ct.isReady());
            ObjectNode tasks = c.putObject("tasks");
            if (ct.subtopologies().isPresent()) {
                SortedMap<String, ConfiguredSubtopology> subs = ct.subtopologies().get();
                new TreeMap<>(subs).forEach((id, s) -> tasks.put(id, s.numberOfTasks()));
            }
        } else {
            g.putNull("configured");
        }
        if (group.getShutdownRequestMemberId().isPresent()) g.put("shutdown_requested_by", group.getShutdownRequestMemberId().get());
        else g.putNull("shutdown_requested_by");
        g.put("endpoint_information_epoch", group.endpointInformationEpoch());
        Map<String, String> lastConfigs = OracleShims.lastAssignmentConfigs(group);
        if (lastConfigs == null) {
            g.putNull("last_assignment_configs");
        } else {
            ObjectNode configs = g.putObject("last_assignment_configs");
            new TreeMap<>(lastConfigs).forEach(configs::put);
        }
        ArrayNode order = g.putArray("member_order");
        Map<String, TasksTuple> targets = group.targetAssignment();
        TreeMap<String, StreamsGroupMember> sorted = new TreeMap<>();
        for (Map.Entry<String, StreamsGroupMember> e : group.members().entrySet()) {
            order.add(e.getKey());
            sorted.put(e.getKey(), e.getValue());
        }
        ObjectNode members = g.putObject("members");
        sorted.forEach((id, m) -> members.set(id, member(m, targets.getOrDefault(id, TasksTuple.EMPTY))));
        return g;
    }

    private ObjectNode member(StreamsGroupMember m, TasksTuple target) {
        ObjectNode n = json.createObjectNode();
        n.put("member_epoch", m.memberEpoch());
        n.put("previous_member_epoch", m.previousMemberEpoch());
        n.put("state", m.state().name());
        n.put("topology_epoch", m.topologyEpoch());
        n.put("process_id", m.processId());
        n.put("instance_id", m.instanceId().orElse(null));
        n.put("rack_id", m.rackId().orElse(null));
        n.put("client_id", m.clientId());
        n.put("client_host", m.clientHost());
        n.put("rebalance_timeout_ms", m.rebalanceTimeoutMs());
        ObjectNode tags = n.putObject("client_tags");
        new TreeMap<>(m.clientTags()).forEach(tags::put);
        if (m.userEndpoint().isPresent()) {
            ObjectNode ep = n.putObject("user_endpoint");
            ep.put("host", m.userEndpoint().get().host());
            ep.put("port", m.userEndpoint().get().port());
        } else {
            n.putNull("user_endpoint");
        }
        OracleShims.Tasks assigned = OracleShims.tasks(m.assignedTasks());
        n.set("assigned", tasks(assigned.active, assigned.standby, assigned.warmup));
        if (assigned.activeEpochs == null) n.putNull("active_task_epochs");
        else n.set("active_task_epochs", taskEpochs(assigned.activeEpochs));
        OracleShims.Tasks pending = OracleShims.tasks(m.tasksPendingRevocation());
        n.set("pending_revocation", tasks(pending.active, pending.standby, pending.warmup));
        n.set("target", tasks(target.activeTasks(), target.standbyTasks(), target.warmupTasks()));
        return n;
    }

    private ObjectNode tasks(Map<String, Set<Integer>> active, Map<String, Set<Integer>> standby, Map<String, Set<Integer>> warmup) {
        ObjectNode n = json.createObjectNode();
        n.set("active", taskSet(active));
        n.set("standby", taskSet(standby));
        n.set("warmup", taskSet(warmup));
        return n;
    }

    /** As streams-group's TaskSet serializes: [{"subtopology":"0","partitions":[0,1]}], sorted, no empty entries. */
    private ArrayNode taskSet(Map<String, Set<Integer>> tasks) {
        ArrayNode a = json.createArrayNode();
        new TreeMap<>(tasks).forEach((s, ps) -> {
            if (ps.isEmpty()) return;
            ObjectNode e = a.addObject();
            e.put("subtopology", s);
            ArrayNode parts = e.putArray("partitions");
            new TreeSet<>(ps).forEach(parts::add);
        });
        return a;
    }

    private ObjectNode taskEpochs(Map<String, Map<Integer, Integer>> epochs) {
        ObjectNode n = json.createObjectNode();
        new TreeMap<>(epochs).forEach((s, ps) -> {
            if (ps.isEmpty()) return;
            ObjectNode e = n.putObject(s);
            new TreeMap<>(ps).forEach((p, ep) -> e.put(String.valueOf(p), ep));
        });
        return n;
    }

    // ------------------------------------------------------------------------------ JSON helpers

    private static void allow(JsonNode req, String... keys) {
        Set<String> ok = Set.of(keys);
        for (Iterator<String> it = req.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!ok.contains(k)) throw new ProtocolError("unknown field '" + k + "' for op " + req.get("op"));
        }
    }

    private static String text(JsonNode req, String key, boolean required) {
        JsonNode v = req.get(key);
        if (v == null || v.isNull()) {
            if (required) throw new ProtocolError("missing '" + key + "'");
            return null;
        }
        if (!v.isTextual()) throw new ProtocolError("'" + key + "' must be a string");
        return v.textValue();
    }

    private static long longValue(JsonNode req, String key) {
        JsonNode v = req.get(key);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) throw new ProtocolError("'" + key + "' must be an integer");
        return v.longValue();
    }

    /** An object of string values (numbers and booleans are taken as their text). */
    private static Map<String, String> stringMap(JsonNode req, String key) {
        Map<String, String> out = new TreeMap<>();
        JsonNode v = req.get(key);
        if (v == null || v.isNull()) return out;
        if (!v.isObject()) throw new ProtocolError("'" + key + "' must be an object");
        v.fields().forEachRemaining(e -> {
            JsonNode x = e.getValue();
            if (!x.isValueNode() || x.isNull()) throw new ProtocolError("'" + key + "." + e.getKey() + "' must be a string");
            out.put(e.getKey(), x.asText());
        });
        return out;
    }

    private static List<String> stringList(JsonNode req, String key) {
        List<String> out = new ArrayList<>();
        JsonNode v = req.get(key);
        if (v == null || v.isNull()) return out;
        if (!v.isArray()) throw new ProtocolError("'" + key + "' must be an array of strings");
        v.forEach(x -> {
            if (!x.isTextual()) throw new ProtocolError("'" + key + "' must be an array of strings");
            out.add(x.textValue());
        });
        return out;
    }

    /** "[hostname]/ip-literal" (InetAddress.toString) or a bare IP literal; never a DNS lookup. */
    private static InetAddress address(String text) {
        int slash = text.indexOf('/');
        String host = slash < 0 ? null : text.substring(0, slash);
        String ip = slash < 0 ? text : text.substring(slash + 1);
        if (!ip.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") && !ip.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
            throw new ProtocolError("client_host '" + text + "' must be [name]/ip-literal, e.g. /127.0.0.1");
        }
        try {
            byte[] bytes = InetAddress.getByName(ip).getAddress();
            return InetAddress.getByAddress(host == null || host.isEmpty() ? null : host, bytes);
        } catch (Exception e) {
            throw new ProtocolError("client_host '" + text + "': " + e.getMessage());
        }
    }

    private static byte[] unhex(String s) {
        if (s.length() % 2 != 0) throw new ProtocolError("hex of odd length");
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16);
            int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) throw new ProtocolError("not hex at offset " + (2 * i));
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        return sb.toString();
    }
}
