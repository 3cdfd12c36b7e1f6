package streamsgroup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * The members LoadGroups plays: each a streams group member as the broker sees it (member id,
 * process id, epoch, the tasks it owns), all heartbeating over one connection per group
 * coordinator. A member owns exactly what the coordinator last assigned it and says so in its
 * next heartbeat, so revocations complete at once and a group settles in a few rounds.
 */
final class Members implements AutoCloseable {
    private static final int IO_TIMEOUT_MS = 60_000;

    /** One member's state between heartbeats. */
    private static final class Member {
        final int group;
        final String groupId;
        final String id = LoadGroups.newId();
        final String process = LoadGroups.newId();
        int epoch = 0;
        List<StreamsGroupHeartbeatRequestData.TaskIds> active = List.of();
        List<StreamsGroupHeartbeatRequestData.TaskIds> standby = List.of();
        List<StreamsGroupHeartbeatRequestData.TaskIds> warmup = List.of();

        Member(int group, String groupId) {
            this.group = group;
            this.groupId = groupId;
        }
    }

    private final LoadGroups.Options o;
    private final Admin admin;
    private final List<Member> all = new ArrayList<>();
    private final Map<String, String> coordinatorOf = new HashMap<>();
    private final Map<String, KafkaWire> wires = new HashMap<>();

    Members(LoadGroups.Options o, Admin admin) {
        this.o = o;
        this.admin = admin;
        for (int i = 1; i <= o.count; i++) {
            for (int k = 0; k < o.members; k++) {
                all.add(new Member(i, o.group(i)));
            }
        }
    }

    /** Heartbeat rounds until the broker describes every group as Stable with its M members. */
    int joinUntilStable() throws Exception {
        int rounds = 0;
        while (true) {
            if (System.currentTimeMillis() > o.deadlineMs) {
                throw new IllegalStateException("the groups were not all Stable with " + o.members
                    + " members before --timeout, after " + rounds + " heartbeat rounds");
            }
            boolean changed = heartbeatRound(false);
            rounds++;
            if (!changed && LoadGroups.allStable(admin, o)) {
                return rounds;
            }
            if (!changed) {
                Thread.sleep(200);
            }
        }
    }

    /** Keeps every member alive (a round every 10 s, well inside the 60 s session) until killed. */
    void holdForever() throws InterruptedException {
        while (true) {
            Thread.sleep(10_000);
            try {
                heartbeatRound(false);
            } catch (Exception e) {
                // A broker restart or a moved coordinator: the next round finds it again.
                System.err.println("harness: load-groups: heartbeat round failed, retrying: " + e);
                closeWires();
                coordinatorOf.clear();
            }
        }
    }

    /** Every member leaves (epoch -1): the groups stay, Empty, with their topology and offsets. */
    void leave() throws Exception {
        for (Member m : all) {
            m.epoch = -1;
        }
        heartbeatRound(true);
    }

    /** One heartbeat per member, pipelined per coordinator; true when anything changed. */
    private boolean heartbeatRound(boolean leaving) throws Exception {
        findCoordinators();
        Map<String, List<Member>> byCoordinator = new LinkedHashMap<>();
        for (Member m : all) {
            byCoordinator.computeIfAbsent(coordinatorOf.get(m.groupId), k -> new ArrayList<>()).add(m);
        }
        boolean changed = false;
        for (Map.Entry<String, List<Member>> e : byCoordinator.entrySet()) {
            KafkaWire w = wire(e.getKey());
            short v = w.version(ApiKeys.STREAMS_GROUP_HEARTBEAT, (short) 0x7fff);
            List<StreamsGroupHeartbeatRequestData> reqs = new ArrayList<>();
            for (Member m : e.getValue()) {
                reqs.add(heartbeat(m));
            }
            List<ApiMessage> answers = w.exchange(ApiKeys.STREAMS_GROUP_HEARTBEAT, v, reqs);
            for (int i = 0; i < answers.size(); i++) {
                changed |= apply(e.getValue().get(i), (StreamsGroupHeartbeatResponseData) answers.get(i), leaving);
            }
        }
        return changed;
    }

