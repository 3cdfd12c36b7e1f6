package streamsgroup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Fills __consumer_offsets with other groups' offset commits, for the test that `history` reads
 * a partition full of them in bounded memory.
 *
 * <pre>
 * OffsetFiller --bootstrap B --group G --topic T --partitions P --commits N [--in-flight K]
 * </pre>
 *
 * Creates T with P partitions, then commits offsets for all P partitions of T as group G until
 * N offset records are written (N / P AlterConsumerGroupOffsets calls, K at a time). Prints
 * "COMMITTED N". Exit 0 on success; 1 with one line on stderr otherwise.
 */
public final class OffsetFiller {
    private OffsetFiller() {}

    public static void main(String[] args) {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        try {
            long done = fill(
                a.get("--bootstrap"),
                a.get("--group"),
                a.get("--topic"),
                Integer.parseInt(a.getOrDefault("--partitions", "500")),
                Long.parseLong(a.getOrDefault("--commits", "1000000")),
                Integer.parseInt(a.getOrDefault("--in-flight", "20")));
            System.out.println("COMMITTED " + done);
        } catch (Exception e) {
            System.err.println("harness: offset filler: " + e);
            System.exit(1);
        }
    }

    static long fill(String bootstrap, String group, String topic, int partitions, long commits,
                             int inFlight) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(p)) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            long calls = (commits + partitions - 1) / partitions;
            long written = 0;
            List<KafkaFuture<Void>> pending = new ArrayList<>();
            for (long c = 0; c < calls; c++) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int part = 0; part < partitions; part++) {
                    offsets.put(new TopicPartition(topic, part), new OffsetAndMetadata(c));
                }
                pending.add(admin.alterConsumerGroupOffsets(group, offsets).all());
                written += partitions;
                if (pending.size() >= inFlight) {
                    for (KafkaFuture<Void> f : pending) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    pending.clear();
                }
            }
            for (KafkaFuture<Void> f : pending) {
                f.get(60, TimeUnit.SECONDS);
            }
            return written;
        }
    }
}
