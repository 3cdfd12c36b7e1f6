package streamsgroup;

import java.io.FileInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Admin helper for the harness script; one subcommand per call, bounded by --timeout seconds.
 *
 * <pre>
 * HarnessAdmin ready        --bootstrap B [--command-config F] [--timeout S] [--watch-pid P ...] [--nodes N]
 *                           (N nodes registered, default 1)
 * HarnessAdmin in-sync      --bootstrap B --node ID [--timeout S] [--watch-pid P]   (node ID registered and
 *                           in the ISR of every partition it replicates, internal topics included)
 * HarnessAdmin topics       --bootstrap B --topic NAME:PARTITIONS ... [--timeout S] [--produce-to T --records N]
 * HarnessAdmin produce      --bootstrap B --topic T --records N [--offset K] [--words W]
 * HarnessAdmin wait-stable  --bootstrap B --group G --members M [--timeout S] [--watch-pid P ...]
 * HarnessAdmin group-config --bootstrap B --group G --config KEY=VALUE ...   (IncrementalAlterConfigs SET on
 *                           the GROUP resource; works before the group exists)
 * HarnessAdmin end-offsets  --bootstrap B --topic T    (prints "END-OFFSET T P OFFSET" per partition: the
 *                           log end offset, i.e. the offset the next record will get)
 * </pre>
 *
 * Exit 0 on success; 1 with one line on stderr ("harness: ...") otherwise.
 */
public final class HarnessAdmin {
    private HarnessAdmin() {}

