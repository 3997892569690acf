package dev.columba.planner.session;

import java.util.List;

/**
 * What executing a statement for a batch of parameter sets gives back ({@link Session#executeBatch}):
 * the count of rows each set changed, in order, and the messages and statistics of the batch as
 * one statement.
 */
public record BatchResult(long[] counts, List<String> messages, StatementStatistics statistics) {
    public BatchResult {
        counts = counts.clone();
        messages = List.copyOf(messages);
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }
}
