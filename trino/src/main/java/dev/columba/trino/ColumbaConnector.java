package dev.columba.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * One catalog over one Columba database, on one node. Read-only: it offers no page sink. In
 * {@code columba.access-mode = open} the database is shared with the other nodes' connectors in the
 * same JVM ({@link OpenDatabases}) and every transaction reads it; in {@code snapshot} mode each
 * transaction reads a snapshot of its own ({@link Snapshots}). The Arrow memory the scans decode into
 * is this connector's own, checked for leaks at shutdown.
 */
final class ColumbaConnector implements Connector {
    /** The shared opening ({@code open} mode), else null. */
    private final OpenDatabases.Lease database;
    /** The catalog of the shared opening ({@code open} mode), else null. */
    private final ColumbaMetadata shared;
    /** The transactions' snapshots ({@code snapshot} mode), else null. */
    private final Snapshots snapshots;
    private final BufferAllocator allocator;
    private final ColumbaSplitManager splits;
    private final ColumbaPageSourceProvider pageSources;

    ColumbaConnector(ColumbaConfig config) {
        if (config.accessMode() == ColumbaConfig.AccessMode.SNAPSHOT) {
            this.database = null;
            this.shared = null;
            this.snapshots = new Snapshots(config);
        } else {
            this.database = OpenDatabases.acquire(config.databaseDirectory());
            this.shared = new ColumbaMetadata(database.database(), config.schemaName());
            this.snapshots = null;
        }
        this.allocator = new RootAllocator();
        this.splits = new ColumbaSplitManager(this::splitMetadata, config.dynamicFilterWaitTimeout(),
                config.rowstorePagesPerSplit());
        this.pageSources = new ColumbaPageSourceProvider(this::splitMetadata, allocator);
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly,
                                                       boolean autoCommit) {
        return snapshots == null ? ColumbaTransactionHandle.SHARED : new ColumbaTransactionHandle(UUID.randomUUID());
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction) {
        return snapshots == null ? shared : snapshots.metadata((ColumbaTransactionHandle) transaction);
    }

    /** The catalog a split of {@code transaction} reads: its snapshot must exist already. */
    private ColumbaMetadata splitMetadata(ConnectorTransactionHandle transaction) {
        return snapshots == null ? shared : Snapshots.existing((ColumbaTransactionHandle) transaction);
    }

    @Override
    public void commit(ConnectorTransactionHandle transaction) {
        if (snapshots != null) {
            snapshots.release((ColumbaTransactionHandle) transaction);
        }
    }

    @Override
    public void rollback(ConnectorTransactionHandle transaction) {
        commit(transaction);
    }

    @Override
    public ConnectorSplitManager getSplitManager() {
        return splits;
    }

    @Override
    public ConnectorPageSourceProvider getPageSourceProvider() {
        return pageSources;
    }

    @Override
    public void shutdown() {
        if (snapshots != null) {
            snapshots.releaseAll();
        }
        try (database; allocator) {
            // the allocator first (it fails on leaked memory), then this node's share of the database
        }
    }
}
