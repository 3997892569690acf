package dev.columba.trino;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.db.DatabaseSnapshot;
import io.trino.spi.TrinoException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * The snapshots of {@code columba.access-mode = snapshot} catalogs in this JVM, one per Trino
 * transaction (docs/design/trino.md, "A reader in another process"). The coordinator's connector
 * takes a transaction's snapshot at its first metadata call (the query's analysis, before its splits
 * are planned) and closes it when the transaction ends; every split of the transaction's queries
 * reads it, so a query sees one committed state of the database. The workers' connectors of the same
 * JVM find it here by the transaction's id; a worker in another JVM would have to take a snapshot
 * at the same log position, which is not built (the splits of one JVM's cluster are all there is).
 *
 * <p>Static for the reason {@link OpenDatabases} is: the nodes of a {@code DistributedQueryRunner}
 * share nothing else. It holds the snapshots only, under its own lock; a snapshot is taken outside it.
 */
final class Snapshots {
    private static final Map<UUID, Taken> TAKEN = new HashMap<>();

    /** A transaction's snapshot and the catalog read from it. */
    private record Taken(DatabaseSnapshot snapshot, ColumbaMetadata metadata) {
    }

    private final ColumbaConfig config;
    /** The transactions whose snapshots this connector took and closes; guarded by {@link #TAKEN}. */
    private final Set<UUID> mine = new HashSet<>();

    Snapshots(ColumbaConfig config) {
        this.config = config;
    }

    /**
     * The catalog of transaction {@code transaction}'s snapshot, taken now if it has none yet.
     *
     * @throws TrinoException COLUMBA_SNAPSHOT_FAILED when no snapshot can be taken (the message says why)
     */
    ColumbaMetadata metadata(ColumbaTransactionHandle transaction) {
        synchronized (TAKEN) {
            Taken taken = TAKEN.get(transaction.id());
            if (taken != null) {
                return taken.metadata();
            }
        }
        Path copy = config.snapshotDirectory().resolve("columba-snapshot-" + transaction.id());
        DatabaseSnapshot snapshot;
        try {
            snapshot = DatabaseSnapshot.take(config.databaseDirectory(), copy, new Properties());
        } catch (ColumbaException e) {
            throw new TrinoException(ColumbaErrorCode.COLUMBA_SNAPSHOT_FAILED, "cannot read " + config.databaseDirectory()
                    + " beside its writer: " + e.getMessage(), e);
        }
        Taken taken = new Taken(snapshot, new ColumbaMetadata(snapshot.database(), config.schemaName()));
        Taken first;
        synchronized (TAKEN) {
            first = TAKEN.putIfAbsent(transaction.id(), taken);
            if (first == null) {
                mine.add(transaction.id());
            }
        }
        if (first != null) {
            // Another thread of the transaction took one meanwhile: its queries read that one.
            snapshot.close();
            return first.metadata();
        }
        return taken.metadata();
    }

    /**
     * The catalog of a snapshot taken already, for a worker's split.
     *
     * @throws TrinoException COLUMBA_SNAPSHOT_FAILED if the transaction has none (it ended, or began in another JVM)
     */
    static ColumbaMetadata existing(ColumbaTransactionHandle transaction) {
        synchronized (TAKEN) {
            Taken taken = TAKEN.get(transaction.id());
            if (taken == null) {
                throw new TrinoException(ColumbaErrorCode.COLUMBA_SNAPSHOT_FAILED, "transaction " + transaction.id()
                        + " has no snapshot in this JVM: it ended, or its coordinator runs in another process");
            }
            return taken.metadata();
        }
    }

    /** Closes the snapshot of a transaction that ended, and deletes its copy. */
    void release(ColumbaTransactionHandle transaction) {
        Taken taken;
        synchronized (TAKEN) {
            if (!mine.remove(transaction.id())) {
                return;
            }
            taken = TAKEN.remove(transaction.id());
        }
        taken.snapshot().close();
    }

    /** Closes the snapshots this connector took (at its shutdown). */
    void releaseAll() {
        Set<UUID> ids;
        synchronized (TAKEN) {
            ids = Set.copyOf(mine);
        }
        for (UUID id : ids) {
            release(new ColumbaTransactionHandle(id));
        }
    }
}
