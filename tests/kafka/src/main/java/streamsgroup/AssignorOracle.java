package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.coordinator.group.streams.assignor.AssignmentMemberSpec;
import org.apache.kafka.coordinator.group.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;
import org.apache.kafka.coordinator.group.streams.assignor.TaskId;
import org.apache.kafka.coordinator.group.streams.assignor.TopologyDescriber;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Black-box oracle: runs Apache Kafka's own StickyTaskAssignor (kafka-group-coordinator 4.3.1,
 * internal API "shape A") on a GroupSpec given as JSON on stdin, in the serde shape of
 * streams-group's {@code coordinator::assignor::GroupSpec}:
 *
 * <pre>
 * {"members": [{"member_id", "process_id", "instance_id"?, "rack_id"?, "client_tags"?: {k: v},
 *               "current"?: {"active": [{"subtopology", "partitions"}], "standby": [...], "warmup": [...]},
 *               "task_offsets"?: [{"subtopology", "partition", "offset"}], "task_end_offsets"?: [...]}],
 *  "subtopologies": [{"id", "num_tasks", "stateful"}],
 *  "configs": {"num_standby_replicas", "rack_aware_assignment_tags"}}
 * </pre>
 *
 * Prints {@code {member_id: {"active": [{"subtopology","partitions"}], "standby": [...]}}} with
 * sorted keys, plus (to stderr) the assignor's wall-clock time. With {@code --repeat N} the
 * assignment is computed N times and the best and median times are printed to stderr (the
 * first runs warm up the JIT). 4.3.1 has no rack-aware standby placement: the tags are ignored.
 */
public final class AssignorOracle {

    public static void main(String[] args) throws Exception {
        int repeat = 1;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--repeat") && i + 1 < args.length) {
                repeat = Math.max(1, Integer.parseInt(args[++i]));
            }
        }
        ObjectMapper mapper = new ObjectMapper();
        JsonNode spec;
        try (InputStream in = System.in) {
            spec = mapper.readTree(in);
        }

        Map<String, AssignmentMemberSpec> members = new HashMap<>();
        for (JsonNode m : spec.path("members")) {
            JsonNode current = m.path("current");
            Map<String, String> tags = new HashMap<>();
            m.path("client_tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
            members.put(m.path("member_id").asText(), new AssignmentMemberSpec(
                optional(m.path("instance_id")),
                optional(m.path("rack_id")),
                taskMap(current.path("active")),
                taskMap(current.path("standby")),
                taskMap(current.path("warmup")),
                m.path("process_id").asText(),
                tags,
                offsets(m.path("task_offsets")),
                offsets(m.path("task_end_offsets"))));
        }

        List<String> subtopologies = new ArrayList<>();
        Map<String, Integer> numTasks = new HashMap<>();
        Set<String> stateful = new HashSet<>();
        for (JsonNode s : spec.path("subtopologies")) {
            String id = s.path("id").asText();
            if (!numTasks.containsKey(id)) {
                subtopologies.add(id);
            }
            numTasks.merge(id, Math.max(0, s.path("num_tasks").asInt()), Math::max);
            if (s.path("stateful").asBoolean(false)) {
                stateful.add(id);
            }
        }
        TopologyDescriber describer = new TopologyDescriber() {
            @Override
            public List<String> subtopologies() {
                return subtopologies;
            }

            @Override
            public int maxNumInputPartitions(String id) {
                Integer n = numTasks.get(id);
                if (n == null) {
                    throw new NoSuchElementException(id);
                }
                return n;
            }

            @Override
            public boolean isStateful(String id) {
                return stateful.contains(id);
            }
        };

        int standbys = spec.path("configs").path("num_standby_replicas").asInt(0);
        Map<String, String> configs = Map.of("num.standby.replicas", Integer.toString(standbys));
        GroupSpecImpl groupSpec = new GroupSpecImpl(members, configs);

        long[] nanos = new long[repeat];
        GroupAssignment result = null;
        for (int i = 0; i < repeat; i++) {
            // One instance per call: the 4.3.1 assignor keeps per-call state in a field.
            StickyTaskAssignor assignor = new StickyTaskAssignor();
            long start = System.nanoTime();
            result = assignor.assign(groupSpec, describer);
            nanos[i] = System.nanoTime() - start;
        }
        long[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        System.err.printf("oracle: runs=%d first_ms=%.3f best_ms=%.3f median_ms=%.3f%n",
            repeat, nanos[0] / 1e6, sorted[0] / 1e6, sorted[repeat / 2] / 1e6);

        ObjectNode out = mapper.createObjectNode();
        Map<String, MemberAssignment> byMember = new TreeMap<>(result.members());
        for (String id : new TreeSet<>(members.keySet())) {
            byMember.putIfAbsent(id, MemberAssignment.empty());
        }
        for (Map.Entry<String, MemberAssignment> e : byMember.entrySet()) {
            ObjectNode a = out.putObject(e.getKey());
            a.set("active", taskList(mapper, e.getValue().activeTasks()));
            a.set("standby", taskList(mapper, e.getValue().standbyTasks()));
        }
        System.out.println(mapper.writeValueAsString(out));
    }

    private static Optional<String> optional(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    private static Map<String, Set<Integer>> taskMap(JsonNode list) {
        Map<String, Set<Integer>> out = new HashMap<>();
        for (JsonNode e : list) {
            Set<Integer> parts = out.computeIfAbsent(e.path("subtopology").asText(), k -> new HashSet<>());
            for (JsonNode p : e.path("partitions")) {
                parts.add(p.asInt());
            }
        }
        return out;
    }

    private static Map<TaskId, Long> offsets(JsonNode list) {
        Map<TaskId, Long> out = new HashMap<>();
        for (JsonNode e : list) {
            out.put(new TaskId(e.path("subtopology").asText(), e.path("partition").asInt()),
                e.path("offset").asLong());
        }
        return out;
    }

    private static ArrayNode taskList(ObjectMapper mapper, Map<String, Set<Integer>> tasks) {
        ArrayNode list = mapper.createArrayNode();
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