    private static String cmd;
    private static String bootstrap;
    private static String commandConfig;
    private static int timeoutSec = 60;
    private static final List<Long> watchPids = new ArrayList<>();
    private static final List<String> topics = new ArrayList<>();
    private static String group;
    private static int members = -1;
    private static int nodes = 1;
    private static int node = -1;
    private static long records = 0;
    private static long offset = 0;
    private static int words = 50;
    private static String produceTo;
    private static final List<String> configs = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length == 0) fail("HarnessAdmin: missing subcommand (ready|topics|produce|wait-stable)");
        cmd = args[0];
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String v = (i + 1 < args.length) ? args[i + 1] : null;
            if (v == null) fail("HarnessAdmin: " + a + " needs a value");
            i++;
            switch (a) {
                case "--bootstrap": bootstrap = v; break;
                case "--command-config": commandConfig = v; break;
                case "--timeout": timeoutSec = Integer.parseInt(v); break;
                case "--watch-pid": watchPids.add(Long.parseLong(v)); break;
                case "--topic": topics.add(v); break;
                case "--group": group = v; break;
                case "--members": members = Integer.parseInt(v); break;
                case "--nodes": nodes = Integer.parseInt(v); break;
                case "--node": node = Integer.parseInt(v); break;
                case "--records": records = Long.parseLong(v); break;
                case "--offset": offset = Long.parseLong(v); break;
                case "--words": words = Integer.parseInt(v); break;
                case "--produce-to": produceTo = v; break;
                case "--config": configs.add(v); break;
                default: fail("HarnessAdmin: unknown argument " + a);
            }
        }
        if (bootstrap == null) fail("HarnessAdmin: --bootstrap is required");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSec);
        int rc;
        switch (cmd) {
            case "ready": rc = ready(deadline); break;
            case "topics": rc = createTopics(deadline); break;
            case "produce": rc = produce(); break;
            case "wait-stable": rc = waitStable(deadline); break;
            case "group-config": rc = groupConfig(deadline); break;
            case "end-offsets": rc = endOffsets(deadline); break;
            case "in-sync": rc = inSync(deadline); break;
            default: fail("HarnessAdmin: unknown subcommand " + cmd); rc = 1;
        }
        System.exit(rc);
    }

    static Properties clientProps() throws Exception {
        Properties p = new Properties();
        if (commandConfig != null) {
            try (InputStream in = new FileInputStream(commandConfig)) {
                p.load(in);
            }
        }
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return p;
    }

    static void checkWatched() {
        for (long pid : watchPids) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isEmpty() || !h.get().isAlive()) {
                fail("harness: process " + pid + " exited while waiting (" + cmd + ")");
            }
        }
    }

    static long remainingMs(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    static boolean expired(long deadline) {
        return System.nanoTime() - deadline > 0;
    }

    /** Broker reachable, one node, and streams.version finalized at level >= 1. */
    static int ready(long deadline) throws Exception {
        String last = "no answer";
        try (Admin admin = Admin.create(clientProps())) {
            while (!expired(deadline)) {
                checkWatched();
                try {
                    Collection<?> nodes = admin.describeCluster().nodes().get(Math.min(5000, remainingMs(deadline)), TimeUnit.MILLISECONDS);
                    if (nodes.size() < HarnessAdmin.nodes) {
                        last = nodes.size() + " of " + HarnessAdmin.nodes + " nodes registered";
                    } else {
                        FeatureMetadata fm = admin.describeFeatures().featureMetadata().get(Math.min(5000, remainingMs(deadline)), TimeUnit.MILLISECONDS);
                        FinalizedVersionRange r = fm.finalizedFeatures().get("streams.version");
                        if (r != null && r.maxVersionLevel() >= 1) {
                            System.out.println("READY streams.version=" + r.maxVersionLevel()
                                    + " metadata.version=" + Optional.ofNullable(fm.finalizedFeatures().get("metadata.version")).map(FinalizedVersionRange::maxVersionLevel).orElse((short) -1));
                            return 0;
                        }
                        last = "streams.version not finalized at level >= 1 (" + r + ")";
                    }
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof org.apache.kafka.common.errors.AuthenticationException
                            || e.getCause() instanceof org.apache.kafka.common.errors.SslAuthenticationException) {
                        fail("harness: broker at " + bootstrap + " rejected the client: " + e.getCause().getMessage());
                    }
                    last = String.valueOf(e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    last = "timeout";
                }
                Thread.sleep(200);
            }
        }
        fail("harness: broker at " + bootstrap + " not ready after " + timeoutSec + "s: " + last);
        return 1;
    }

    /** Node --node registered, and in the ISR of every partition whose replicas include it. */
    static int inSync(long deadline) throws Exception {
        if (node < 0) fail("HarnessAdmin in-sync: --node is required");
        String last = "no answer";
        try (Admin admin = Admin.create(clientProps())) {
            while (!expired(deadline)) {
                checkWatched();
                try {
                    long wait = Math.min(5000, remainingMs(deadline));
                    boolean registered = admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS)
                            .stream().anyMatch(n -> n.id() == node);
                    if (!registered) {
                        last = "node " + node + " not registered";
                    } else {
                        var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                                .names().get(wait, TimeUnit.MILLISECONDS);
                        var descs = admin.describeTopics(names).allTopicNames().get(wait, TimeUnit.MILLISECONDS);
                        List<String> behind = new ArrayList<>();
                        for (var d : descs.values()) {
                            for (var p : d.partitions()) {
                                boolean replica = p.replicas().stream().anyMatch(n -> n.id() == node);
                                boolean inIsr = p.isr().stream().anyMatch(n -> n.id() == node);
                                if (replica && !inIsr) behind.add(d.name() + "-" + p.partition());
                            }
                        }
                        if (behind.isEmpty()) {
                            System.out.println("IN-SYNC node=" + node + " topics=" + descs.size());
                            return 0;
                        }
                        java.util.Collections.sort(behind);
                        last = "node " + node + " not in the ISR of " + behind.size() + " partition(s), e.g. " + behind.get(0);
                    }
                } catch (ExecutionException e) {
                    last = String.valueOf(e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    last = "timeout";
                }
                Thread.sleep(250);
            }
        }
        fail("harness: node " + node + " not back in sync after " + timeoutSec + "s: " + last);
        return 1;
    }

    static int createTopics(long deadline) throws Exception {
        List<NewTopic> nts = new ArrayList<>();
        for (String t : topics) {
            int c = t.lastIndexOf(':');
            String name = c < 0 ? t : t.substring(0, c);
            int parts = c < 0 ? 1 : Integer.parseInt(t.substring(c + 1));
            nts.add(new NewTopic(name, Optional.of(parts), Optional.empty()));
        }
        try (Admin admin = Admin.create(clientProps())) {
            for (var e : admin.createTopics(nts).values().entrySet()) {
                try {
                    e.getValue().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
                } catch (ExecutionException ex) {
                    if (!(ex.getCause() instanceof TopicExistsException)) {
                        fail("harness: creating topic " + e.getKey() + " failed: " + ex.getCause());
                    }
                }
            }
        }
        if (produceTo != null && records > 0) {
            topics.clear();
            topics.add(produceTo);
            return produce();
        }
        return 0;
    }

    /** Records key "k<i>", value "w<i mod words>" for i in [offset, offset+records). */
    static int produce() throws Exception {
        if (topics.size() != 1) fail("HarnessAdmin produce: exactly one --topic");
        Properties p = clientProps();
        p.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        // One request at a time: into a topic just created, a first batch can be refused
        // (NOT_LEADER_OR_FOLLOWER) while the next is taken, and the first's retry is then out
        // of order for good (OUT_OF_ORDER_SEQUENCE_NUMBER until the delivery timeout; seen on
        // a loaded 4.4.0 harness broker: "0 (incoming seq. number), 12 (current end sequence
        // number)").
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(10000, timeoutSec * 1000)));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeoutSec * 1000L));
        String topic = topics.get(0);
        try (KafkaProducer<String, String> prod = new KafkaProducer<>(p)) {
            List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
            for (long i = offset; i < offset + records; i++) {
                fs.add(prod.send(new ProducerRecord<>(topic, "k" + i, "w" + (i % words))));
            }
            prod.flush();
            for (var f : fs) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    fail("harness: producing to " + topic + " failed: " + e.getCause());
                }
            }
        }
        System.out.println("PRODUCED " + records + " " + topic);
        return 0;
    }

    /** Group in state STABLE with exactly M members, all at the target assignment epoch. */
    static int waitStable(long deadline) throws Exception {
        if (group == null || members < 0) fail("HarnessAdmin wait-stable: --group and --members are required");
        String last = "no answer";
        try (Admin admin = Admin.create(clientProps())) {
            while (!expired(deadline)) {
                checkWatched();
                try {
                    StreamsGroupDescription d = admin.describeStreamsGroups(List.of(group)).describedGroups().get(group)
                            .get(Math.min(5000, remainingMs(deadline)), TimeUnit.MILLISECONDS);
                    int n = d.members().size();
                    boolean settled = d.members().stream().allMatch(m -> m.memberEpoch() == d.targetAssignmentEpoch());
                    last = "state=" + d.groupState() + " members=" + n + " groupEpoch=" + d.groupEpoch()
                            + " targetAssignmentEpoch=" + d.targetAssignmentEpoch();
                    if ("STABLE".equalsIgnoreCase(String.valueOf(d.groupState())) && n == members && settled) {
                        System.out.println("STABLE " + last);
                        return 0;
                    }
                } catch (ExecutionException e) {
                    last = String.valueOf(e.getCause());
                } catch (java.util.concurrent.TimeoutException e) {
                    last = "timeout";
                }
                Thread.sleep(250);
            }
        }
        fail("harness: group " + group + " not Stable with " + members + " members after " + timeoutSec + "s: " + last);
        return 1;
    }

    /** Sets group configs (e.g. streams.num.standby.replicas) on the GROUP config resource. */
    static int groupConfig(long deadline) throws Exception {
        if (group == null || configs.isEmpty()) fail("HarnessAdmin group-config: --group and --config KEY=VALUE are required");
        List<AlterConfigOp> ops = new ArrayList<>();
        for (String kv : configs) {
            int eq = kv.indexOf('=');
            if (eq <= 0) fail("HarnessAdmin group-config: --config wants KEY=VALUE, not " + kv);
            ops.add(new AlterConfigOp(new ConfigEntry(kv.substring(0, eq), kv.substring(eq + 1)), AlterConfigOp.OpType.SET));
        }
        ConfigResource r = new ConfigResource(ConfigResource.Type.GROUP, group);
        try (Admin admin = Admin.create(clientProps())) {
            admin.incrementalAlterConfigs(Map.of(r, ops)).all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            fail("harness: setting group configs " + configs + " on group " + group + " failed: " + e.getCause());
        }
        System.out.println("GROUP-CONFIG " + group + " " + String.join(",", configs));
        return 0;
    }

    /** The log end offset of every partition of one topic. */
    static int endOffsets(long deadline) throws Exception {
        if (topics.size() != 1) fail("HarnessAdmin end-offsets: exactly one --topic");
        String topic = topics.get(0);
        try (Admin admin = Admin.create(clientProps())) {
            var desc = admin.describeTopics(List.of(topic)).allTopicNames().get(remainingMs(deadline), TimeUnit.MILLISECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> specs = new java.util.HashMap<>();
            for (var p : desc.partitions()) specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
            var res = admin.listOffsets(specs).all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
            for (int p = 0; p < desc.partitions().size(); p++) {
                System.out.println("END-OFFSET " + topic + " " + p + " " + res.get(new TopicPartition(topic, p)).offset());
            }
        } catch (ExecutionException e) {
            fail("harness: listing end offsets of " + topic + " failed: " + e.getCause());
        }
        return 0;
    }

    static void fail(String msg) {
        System.err.println(msg);
        System.out.flush();
        System.exit(1);
    }
}
