package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordType;
import org.apache.kafka.server.common.ApiMessageAndVersion;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Record oracle for streams-group's decoder of the group coordinator's records
 * ({@code src/history/records.rs}): builds records of {@code __consumer_offsets} with Apache's
 * own generated classes ({@code org.apache.kafka.coordinator.group.generated.*Key/Value}) and
 * serializes them with the coordinator's own serde ({@code GroupCoordinatorRecordSerde}: key =
 * int16 type + key struct, value = int16 version + value struct).
 *
 * <p>One JSON object per line on stdin, one answer per line on stdout:
 * <pre>
 *   {"op":"record","type":19,"key":{...},"version":0,"value":{...}|null,"unknown_tag":[100,"hex"]}
 *       -> {"key":"HEX","value":"HEX"|null,"unknown_tags_added":N}
 *   {"op":"partition","group":"my-app","partitions":50}
 *       -> {"hash":H,"partition":P}         (Utils.abs(group.hashCode()) % partitions)
 *   {"op":"info"}
 *       -> {"offset_commit_value_versions":[LO,HI],"streams_value_versions":[LO,HI]}
 * </pre>
 * The key and value objects are read by Apache's generated JSON converters
 * ({@code <Class>JsonConverter.read(JsonNode, version)}), so their fields are the schema's
 * lowerCamelCase names and a mandatory field that is missing is an error. With
 * {@code unknown_tag}, a raw tagged field (tag, bytes) is added to every struct of the value, as
 * a newer release's field this release does not know; {@code unknown_tags_added} says how many.
 * An error answers {@code {"error":"..."}} and the run goes on.
 */
public final class RecordOracle {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final GroupCoordinatorRecordSerde SERDE = new GroupCoordinatorRecordSerde();

    private RecordOracle() { }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            ObjectNode answer;
            try {
                answer = answer(MAPPER.readTree(line));
            } catch (Exception e) {
                answer = MAPPER.createObjectNode();
                Throwable cause = e.getCause() != null && e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                answer.put("error", cause.getClass().getSimpleName() + ": " + cause.getMessage());
            }
            out.println(MAPPER.writeValueAsString(answer));
        }
    }

    private static ObjectNode answer(JsonNode req) throws Exception {
        String op = req.path("op").asText();
        switch (op) {
            case "record": return record(req);
            case "partition": {
                String group = req.get("group").asText();
                int partitions = req.get("partitions").asInt();
                ObjectNode a = MAPPER.createObjectNode();
                a.put("hash", group.hashCode());
                a.put("partition", Utils.abs(group.hashCode()) % partitions);
                return a;
            }
            case "info": {
                ObjectNode a = MAPPER.createObjectNode();
                ApiMessage offsets = CoordinatorRecordType.OFFSET_COMMIT.newRecordValue();
                a.putArray("offset_commit_value_versions").add(offsets.lowestSupportedVersion()).add(offsets.highestSupportedVersion());
                ApiMessage streams = CoordinatorRecordType.STREAMS_GROUP_METADATA.newRecordValue();
                a.putArray("streams_value_versions").add(streams.lowestSupportedVersion()).add(streams.highestSupportedVersion());
                return a;
            }
            default: throw new IllegalArgumentException("unknown op '" + op + "'");
        }
    }

    private static ObjectNode record(JsonNode req) throws Exception {
        CoordinatorRecordType type = CoordinatorRecordType.fromId((short) req.get("type").asInt());
        ApiMessage key = (ApiMessage) fromJson(type.newRecordKey().getClass(), req.get("key"), (short) 0);
        JsonNode valueJson = req.get("value");
        ObjectNode a = MAPPER.createObjectNode();
        CoordinatorRecord record;
        if (valueJson == null || valueJson.isNull()) {
            record = CoordinatorRecord.tombstone(key);
        } else {
            short version = (short) req.path("version").asInt(0);
            ApiMessage value = (ApiMessage) fromJson(type.newRecordValue().getClass(), valueJson, version);
            JsonNode tag = req.get("unknown_tag");
            int added = 0;
            if (tag != null && !tag.isNull()) {
                added = addUnknownTag(value, tag.get(0).asInt(), unhex(tag.get(1).asText()));
            }
            a.put("unknown_tags_added", added);
            record = CoordinatorRecord.record(key, new ApiMessageAndVersion(value, version));
        }
        a.put("key", hex(SERDE.serializeKey(record)));
        byte[] value = SERDE.serializeValue(record);
        if (value == null) a.putNull("value"); else a.put("value", hex(value));
        return a;
    }

    /** Apache's generated JSON converter of {@code cls}: {@code <cls>JsonConverter.read(node, version)}. */
    private static Object fromJson(Class<?> cls, JsonNode node, short version) throws Exception {
        Class<?> converter = Class.forName(cls.getName() + "JsonConverter");
        Method read = converter.getMethod("read", JsonNode.class, short.class);
        try {
            return read.invoke(null, node, version);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    /**
     * Adds the raw tagged field to {@code m} and to every struct below it (the generated
     * classes keep each field in a private field with an accessor of the same name); returns
     * how many structs got it.
     */
    private static int addUnknownTag(Message m, int tag, byte[] data) throws Exception {
        m.unknownTaggedFields().add(new RawTaggedField(tag, data));
        int added = 1;
        for (Field f : m.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("_")) continue;
            Method accessor;
            try {
                accessor = m.getClass().getMethod(f.getName());
            } catch (NoSuchMethodException e) {
                continue;
            }
            Object v = accessor.invoke(m);
            if (v instanceof Message) {
                added += addUnknownTag((Message) v, tag, data);
            } else if (v instanceof List) {
                for (Object e : (List<?>) v) {
                    if (e instanceof Message) added += addUnknownTag((Message) e, tag, data);
                }
            }
        }
        return added;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }

    private static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }
}
