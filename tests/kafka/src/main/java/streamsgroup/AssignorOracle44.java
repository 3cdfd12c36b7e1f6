package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.AssignmentConfigsImpl;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberMetadataAndStateImpl;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

/**
 * Assignor oracle for Kafka 4.4: Apache's StickyTaskAssignor through the public KIP-1357 API
 * (interfaces in {@code org.apache.kafka.coordinator.group.api.streams.assignor}, jar
 * kafka-group-coordinator-api). See {@link OracleIo} for input, output and {@code --repeat}.
 * Task offsets rank standby candidates in this version.
 */
public final class AssignorOracle44 {

    private static final StickyTaskAssignor ASSIGNOR = new StickyTaskAssignor();

    public static void main(String[] args) throws Exception {
        OracleIo.run(args, AssignorOracle44::assign);
    }

    private static OracleIo.Result assign(JsonNode spec) {
        // As TargetAssignmentBuilder.build() (4.4): new HashMap<>(), put in member order.
        Map<String, MemberMetadataAndStateImpl> members = new HashMap<>();
        for (JsonNode m : spec.path("members")) {
            JsonNode current = m.path("current");
            members.put(m.path("member_id").asText(), new MemberMetadataAndStateImpl(
                OracleIo.optional(m.path("instance_id")),
                OracleIo.optional(m.path("rack_id")),
                m.path("process_id").asText(),
                OracleIo.clientTags(m),
                OracleIo.taskMap(current.path("active")),
                OracleIo.taskMap(current.path("standby")),
                OracleIo.taskMap(current.path("warmup")),
                OracleIo.offsets(m.path("task_offsets")),
                OracleIo.offsets(m.path("task_end_offsets"))));
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
        AssignmentConfigsImpl configs = AssignmentConfigsImpl.DEFAULT.withNumStandbyReplicas(OracleIo.numStandbyReplicas(spec));
        GroupAssignment result = ASSIGNOR.assign(new GroupSpecImpl(members, configs), describer);
        Map<String, Map<String, Set<Integer>>> active = new HashMap<>();
        Map<String, Map<String, Set<Integer>>> standby = new HashMap<>();
        for (Map.Entry<String, MemberAssignment> e : result.members().entrySet()) {
            active.put(e.getKey(), e.getValue().activeTasks());
            standby.put(e.getKey(), e.getValue().standbyTasks());
        }
        return new OracleIo.Result(active, standby);
    }
}
