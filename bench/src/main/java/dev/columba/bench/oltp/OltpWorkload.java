package dev.columba.bench.oltp;

/**
 * The statements the oltp suite measures, each on table {@code t (id BIGINT PRIMARY KEY, v INT,
 * s VARCHAR(20))} of {@code rows} rows (keys 1..rows) or, for inserts, on the empty table
 * {@code ins} of the same shape. Keys are drawn uniformly at random per client.
 */
public enum OltpWorkload {
    /** {@code SELECT v, s FROM t WHERE id = ?}, one PreparedStatement executed again and again. */
    POINT_PREPARED("prepared point select", 1),
    /** The same select with the key as a literal, a new statement text every time. */
    POINT_AD_HOC("ad hoc point select", 1),
    /** {@code INSERT INTO ins VALUES (?, ?, ?)} in autocommit mode: one commit per row. */
    INSERT_PREPARED("prepared insert, autocommit", 1),
    /**
     * The same insert with commits that do not wait for a sync where the engine offers it:
     * Columba's {@code delayed_durability = on} (synced within 5 ms by a background flusher),
     * SQLite's {@code synchronous = NORMAL} in WAL mode (synced at checkpoints); H2 never syncs a
     * commit anyway; DuckDB has no such setting and syncs as in {@link #INSERT_PREPARED}.
     */
    INSERT_DELAYED("prepared insert, autocommit, commit not synced (DuckDB: synced)", 1),
    /** The same insert with {@code addBatch} 1,000 times, then {@code executeBatch}, in autocommit mode. */
    INSERT_BATCH("executeBatch insert (1,000 rows)", OltpWorkload.BATCH_ROWS),
    /**
     * The same batch with the commit not synced, as in {@link #INSERT_DELAYED}: the comparison with
     * H2, which never syncs a commit, on equal terms.
     */
    INSERT_BATCH_DELAYED("executeBatch insert (1,000 rows), commit not synced (DuckDB: synced)", OltpWorkload.BATCH_ROWS),
    /**
     * 1,000 rows into {@code ins} through the engine's bulk API for Java, then flushed (committed):
     * Columba's {@code ColumbaAppender} and DuckDB's {@code DuckDBAppender}, value by value; H2 and
     * SQLite have no appender, and run the {@link #INSERT_BATCH} statements instead.
     */
    APPEND("appender, 1,000 rows a flush (H2, SQLite: executeBatch)", OltpWorkload.BATCH_ROWS),
    /** {@code SELECT id, v, s FROM t WHERE id BETWEEN ? AND ?}, 100 rows read. */
    RANGE_100("100-row range select", OltpWorkload.RANGE_ROWS),
    /** {@code UPDATE t SET v = v + 1 WHERE id = ?} in autocommit mode. */
    UPDATE_BY_KEY("update by key, autocommit", 1);

    static final int BATCH_ROWS = 1000;
    static final int RANGE_ROWS = 100;

    private final String title;
    private final int rowsPerStatement;

    OltpWorkload(String title, int rowsPerStatement) {
        this.title = title;
        this.rowsPerStatement = rowsPerStatement;
    }

    public String title() {
        return title;
    }

    /** Whether the workload commits (writes), as opposed to reading only. */
    public boolean writes() {
        return switch (this) {
            case POINT_PREPARED, POINT_AD_HOC, RANGE_100 -> false;
            case INSERT_PREPARED, INSERT_DELAYED, INSERT_BATCH, INSERT_BATCH_DELAYED, APPEND, UPDATE_BY_KEY -> true;
        };
    }

    /** Whether the workload's commits skip the sync where the engine allows it. */
    public boolean commitsNotSynced() {
        return this == INSERT_DELAYED || this == INSERT_BATCH_DELAYED;
    }

    /** Whether throughput is counted in rows (batches of {@link #BATCH_ROWS}) rather than statements. */
    public boolean countsRows() {
        return this == INSERT_BATCH || this == INSERT_BATCH_DELAYED || this == APPEND;
    }

    /** Rows one statement reads or writes (an executeBatch counts as one statement). */
    public int rowsPerStatement() {
        return rowsPerStatement;
    }
}
