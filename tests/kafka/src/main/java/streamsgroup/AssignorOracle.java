package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.coordinator.group.streams.assignor.AssignmentMemberSpec;
import org.apache.kafka.coordinator.group.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;
import org.apache.kafka.coordinator.group.streams.assignor.TaskId;
import org.apache.kafka.coordinator.group.streams.assignor.TopologyDescriber;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * Assignor oracle for Kafka 4.1-4.3: Apache's StickyTaskAssignor through the internal API
 * (package {@code org.apache.kafka.coordinator.group.streams.assignor}). See {@link OracleIo}
 * for input, output and {@code --repeat}. Task offsets are passed but not read by these
 * versions; rack and client tags neither. Each reply carries the identity hashes this thread
 * drew just before the assignment ({@link OracleIo#sampleIdentityHashes}), which 4.1's
 * assignor depends on.
 */
public final class AssignorOracle {

    /**
     * Specs run once before the real ones. The first use of a lambda, a record's hashCode or
     * toString, or a string concatenation links a call site, and linking draws identity hashes
     * on this thread; 4.1's assignor draws its own from the same generator, so every code path
     * must be linked before any sample is taken. Between them these specs take every path of
     * 4.1's assignor: previous owners kept and over quota, previous standbys promoted, least
     * loaded members, standbys on previous active and standby owners and on others, too few
     * processes (a warning), and no members (an exception).
     */
    static final String[] WARM_UP = {
        "{\"members\": ["
            + "{\"member_id\": \"a1\", \"process_id\": \"pa\", \"current\": {\"active\": [{\"subtopology\": \"0\", \"partitions\": [0, 1, 2, 3]}],"
            + " \"standby\": [{\"subtopology\": \"0\", \"partitions\": [4]}]}},"
            + "{\"member_id\": \"a2\", \"process_id\": \"pa\", \"current\": {\"standby\": [{\"subtopology\": \"0\", \"partitions\": [2, 3]}]}},"
            + "{\"member_id\": \"b1\", \"process_id\": \"pb\", \"current\": {\"active\": [{\"subtopology\": \"1\", \"partitions\": [0]}],"
            + " \"standby\": [{\"subtopology\": \"0\", \"partitions\": [0, 3]}]}},"
            + "{\"member_id\": \"c1\", \"process_id\": \"pc\"}],"
            + " \"subtopologies\": [{\"id\": \"0\", \"num_tasks\": 6, \"stateful\": true}, {\"id\": \"1\", \"num_tasks\": 3}],"
            + " \"configs\": {\"num_standby_replicas\": 3}}",
        "{\"members\": [{\"member_id\": \"a1\", \"process_id\": \"pa\"}, {\"member_id\": \"b1\", \"process_id\": \"pb\"}],"
            + " \"subtopologies\": [{\"id\": \"0\", \"num_tasks\": 40, \"stateful\": true}, {\"id\": \"1\", \"num_tasks\": 40, \"stateful\": true}],"
            + " \"configs\": {\"num_standby_replicas\": 1}}",
        "{\"members\": [], \"subtopologies\": [{\"id\": \"0\", \"num_tasks\": 1}], \"configs\": {\"num_standby_replicas\": 0}}",
    };

    public static void main(String[] args) throws Exception {
        OracleIo.run(args, AssignorOracle::assign, WARM_UP);
    }

    private static OracleIo.Result assign(JsonNode spec) {
        // As TargetAssignmentBuilder.build(): new HashMap<>(), put in member order.
        Map<String, AssignmentMemberSpec> members = new HashMap<>();
        for (JsonNode m : spec.path("members")) {
            JsonNode current = m.path("current");
            members.put(m.path("member_id").asText(), new AssignmentMemberSpec(
                OracleIo.optional(m.path("instance_id")),
                OracleIo.optional(m.path("rack_id")),
                OracleIo.taskMap(current.path("active")),
                OracleIo.taskMap(current.path("standby")),
                OracleIo.taskMap(current.path("warmup")),
                m.path("process_id").asText(),
                OracleIo.clientTags(m),
                taskIdOffsets(m.path("task_offsets")),
                taskIdOffsets(m.path("task_end_offsets"))));
        }
        TreeMap<String, OracleIo.Sub> subs = OracleIo.subtopologies(spec);
        TopologyDescriber describer = new TopologyDescriber() {
            @Override
            public List<String> subtopologies() {
                return subs.keySet().stream().toList();
            }

            @Override
            public int maxNumInputPartitions(String id) {
                OracleIo.Sub s = subs.get(id);
                if (s == null) {
                    throw new NoSuchElementException(id);
                }
                return s.numTasks();
            }

            @Override
            public boolean isStateful(String id) {
                OracleIo.Sub s = subs.get(id);
                return s != null && s.stateful();
            }
        };
        Map<String, String> configs = Map.of("num.standby.replicas", Integer.toString(OracleIo.numStandbyReplicas(spec)));
        // One instance per call: these versions keep per-call state in a field.
        StickyTaskAssignor assignor = new StickyTaskAssignor();
        GroupSpecImpl groupSpec = new GroupSpecImpl(java.util.Collections.unmodifiableMap(members), configs);
        // 4.1 orders its Member objects by identity hash: tell the caller where this thread's
        // generator stands, right before the assignor draws from it.
        OracleIo.sampleIdentityHashes();
        GroupAssignment result = assignor.assign(groupSpec, describer);
        Map<String, Map<String, java.util.Set<Integer>>> active = new HashMap<>();
        Map<String, Map<String, java.util.Set<Integer>>> standby = new HashMap<>();
        for (Map.Entry<String, MemberAssignment> e : result.members().entrySet()) {
            active.put(e.getKey(), e.getValue().activeTasks());
            standby.put(e.getKey(), e.getValue().standbyTasks());
        }
        return new OracleIo.Result(active, standby);
    }

    private static Map<TaskId, Long> taskIdOffsets(JsonNode list) {
        Map<TaskId, Long> out = new HashMap<>();
        for (JsonNode e : list) {
            out.put(new TaskId(e.path("subtopology").asText(), e.path("partition").asInt()), e.path("offset").asLong());
        }
        return out;
    }
}