    private StreamsGroupHeartbeatRequestData heartbeat(Member m) {
        StreamsGroupHeartbeatRequestData d = new StreamsGroupHeartbeatRequestData()
            .setGroupId(m.groupId).setMemberId(m.id).setMemberEpoch(m.epoch);
        if (m.epoch == 0) {
            // A (re-)join: the topology, the rebalance timeout and empty task lists are required.
            List<StreamsGroupHeartbeatRequestData.Subtopology> subs = new ArrayList<>();
            List<String> inputs = o.inputs(m.group);
            for (int s = 0; s < inputs.size(); s++) {
                subs.add(new StreamsGroupHeartbeatRequestData.Subtopology()
                    .setSubtopologyId(Integer.toString(s)).setSourceTopics(List.of(inputs.get(s))));
            }
            d.setRebalanceTimeoutMs(30_000).setProcessId(m.process)
                .setTopology(new StreamsGroupHeartbeatRequestData.Topology().setEpoch(0).setSubtopologies(subs))
                .setActiveTasks(List.of()).setStandbyTasks(List.of()).setWarmupTasks(List.of());
        } else if (m.epoch > 0) {
            d.setActiveTasks(m.active).setStandbyTasks(m.standby).setWarmupTasks(m.warmup);
        }
        return d;
    }

    private boolean apply(Member m, StreamsGroupHeartbeatResponseData r, boolean leaving) {
        Errors err = Errors.forCode(r.errorCode());
        if (leaving) {
            if (err != Errors.NONE && err != Errors.UNKNOWN_MEMBER_ID) {
                System.err.println("harness: load-groups: " + m.groupId + " member " + m.id + " leave: " + err);
            }
            return false;
        }
        switch (err) {
            case NONE:
                boolean changed = r.memberEpoch() != m.epoch;
                m.epoch = r.memberEpoch();
                if (r.activeTasks() != null && !tasks(r.activeTasks()).equals(m.active)) {
                    m.active = tasks(r.activeTasks());
                    changed = true;
                }
                if (r.standbyTasks() != null && !tasks(r.standbyTasks()).equals(m.standby)) {
                    m.standby = tasks(r.standbyTasks());
                    changed = true;
                }
                if (r.warmupTasks() != null && !tasks(r.warmupTasks()).equals(m.warmup)) {
                    m.warmup = tasks(r.warmupTasks());
                    changed = true;
                }
                return changed;
            case NOT_COORDINATOR:
            case COORDINATOR_NOT_AVAILABLE:
            case COORDINATOR_LOAD_IN_PROGRESS:
                coordinatorOf.remove(m.groupId);
                return true;
            case FENCED_MEMBER_EPOCH:
            case UNKNOWN_MEMBER_ID:
                m.epoch = 0;
                m.active = List.of();
                m.standby = List.of();
                m.warmup = List.of();
                return true;
            default:
                throw new IllegalStateException("StreamsGroupHeartbeat of " + m.groupId + " member " + m.id
                    + " failed: " + err + " (" + r.errorMessage() + ")");
        }
    }

    private static List<StreamsGroupHeartbeatRequestData.TaskIds> tasks(List<StreamsGroupHeartbeatResponseData.TaskIds> from) {
        List<StreamsGroupHeartbeatRequestData.TaskIds> to = new ArrayList<>(from.size());
        for (StreamsGroupHeartbeatResponseData.TaskIds t : from) {
            to.add(new StreamsGroupHeartbeatRequestData.TaskIds()
                .setSubtopologyId(t.subtopologyId()).setPartitions(new ArrayList<>(t.partitions())));
        }
        return to;
    }

