package dev.columba.planner.plan;

import dev.columba.core.context.QueryContext;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.Transaction;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a running statement may use, given by the session: where it reads pages (the committed
 * pool, or the session's write transaction so it sees its own changes), the transaction it writes
 * in (null for a read-only statement outside a transaction), its settings and statistics, its
 * memory, its clock. Valid for the statement's lifetime.
 */
public interface StatementEnvironment {
    Database database();

    /** The reader the statement's scans use. */
    PageReader reader();

    /** The write transaction, or null when the statement only reads outside one. */
    Transaction transaction();

    /** Settings as of the statement's start, and the statement's statistics. */
    QueryContext query();

    /** The statement's allocator (its limit is the statement's memory limit). */
    BufferAllocator allocator();

    /** The statement's clock (CURRENT_DATE and friends). */
    EvaluationContext evaluation();

    /** Rows per batch. */
    int batchSize();
}
