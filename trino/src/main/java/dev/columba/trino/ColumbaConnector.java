package dev.columba.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * One catalog over one Columba database, on one node. Read-only: it offers no page sink, and its
 * transactions are the single {@link ColumbaTransactionHandle}. The database is shared with the other
 * nodes' connectors in the same JVM ({@link OpenDatabases}); the Arrow memory the scans decode into
 * is this connector's own, checked for leaks at shutdown.
 */
final class ColumbaConnector implements Connector {
    private final OpenDatabases.Lease database;
    private final BufferAllocator allocator;
    private final ColumbaMetadata metadata;
    private final ColumbaSplitManager splits;
    private final ColumbaPageSourceProvider pageSources;

    ColumbaConnector(ColumbaConfig config, OpenDatabases.Lease database) {
        this.database = database;
        this.allocator = new RootAllocator();
        this.metadata = new ColumbaMetadata(database.database(), config.schemaName());
        this.splits = new ColumbaSplitManager(database.database(), metadata, config.dynamicFilterWaitTimeout(),
                config.rowstorePagesPerSplit());
        this.pageSources = new ColumbaPageSourceProvider(database.database(), metadata, allocator);
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly,
                                                       boolean autoCommit) {
        return ColumbaTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction) {
        return metadata;
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
        try (database; allocator) {
            // the allocator first (it fails on leaked memory), then this node's share of the database
        }
    }
}
