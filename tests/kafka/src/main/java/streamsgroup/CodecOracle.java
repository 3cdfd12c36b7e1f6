package streamsgroup;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.protocol.Readable;

/**
 * Codec oracle for streams-group's StreamsGroupHeartbeat (88) / StreamsGroupDescribe (89) codecs,
 * using kafka-clients' generated message classes.
 *
 * <pre>
 *   CodecOracle encode CASE VERSION          print hex of a realistic built-in message
 *       CASE: describe-request | describe-response | heartbeat-request | heartbeat-response
 *   CodecOracle roundtrip API KIND VERSION   read hex on stdin, parse, write back as hex
 *       API: 88 | 89, KIND: request | response
 *   CodecOracle max API KIND                 print the highest version this kafka-clients has
 * </pre>
 *
 * Messages are built by reflection (setters named after the schema fields) so that this file
 * compiles against every kafka-clients version the harness uses (4.3 lacks the v1 fields).
 * Exit status 3 with "UNSUPPORTED" on stdout when the version is above what the jar knows.
 */
public final class CodecOracle {
    private static final String PKG = "org.apache.kafka.common.message.";

    private CodecOracle() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("encode")) {
            short v = Short.parseShort(args[2]);
            ApiMessage m = build(args[1], v);
            if (v > m.highestSupportedVersion()) unsupported(args[1], v, m.highestSupportedVersion());
            System.out.println(hex(write(m, v)));
        } else if (args.length == 4 && args[0].equals("roundtrip")) {
            short v = Short.parseShort(args[3]);
            String cls = PKG + className(args[1], args[2]);
            Class<?> c = Class.forName(cls);
            short max = c.getField("HIGHEST_SUPPORTED_VERSION").getShort(null);
            if (v > max) unsupported(cls, v, max);
            byte[] in = unhex(new String(readAll(System.in), StandardCharsets.US_ASCII));
            ByteBuffer buf = ByteBuffer.wrap(in);
            Constructor<?> ctor = c.getConstructor(Readable.class, short.class);
            Message m = (Message) ctor.newInstance(new ByteBufferAccessor(buf), v);
            if (buf.remaining() != 0) {
                System.err.println("CodecOracle: " + buf.remaining() + " trailing bytes after " + cls);
                System.exit(1);
            }
            System.out.println(hex(write(m, v)));
        } else if (args.length == 3 && args[0].equals("max")) {
            Class<?> c = Class.forName(PKG + className(args[1], args[2]));
            System.out.println(c.getField("HIGHEST_SUPPORTED_VERSION").getShort(null));
        } else {
            System.err.println("usage: CodecOracle encode CASE VERSION | roundtrip API KIND VERSION | max API KIND");
            System.exit(2);
        }
    }

    private static void unsupported(String what, short v, short max) {
        System.out.println("UNSUPPORTED " + what + " v" + v + " (this kafka-clients has up to v" + max + ")");
        System.exit(3);
    }

    private static String className(String api, String kind) {
        String base;
        switch (api) {
            case "88": case "heartbeat": base = "StreamsGroupHeartbeat"; break;
            case "89": case "describe": base = "StreamsGroupDescribe"; break;
            default: throw new IllegalArgumentException("API must be 88 or 89, not " + api);
        }
        switch (kind) {
            case "request": return base + "RequestData";
            case "response": return base + "ResponseData";
            default: throw new IllegalArgumentException("KIND must be request or response, not " + kind);
        }
    }

    private static byte[] write(Message m, short v) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = m.size(cache, v);
        ByteBuffer buf = ByteBuffer.allocate(size);
        m.write(new ByteBufferAccessor(buf), cache, v);
        return buf.array();
    }

    // ------------------------------------------------------------------ reflective builder

    /** New instance of a message class (nested classes with '$'), then setters by field name. */
    private static Object o(String cls, Object... kv) {
        try {
            Object obj = Class.forName(PKG + cls).getConstructor().newInstance();
            for (int i = 0; i < kv.length; i += 2) set(obj, (String) kv[i], kv[i + 1]);
            return obj;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + cls + ": " + e, e);
        }
    }

    /** Call setNAME if the class has it (fields missing in older versions are skipped). */
    private static void set(Object obj, String name, Object value) throws ReflectiveOperationException {
        for (Method m : obj.getClass().getMethods()) {
            if (!m.getName().equals("set" + name) || m.getParameterCount() != 1) continue;
            Class<?> t = m.getParameterTypes()[0];
            Object arg = value;
            if (value instanceof Number) {
                Number n = (Number) value;
                if (t == byte.class) arg = n.byteValue();
                else if (t == short.class) arg = n.shortValue();
                else if (t == int.class) arg = n.intValue();
                else if (t == long.class) arg = n.longValue();
            }
            m.invoke(obj, arg);
            return;
        }
    }

    private static boolean has(String cls, String setter) {
        try {
            for (Method m : Class.forName(PKG + cls).getMethods()) if (m.getName().equals("set" + setter)) return true;
            return false;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @SafeVarargs
    private static <T> List<T> list(T... xs) {
        return new ArrayList<>(Arrays.asList(xs));
    }

    // ------------------------------------------------------------------ realistic messages

    private static ApiMessage build(String name, short v) {
        switch (name) {
            case "describe-request": return describeRequest(v);
            case "describe-response": return describeResponse(v);
            case "heartbeat-request": return heartbeatRequest();
            case "heartbeat-response": return heartbeatResponse(v);
            default: throw new IllegalArgumentException("unknown case " + name);
        }
    }

    private static ApiMessage describeRequest(short v) {
        Object r = o("StreamsGroupDescribeRequestData",
            "GroupIds", list("word-count", "orders"),
            "IncludeAuthorizedOperations", true);
        if (v >= 1) { try { set(r, "IncludeTopologyDescription", true); } catch (ReflectiveOperationException e) { throw new IllegalStateException(e); } }
        return (ApiMessage) r;
    }

    private static Object dTaskIds(String sub, Integer... parts) {
        return o("StreamsGroupDescribeResponseData$TaskIds", "SubtopologyId", sub, "Partitions", list(parts));
    }

    private static Object dTaskOffset(String sub, int p, long off) {
        return o("StreamsGroupDescribeResponseData$TaskOffset", "SubtopologyId", sub, "Partition", p, "Offset", off);
    }

    private static Object dMember(int i) {
        String d = "StreamsGroupDescribeResponseData$";
        Object assignment = o(d + "Assignment",
            "ActiveTasks", list(dTaskIds("0", i), dTaskIds("1", i, 3)),
            "StandbyTasks", list(dTaskIds("1", (i + 1) % 3)),
            "WarmupTasks", i == 1 ? list(dTaskIds("0", 2)) : list());
        Object target = o(d + "Assignment",
            "ActiveTasks", list(dTaskIds("0", i), dTaskIds("1", i)),
            "StandbyTasks", list(dTaskIds("1", (i + 1) % 3)),
            "WarmupTasks", list());
        return o(d + "Member",
            "MemberId", "member-" + i + "-" + "x".repeat(i * 7),
            "MemberEpoch", 7 + i,
            "InstanceId", i == 0 ? "instance-0" : null,
            "RackId", i == 1 ? "rack-b" : null,
            "ClientId", "word-count-" + i + "-StreamThread-1",
            "ClientHost", "/10.0.0." + i,
            "TopologyEpoch", i == 2 ? 0 : 1,
            "ProcessId", "process-" + i,
            "UserEndpoint", i == 2 ? null : o(d + "Endpoint", "Host", "host" + i, "Port", 60000 + i),
            "ClientTags", list(o(d + "KeyValue", "Key", "zone", "Value", "z" + i)),
            "TaskOffsets", list(dTaskOffset("0", i, 100L + i), dTaskOffset("1", 0, 5L)),
            "TaskEndOffsets", list(dTaskOffset("0", i, 5_000_000_000L), dTaskOffset("1", 0, 5L)),
            "Assignment", assignment,
            "TargetAssignment", target,
            "IsClassic", false);
    }

    private static ApiMessage describeResponse(short v) {
        String d = "StreamsGroupDescribeResponseData$";
        Object changelog = o(d + "TopicInfo", "Name", "word-count-counts-changelog", "Partitions", 3,
            "ReplicationFactor", 0, "TopicConfigs", list(o(d + "KeyValue", "Key", "cleanup.policy", "Value", "compact")));
        Object repart = o(d + "TopicInfo", "Name", "word-count-rekey-repartition", "Partitions", 3,
            "ReplicationFactor", 1, "TopicConfigs", list());
        Object topology = o(d + "Topology", "Epoch", 1, "Subtopologies", list(
            o(d + "Subtopology", "SubtopologyId", "0", "SourceTopics", list("words", "more-words"),
                "RepartitionSinkTopics", list("word-count-rekey-repartition"),
                "StateChangelogTopics", list(), "RepartitionSourceTopics", list()),
            o(d + "Subtopology", "SubtopologyId", "1", "SourceTopics", list(),
                "RepartitionSinkTopics", list(), "StateChangelogTopics", list(changelog),
                "RepartitionSourceTopics", list(repart))));
        Object group = o(d + "DescribedGroup",
            "ErrorCode", 0, "ErrorMessage", null, "GroupId", "word-count", "GroupState", "Reconciling",
            "GroupEpoch", 9, "AssignmentEpoch", 8, "Topology", topology,
            "Members", list(dMember(0), dMember(1), dMember(2)),
            "AuthorizedOperations", 0x1f0);
        if (v >= 1 && has(d + "DescribedGroup", "TopologyDescription")) {
            Object src = o(d + "TopologyDescriptionNode", "Name", "KSTREAM-SOURCE-0000000000", "NodeType", 1,
                "SourceTopics", list("words"), "SinkTopic", null, "Stores", list(), "Successors", list("KSTREAM-AGG-1"));
            Object proc = o(d + "TopologyDescriptionNode", "Name", "KSTREAM-AGG-1", "NodeType", 2,
                "SourceTopics", list(), "SinkTopic", null, "Stores", list("counts"), "Successors", list("KSTREAM-SINK-2"));
            Object sink = o(d + "TopologyDescriptionNode", "Name", "KSTREAM-SINK-2", "NodeType", 3,
                "SourceTopics", list(), "SinkTopic", "out", "Stores", list(), "Successors", list());
            Object gsrc = o(d + "TopologyDescriptionNode", "Name", "KSTREAM-SOURCE-10", "NodeType", 1,
                "SourceTopics", list("global"), "SinkTopic", null, "Stores", list(), "Successors", list("KTABLE-SOURCE-11"));
            Object gproc = o(d + "TopologyDescriptionNode", "Name", "KTABLE-SOURCE-11", "NodeType", 2,
                "SourceTopics", list(), "SinkTopic", null, "Stores", list("global-store"), "Successors", list());
            Object desc = o(d + "TopologyDescription",
                "Subtopologies", list(o(d + "TopologyDescriptionSubtopology", "SubtopologyId", "0", "Nodes", list(src, proc, sink))),
                "GlobalStores", list(o(d + "TopologyDescriptionGlobalStore", "Source", gsrc, "Processor", gproc)));
            try {
                set(group, "TopologyDescription", desc);
                set(group, "TopologyDescriptionStatus", 3);
                set(group, "AssignorName", "sticky");
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        Object missing = o(d + "DescribedGroup",
            "ErrorCode", 69, "ErrorMessage", "Group orders is not a streams group.", "GroupId", "orders",
            "GroupState", "Dead", "GroupEpoch", -1, "AssignmentEpoch", -1, "Topology", null, "Members", list(),
            "AuthorizedOperations", Integer.MIN_VALUE);
        Object empty = o(d + "DescribedGroup",
            "ErrorCode", 0, "GroupId", "stopped-app", "GroupState", "Empty", "GroupEpoch", 4, "AssignmentEpoch", 4,
            "Topology", o(d + "Topology", "Epoch", 0, "Subtopologies", null), "Members", list(),
            "AuthorizedOperations", Integer.MIN_VALUE);
        return (ApiMessage) o("StreamsGroupDescribeResponseData", "ThrottleTimeMs", 12,
            "Groups", list(group, missing, empty));
    }

    private static Object hTaskIds(String cls, String sub, Integer... parts) {
        return o(cls + "$TaskIds", "SubtopologyId", sub, "Partitions", list(parts));
    }

    private static ApiMessage heartbeatRequest() {
        String h = "StreamsGroupHeartbeatRequestData$";
        String c = "StreamsGroupHeartbeatRequestData";
        Object sub0 = o(h + "Subtopology", "SubtopologyId", "0",
            "SourceTopics", list("orders", "customers"), "SourceTopicRegex", list(),
            "StateChangelogTopics", list(o(h + "TopicInfo", "Name", "app-store-changelog", "Partitions", 0,
                "ReplicationFactor", 3, "TopicConfigs", list(o(h + "KeyValue", "Key", "min.insync.replicas", "Value", "2")))),
            "RepartitionSinkTopics", list("app-rekey-repartition"), "RepartitionSourceTopics", list(),
            "CopartitionGroups", list(o(h + "CopartitionGroup", "SourceTopics", list((short) 0, (short) 1),
                "SourceTopicRegex", list(), "RepartitionSourceTopics", list())));
        Object sub1 = o(h + "Subtopology", "SubtopologyId", "1",
            "SourceTopics", list("payments"), "SourceTopicRegex", list(),
            "StateChangelogTopics", list(), "RepartitionSinkTopics", list(),
            "RepartitionSourceTopics", list(o(h + "TopicInfo", "Name", "app-rekey-repartition", "Partitions", 4,
                "ReplicationFactor", 0, "TopicConfigs", list())),
            "CopartitionGroups", list(o(h + "CopartitionGroup", "SourceTopics", list((short) 0),
                "SourceTopicRegex", list(), "RepartitionSourceTopics", list((short) 0))));
        return (ApiMessage) o(c,
            "GroupId", "word-count", "MemberId", "3f1e0c1a-member", "MemberEpoch", 0,
            "EndpointInformationEpoch", 2, "InstanceId", "instance-1", "RackId", "rack-a",
            "RebalanceTimeoutMs", 300000,
            "Topology", o(h + "Topology", "Epoch", 1, "Subtopologies", list(sub0, sub1)),
            "ActiveTasks", list(hTaskIds(c, "0", 0, 1), hTaskIds(c, "1", 2)),
            "StandbyTasks", list(hTaskIds(c, "1", 0)),
            "WarmupTasks", list(hTaskIds(c, "0", 3)),
            "ProcessId", "9b0c-process",
            "UserEndpoint", o(h + "Endpoint", "Host", "app-1.example", "Port", 65535),
            "ClientTags", list(o(h + "KeyValue", "Key", "zone", "Value", "eu-1a")),
            "TaskOffsets", list(o(h + "TaskOffset", "SubtopologyId", "0", "Partition", 0, "Offset", 42L)),
            "TaskEndOffsets", list(o(h + "TaskOffset", "SubtopologyId", "0", "Partition", 0, "Offset", 50L)),
            "ShutdownApplication", false);
    }

    private static ApiMessage heartbeatResponse(short v) {
        String h = "StreamsGroupHeartbeatResponseData$";
        String c = "StreamsGroupHeartbeatResponseData";
        Object r = o(c,
            "ThrottleTimeMs", 0, "ErrorCode", 0, "ErrorMessage", null,
            "MemberId", "3f1e0c1a-member", "MemberEpoch", 12, "HeartbeatIntervalMs", 5000,
            "TaskOffsetIntervalMs", 60000,
            "Status", list(
                o(h + "Status", "StatusCode", 0, "StatusDetail", "stale topology"),
                o(h + "Status", "StatusCode", 3, "StatusDetail", "Internal topics are missing: [x]")),
            "ActiveTasks", list(hTaskIds(c, "0", 0, 1), hTaskIds(c, "1", 2)),
            "StandbyTasks", list(hTaskIds(c, "1", 0)),
            "WarmupTasks", list(),
            "EndpointInformationEpoch", 3,
            "PartitionsByUserEndpoint", list(o(h + "EndpointToPartitions",
                "UserEndpoint", o(h + "Endpoint", "Host", "app-1.example", "Port", 8080),
                "ActivePartitions", list(o(h + "TopicPartition", "Topic", "orders", "Partitions", list(0, 1))),
                "StandbyPartitions", list())));
        try {
            if (v == 0) {
                // 4.3: AcceptableRecoveryLag (int32); 4.4: AcceptableRecoveryLagLegacy (int32, v0 only)
                if (has(c, "AcceptableRecoveryLagLegacy")) set(r, "AcceptableRecoveryLagLegacy", 10000);
                else set(r, "AcceptableRecoveryLag", 10000);
            } else {
                set(r, "AcceptableRecoveryLag", 10_000_000_000L);
                set(r, "TopologyDescriptionRequired", true);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return (ApiMessage) r;
    }

    // ------------------------------------------------------------------ hex

    private static byte[] readAll(InputStream in) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        int n;
        while ((n = in.read(b)) > 0) out.write(b, 0, n);
        return out.toByteArray();
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }

    static byte[] unhex(String s) {
        String t = s.replaceAll("\\s", "");
        if (t.length() % 2 != 0) throw new IllegalArgumentException("odd hex length");
        byte[] out = new byte[t.length() / 2];
        for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(t.substring(2 * i, 2 * i + 2), 16);
        return out;
    }
}
