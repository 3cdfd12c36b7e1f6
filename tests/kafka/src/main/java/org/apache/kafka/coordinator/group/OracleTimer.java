package org.apache.kafka.coordinator.group;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.coordinator.common.runtime.CoordinatorResult;
import org.apache.kafka.coordinator.common.runtime.CoordinatorTimer;

/**
 * A fake {@link CoordinatorTimer} for {@link StreamsCoordinatorOracle}: key to (deadline, operation),
 * driven by the oracle's fake clock.
 *
 * <p>It is a dynamic proxy because the interface's type parameters changed between releases
 * ({@code CoordinatorTimer<T, U>} with {@code TimeoutOperation<T, U>} in 4.1 and 4.2,
 * {@code CoordinatorTimer<U>} from 4.3); the erased method signatures are the same, so one
 * handler serves every version.
 *
 * <p>Semantics follow the runtime's {@code CoordinatorTimerImpl}: scheduling a key replaces its
 * previous task; {@code scheduleIfAbsent} keeps an existing one; a task leaves the map just
 * before its operation runs (so {@code isScheduled} is false inside the operation); a failing
 * operation scheduled with {@code retry} is rescheduled after its backoff (500 ms by default).
 */
final class OracleTimer implements InvocationHandler {
    /** Default retry backoff of {@code CoordinatorTimerImpl.schedule} without one. */
    static final long DEFAULT_RETRY_BACKOFF_MS = 500;

    static final class Task {
        final String key;
        final long deadlineMs;
        final long seq;
        final boolean retry;
        final long retryBackoffMs;
        final Object operation;

        Task(String key, long deadlineMs, long seq, boolean retry, long retryBackoffMs, Object operation) {
            this.key = key;
            this.deadlineMs = deadlineMs;
            this.seq = seq;
            this.retry = retry;
            this.retryBackoffMs = retryBackoffMs;
            this.operation = operation;
        }
    }

    private final OracleTime time;
    private final Map<String, Task> tasks = new HashMap<>();
    private long seq = 0;
    private Method generateRecords;

    OracleTimer(OracleTime time) {
        this.time = time;
    }

    /** The proxy to hand to {@code GroupMetadataManager.Builder.withTimer}. */
    @SuppressWarnings("rawtypes")
    CoordinatorTimer proxy() {
        return (CoordinatorTimer) Proxy.newProxyInstance(
            CoordinatorTimer.class.getClassLoader(), new Class<?>[] {CoordinatorTimer.class}, this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "schedule":
                if (args.length == 5) {
                    schedule((String) args[0], (Long) args[1], (TimeUnit) args[2], (Boolean) args[3],
                        DEFAULT_RETRY_BACKOFF_MS, args[4]);
                } else {
                    schedule((String) args[0], (Long) args[1], (TimeUnit) args[2], (Boolean) args[3],
                        (Long) args[4], args[5]);
                }
                return null;
            case "scheduleIfAbsent":
                if (!tasks.containsKey((String) args[0])) {
                    schedule((String) args[0], (Long) args[1], (TimeUnit) args[2], (Boolean) args[3],
                        DEFAULT_RETRY_BACKOFF_MS, args[4]);
                }
                return null;
            case "cancel":
                tasks.remove((String) args[0]);
                return null;
            case "isScheduled":
                return tasks.containsKey((String) args[0]);
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            case "toString":
                return "OracleTimer" + tasks.keySet();
            default:
                throw new UnsupportedOperationException("OracleTimer: unexpected call " + method);
        }
    }

    void schedule(String key, long delay, TimeUnit unit, boolean retry, long retryBackoffMs, Object operation) {
        long deadline = time.milliseconds() + unit.toMillis(delay);
        tasks.put(key, new Task(key, deadline, seq++, retry, retryBackoffMs, operation));
    }

    /** The earliest task due at or before {@code nowMs} (ties: scheduling order), or null. */
    Task nextDue(long nowMs) {
        Task best = null;
        for (Task t : tasks.values()) {
            if (t.deadlineMs > nowMs) continue;
            if (best == null || t.deadlineMs < best.deadlineMs
                || (t.deadlineMs == best.deadlineMs && t.seq < best.seq)) {
                best = t;
            }
        }
        return best;
    }

    /** Removes the task from the schedule, as the runtime does right before running it. */
    void take(Task task) {
        if (tasks.get(task.key) == task) tasks.remove(task.key);
    }

    /** After a failed operation: reschedule it when it asked for retries. */
    void maybeRetry(Task task) {
        if (task.retry) {
            schedule(task.key, task.retryBackoffMs, TimeUnit.MILLISECONDS, true, task.retryBackoffMs, task.operation);
        }
    }

    /** Runs {@code operation.generateRecords()}; the operation's own exception is rethrown as is. */
    CoordinatorResult<?, ?> generate(Task task) throws Exception {
        try {
            if (generateRecords == null) {
                Class<?> op = Class.forName(CoordinatorTimer.class.getName() + "$TimeoutOperation");
                generateRecords = op.getMethod("generateRecords");
            }
            return (CoordinatorResult<?, ?>) generateRecords.invoke(task.operation);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) throw (Exception) cause;
            if (cause instanceof Error) throw (Error) cause;
            throw e;
        }
    }

    Map<String, Long> deadlines() {
        Map<String, Long> out = new java.util.TreeMap<>();
        tasks.forEach((k, t) -> out.put(k, t.deadlineMs));
        return out;
    }
}
