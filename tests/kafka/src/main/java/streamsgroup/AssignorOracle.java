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
 * versions; rack and client tags neither.
 */
public final class AssignorOracle {

    public static void main(String[] args) throws Exception {
        OracleIo.run(args, AssignorOracle::assign);
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
        GroupAssignment result = new StickyTaskAssignor().assign(new GroupSpecImpl(java.util.Collections.unmodifiableMap(members), configs), describer);
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
