package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.GeneratedKeys;
import dev.columba.core.schema.TableSchema;
import java.util.List;

/**
 * What executing a statement gives back. Messages (STATISTICS IO / TIME lines, PRINT) are complete
 * once the statement is finished: at once for updates and commands, after the rows were read (or
 * the result closed) for queries.
 */
public sealed interface StatementResult extends AutoCloseable
        permits StatementResult.Rows, StatementResult.Update, StatementResult.Command {

    /** Messages in the order SQL Server would send them. */
    List<String> messages();

    /** The typed statistics behind the messages. */
    StatementStatistics statistics();

    @Override
    default void close() {
    }

    /** A query's rows, read a batch at a time. */
    non-sealed interface Rows extends StatementResult {
        TableSchema schema();

        /** The columns that are a table's IDENTITY column as stored (see {@code PreparedStatementPlan.identityColumns}). */
        default java.util.BitSet identityColumns() {
            return new java.util.BitSet();
        }

        /** The columns' labels as the query wrote them (see {@code PreparedStatementPlan.columnLabels}); may repeat. */
        default List<String> columnLabels() {
            return schema().columns().stream().map(dev.columba.core.schema.Column::name).toList();
        }

        /** The next batch with at least one live row, or null at the end. Valid until the next call. */
        Batch next();

        /** Finishes the statement: releases its locks and memory and completes the statistics. */
        @Override
        void close();
    }

    /**
     * A query's rows read when it ran (a point lookup, see {@code PointLookup}): readable as Java
     * values without a batch, and as a batch by {@link #next()} for whoever reads batches.
     */
    interface RowsRead extends Rows {
        /** The rows, each a value per column in its Java representation (null for NULL). */
        List<Object[]> rowsRead();
    }

    /** An INSERT, UPDATE or DELETE: how many rows it changed. */
    record Update(long count, List<String> messages, StatementStatistics statistics, List<GeneratedKeys> generatedKeys)
            implements StatementResult {
        public Update {
            messages = List.copyOf(messages);
            generatedKeys = List.copyOf(generatedKeys);
        }

        /** A change that handed out no identity values. */
        public Update(long count, List<String> messages, StatementStatistics statistics) {
            this(count, messages, statistics, List.of());
        }
    }

    /** DDL or a session command. */
    record Command(List<String> messages, StatementStatistics statistics) implements StatementResult {
        public Command {
            messages = List.copyOf(messages);
        }
    }
}
