package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The version-independent half of the assignor oracles ({@link AssignorOracle} for Kafka
 * 4.1-4.3, {@link AssignorOracle44} for 4.4): reads GroupSpecs as JSON lines (the serde shape of
 * streams-group's {@code coordinator::assignor::GroupSpec}) on stdin, and for each writes one
 * line on stdout: {@code {"assignment": {member: {"active": [...], "standby": [...]}},
 * "warnings": [...]}} or {@code {"error": "..."}}, plus {@code "identity_hashes": [...]} when
 * the oracle sampled them. With {@code --repeat N} every spec is assigned N times and the
 * first, best and median in-process times go to stderr (the first runs warm up the JIT).
 *
 * <p>The spec is built as the broker builds it: the member map is a {@code new HashMap<>()}
 * filled with {@code put} in the order of the JSON list (TargetAssignmentBuilder), and the
 * subtopologies are listed in sorted id order (TopologyMetadata over a TreeMap).
 */
final class OracleIo {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final String ASSIGNOR_LOGGER = "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor";
    static final List<String> WARNINGS = new ArrayList<>();
    /** Identity hashes drawn by {@link #sampleIdentityHashes}, or null. */
    static int[] identityHashes;

    private OracleIo() { }

    /** One subtopology as the broker's TopologyMetadata describes it. */
    record Sub(int numTasks, boolean stateful) { }

    /** The result of one assignment, in version-independent types. */
    record Result(Map<String, Map<String, Set<Integer>>> active, Map<String, Map<String, Set<Integer>>> standby) { }

    /**
     * Runs {@code assign} on every spec of stdin, after running it once on each
     * {@code warmUp} spec (answers dropped): see {@link AssignorOracle#WARM_UP}.
     */
    static void run(String[] args, Function<JsonNode, Result> assign, String... warmUp) throws Exception {
        int repeat = 1;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--repeat") && i + 1 < args.length) {
                repeat = Math.max(1, Integer.parseInt(args[++i]));
            }
        }
        captureWarnings();
        for (String spec : warmUp) {
            try {
                assign.apply(MAPPER.readTree(spec));
            } catch (RuntimeException e) {
                // Expected for specs that exercise the error path.
            }
        }
        WARNINGS.clear();
        identityHashes = null;
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode spec = MAPPER.readTree(line);
            ObjectNode reply = MAPPER.createObjectNode();
            long[] nanos = new long[repeat];
            try {
                Result result = null;
                for (int i = 0; i < repeat; i++) {
                    WARNINGS.clear();
                    long start = System.nanoTime();
                    result = assign.apply(spec);
                    nanos[i] = System.nanoTime() - start;
                }
                reply.set("assignment", assignmentJson(spec, result));
                ArrayNode w = reply.putArray("warnings");
                WARNINGS.forEach(w::add);
            } catch (RuntimeException e) {
                reply.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            if (identityHashes != null) {
                ArrayNode h = reply.putArray("identity_hashes");
                for (int x : identityHashes) {
                    h.add(x);
                }
                identityHashes = null;
            }
            if (repeat > 1) {
                long[] sorted = nanos.clone();
                Arrays.sort(sorted);
                System.err.printf("oracle: runs=%d first_ms=%.3f best_ms=%.3f median_ms=%.3f%n",
                    repeat, nanos[0] / 1e6, sorted[0] / 1e6, sorted[repeat / 2] / 1e6);
            }
            out.println(MAPPER.writeValueAsString(reply));
            out.flush();
        }
    }

    /**
     * Draws eight identity hashes on this thread ({@code System.identityHashCode} of new
     * objects, nothing else in between) and keeps them for the reply. HotSpot draws identity
     * hashes from a per-thread xor-shift generator; eight consecutive draws pin its state, so
     * a caller can continue the sequence the next objects hashed on this thread will get
     * (Kafka 4.1's StickyTaskAssignor orders its {@code Member} objects, which have no
     * hashCode of their own, by them).
     */
    static void sampleIdentityHashes() {
        int[] h = new int[8];
        for (int i = 0; i < h.length; i++) {
            h[i] = System.identityHashCode(new Object());
        }
        identityHashes = h;
    }

    /** Collects the assignor's WARN messages (it logs "not enough available capacity"). */
    private static void captureWarnings() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        AbstractAppender appender = new AbstractAppender("assignor-oracle", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
                    WARNINGS.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        appender.start();
        LoggerConfig logger = new LoggerConfig(ASSIGNOR_LOGGER, Level.WARN, false);
        logger.addAppender(appender, Level.WARN, null);
        config.addLogger(ASSIGNOR_LOGGER, logger);
        ctx.updateLoggers();
    }

    /** Subtopologies by id, sorted (a repeated id keeps its last entry). */
    static TreeMap<String, Sub> subtopologies(JsonNode spec) {
        TreeMap<String, Sub> subs = new TreeMap<>();
        for (JsonNode s : spec.path("subtopologies")) {
            subs.put(s.path("id").asText(), new Sub(s.path("num_tasks").asInt(), s.path("stateful").asBoolean(false)));
        }
        return subs;
    }

    static int numStandbyReplicas(JsonNode spec) {
        return spec.path("configs").path("num_standby_replicas").asInt(0);
    }

    static Optional<String> optional(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    static Map<String, String> clientTags(JsonNode m) {
        Map<String, String> tags = new HashMap<>();
        m.path("client_tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        return tags;
    }

    /** {@code [{"subtopology", "partitions": [...]}]} to subtopology -> partitions. */
    static Map<String, Set<Integer>> taskMap(JsonNode list) {
        Map<String, Set<Integer>> out = new HashMap<>();
        for (JsonNode e : list) {
            Set<Integer> parts = out.computeIfAbsent(e.path("subtopology").asText(), k -> new HashSet<>());
            for (JsonNode p : e.path("partitions")) {
                parts.add(p.asInt());
            }
        }
        return out;
    }

    /** {@code [{"subtopology", "partition", "offset"}]} to subtopology -> partition -> offset. */
    static Map<String, Map<Integer, Long>> offsets(JsonNode list) {
        Map<String, Map<Integer, Long>> out = new HashMap<>();
        for (JsonNode e : list) {
            out.computeIfAbsent(e.path("subtopology").asText(), k -> new HashMap<>())
                .put(e.path("partition").asInt(), e.path("offset").asLong());
        }
        return out;
    }

    private static ObjectNode assignmentJson(JsonNode spec, Result result) {
        ObjectNode out = MAPPER.createObjectNode();
        TreeSet<String> ids = new TreeSet<>();
        spec.path("members").forEach(m -> ids.add(m.path("member_id").asText()));
        ids.addAll(result.active().keySet());
        ids.addAll(result.standby().keySet());
        for (String id : ids) {
            ObjectNode a = out.putObject(id);
            a.set("active", taskList(result.active().getOrDefault(id, Map.of())));
            a.set("standby", taskList(result.standby().getOrDefault(id, Map.of())));
        }
        return out;
    }

    private static ArrayNode taskList(Map<String, Set<Integer>> tasks) {
        ArrayNode list = MAPPER.createArrayNode();
        for (Map.Entry<String, Set<Integer>> e : new TreeMap<>(tasks).entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            ObjectNode entry = list.addObject();
            entry.put("subtopology", e.getKey());
            ArrayNode parts = entry.putArray("partitions");
            for (int p : new TreeSet<>(e.getValue())) {
                parts.add(p);
            }
        }
        return list;
    }
}
