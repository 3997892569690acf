package dev.columba.planner.session;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.TableSchema;
import dev.columba.storage.txn.ObjectLocks;
import java.util.List;

/**
 * A query's result: batches straight from the operator tree. The statement finishes when the last
 * batch was read or the result is closed: then its locks and memory are released and its
 * statistics and messages are complete.
 */
final class RowsResult implements StatementResult.Rows {
    private final Session.Execution execution;
    private final ObjectLocks.Lease lease;
    private final QueryFinish finish;

    RowsResult(Session.Execution execution, ObjectLocks.Lease lease, QueryFinish finish) {
        this.execution = execution;
        this.lease = lease;
        this.finish = finish;
    }

    @Override
    public TableSchema schema() {
        return execution.plan.schema();
    }

    @Override
    public java.util.BitSet identityColumns() {
        return execution.plan.identityColumns();
    }

    @Override
    public List<String> columnLabels() {
        return execution.plan.columnLabels();
    }

    @Override
    public Batch next() {
        if (finish.finished()) {
            return null;
        }
        if (lease != null) {
            // Read on another thread than ran the query (JDBC allows it): the holds go with the statement.
            lease.moveToCurrentThread();
        }
        Batch batch;
        try {
            batch = execution.operator.next();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        if (batch == null) {
            close();
        }
        return batch;
    }

    @Override
    public List<String> messages() {
        return finish.messages();
    }

    @Override
    public StatementStatistics statistics() {
        return finish.statistics();
    }

    @Override
    public void close() {
        if (finish.finished()) {
            return;
        }
        try {
            execution.close();
        } finally {
            if (lease != null) {
                lease.close();
            }
            finish.finish();
        }
    }
}
