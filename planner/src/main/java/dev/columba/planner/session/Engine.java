package dev.columba.planner.session;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.OrphanFiles;
import dev.columba.columnstore.table.TupleMover;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ReusableBatches;
import dev.columba.core.memory.Memory;
import dev.columba.planner.plan.PlannerCatalog;
import dev.columba.planner.plan.PreparedStatementPlan;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.schema.StatisticsStore;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.util.CancelFlag;

/**
 * One open database and what runs around it: the tuple mover, the memory of statements, and the
 * planner sessions use. Sessions are the way in; several may run at once on their own threads.
 */
public final class Engine implements AutoCloseable {
    /**
     * Plans a query or modification: the planner module's {@code QueryPlanner}. Planning stops with
     * QUERY_CANCELLED once {@code cancel} is set (a statement's timeout or {@code cancel()}).
     */
    @FunctionalInterface
    public interface StatementPlanner {
        PreparedStatementPlan plan(PlannerCatalog catalog, SettingValues settings, SqlNode statement, CancelFlag cancel);
    }

    /** Memory all statements together may hold; each statement gets a child with its own limit. */
    static final long MEMORY_LIMIT = 8L << 30;

    private final Database database;
    private final TupleMover tupleMover;
    private final Memory memory;
    private final StatementPlanner planner;
    private final Path temporaryDirectory;
    private final AtomicInteger sessions = new AtomicInteger();
    private final StatisticsStore statistics = new StatisticsStore();
    private final PlanCache planCache = new PlanCache();
    private final StatementCounters statementCounters = new StatementCounters();
    /** The kept batches of the open sessions, freed at close before the memory is checked for leaks. */
    private final java.util.Set<ReusableBatches> reusableBatches = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The statement allocators the open sessions keep between statements, closed at close. */
    private final java.util.Set<Session.KeptAllocator> keptAllocators = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Moves on after every committed change of the schema (DDL), so that no cached plan of before is found. */
    private final AtomicLong schemaVersion = new AtomicLong();
    private volatile SettingValues globals;
    private final OrphanFiles.Sweep openingSweep;