    /**
     * Offset 0 for every input partition, committed by the group's first member with its member
     * id and epoch (OffsetCommit v9: a streams group with members refuses the admin's epoch -1).
     */
    int commitOffsets() throws Exception {
        Map<String, List<OffsetCommitRequestData>> byCoordinator = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i += o.members) {
            Member m = all.get(i);
            List<OffsetCommitRequestData.OffsetCommitRequestTopic> topics = new ArrayList<>();
            for (String t : o.inputs(m.group)) {
                List<OffsetCommitRequestData.OffsetCommitRequestPartition> parts = new ArrayList<>();
                for (int p = 0; p < o.partitions; p++) {
                    parts.add(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                        .setPartitionIndex(p).setCommittedOffset(0));
                }
                topics.add(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(t).setPartitions(parts));
            }
            byCoordinator.computeIfAbsent(coordinatorOf.get(m.groupId), k -> new ArrayList<>())
                .add(new OffsetCommitRequestData().setGroupId(m.groupId).setMemberId(m.id)
                    .setGenerationIdOrMemberEpoch(m.epoch).setTopics(topics));
        }
        int committed = 0;
        for (Map.Entry<String, List<OffsetCommitRequestData>> e : byCoordinator.entrySet()) {
            KafkaWire w = wire(e.getKey());
            short v = w.version(ApiKeys.OFFSET_COMMIT, (short) 9);
            List<ApiMessage> answers = w.exchange(ApiKeys.OFFSET_COMMIT, v, e.getValue());
            for (int i = 0; i < answers.size(); i++) {
                for (var t : ((OffsetCommitResponseData) answers.get(i)).topics()) {
                    for (var p : t.partitions()) {
                        if (p.errorCode() != 0) {
                            throw new IllegalStateException("OffsetCommit of " + e.getValue().get(i).groupId() + " "
                                + t.name() + "-" + p.partitionIndex() + " failed: " + Errors.forCode(p.errorCode()));
                        }
                        committed++;
                    }
                }
            }
        }
        return committed;
    }

    /** FindCoordinator (batched keys, v4+) for every group whose coordinator is not known. */
    private void findCoordinators() throws Exception {
        List<String> missing = new ArrayList<>();
        for (String g : o.groups()) {
            if (!coordinatorOf.containsKey(g)) {
                missing.add(g);
            }
        }
        for (int attempt = 0; !missing.isEmpty(); attempt++) {
            if (System.currentTimeMillis() > o.deadlineMs) {
                throw new IllegalStateException("no coordinator found for " + missing.size() + " group(s), e.g. " + missing.get(0));
            }
            if (attempt > 0) {
                Thread.sleep(200);
            }
            KafkaWire w = wire(o.bootstrap.split(",")[attempt % o.bootstrap.split(",").length]);
            short v = w.version(ApiKeys.FIND_COORDINATOR, (short) 6);
            if (v < 4) {
                throw new IOException("FindCoordinator v4+ (batched keys) is needed, broker offers v" + v);
            }
            FindCoordinatorRequestData req = new FindCoordinatorRequestData().setKeyType((byte) 0).setCoordinatorKeys(missing);
            var r = (FindCoordinatorResponseData) w.exchange(ApiKeys.FIND_COORDINATOR, v, List.of(req)).get(0);
            List<String> still = new ArrayList<>();
            for (FindCoordinatorResponseData.Coordinator c : r.coordinators()) {
                if (c.errorCode() == 0) {
                    coordinatorOf.put(c.key(), c.host() + ":" + c.port());
                } else {
                    still.add(c.key());
                }
            }
            missing = still;
        }
    }

    private KafkaWire wire(String address) throws IOException {
        KafkaWire w = wires.get(address);
        if (w == null) {
            w = KafkaWire.connect(address, IO_TIMEOUT_MS);
            wires.put(address, w);
        }
        return w;
    }

    private void closeWires() {
        for (KafkaWire w : wires.values()) {
            w.close();
        }
        wires.clear();
    }

    @Override
    public void close() {
        closeWires();
    }
}
