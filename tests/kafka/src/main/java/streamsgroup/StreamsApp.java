package streamsgroup;

import java.io.FileInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StandbyUpdateListener;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.Stores;

/**
 * A small Kafka Streams application on the streams rebalance protocol (group.protocol=streams).
 *
 * <p>Topology: input -> groupBy(value) (repartition topic) -> count into the store "counts"
 * (in-memory, or RocksDB with --store rocksdb; changelog topic) -> output. Two subtopologies, one
 * stateful.
 *
 * <p>Usage: StreamsApp --bootstrap B --application-id ID --input T --output T --state-dir DIR
 * [--threads N] [--instance K] [--command-config FILE] [--store memory|rocksdb]
 * [--config KEY=VALUE]... [--standby-batch-delay-ms MS] [--print-topology]
 *
 * <p>Prints "STATE=..." lines on stdout on every state change, and a "STANDBY-BATCH task=T
 * changelog=TOPIC-P batch-end=O batch-size=N current-end=E" line per batch a standby task loads
 * (StandbyUpdateListener#onBatchLoaded: O is the last offset loaded, E the task's end offset as
 * it is reported to the group coordinator); sleeps MS after each such batch when
 * --standby-batch-delay-ms is given (slows standbys down so that their lag can be watched).
 * Closes on SIGTERM (shutdown hook) so that the members leave the group at once.
 */
public final class StreamsApp {
    private StreamsApp() {}

    static Topology topology(String input, String output) {
        return topology(input, output, false);
    }

