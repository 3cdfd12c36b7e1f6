package streamsgroup;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * HarnessAdmin serve        --port-file F --watch-pid P   (every step above, one per loopback connection,
 *                           until process P ends: see {@link #serve})
 * </pre>
 *
 * Exit 0 on success; 1 with one line on stderr ("harness: ...") otherwise.
 */
public final class HarnessAdmin {

    private String cmd;
    private String bootstrap;
    private String commandConfig;
    private int timeoutSec = 60;
    private final List<Long> watchPids = new ArrayList<>();
    private final List<String> topics = new ArrayList<>();
    private String group;
    private int members = -1;
    private int nodes = 1;
    private int node = -1;
    private long records = 0;
    private long offset = 0;
    private int words = 50;
    private String produceTo;
    private final List<String> configs = new ArrayList<>();

    private final PrintStream out;

    private HarnessAdmin(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("serve")) {
            serve(args);
            return;
        }
        PrintStream out = System.out;
        int rc = step(args, out, System.err);
        out.flush();
        System.exit(rc);
    }

    /** One step: its exit status, its lines on {@code out} and its failure on {@code err}. */
    static int step(String[] args, PrintStream out, PrintStream err) {
        try {
            return new HarnessAdmin(out).run(args);
        } catch (Failed f) {
            err.println(f.getMessage());
            return 1;
        } catch (Exception e) {
            err.println("harness: " + (args.length > 0 ? args[0] : "") + " failed: " + e);
            return 1;
        }
    }

    /**
     * Serves steps over loopback until the process {@code --watch-pid} ends (a broker's): one
     * step per connection, its arguments on one line separated by U+001F; the answer is the
     * step's stdout lines prefixed "O ", its stderr lines prefixed "E ", then "RC status".
     * The port goes to {@code --port-file} once it listens. One JVM for every step of a run
     * directory instead of one per step (issue #35: CI time).
     */
    static void serve(String[] args) throws Exception {
        String portFile = null;
        long watched = -1;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port-file": portFile = args[i + 1]; break;
                case "--watch-pid": watched = Long.parseLong(args[i + 1]); break;
                default: throw new IllegalArgumentException("HarnessAdmin serve: unknown argument " + args[i]);
            }
        }
        if (portFile == null || watched < 0) throw new IllegalArgumentException("HarnessAdmin serve: --port-file and --watch-pid are required");
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Path tmp = Path.of(portFile + ".tmp");
        Files.writeString(tmp, server.getLocalPort() + "\n");
        Files.move(tmp, Path.of(portFile), StandardCopyOption.ATOMIC_MOVE);
        long pid = watched;
        Thread watch = new Thread(() -> {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.exit(0);
        }, "watch-" + pid);
        watch.setDaemon(true);
        watch.start();
        while (true) {
            Socket s = server.accept();
            Thread t = new Thread(() -> answer(s), "step");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Runs the one step a connection asks for and writes its answer back. */
    static void answer(Socket s) {
        try (s) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line = in.readLine();
            if (line == null) return;
            List<String> parts = new ArrayList<>(List.of(line.split("\u001f", -1)));
            if (!parts.isEmpty() && parts.get(parts.size() - 1).isEmpty()) parts.remove(parts.size() - 1);
            ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
            ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
            int rc;
            try (PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
                 PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
                rc = step(parts.toArray(new String[0]), out, err);
            }
            // The run directory's admin.log tells which steps the admin JVM ran, and how they ended.
            System.err.println(java.time.Instant.now() + " " + String.join(" ", parts) + " -> " + rc);
            StringBuilder answer = new StringBuilder();
            prefixed(answer, "O ", outBytes.toString(StandardCharsets.UTF_8));
            prefixed(answer, "E ", errBytes.toString(StandardCharsets.UTF_8));
            answer.append("RC ").append(rc).append('\n');
            s.getOutputStream().write(answer.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // The harness that asked is gone: nothing to answer.
        }
    }

    static void prefixed(StringBuilder to, String prefix, String text) {
        for (String l : text.split("\n")) {
            if (!l.isEmpty()) to.append(prefix).append(l).append('\n');
        }
    }

    /** Parses {@code args} (the step and its options) and runs the step. */
    int run(String[] args) throws Exception {
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
        switch (cmd) {
            case "ready": return ready(deadline);
            case "topics": return createTopics(deadline);
            case "produce": return produce();
            case "wait-stable": return waitStable(deadline);
            case "group-config": return groupConfig(deadline);
            case "end-offsets": return endOffsets(deadline);
            case "in-sync": return inSync(deadline);
            default: fail("HarnessAdmin: unknown subcommand " + cmd); return 1;
        }
    }

    Properties clientProps() throws Exception {
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

    void checkWatched() {
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
    int ready(long deadline) throws Exception {
        String last = "no answer";
        try (Admin admin = Admin.create(clientProps())) {
            while (!expired(deadline)) {
                checkWatched();
                try {
                    Collection<?> nodes = admin.describeCluster().nodes().get(Math.min(5000, remainingMs(deadline)), TimeUnit.MILLISECONDS);
                    if (nodes.size() < this.nodes) {
                        last = nodes.size() + " of " + this.nodes + " nodes registered";
                    } else {
                        FeatureMetadata fm = admin.describeFeatures().featureMetadata().get(Math.min(5000, remainingMs(deadline)), TimeUnit.MILLISECONDS);
                        FinalizedVersionRange r = fm.finalizedFeatures().get("streams.version");
                        if (r != null && r.maxVersionLevel() >= 1) {
                            out.println("READY streams.version=" + r.maxVersionLevel()
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
    int inSync(long deadline) throws Exception {
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
                            out.println("IN-SYNC node=" + node + " topics=" + descs.size());
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

    int createTopics(long deadline) throws Exception {
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
    int produce() throws Exception {
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
        out.println("PRODUCED " + records + " " + topic);
        return 0;
    }

    /** Group in state STABLE with exactly M members, all at the target assignment epoch. */
    int waitStable(long deadline) throws Exception {
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
                        out.println("STABLE " + last);
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
    int groupConfig(long deadline) throws Exception {
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
        out.println("GROUP-CONFIG " + group + " " + String.join(",", configs));
        return 0;
    }

    /** The log end offset of every partition of one topic. */
    int endOffsets(long deadline) throws Exception {
        if (topics.size() != 1) fail("HarnessAdmin end-offsets: exactly one --topic");
        String topic = topics.get(0);
        try (Admin admin = Admin.create(clientProps())) {
            var desc = admin.describeTopics(List.of(topic)).allTopicNames().get(remainingMs(deadline), TimeUnit.MILLISECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> specs = new java.util.HashMap<>();
            for (var p : desc.partitions()) specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
            var res = admin.listOffsets(specs).all().get(remainingMs(deadline), TimeUnit.MILLISECONDS);
            for (int p = 0; p < desc.partitions().size(); p++) {
                out.println("END-OFFSET " + topic + " " + p + " " + res.get(new TopicPartition(topic, p)).offset());
            }
        } catch (ExecutionException e) {
            fail("harness: listing end offsets of " + topic + " failed: " + e.getCause());
        }
        return 0;
    }

    /** Ends the step: {@code msg} on its stderr, exit status 1. */
    void fail(String msg) {
        throw new Failed(msg);
    }

    /** A step that failed, with the one line it prints. */
    static final class Failed extends RuntimeException {
        Failed(String msg) {
            super(msg, null, false, false);
        }
    }
}
