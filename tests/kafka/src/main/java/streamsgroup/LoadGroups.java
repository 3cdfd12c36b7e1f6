package streamsgroup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Makes big streams groups cheaply: N groups of M members each, all played by this one JVM over
 * StreamsGroupHeartbeat requests of its own (no Kafka Streams, no consumer per member).
 *
 * <pre>
 * LoadGroups --bootstrap B --prefix P --count N --members M [--partitions K] [--topics T]
 *            [--commit true|false] [--leave true|false] [--fill R] [--timeout S]
 * </pre>
 *
 * Group P-i (i = 1..N) has one subtopology per input topic P-i-input-j (j = 1..T, K partitions
 * each; T=1 names it P-i-input), no state and no repartition topics, so the group needs no
 * internal topics: K*T tasks. Steps: fill __consumer_offsets with R offset records of group
 * P-filler (OffsetFiller) when R > 0; create the input topics; set each group's session timeout
 * to 60 s and heartbeat interval to 15 s (so holding members costs few heartbeats); join the
 * members and heartbeat them until every group is Stable with M members; commit offset 0 for
 * every input partition as one member of the group (OffsetCommit v9, member id and epoch, as a
 * Streams member commits); then print "LOADED ..." and either leave (the groups stay, Empty,
 * with their offsets and topology) or keep heartbeating every member until killed.
 *
 * Exit 0 after leaving; 1 with one line on stderr ("harness: load-groups: ...") on failure.
 */
public final class LoadGroups {
    private LoadGroups() {}

    public static void main(String[] args) {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        try {
            Options o = new Options(a);
            run(o);
            System.exit(0);
        } catch (Exception e) {
            System.err.println("harness: load-groups: " + e);
            System.exit(1);
        }
    }

    /** The command line, checked. */
    static final class Options {
        final String bootstrap;
        final String prefix;
        final int count;
        final int members;
        final int partitions;
        final int topics;
        final boolean commit;
        final boolean leave;
        final long fill;
        final long deadlineMs;

        Options(Map<String, String> a) {
            bootstrap = required(a, "--bootstrap");
            prefix = required(a, "--prefix");
            count = positive(a, "--count", null);
            members = positive(a, "--members", null);
            partitions = positive(a, "--partitions", "1");
            topics = positive(a, "--topics", "1");
            commit = Boolean.parseBoolean(a.getOrDefault("--commit", "true"));
            leave = Boolean.parseBoolean(a.getOrDefault("--leave", "false"));
            fill = Long.parseLong(a.getOrDefault("--fill", "0"));
            deadlineMs = System.currentTimeMillis() + 1000L * positive(a, "--timeout", "600");
        }

        private static String required(Map<String, String> a, String key) {
            String v = a.get(key);
            if (v == null || v.isEmpty()) {
                throw new IllegalArgumentException(key + " is required");
            }
            return v;
        }

        private static int positive(Map<String, String> a, String key, String dflt) {
            String v = dflt == null ? required(a, key) : a.getOrDefault(key, dflt);
            int n = Integer.parseInt(v);
            if (n < 1) {
                throw new IllegalArgumentException(key + " must be a positive count, not " + v);
            }
            return n;
        }

        String group(int i) {
            return prefix + "-" + i;
        }

        /** The input topics of group i, in subtopology order. */
        List<String> inputs(int i) {
            List<String> t = new ArrayList<>();
            for (int j = 1; j <= topics; j++) {
                t.add(topics == 1 ? group(i) + "-input" : group(i) + "-input-" + j);
            }
            return t;
        }

        List<String> groups() {
            List<String> g = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                g.add(group(i));
            }
            return g;
        }
    }

    private static void run(Options o) throws Exception {
        long t0 = System.currentTimeMillis();
        if (o.fill > 0) {
            long n = OffsetFiller.fill(o.bootstrap, o.prefix + "-filler", o.prefix + "-filler-input", 500, o.fill, 20);
            System.out.println("FILLED " + n + " offset records of group " + o.prefix + "-filler");
        }
        try (Admin admin = Admin.create(adminProps(o.bootstrap))) {
            createTopics(admin, o);
            shortenGroupTimeouts(admin, o);
            try (Members m = new Members(o, admin)) {
                int rounds = m.joinUntilStable();
                int commits = o.commit ? m.commitOffsets() : 0;
                System.out.println("LOADED groups=" + o.count + " members=" + o.members + " tasks="
                    + (o.partitions * o.topics) + " rounds=" + rounds + " commits=" + commits
                    + " seconds=" + (System.currentTimeMillis() - t0) / 1000.0);
                System.out.flush();
                if (o.leave) {
                    m.leave();
                    System.out.println("LEFT groups=" + o.count + " (Empty)");
                } else {
                    m.holdForever();
                }
            }
        }
    }

    static Properties adminProps(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "60000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "120000");
        return p;
    }

    /** Every group's input topics, the broker's default replication factor; existing ones are kept. */
    private static void createTopics(Admin admin, Options o) throws Exception {
        List<NewTopic> all = new ArrayList<>();
        for (int i = 1; i <= o.count; i++) {
            for (String t : o.inputs(i)) {
                all.add(new NewTopic(t, Optional.of(o.partitions), Optional.empty()));
            }
        }
        // Batches of at most 5,000 partitions: the controller refuses a CreateTopics that makes
        // more than 10,000 records ("Unable to perform excessively large batch operation").
        int perBatch = Math.max(1, Math.min(200, 5000 / o.partitions));
        for (int from = 0; from < all.size(); from += perBatch) {
            var result = admin.createTopics(all.subList(from, Math.min(all.size(), from + perBatch))).values();
            for (var e : result.entrySet()) {
                try {
                    e.getValue().get(120, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("creating topic " + e.getKey() + ": " + ex.getCause());
                    }
                }
            }
        }
    }

    /**
     * A 60 s session and a 15 s heartbeat interval (the defaults' upper bounds,
     * group.streams.max.session.timeout.ms and group.streams.max.heartbeat.interval.ms): holding
     * 5,000 members then costs about 330 heartbeats a second instead of the harness broker's
     * 500 ms interval's 10,000.
     */
    private static void shortenGroupTimeouts(Admin admin, Options o) throws Exception {
        Map<ConfigResource, java.util.Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        for (String g : o.groups()) {
            ops.put(new ConfigResource(ConfigResource.Type.GROUP, g), List.of(
                new AlterConfigOp(new ConfigEntry("streams.session.timeout.ms", "60000"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("streams.heartbeat.interval.ms", "15000"), AlterConfigOp.OpType.SET)));
        }
        admin.incrementalAlterConfigs(ops).all().get(120, TimeUnit.SECONDS);
    }

    /** Every group Stable with its M members, as the broker's StreamsGroupDescribe says. */
    static boolean allStable(Admin admin, Options o) throws Exception {
        Map<String, StreamsGroupDescription> d = admin.describeStreamsGroups(o.groups()).all().get(120, TimeUnit.SECONDS);
        for (StreamsGroupDescription g : d.values()) {
            boolean settled = g.members().stream().allMatch(m -> m.memberEpoch() == g.targetAssignmentEpoch());
            if (!"STABLE".equalsIgnoreCase(String.valueOf(g.groupState())) || g.members().size() != o.members || !settled) {
                return false;
            }
        }
        return true;
    }

    static String newId() {
        return UUID.randomUUID().toString();
    }
}