    static Topology topology(String input, String output, boolean rocksdb) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, v) -> v, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long>as(rocksdb
                        ? Stores.persistentKeyValueStore("counts")
                        : Stores.inMemoryKeyValueStore("counts")))
                .toStream()
                .to(output, Produced.with(Serdes.String(), Serdes.Long()));
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = null, appId = null, input = null, output = null, stateDir = null, commandConfig = null;
        int threads = 1;
        String instance = "0";
        boolean printTopology = false;
        String store = "memory";
        long standbyDelayMs = 0;
        java.util.List<String> configs = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--bootstrap": bootstrap = need(args, ++i, a); break;
                case "--application-id": appId = need(args, ++i, a); break;
                case "--input": input = need(args, ++i, a); break;
                case "--output": output = need(args, ++i, a); break;
                case "--state-dir": stateDir = need(args, ++i, a); break;
                case "--threads": threads = Integer.parseInt(need(args, ++i, a)); break;
                case "--instance": instance = need(args, ++i, a); break;
                case "--command-config": commandConfig = need(args, ++i, a); break;
                case "--print-topology": printTopology = true; break;
                case "--store": store = need(args, ++i, a); break;
                case "--config": configs.add(need(args, ++i, a)); break;
                case "--standby-batch-delay-ms": standbyDelayMs = Long.parseLong(need(args, ++i, a)); break;
                default: die("StreamsApp: unknown argument " + a);
            }
        }
        if (input == null) input = "words";
        if (output == null) output = "counts-out";
        if (!store.equals("memory") && !store.equals("rocksdb")) {
            die("StreamsApp: --store must be memory or rocksdb, not " + store);
        }
        Topology topology = topology(input, output, store.equals("rocksdb"));
        if (printTopology) {
            System.out.println(topology.describe());
            return;
        }
        if (bootstrap == null || appId == null || stateDir == null) {
            die("StreamsApp: --bootstrap, --application-id and --state-dir are required");
        }

        Properties p = new Properties();
        if (commandConfig != null) {
            try (InputStream in = new FileInputStream(commandConfig)) {
                p.load(in);
            }
        }
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.CLIENT_ID_CONFIG, appId + "-instance-" + instance);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        for (String kv : configs) {
            int eq = kv.indexOf('=');
            if (eq <= 0) die("StreamsApp: --config wants KEY=VALUE, not " + kv);
            String value = kv.substring(eq + 1);
            // application.server=auto: an interactive-query endpoint of this instance's own
            // (nothing listens on it; the group coordinator only passes it around).
            if (kv.substring(0, eq).equals(StreamsConfig.APPLICATION_SERVER_CONFIG) && value.equals("auto")) {
                value = "127.0.0.1:" + (18080 + Integer.parseInt(instance));
            }
            p.put(kv.substring(0, eq), value);
        }

        KafkaStreams ks = new KafkaStreams(topology, p);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean(false);
        ks.setStateListener((now, before) -> {
            System.out.println("STATE=" + now);
            System.out.flush();
        });
        final long delay = standbyDelayMs;
        ks.setStandbyUpdateListener(new StandbyUpdateListener() {
            @Override
            public void onUpdateStart(TopicPartition tp, String storeName, long startingOffset) {}

            @Override
            public void onBatchLoaded(TopicPartition tp, String storeName, TaskId taskId,
                                      long batchEndOffset, long batchSize, long currentEndOffset) {
                System.out.println("STANDBY-BATCH task=" + taskId + " changelog=" + tp + " batch-end="
                        + batchEndOffset + " batch-size=" + batchSize + " current-end=" + currentEndOffset);
                System.out.flush();
                if (delay > 0) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void onUpdateSuspended(TopicPartition tp, String storeName, long storeOffset,
                                          long currentEndOffset, SuspendReason reason) {}
        });
        ks.setUncaughtExceptionHandler(e -> {
            System.err.println("StreamsApp: uncaught exception: " + e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler
                    .StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            ks.close(Duration.ofSeconds(20));
            System.out.println("CLOSED");
            System.out.flush();
            closed.countDown();
        }, "streams-app-shutdown"));
        ks.start();
        // Exit by itself if the client dies (e.g. fatal error); otherwise wait for SIGTERM.
        String lastMetadata = "";
        while (closed.getCount() > 0 && !stopping.get()) {
            KafkaStreams.State s = ks.state();
            if (s == KafkaStreams.State.RUNNING && p.containsKey(StreamsConfig.APPLICATION_SERVER_CONFIG)) {
                String m = streamsMetadata(ks);
                if (!m.equals(lastMetadata)) {
                    System.out.println("STREAMS-METADATA " + m);
                    System.out.flush();
                    lastMetadata = m;
                }
            }
            if (!stopping.get() && (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING)) {
                System.err.println("StreamsApp: client stopped in state " + s);
                ks.close(Duration.ofSeconds(5));
                System.exit(2);
            }
            Thread.sleep(500);
        }
    }

    /**
     * What this client knows of every instance's interactive-query endpoint
     * ({@code KafkaStreams#metadataForAllStreamsClients()}, fed by the group coordinator's
     * endpoint map): "host:port active=t-0,t-1 standby=t-2" per client, clients and partitions
     * sorted, separated by " | ".
     */
    static String streamsMetadata(KafkaStreams ks) {
        java.util.List<String> clients = new java.util.ArrayList<>();
        for (org.apache.kafka.streams.StreamsMetadata m : ks.metadataForAllStreamsClients()) {
            clients.add(m.host() + ":" + m.port()
                + " active=" + partitions(m.topicPartitions())
                + " standby=" + partitions(m.standbyTopicPartitions()));
        }
        java.util.Collections.sort(clients);
        return String.join(" | ", clients);
    }

    static String partitions(java.util.Set<org.apache.kafka.common.TopicPartition> tps) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (org.apache.kafka.common.TopicPartition tp : tps) {
            out.add(tp.topic() + "-" + tp.partition());
        }
        java.util.Collections.sort(out);
        return String.join(",", out);
    }

    static String need(String[] args, int i, String flag) {
        if (i >= args.length) die("StreamsApp: " + flag + " needs a value");
        return args[i];
    }

    static void die(String msg) {
        System.err.println(msg);
        System.exit(2);
    }

}