    private Engine(Database database, StatementPlanner planner, Path temporaryDirectory) {
        this.database = database;
        this.planner = planner;
        this.temporaryDirectory = temporaryDirectory;
        this.globals = database.settings();
        this.memory = new Memory(MEMORY_LIMIT);
        this.tupleMover = new TupleMover(database, 5, TimeUnit.MINUTES);
        try {
            // Before any transaction: files a killed load or tuple mover left, against the recovered
            // state. What it cannot remove stays, named in the result: it opens all the same.
            this.openingSweep = OrphanFiles.sweep(database);
            gatherAllStatistics();
        } catch (RuntimeException e) {
            // The engine does not exist for the caller to close: release the database (its lock) here.
            try {
                database.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        tupleMover.start();
    }

    /**
     * What the sweep of orphaned columnstore files did when this engine opened the database,
     * including the files it could not delete or move ({@link OrphanFiles.Sweep#failures()}).
     */
    public OrphanFiles.Sweep openingSweep() {
        return openingSweep;
    }

    /**
     * Statistics are kept in memory only: gathered for every clustered table (two descents each)
     * and every columnstore table (its rowgroup directory and footers) when the database opens,
     * before any statement can be measured.
     */
    private void gatherAllStatistics() {
        IoCounters counters = database.systemCounters();
        for (CatalogEntry.Table table : new Tables(database).list(database.bufferPool(), counters)) {
            if (table.organization() != CatalogEntry.Organization.HEAP) {
                gatherStatistics(database.bufferPool(), table.name());
            }
        }
    }

    /** The key statistics of every rowstore table (see {@link StatisticsStore}). */
    public StatisticsStore statistics() {
        return statistics;
    }

    /**
     * Gathers table {@code name}'s statistics through {@code reader} (the buffer pool, under shared
     * locks, or a transaction's own pages): a clustered table's key bounds after DDL built or
     * rebuilt it, a columnstore table's rowgroup figures after DDL or a statement wrote it.
     */
    void gatherStatistics(PageReader reader, String name) {
        gatherStatistics(reader, name, false);
    }

    /** Gathers the rowgroup figures of table {@code name} if it is a columnstore table (after it was written). */
    void gatherColumnstoreStatistics(PageReader reader, String name) {
        gatherStatistics(reader, name, true);
    }

    /**
     * Gathers the rowgroup figures of the table with object id {@code objectId} if it is a
     * columnstore table (after a statement whose plan names it wrote it): one catalog key, where
     * a look-up by name decodes every entry.
     */
    void gatherColumnstoreStatistics(PageReader reader, int objectId) {
        gatherStatistics(reader, catalog -> catalog.byId(reader, objectId, database.systemCounters()), true);
    }

    private void gatherStatistics(PageReader reader, String name, boolean columnstoreOnly) {
        gatherStatistics(reader, catalog -> catalog.byName(reader, name, database.systemCounters()), columnstoreOnly);
    }

    private void gatherStatistics(PageReader reader, java.util.function.Function<Catalog, Optional<CatalogEntry>> find,
                                  boolean columnstoreOnly) {
        IoCounters counters = database.systemCounters();
        boolean shared = reader == database.bufferPool();
        try (ObjectLocks.Lease ignored = shared ? database.locks().shared(Catalog.CATALOG_OBJECT_ID) : null) {
            Optional<CatalogEntry> entry = find.apply(database.catalog());
            if (entry.isEmpty() || !(entry.get() instanceof CatalogEntry.Table table)) {
                return;
            }
            try (ObjectLocks.Lease tableLock = shared ? database.locks().shared(table.objectId()) : null) {
                if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                    statistics.gather(ColumnstoreTable.open(database, table), reader, counters);
                } else if (!columnstoreOnly) {
                    new Tables(database).find(reader, table.name(), counters)
                            .ifPresent(store -> statistics.gather(store, reader, counters));
                }
            }
        }
    }

    /** Opens (or creates) the database in {@code directory}. */
    public static Engine open(Path directory, Properties properties, StatementPlanner planner) {
        return new Engine(Database.open(directory, properties, NativeFilesFacade.INSTANCE), planner, null);
    }

    /**
     * A database that lives only as long as the engine: in a temporary directory (the OS page cache
     * keeps it in memory in practice), deleted on close. It is a real database, so everything,
     * I/O statistics included, behaves as for one on disk.
     */
    public static Engine temporary(String name, Properties properties, StatementPlanner planner) {
        Path directory;
        try {
            directory = Files.createTempDirectory("columba-mem-" + name.replaceAll("[^A-Za-z0-9_-]", "_") + "-");
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create a temporary database: " + e.getMessage(), e);
        }
        return new Engine(Database.open(directory, properties, NativeFilesFacade.INSTANCE), planner, directory);
    }

    public Database database() {
        return database;
    }

    public TupleMover tupleMover() {
        return tupleMover;
    }

    StatementPlanner planner() {
        return planner;
    }

    Memory memory() {
        return memory;
    }

    /** The plans sessions keep and reuse (see {@link PlanCache}). */
    PlanCache planCache() {
        return planCache;
    }

    /** The schema's version: moves on whenever DDL commits. */
    long schemaVersion() {
        return schemaVersion.get();
    }

    /** DDL committed (or ended otherwise; moving on too often costs only a plan). */
    void schemaChanged() {
        schemaVersion.incrementAndGet();
    }

    /** Global setting values (defaults, the database's stored ones, ALTER SYSTEM SET). */
    public SettingValues globalSettings() {
        return globals;
    }

    synchronized void setGlobalSettings(SettingValues values) {
        this.globals = values;
    }

    /** A new session with the current global settings. */
    public Session openSession() {
        sessions.incrementAndGet();
        return new Session(this);
    }

    void sessionClosed(ReusableBatches batches, Session.KeptAllocator allocator) {
        sessions.decrementAndGet();
        reusableBatches.remove(batches);
        keptAllocators.remove(allocator);
        try {
            allocator.close();
        } finally {
            batches.close();
        }
    }

    /** A new session's kept statement allocator (empty at first), closed when it closes or this engine does. */
    Session.KeptAllocator keptAllocator() {
        Session.KeptAllocator allocator = new Session.KeptAllocator();
        keptAllocators.add(allocator);
        return allocator;
    }

    /**
     * A new session's kept output batches ({@link ReusableBatches}), in an allocator under this
     * engine's memory; freed when the session closes, or when this engine closes before it.
     */
    ReusableBatches reusableBatches() {
        ReusableBatches batches = new ReusableBatches(() -> memory.child("session batches", Long.MAX_VALUE));
        reusableBatches.add(batches);
        return batches;
    }

    /**
     * The {@code sys} schema's views and their columns, in the order {@code SystemViews} defines them
     * (for JDBC's metadata: nothing is read; a view's rows are computed only when it is queried).
     */
    public java.util.Map<String, dev.columba.core.schema.TableSchema> systemViews() {
        java.util.Map<String, dev.columba.core.schema.TableSchema> schemas = new java.util.LinkedHashMap<>();
        SystemViews.create(database, java.util.List.of(), planCache).forEach((name, view) -> schemas.put(name, view.schema()));
        return schemas;
    }

    /** Statements executed, failed, planned and run from cached plans since the engine opened. */
    public StatementCounters statementCounters() {
        return statementCounters;
    }

    /** Sessions open now. */
    public int openSessions() {
        return sessions.get();
    }

    /** Stops the tuple mover, checkpoints and closes the database (and deletes a temporary one). */
    @Override
    public void close() {
        try {
            tupleMover.close();
            database.close();
        } finally {
            for (Session.KeptAllocator allocator : keptAllocators) {
                allocator.close();
            }
            for (ReusableBatches batches : reusableBatches) {
                batches.close();
            }
            memory.close();
            if (temporaryDirectory != null) {
                deleteRecursively(temporaryDirectory);
            }
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot delete temporary database " + directory + ": " + e, e);
        }
    }

}
