package dev.columba.trino;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.db.ControlFile;
import dev.columba.storage.db.Database;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Columba databases the connectors of this JVM have open, shared and counted. A database is
 * open in one process at a time (its directory's lock), so the connectors of several Trino nodes
 * started in one JVM (a {@code DistributedQueryRunner}) must share one opening rather than each open
 * their own; the last connector to shut down closes it.
 *
 * <p>A directory the embedded engine already has open in this JVM (through the JDBC driver) is not
 * opened again: the connectors read through the engine's opening ({@link Database#openInThisProcess}),
 * only read, and never close it; the engine goes on writing beside them. The other way round is
 * refused: while the connectors have a directory open themselves, the driver cannot open it
 * (DATABASE_IN_USE).
 *
 * <p>Why a static registry: the lock is per process, and nodes in one JVM have nothing else in
 * common to hang the opening on. It holds nothing but the openings, under its own lock.
 */
final class OpenDatabases {
    private static final Map<Path, Opening> OPEN = new HashMap<>();

    private OpenDatabases() {
    }

    /** One opening of a database and how many connectors hold it; guarded by {@link #OPEN}. */
    private static final class Opening {
        final Path directory;
        final Database database;
        /** Whether the connectors opened it (and the last one closes it), or read through the engine's opening. */
        final boolean owned;
        int holders;

        Opening(Path directory, Database database, boolean owned) {
            this.directory = directory;
            this.database = database;
            this.owned = owned;
        }
    }

    /** One connector's share of an open database; {@link #close} gives it back (once). */
    static final class Lease implements AutoCloseable {
        private final Opening opening;
        private boolean released;

        private Lease(Opening opening) {
            this.opening = opening;
        }

        Database database() {
            return opening.database;
        }

        @Override
        public void close() {
            synchronized (OPEN) {
                if (released) {
                    return;
                }
                released = true;
                opening.holders--;
                if (opening.holders == 0) {
                    OPEN.remove(opening.directory);
                    if (opening.owned) {
                        opening.database.close();
                    }
                }
            }
        }
    }

    /**
     * Opens the database at {@code directory}, or shares its opening with the connectors that have it
     * open already, or reads through the embedded engine's opening of it in this JVM.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND when the directory holds no database (the connector
     *         never creates one), DATABASE_IN_USE when another process, or this JVM's JDBC driver, has it open
     */
    static Lease acquire(Path directory) {
        synchronized (OPEN) {
            Opening opening = OPEN.get(directory);
            if (opening != null && !opening.database.isOpen()) {
                // The engine the connectors read through closed it; a new catalog opens the directory anew.
                OPEN.remove(directory);
                opening = null;
            }
            if (opening == null) {
                if (!ControlFile.exists(directory)) {
                    throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, directory + " is not a Columba database");
                }
                Optional<Database> engines = Database.openInThisProcess(directory);
                opening = engines.isPresent() ? new Opening(directory, engines.get(), false)
                        : new Opening(directory, Database.open(directory), true);
                OPEN.put(directory, opening);
            }
            opening.holders++;
            return new Lease(opening);
        }
    }
}
