package org.apache.kafka.coordinator.group;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metadata.FeatureLevelRecord;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.RemoveTopicRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.image.MetadataDelta;
import org.apache.kafka.image.MetadataImage;
import org.apache.kafka.image.MetadataProvenance;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * The oracle's metadata image for Kafka 4.1, whose {@code GroupMetadataManager} takes KRaft's own
 * {@link MetadataImage} and {@link MetadataDelta} (4.2 introduced {@code CoordinatorMetadataImage};
 * the 4.2+ build compiles {@code src/main/java/.../OracleMetadata.java} instead, with the same
 * package-private API).
 *
 * <p>The images are built as KRaft builds them: each change is a {@link MetadataDelta} on the
 * previous image that replays {@code TopicRecord} + {@code PartitionRecord}s (a created topic),
 * {@code PartitionRecord}s of the new partitions (a grown topic) or {@code RemoveTopicRecord} (a
 * deleted topic), then {@code apply}. Every partition has the one replica broker 1, which is not
 * registered, so no partition has a rack (as in the 4.2+ image). The first image only holds
 * {@code metadata.version} (a running broker's image is never empty). The provenance's offset
 * is the topics' version.
 */
final class OracleMetadata {
    private static final int BROKER_ID = 1;

    private final OracleTopics topics;
    private final MetadataImage image;

    OracleMetadata() {
        MetadataDelta delta = new MetadataDelta.Builder().setImage(MetadataImage.EMPTY).build();
        delta.replay(new FeatureLevelRecord()
            .setName(MetadataVersion.FEATURE_NAME)
            .setFeatureLevel(MetadataVersion.LATEST_PRODUCTION.featureLevel()));
        this.topics = new OracleTopics();
        this.image = delta.apply(provenance(topics.version));
    }

    private OracleMetadata(OracleTopics topics, MetadataImage image) {
        this.topics = topics;
        this.image = image;
    }

    private static MetadataProvenance provenance(long version) {
        return new MetadataProvenance(version, 0, 0L, true);
    }

    /** {@code GroupMetadataManager.Builder.withMetadataImage(image)}. */
    void installIn(GroupMetadataManager.Builder builder) {
        builder.withMetadataImage(image);
    }

    /** What {@code GroupCoordinatorShard.onLoaded(image)} hands the GMM: this image, an empty delta. */
    void loadedInto(GroupMetadataManager gmm) {
        gmm.onNewMetadataImage(image, new MetadataDelta(image));
    }

    /**
     * Creates or grows the topics in {@code set}, deletes those in {@code delete} (see
     * {@link OracleTopics#apply}; throws IllegalArgumentException before publishing anything),
     * publishes the new image to the GMM with {@code onNewMetadataImage(image, delta)} and returns it.
     */
    OracleMetadata update(GroupMetadataManager gmm, Map<String, Integer> set, List<String> delete) {
        OracleTopics.Change change = topics.apply(set, delete);
        MetadataDelta delta = new MetadataDelta.Builder().setImage(image).build();
        for (Uuid id : change.deleted) {
            delta.replay(new RemoveTopicRecord().setTopicId(id));
        }
        for (OracleTopics.Topic t : change.next.byName.values()) {
            if (!change.changed.contains(t.id)) continue;
            int from = 0;
            if (change.created.contains(t.id)) {
                delta.replay(new TopicRecord().setName(t.name).setTopicId(t.id));
            } else {
                from = topics.byName.get(t.name).partitions;
            }
            for (int p = from; p < t.partitions; p++) {
                delta.replay(new PartitionRecord()
                    .setPartitionId(p)
                    .setTopicId(t.id)
                    .setReplicas(List.of(BROKER_ID))
                    .setIsr(List.of(BROKER_ID))
                    .setLeader(BROKER_ID)
                    .setLeaderEpoch(0)
                    .setPartitionEpoch(0));
            }
        }
        MetadataImage next = delta.apply(provenance(change.next.version));
        try {
            gmm.onNewMetadataImage(next, delta);
        } catch (RuntimeException e) {
            throw new StreamsCoordinatorOracle.Fatal("GroupMetadataManager.onNewMetadataImage failed: " + e, e);
        }
        return new OracleMetadata(change.next, next);
    }

    Map<String, Integer> partitionCounts() {
        return topics.partitionCounts();
    }
}
