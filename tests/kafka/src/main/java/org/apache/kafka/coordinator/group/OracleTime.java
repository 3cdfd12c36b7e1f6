package org.apache.kafka.coordinator.group;

import java.util.function.Supplier;

import org.apache.kafka.common.utils.Time;

/**
 * The oracle's fake clock: it only moves when the driver moves it, never backwards.
 *
 * <p>{@code waitObject} has no {@code @Override}: Kafka 4.1-4.3 declare it in {@link Time},
 * 4.4 removed it, and this way the class compiles against all of them.
 */
final class OracleTime implements Time {
    private long nowMs;

    OracleTime(long startMs) {
        this.nowMs = startMs;
    }

    void setMs(long ms) {
        if (ms < nowMs) throw new IllegalArgumentException("time cannot go back from " + nowMs + " to " + ms);
        nowMs = ms;
    }

    @Override
    public long milliseconds() {
        return nowMs;
    }

    @Override
    public long nanoseconds() {
        return nowMs * 1_000_000L;
    }

    @Override
    public void sleep(long ms) {
        nowMs += ms;
    }

    public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) {
        if (!condition.get()) {
            throw new IllegalStateException("OracleTime.waitObject: nothing else runs, the condition can never become true");
        }
    }
}
