package org.apache.kafka.coordinator.group;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataDelta;
import org.apache.kafka.coordinator.common.runtime.CoordinatorMetadataImage;

/**
 * A topics-only metadata image for the oracle (Kafka 4.2+: the coordinator's own
 * {@code CoordinatorMetadataImage} API): one rack-less broker, so every partition's rack list is
 * empty. Images are immutable; {@link #update} publishes the next image and the delta that the
 * KRaft metadata publisher would hand to the {@code GroupMetadataManager}.
 *
 * <p>This file is in {@code src/main/java42} (the pom adds it for Kafka 4.2 and later). Kafka 4.1
 * has no {@code CoordinatorMetadataImage} (its GMM takes KRaft's {@code MetadataImage}); the 4.1
 * build compiles {@code src/main/java41/.../OracleMetadata.java} instead, with the same
 * package-private API: {@link #OracleMetadata()}, {@link #installIn}, {@link #loadedInto},
 * {@link #update}, {@link #partitionCounts}. The topics themselves are {@link OracleTopics}.
 *
 * <p>Like KRaft's {@code TopicsDelta}, a created topic is also a changed topic, and the delta's
 * {@code image()} is the image before the change (it resolves deleted topic ids).
 */
final class OracleMetadata implements CoordinatorMetadataImage {
    /** One topic. {@code partitionRacks} returns a fresh mutable list (the GMM sorts it). */
    static final class Topic implements CoordinatorMetadataImage.TopicMetadata {
        private final OracleTopics.Topic topic;

        Topic(OracleTopics.Topic topic) {
            this.topic = topic;
        }

        @Override
        public String name() {
            return topic.name;
        }

        @Override
        public Uuid id() {
            return topic.id;
        }

        @Override
        public int partitionCount() {
            return topic.partitions;
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

    private final OracleTopics topics;
    private final Map<String, TopicMetadata> byName;
    private final Map<Uuid, TopicMetadata> byId;

    OracleMetadata() {
        this(new OracleTopics());
    }

    private OracleMetadata(OracleTopics topics) {
        this.topics = topics;
        Map<String, TopicMetadata> names = new TreeMap<>();
        Map<Uuid, TopicMetadata> ids = new HashMap<>();
        topics.byName.values().forEach(t -> {
            Topic m = new Topic(t);
            names.put(t.name, m);
            ids.put(t.id, m);
        });
        this.byName = Collections.unmodifiableMap(names);
        this.byId = Collections.unmodifiableMap(ids);
    }

    /** {@code GroupMetadataManager.Builder.withMetadataImage(image)}. */
    void installIn(GroupMetadataManager.Builder builder) {
        builder.withMetadataImage(this);
    }

    /** What {@code GroupCoordinatorShard.onLoaded(image)} hands the GMM: this image, an empty delta. */
    void loadedInto(GroupMetadataManager gmm) {
        publish(gmm, emptyDelta(), this);
    }

    /**
     * Creates or grows the topics in {@code set}, deletes those in {@code delete} (see
     * {@link OracleTopics#apply}; throws IllegalArgumentException before publishing anything),
     * publishes the new image to the GMM and returns it.
     */
    OracleMetadata update(GroupMetadataManager gmm, Map<String, Integer> set, List<String> delete) {
        OracleTopics.Change change = topics.apply(set, delete);
        OracleMetadata next = new OracleMetadata(change.next);
        publish(gmm, new Delta(change.created, change.changed, change.deleted, this), next);
        return next;
    }

    Map<String, Integer> partitionCounts() {
        return topics.partitionCounts();
    }

    /**
     * A new metadata image for the GMM: 4.3 and 4.4 {@code onMetadataUpdate(delta, image)};
     * 4.2 {@code onNewMetadataImage(image, delta)}.
     */
    private static void publish(GroupMetadataManager gmm, CoordinatorMetadataDelta delta, CoordinatorMetadataImage image) {
        try {
            try {
                GroupMetadataManager.class.getMethod("onMetadataUpdate", CoordinatorMetadataDelta.class,
                    CoordinatorMetadataImage.class).invoke(gmm, delta, image);
            } catch (NoSuchMethodException e) {
                GroupMetadataManager.class.getMethod("onNewMetadataImage", CoordinatorMetadataImage.class,
                    CoordinatorMetadataDelta.class).invoke(gmm, image, delta);
            }
        } catch (ReflectiveOperationException e) {
            throw new StreamsCoordinatorOracle.Fatal("GroupMetadataManager metadata update failed: "
                + OracleShims.unwrap(e), OracleShims.unwrap(e));
        }
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
        return topics.version;
    }

    /** A running broker's image is never empty (it has at least the cluster and features). */
    @Override
    public boolean isEmpty() {
        return false;
    }
}
