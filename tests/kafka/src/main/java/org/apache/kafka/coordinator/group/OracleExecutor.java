package org.apache.kafka.coordinator.group;

import org.apache.kafka.coordinator.common.runtime.CoordinatorExecutor;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;

/**
 * The oracle's {@link CoordinatorExecutor}. The streams paths of 4.1-4.4 never use it (only
 * consumer-group regex resolution does), so any use means the oracle left the modelled ground:
 * it stops the driver loudly instead of silently doing nothing.
 */
final class OracleExecutor implements CoordinatorExecutor<CoordinatorRecord> {
    @Override
    public <R> boolean schedule(String key, TaskRunnable<R> task, TaskOperation<CoordinatorRecord, R> operation) {
        throw new StreamsCoordinatorOracle.Fatal("the group coordinator scheduled executor task '" + key
            + "'; the oracle does not model the executor");
    }

    @Override
    public boolean isScheduled(String key) {
        return false;
    }

    @Override
    public void cancel(String key) {
    }
}
