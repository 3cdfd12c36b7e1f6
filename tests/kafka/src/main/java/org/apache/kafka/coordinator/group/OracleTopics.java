package org.apache.kafka.coordinator.group;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;

/**
 * The oracle's topics, independent of the Kafka version: name to (deterministic id, partition
 * count). Immutable; {@link #apply} returns the next state and what changed. {@code OracleMetadata}
 * (one source per Kafka API: {@code src/main/java} for 4.2+, {@code src/main/java41} for 4.1)
 * turns it into the metadata image and delta of that version's {@code GroupMetadataManager}.
 *
 * <p>Topic ids are deterministic (a counter), so metadata hashes repeat from run to run and are
 * the same in every Kafka version.
 */
final class OracleTopics {
    /** One topic. */
    static final class Topic {
        final String name;
        final Uuid id;
        final int partitions;

        Topic(String name, Uuid id, int partitions) {
            this.name = name;
            this.id = id;
            this.partitions = partitions;
        }
    }

    /** Result of {@link #apply}: the next topics and the ids created, changed, deleted. */
    static final class Change {
        final OracleTopics next;
        /** Created topics (also in {@link #changed}, as in KRaft's {@code TopicsDelta}). */
        final Set<Uuid> created;
        final Set<Uuid> changed;
        final Set<Uuid> deleted;

        Change(OracleTopics next, Set<Uuid> created, Set<Uuid> changed, Set<Uuid> deleted) {
            this.next = next;
            this.created = created;
            this.changed = changed;
            this.deleted = deleted;
        }
    }

    /** Incremented by every {@link #apply} (the image's version / provenance offset). */
    final long version;
    private final long nextTopicNumber;
    /** Sorted by name. */
    final Map<String, Topic> byName;

    OracleTopics() {
        this(0, 1, new TreeMap<>());
    }

    private OracleTopics(long version, long nextTopicNumber, Map<String, Topic> byName) {
        this.version = version;
        this.nextTopicNumber = nextTopicNumber;
        this.byName = Collections.unmodifiableMap(byName);
    }

    /**
     * Creates or grows the topics in {@code set} (name to partition count) and deletes those in
     * {@code delete}. Shrinking a topic is impossible in Kafka and an error here.
     */
    Change apply(Map<String, Integer> set, List<String> delete) {
        Map<String, Topic> next = new TreeMap<>(byName);
        Set<Uuid> created = new LinkedHashSet<>();
        Set<Uuid> changed = new LinkedHashSet<>();
        Set<Uuid> deleted = new LinkedHashSet<>();
        long number = nextTopicNumber;
        for (String name : delete) {
            Topic t = next.remove(name);
            if (t == null) throw new IllegalArgumentException("cannot delete topic '" + name + "': it does not exist");
            deleted.add(t.id);
        }
        for (Map.Entry<String, Integer> e : set.entrySet()) {
            String name = e.getKey();
            int partitions = e.getValue();
            if (partitions <= 0) throw new IllegalArgumentException("topic '" + name + "' needs at least one partition, not " + partitions);
            org.apache.kafka.common.internals.Topic.validate(name);
            Topic old = next.get(name);
            if (old == null) {
                Uuid id = new Uuid(0x4f5241434c450000L, number++);
                next.put(name, new Topic(name, id, partitions));
                created.add(id);
                changed.add(id);
            } else if (partitions < old.partitions) {
                throw new IllegalArgumentException("topic '" + name + "' has " + old.partitions
                    + " partitions; Kafka cannot shrink it to " + partitions);
            } else if (partitions > old.partitions) {
                next.put(name, new Topic(name, old.id, partitions));
                changed.add(old.id);
            }
        }
        return new Change(new OracleTopics(version + 1, number, next), created, changed, deleted);
    }

    Map<String, Integer> partitionCounts() {
        Map<String, Integer> out = new TreeMap<>();
        byName.forEach((n, t) -> out.put(n, t.partitions));
        return out;
    }
}
