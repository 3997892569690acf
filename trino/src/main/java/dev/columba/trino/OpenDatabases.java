package dev.columba.trino;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.db.ControlFile;
import dev.columba.storage.db.Database;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The Columba databases the connectors of this JVM have open, shared and counted. A database is
 * open in one process at a time (its directory's lock), so the connectors of several Trino nodes
 * started in one JVM (a {@code DistributedQueryRunner}) must share one opening rather than each open
 * their own; the last connector to shut down closes it. The JDBC driver's registry is separate: a
 * directory open through the driver cannot be opened here in the same JVM at the same time
 * (DATABASE_IN_USE), and the other way round.
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
        int holders;

        Opening(Path directory, Database database) {
            this.directory = directory;
            this.database = database;
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
                    opening.database.close();
                }
            }
        }
    }

    /**
     * Opens the database at {@code directory}, or shares its opening with the connectors that have it
     * open already.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND when the directory holds no database (the connector
     *         never creates one), DATABASE_IN_USE when another process, or this JVM's JDBC driver, has it open
     */
    static Lease acquire(Path directory) {
        synchronized (OPEN) {
            Opening opening = OPEN.get(directory);
            if (opening == null) {
                if (!ControlFile.exists(directory)) {
                    throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, directory + " is not a Columba database");
                }
                opening = new Opening(directory, Database.open(directory));
                OPEN.put(directory, opening);
            }
            opening.holders++;
            return new Lease(opening);
        }
    }
}
