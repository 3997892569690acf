package dev.columba.planner.session;

import dev.columba.core.context.GeneratedKeys;
import java.util.List;

/**
 * What executing a statement for a batch of parameter sets gives back ({@link Session#executeBatch}):
 * the count of rows each set changed, in order, the messages and statistics of the batch as one
 * statement, and the identity values its inserts handed out, in the order they were handed out
 * (one run per insert operator: one for a batch of one-row inserts, one per set otherwise).
 */
public record BatchResult(long[] counts, List<String> messages, StatementStatistics statistics,
                          List<GeneratedKeys> generatedKeys) {
    public BatchResult {
        counts = counts.clone();
        messages = List.copyOf(messages);
        generatedKeys = List.copyOf(generatedKeys);
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }
}
