package org.apache.kafka.coordinator.group;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;
import org.apache.kafka.coordinator.group.streams.StreamsGroup;
import org.apache.kafka.timeline.SnapshotRegistry;

/**
 * Everything that differs between the Kafka 4.1, 4.2, 4.3 and 4.4 group coordinators, reached by
 * reflection so that one source compiles against all four jars. Each method says which versions
 * take which path. (The metadata image, whose types 4.1 lacks, is {@code OracleMetadata}, one
 * source per API.)
 */
final class OracleShims {
    private OracleShims() {}

    /** The real exception behind a reflective call. */
    static Throwable unwrap(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) t = t.getCause();
        return t;
    }

    /**
     * {@code new SnapshotRegistry(new LogContext())}: {@code LogContext} moved from
     * {@code org.apache.kafka.common.utils} (4.1-4.3) to {@code org.apache.kafka.common.utils.internals} (4.4).
     */
    static SnapshotRegistry newSnapshotRegistry() {
        try {
            for (Constructor<?> c : SnapshotRegistry.class.getConstructors()) {
                if (c.getParameterCount() == 1) {
                    return (SnapshotRegistry) c.newInstance(c.getParameterTypes()[0].getConstructor().newInstance());
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new StreamsCoordinatorOracle.Fatal("cannot build a SnapshotRegistry: " + unwrap(e), unwrap(e));
        }
        throw new StreamsCoordinatorOracle.Fatal("no SnapshotRegistry(LogContext) constructor");
    }

    /** kafka-clients' version: {@code AppInfoParser} moved like {@code LogContext}. */
    static String kafkaVersion() {
        for (String cls : List.of("org.apache.kafka.common.utils.AppInfoParser",
                                  "org.apache.kafka.common.utils.internals.AppInfoParser")) {
            try {
                return (String) Class.forName(cls).getMethod("getVersion").invoke(null);
            } catch (ClassNotFoundException e) {
                // try the next
            } catch (ReflectiveOperationException e) {
                throw new StreamsCoordinatorOracle.Fatal("AppInfoParser.getVersion: " + unwrap(e), unwrap(e));
            }
        }
        return "unknown";
    }

    /**
     * The broker's {@code GroupConfigManager}:
     * 4.4 {@code new GroupConfigManager(GroupCoordinatorConfig, ShareGroupConfig)};
     * 4.3 {@code new GroupConfigManager(Map defaults, GroupCoordinatorConfig, ShareGroupConfig)};
     * 4.1 and 4.2 {@code new GroupConfigManager(Map defaults)}; the defaults are
     * {@code config.extractGroupConfigMap(shareConfig)} as {@code BrokerServer} passes them.
     */
    static GroupConfigManager newGroupConfigManager(GroupCoordinatorConfig config, ShareGroupConfig share) {
        try {
            for (Constructor<?> c : GroupConfigManager.class.getConstructors()) {
                Class<?>[] p = c.getParameterTypes();
                if (p.length == 2 && p[0] == GroupCoordinatorConfig.class && p[1] == ShareGroupConfig.class) {
                    return (GroupConfigManager) c.newInstance(config, share);
                }
            }
            Object defaults = GroupCoordinatorConfig.class
                .getMethod("extractGroupConfigMap", ShareGroupConfig.class).invoke(config, share);
            for (Constructor<?> c : GroupConfigManager.class.getConstructors()) {
                Class<?>[] p = c.getParameterTypes();
                if (p.length == 3 && p[0] == Map.class) return (GroupConfigManager) c.newInstance(defaults, config, share);
            }
            for (Constructor<?> c : GroupConfigManager.class.getConstructors()) {
                Class<?>[] p = c.getParameterTypes();
                if (p.length == 1 && p[0] == Map.class) return (GroupConfigManager) c.newInstance(defaults);
            }
        } catch (ReflectiveOperationException e) {
            throw new StreamsCoordinatorOracle.Fatal("cannot build the GroupConfigManager: " + unwrap(e), unwrap(e));
        }
        throw new StreamsCoordinatorOracle.Fatal("no known GroupConfigManager constructor in this Kafka version");
    }

    /**
     * The controller's validation of a group's complete new config
     * ({@code ControllerConfigurationValidator}, resource type GROUP):
     * 4.3 and 4.4 {@code GroupConfig.validate(Map, GroupCoordinatorConfig, ShareGroupConfig)};
     * 4.1 and 4.2 {@code GroupConfigManager.validate(Properties, GroupCoordinatorConfig, ShareGroupConfig)}.
     * Throws what Apache throws (typically {@code InvalidConfigurationException}).
     */
    static void validateGroupConfig(Map<String, String> props, GroupCoordinatorConfig config, ShareGroupConfig share)
        throws Throwable {
        try {
            Method m;
            Object arg;
            try {
                m = GroupConfigManager.class.getMethod("validate", Properties.class, GroupCoordinatorConfig.class,
                    ShareGroupConfig.class);
                Properties p = new Properties();
                p.putAll(props);
                arg = p;
            } catch (NoSuchMethodException e) {
                m = GroupConfig.class.getMethod("validate", Map.class, GroupCoordinatorConfig.class, ShareGroupConfig.class);
                arg = props;
            }
            m.invoke(null, arg, config, share);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
    }

    /**
     * 4.4 (KIP-1357) builds the GMM with {@code withStreamsGroupAssignors(config.streamsGroupAssignors())}
     * ({@code GroupCoordinatorShard.Builder}); 4.1-4.3 leave the Builder's default sticky assignor.
     */
    static void maybeWithStreamsGroupAssignors(GroupMetadataManager.Builder builder, GroupCoordinatorConfig config) {
        Method getter;
        try {
            getter = GroupCoordinatorConfig.class.getMethod("streamsGroupAssignors");
        } catch (NoSuchMethodException e) {
            return;
        }
        try {
            Object assignors = getter.invoke(config);
            Method with = GroupMetadataManager.Builder.class.getDeclaredMethod("withStreamsGroupAssignors", List.class);
            with.invoke(builder, assignors);
        } catch (ReflectiveOperationException e) {
            throw new StreamsCoordinatorOracle.Fatal("cannot set the streams group assignors: " + unwrap(e), unwrap(e));
        }
    }

    private static final Object ABSENT = new Object();
    private static final Map<String, Optional<Method>> GETTERS = new ConcurrentHashMap<>();

    /**
     * {@code target.name()} when {@code cls} (or the target's own class) has that public
     * no-argument method in this Kafka version, {@link #ABSENT} otherwise. Lookups are cached.
     */
    private static Object getIfPresent(Class<?> cls, Object target, String name) {
        Optional<Method> m = GETTERS.computeIfAbsent(cls.getName() + "#" + name, k -> {
            try {
                return Optional.of(cls.getMethod(name));
            } catch (NoSuchMethodException e) {
                return Optional.empty();
            }
        });
        if (m.isEmpty()) return ABSENT;
        try {
            return m.get().invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new StreamsCoordinatorOracle.Fatal(cls.getSimpleName() + "." + name + ": " + unwrap(e), unwrap(e));
        }
    }

    /** {@code StreamsGroup.assignmentTimestamp()} (4.3+, the assignment interval); null in 4.1 and 4.2. */
    static Long assignmentTimestamp(StreamsGroup group) {
        Object v = getIfPresent(StreamsGroup.class, group, "assignmentTimestamp");
        return v == ABSENT ? null : (Long) v;
    }

    /**
     * {@code StreamsGroup.validatedTopologyEpoch()} (4.2+: the topology epoch the configured
     * topology was last validated for); null in 4.1, which has no such field.
     */
    static Integer validatedTopologyEpoch(StreamsGroup group) {
        Object v = getIfPresent(StreamsGroup.class, group, "validatedTopologyEpoch");
        return v == ABSENT ? null : (Integer) v;
    }

    /**
     * {@code StreamsGroup.lastAssignmentConfigs()} (4.2+: the assignment configs of the last
     * group epoch bump); null in 4.1, which does not bump the group epoch on a config change.
     */
    @SuppressWarnings("unchecked")
    static Map<String, String> lastAssignmentConfigs(StreamsGroup group) {
        Object v = getIfPresent(StreamsGroup.class, group, "lastAssignmentConfigs");
        return v == ABSENT ? null : (Map<String, String>) v;
    }

    /** A member's tasks, whatever class holds them in this Kafka version. */
    static final class Tasks {
        final Map<String, Set<Integer>> active;
        final Map<String, Set<Integer>> standby;
        final Map<String, Set<Integer>> warmup;
        /** Subtopology to partition to assignment epoch of the active tasks; null in 4.1. */
        final Map<String, Map<Integer, Integer>> activeEpochs;

        Tasks(Map<String, Set<Integer>> active, Map<String, Set<Integer>> standby, Map<String, Set<Integer>> warmup,
              Map<String, Map<Integer, Integer>> activeEpochs) {
            this.active = active;
            this.standby = standby;
            this.warmup = warmup;
            this.activeEpochs = activeEpochs;
        }
    }

    /**
     * {@code StreamsGroupMember.assignedTasks()} or {@code tasksPendingRevocation()}: a
     * {@code TasksTupleWithEpochs} (4.2+: active tasks with their assignment epochs) or a
     * {@code TasksTuple} (4.1: no per-task epochs, so {@code activeEpochs} is null).
     */
    @SuppressWarnings("unchecked")
    static Tasks tasks(Object tuple) {
        Class<?> c = tuple.getClass();
        Map<String, Set<Integer>> standby = (Map<String, Set<Integer>>) getIfPresent(c, tuple, "standbyTasks");
        Map<String, Set<Integer>> warmup = (Map<String, Set<Integer>>) getIfPresent(c, tuple, "warmupTasks");
        Object withEpochs = getIfPresent(c, tuple, "activeTasksWithEpochs");
        if (withEpochs != ABSENT) {
            Map<String, Map<Integer, Integer>> epochs = (Map<String, Map<Integer, Integer>>) withEpochs;
            Map<String, Set<Integer>> active = new HashMap<>();
            epochs.forEach((s, p) -> active.put(s, p.keySet()));
            return new Tasks(active, standby, warmup, epochs);
        }
        Object active = getIfPresent(c, tuple, "activeTasks");
        if (active == ABSENT || standby == ABSENT || warmup == ABSENT) {
            throw new StreamsCoordinatorOracle.Fatal("unknown task tuple class " + c.getName());
        }
        return new Tasks((Map<String, Set<Integer>>) active, standby, warmup, null);
    }

    private static Method unsupportedFeatures;
    private static Method invalid;

    /**
     * {@code GroupCoordinatorService}'s request checks, private static methods with the same names
     * in 4.1-4.4 (and the same checks), in the order the service runs them: unsupported features, then
     * validity. Throws what they throw.
     */
    static void serviceChecks(StreamsGroupHeartbeatRequestData request) throws Throwable {
        try {
            if (unsupportedFeatures == null) {
                unsupportedFeatures = serviceMethod("throwIfStreamsGroupHeartbeatRequestIsUsingUnsupportedFeatures");
                invalid = serviceMethod("throwIfStreamsGroupHeartbeatRequestIsInvalid");
            }
            unsupportedFeatures.invoke(null, request);
            invalid.invoke(null, request);
        } catch (InvocationTargetException e) {
            throw unwrap(e);
        }
    }

    private static Method serviceMethod(String name) throws NoSuchMethodException {
        Method m = GroupCoordinatorService.class.getDeclaredMethod(name, StreamsGroupHeartbeatRequestData.class);
        m.setAccessible(true);
        return m;
    }
}
