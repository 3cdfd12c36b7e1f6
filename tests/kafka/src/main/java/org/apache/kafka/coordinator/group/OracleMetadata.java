package org.apache.kafka.coordinator.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataDelta;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataImage;

/**
 * A topics-only metadata image for the oracle: one rack-less broker, so every partition's rack
 * list is empty. Images are immutable; {@link #apply} returns the next image and the delta that
 * the KRaft metadata publisher would hand to {@code GroupMetadataManager.onMetadataUpdate}.
 *
 * <p>Like KRaft's {@code TopicsDelta}, a created topic is also a changed topic, and the delta's
 * {@code image()} is the image before the change (it resolves deleted topic ids). Topic ids are
 * deterministic (a counter), so metadata hashes repeat from run to run.
 */
final class OracleMetadata implements CoordinatorMetadataImage {
    /** One topic. {@code partitionRacks} returns a fresh mutable list (the GMM sorts it). */
    static final class Topic implements CoordinatorMetadataImage.TopicMetadata {
        private final String name;
        private final Uuid id;
        private final int partitions;

        Topic(String name, Uuid id, int partitions) {
            this.name = name;
            this.id = id;
            this.partitions = partitions;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Uuid id() {
            return id;
        }

        @Override
        public int partitionCount() {
            return partitions;
        }

        @Override
        public List<String> partitionRacks(int partition) {
            return new ArrayList<>();
        }
    }

    static final class Delta implements CoordinatorMetadataDelta {
        private final Set<Uuid> created;
        private final Set<Uuid> changed;
        private final Set<Uuid> deleted;
        private final OracleMetadata before;

        Delta(Set<Uuid> created, Set<Uuid> changed, Set<Uuid> deleted, OracleMetadata before) {
            this.created = created;
            this.changed = changed;
            this.deleted = deleted;
            this.before = before;
        }

        @Override
        public Collection<Uuid> createdTopicIds() {
            return created;
        }

        @Override
        public Collection<Uuid> changedTopicIds() {
            return changed;
        }

        @Override
        public Set<Uuid> deletedTopicIds() {
            return deleted;
        }

        @Override
        public CoordinatorMetadataImage image() {
            return before;
        }
    }

    private final long version;
    private final long nextTopicNumber;
    private final Map<String, Topic> byName;
    private final Map<Uuid, Topic> byId;

    OracleMetadata() {
        this(0, 1, new TreeMap<>());
    }

    private OracleMetadata(long version, long nextTopicNumber, Map<String, Topic> byName) {
        this.version = version;
        this.nextTopicNumber = nextTopicNumber;
        this.byName = Collections.unmodifiableMap(byName);
        Map<Uuid, Topic> ids = new HashMap<>();
        byName.values().forEach(t -> ids.put(t.id(), t));
        this.byId = Collections.unmodifiableMap(ids);
    }

    /** Result of {@link #apply}. */
    static final class Update {
        final OracleMetadata image;
        final Delta delta;

        Update(OracleMetadata image, Delta delta) {
            this.image = image;
            this.delta = delta;
        }
    }

    /**
     * Creates or grows the topics in {@code set} (name to partition count) and deletes those in
     * {@code delete}. Shrinking a topic is impossible in Kafka and an error here.
     */
    Update apply(Map<String, Integer> set, List<String> delete) {
        Map<String, Topic> next = new TreeMap<>(byName);
        Set<Uuid> created = new LinkedHashSet<>();
        Set<Uuid> changed = new LinkedHashSet<>();
        Set<Uuid> deleted = new LinkedHashSet<>();
        long number = nextTopicNumber;
        for (String name : delete) {
            Topic t = next.remove(name);
            if (t == null) throw new IllegalArgumentException("cannot delete topic '" + name + "': it does not exist");
            deleted.add(t.id());
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
            } else if (partitions < old.partitionCount()) {
                throw new IllegalArgumentException("topic '" + name + "' has " + old.partitionCount()
                    + " partitions; Kafka cannot shrink it to " + partitions);
            } else if (partitions > old.partitionCount()) {
                next.put(name, new Topic(name, old.id(), partitions));
                changed.add(old.id());
            }
        }
        OracleMetadata image = new OracleMetadata(version + 1, number, next);
        return new Update(image, new Delta(created, changed, deleted, this));
    }

    Map<String, Integer> partitionCounts() {
        Map<String, Integer> out = new TreeMap<>();
        byName.forEach((n, t) -> out.put(n, t.partitionCount()));
        return out;
    }

    @Override
    public Set<Uuid> topicIds() {
        return byId.keySet();
    }

    @Override
    public Set<String> topicNames() {
        return byName.keySet();
    }

    @Override
    public Optional<TopicMetadata> topicMetadata(String topicName) {
        return Optional.ofNullable(byName.get(topicName));
    }

    @Override
    public Optional<TopicMetadata> topicMetadata(Uuid topicId) {
        return Optional.ofNullable(byId.get(topicId));
    }

    @Override
    public CoordinatorMetadataDelta emptyDelta() {
        return new Delta(Set.of(), Set.of(), Set.of(), this);
    }

    @Override
    public long version() {
        return version;
    }

    /** A running broker's image is never empty (it has at least the cluster and features). */
    @Override
    public boolean isEmpty() {
        return false;
    }
}
