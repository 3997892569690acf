package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.settings.WalRecoveryMode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.stats.WaitCounters;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.buffer.BufferPool;
import dev.columba.storage.buffer.SpillFile;
import dev.columba.storage.buffer.WriteSet;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.file.DataFile;
import dev.columba.storage.file.DataFiles;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.txn.ObjectLocks;
import dev.columba.storage.txn.Transaction;
import dev.columba.storage.txn.TransactionManager;
import dev.columba.storage.wal.LogEnd;
import dev.columba.storage.wal.LogFlusher;
import dev.columba.storage.wal.LogFormat;
import dev.columba.storage.wal.LogRecord;
import dev.columba.storage.wal.LogRepair;
import dev.columba.storage.wal.RecoveryOptions;
import dev.columba.storage.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * An open rowstore database: its directory (docs/format/database-directory.md), data file,
 * buffer pool, log, catalog and transactions. Opening a directory that is not a database creates
 * one; opening one that was not closed cleanly replays its log first (redo of committed
 * transactions from the last checkpoint), then checkpoints. A damaged log is refused with
 * {@link ErrorCode#WAL_CORRUPT} unless the opening's {@code wal_recovery_mode} asks to open it
 * read-only, or to cut it, at its last consistent point (docs/design/storage.md, "Recovery").
 *
 * <p>One process at a time: the directory's lock file is held while the database is open.
 * Thread-safe.
 */
public final class Database implements AutoCloseable {
    static final String LOCK_FILE = "lock";
    /**
     * Where the columnstore keeps its files (module columnstore, which names what lies inside): a
     * name of the database directory's layout, so storage owns it and drops the files from the cache.
     */
    public static final String COLUMNSTORE_DIRECTORY = "columnstore";
    /** The databases open in this process, by absolute directory: what {@link #openInThisProcess} finds. */
    private static final ConcurrentHashMap<Path, Database> OPEN_IN_PROCESS = new ConcurrentHashMap<>();

    private final Path directory;
    private final FilesFacade files;
    private final SettingValues globals;
    private final DirectoryLock lock;
    private final DataFile dataFile;
    private final DataFiles dataFiles;
    private final BufferPool pool;
    /**
     * Reads through memory mappings (columnstore segments and dictionaries), which bypass the
     * buffer pool: the scans that read them add here as well as to their statement's counters.
     */
    private final IoCounters mappedReads = new IoCounters();
    private final WriteAheadLog log;
    private final Allocator allocator;
    private final TransactionManager transactions;
    private final SpillFile spill;
    private final Catalog catalog;
    private final IoCounters systemCounters = new IoCounters();
    private final Object checkpointLock = new Object();
    private final RecoveryReport recovery;
    private volatile long lastRedoLsn;
    /**
     * Opened at the last consistent point of a damaged log ({@code wal_recovery_mode =
     * read_only_consistent}): no transaction, checkpoint or stored setting; closing writes nothing.
     */
    private final boolean readOnly;
    private volatile boolean closed;
    /** State upper layers keep per database ({@link #extension}), by kind. */
    private final ConcurrentHashMap<Class<?>, Object> extensions = new ConcurrentHashMap<>();
    private final EventLog events = new EventLog();

    /**
     * What opening the database found and did. {@code logTail} says where the log ended and what
     * torn tail was cut; {@code logRepair}, if not null, what was discarded from a damaged log
     * because {@code wal_recovery_mode = point_in_time} asked for it.
     */
    public record RecoveryReport(boolean created, long redoLsn, long endLsn, int transactionsReplayed,
                                 int recordsApplied, int recordsSkipped, int incompleteRecordsDiscarded,
                                 LogEnd logTail, LogRepair logRepair) {
    }

    private Database(Path directory, FilesFacade files, SettingValues globals, WalRecoveryMode recoveryMode,
                     DirectoryLock lock) {
        this.directory = directory;
        this.files = files;
        this.globals = globals;
        this.lock = lock;
        boolean created = !ControlFile.exists(directory);
        Path dataPath = DatabaseLayout.dataFile(directory);
        boolean direct = globals.get(StandardSettings.DIRECT_IO);
        UUID databaseId;
        long redoLsn;
        long nextTransactionId;
        ControlFile control = null;
        if (created) {
            databaseId = UUID.randomUUID();
            setAsideUnfinishedCreation();
            createDirectories();
            DatabaseProperties.write(files, directory, globals);
            this.dataFile = DataFile.create(files, dataPath, databaseId, nowMicros(), direct);
        } else {
            control = ControlFile.read(files, directory);
            this.dataFile = DataFile.open(files, dataPath, direct);
            if (!dataFile.databaseId().equals(control.databaseId())) {
                dataFile.close();
                throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, "data file " + dataPath + " belongs to database "
                        + dataFile.databaseId() + ", the control file to " + control.databaseId());
            }
            databaseId = control.databaseId();
        }
        this.dataFiles = openFiles(dataFile, direct);
        // Whatever a crash left in the spill file was an uncommitted transaction's: gone with it.
        SpillFile.deleteLeftover(DatabaseLayout.spillFile(directory));
        this.spill = new SpillFile(files, DatabaseLayout.spillFile(directory));
        BufferPool openedPool = null;
        WriteAheadLog openedLog = null;
        try {
            int frames = (int) Math.min(Integer.MAX_VALUE, globals.get(StandardSettings.BUFFER_POOL_SIZE) / PageFormat.PAGE_SIZE);
            openedPool = new BufferPool(dataFiles, frames, globals.get(StandardSettings.IO_THREADS));
            this.pool = openedPool;
            openedLog = openLog(created ? null : control, recoveryMode);
            this.log = openedLog;
            pool.setLogFlusher(log::flush);
            this.allocator = new Allocator(dataFiles);
            int maxTransactionFrames = frames * globals.get(StandardSettings.TRANSACTION_MAX_BUFFER_PERCENT) / 100;
            if (created) {
                redoLsn = log.endLsn();
                nextTransactionId = 1;
            } else {
                redoLsn = control.redoLsn();
                nextTransactionId = control.nextTransactionId();
            }
            Recovery.Result replay = created ? Recovery.Result.NONE
                    : new Recovery(pool, log, maxTransactionFrames, systemCounters).replay(redoLsn);
            this.transactions = new TransactionManager(pool, log, allocator, new ObjectLocks(),
                    Math.max(nextTransactionId, replay.maxTransactionId() + 1), redoLsn, maxTransactionFrames, spill,
                    LogFlusher.DEFAULT_INTERVAL_NANOS);
            this.lastRedoLsn = redoLsn;
            if (created) {
                try (Transaction bootstrap = transactions.begin()) {
                    WriteSet writes = bootstrap.writes();
                    Allocator.formatFirstGam(writes);
                    Catalog.bootstrap(writes, allocator, systemCounters);
                    bootstrap.commit();
                }
            }
            this.catalog = Catalog.open(pool, systemCounters);
            transactions.setRowCountRecorder((writes, changes, counters) ->
                    catalog.adjustRowCounts(writes, allocator, changes, counters));
            this.readOnly = log.readOnly();
            this.recovery = new RecoveryReport(created, redoLsn, log.endLsn(), replay.transactions(), replay.applied(),
                    replay.skipped(), replay.discarded(), log.tailAtOpen(), log.repairAtOpen().orElse(null));
            recordOpening(recovery);
            if (!readOnly) {
                checkpoint();
            }
        } catch (RuntimeException failure) {
            closeAfterFailedOpen(failure, openedLog, openedPool);
            throw failure;
        }
    }

    /**
     * Says what opening found: a repair of a damaged log is a warning, a replay after a crash news,
     * a clean opening or a new database a detail (an embedded application creates temporary ones
     * often, and must not find a line on its standard error for each).
     */
    private void recordOpening(RecoveryReport report) {
        if (report.created()) {
            events.record(System.Logger.Level.DEBUG, "recovery", "created database " + directory);
            return;
        }
        String replayed = "opened " + directory + ": redo from LSN " + report.redoLsn() + " to " + report.endLsn() + ", "
                + report.transactionsReplayed() + " transactions replayed (" + report.recordsApplied() + " records applied, "
                + report.recordsSkipped() + " skipped, " + report.incompleteRecordsDiscarded()
                + " of unfinished transactions discarded)";
        if (report.logRepair() != null) {
            events.record(System.Logger.Level.WARNING, "recovery", replayed + "; " + report.logRepair().describe());
        } else if (report.transactionsReplayed() > 0 || report.incompleteRecordsDiscarded() > 0) {
            events.record(System.Logger.Level.INFO, "recovery", replayed);
        } else {
            events.record(System.Logger.Level.DEBUG, "recovery", replayed);
        }
    }

    /**
     * Opens the log, telling it what the control file proves durable (everything up to the end of
     * the last checkpoint record) and what to do with damage. A refusal is completed with how to
     * open the database anyway.
     */
    private WriteAheadLog openLog(ControlFile control, WalRecoveryMode recoveryMode) {
        Path damaged = DatabaseLayout.damagedDirectory(directory);
        RecoveryOptions.OnDamage onDamage = switch (recoveryMode) {
            case FAIL -> RecoveryOptions.OnDamage.REFUSE;
            case READ_ONLY_CONSISTENT -> RecoveryOptions.OnDamage.OPEN_READ_ONLY_AT_LAST_CONSISTENT_POINT;
            case POINT_IN_TIME -> RecoveryOptions.OnDamage.RECOVER_TO_LAST_CONSISTENT_POINT;
        };
        RecoveryOptions options = control == null ? new RecoveryOptions(0, 0, damaged, onDamage)
                : new RecoveryOptions(control.checkpointLsn() + LogFormat.CHECKPOINT_FRAME, control.redoLsn(), damaged,
                        onDamage);
        long segmentSize = globals.get(StandardSettings.WAL_SEGMENT_SIZE);
        try {
            return WriteAheadLog.open(files, DatabaseLayout.logDirectory(directory), segmentSize, options);
        } catch (ColumbaException refused) {
            if (refused.errorCode() != ErrorCode.WAL_CORRUPT || recoveryMode != WalRecoveryMode.FAIL) {
                throw refused;
            }
            throw new ColumbaException(ErrorCode.WAL_CORRUPT, "database " + directory + " was not opened: "
                    + refused.detail() + " Opening it with wal_recovery_mode = read_only_consistent shows it read-only "
                    + "as of the last consistent point before the damage; with wal_recovery_mode = point_in_time it "
                    + "recovers to that point and discards every transaction after it.", refused);
        }
    }

    private void closeAfterFailedOpen(RuntimeException failure, WriteAheadLog openedLog, BufferPool openedPool) {
        for (AutoCloseable resource : new AutoCloseable[] {openedLog, openedPool, dataFiles, spill}) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception closeFailure) {
                failure.addSuppressed(closeFailure);
            }
        }
    }

    /** Opens (or creates) the database in {@code directory} with its stored settings. */
    public static Database open(Path directory) {
        return open(directory, new Properties(), NativeFilesFacade.INSTANCE);
    }

    /**
     * Opens (or creates) the database in {@code directory}. Settings in {@code overrides} apply for
     * this opening on top of the stored ones (a new database stores them).
     *
     * @throws ColumbaException DATABASE_IN_USE if another process has it open, a corruption code if
     *         its files are damaged, INVALID_SETTING_VALUE for a bad setting
     */
    public static Database open(Path directory, Properties overrides, FilesFacade files) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create database directory " + directory + ": " + e, e);
        }
        Properties stored = Files.exists(DatabaseLayout.propertiesFile(directory))
                ? DatabaseProperties.read(directory) : new Properties();
        if (stored.containsKey(StandardSettings.WAL_RECOVERY_MODE.name())) {
            throw new ColumbaException(ErrorCode.INVALID_SETTING_VALUE, DatabaseLayout.propertiesFile(directory)
                    + " sets " + StandardSettings.WAL_RECOVERY_MODE.name() + ", which applies to one opening only:"
                    + " remove it and give it when opening");
        }
        Properties effective = new Properties();
        effective.putAll(stored);
        effective.putAll(overrides);
        // Applies to this opening only, so it is not among the settings a new database stores.
        Object mode = effective.remove(StandardSettings.WAL_RECOVERY_MODE.name());
        WalRecoveryMode recoveryMode = mode == null ? StandardSettings.WAL_RECOVERY_MODE.defaultValue()
                : StandardSettings.WAL_RECOVERY_MODE.parse(mode.toString());
        SettingValues globals = SettingValues.fromProperties(effective);
        DirectoryLock lock = DirectoryLock.take(directory);
        Database database;
        try {
            database = new Database(directory, files, globals, recoveryMode, lock);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
        // The directory's lock is held: no other opening of it in this process can be registered.
        OPEN_IN_PROCESS.put(processKey(directory), database);
        return database;
    }

    /**
     * The database this process has open at {@code directory}, if any, for a reader in the same JVM
     * that must not open the directory a second time (its lock refuses that): the Trino connector
     * reads through the engine's opening, sharing its buffer pool, catalog and object locks, so what
     * it reads is what the engine's own statements would read (docs/design/trino.md, "Opening the
     * database"). Such a reader only reads (it begins no transaction) and never closes the database:
     * its opener does, after which {@link #isOpen} is false and the reader must stop using it.
     */
    public static Optional<Database> openInThisProcess(Path directory) {
        return Optional.ofNullable(OPEN_IN_PROCESS.get(processKey(directory)));
    }

    private static Path processKey(Path directory) {
        return directory.toAbsolutePath().normalize();
    }

    /** Whether the database is still open (not yet {@link #close closed}). */
    public boolean isOpen() {
        return !closed;
    }

    /**
     * The database directory's {@code lock} file, locked (fcntl) while a process has the database
     * open or changes its files from outside ({@code ./columba repair}).
     */
    record DirectoryLock(FileChannel channel, FileLock lock) implements AutoCloseable {
        /** @throws ColumbaException DATABASE_IN_USE if another process or Database instance holds it */
        static DirectoryLock take(Path directory) {
            FileChannel channel;
            FileLock lock;
            try {
                channel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    lock = null;
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot lock database " + directory + ": " + e, e);
            }
            if (lock == null) {
                closeQuietly(channel);
                throw new ColumbaException(ErrorCode.DATABASE_IN_USE, "database " + directory + " is open in another process"
                        + " or by another Database instance");
            }
            return new DirectoryLock(channel, lock);
        }

        @Override
        public void close() {
            try {
                lock.release();
            } catch (IOException ignored) {
                // The lock goes with the channel anyway.
            }
            closeQuietly(channel);
        }
    }

    /**
     * A directory without a control file whose data or log folder holds files is a creation that
     * did not finish: the control file is written last, by the checkpoint that ends creation, and
     * nothing can commit before it exists. A process killed in between (the kill -9 campaign of
     * {@code ./columba bench reliability} found it) left a data file that the next creation could
     * not create again ("File exists"), so the database could never be opened. Those folders are
     * moved into {@code damaged/unfinished-creation-<time>/}, not deleted (a control file lost by
     * other means must not cost the data beside it), and the database is created anew.
     */
    private void setAsideUnfinishedCreation() {
        List<Path> leftovers = new java.util.ArrayList<>();
        for (Path folder : List.of(directory.resolve(DatabaseLayout.DATA_DIRECTORY), DatabaseLayout.logDirectory(directory))) {
            try (java.util.stream.Stream<Path> entries = Files.isDirectory(folder) ? Files.list(folder) : java.util.stream.Stream.empty()) {
                if (entries.findAny().isPresent()) {
                    leftovers.add(folder);
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list " + folder + ": " + e, e);
            }
        }
        if (leftovers.isEmpty()) {
            return;
        }
        Path incident = DatabaseLayout.damagedDirectory(directory).resolve("unfinished-creation-" + nowMicros());
        try {
            Files.createDirectories(incident);
            for (Path leftover : leftovers) {
                Files.move(leftover, incident.resolve(leftover.getFileName()));
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot move the files of an unfinished creation of " + directory
                    + " into " + incident + ": " + e, e);
        }
        files.syncDirectory(incident);
        files.syncDirectory(directory);
        events.record(System.Logger.Level.WARNING, "recovery", "database " + directory + " had no control file but "
                + leftovers + " held files: its creation did not finish; they were moved into " + incident
                + " and the database created anew");
    }

    private void createDirectories() {
        try {
            Files.createDirectories(directory.resolve(DatabaseLayout.DATA_DIRECTORY));
            Files.createDirectories(DatabaseLayout.logDirectory(directory));
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e, e);
        }
        files.syncDirectory(directory);
    }

    public Path directory() {
        return directory;
    }

    public SettingValues settings() {
        return globals;
    }

    public BufferPool bufferPool() {
        return pool;
    }

    /** The primary data file, {@code data/columba.data}. */
    public DataFile dataFile() {
        return dataFile;
    }

    /** Every data file, the primary one and those added to filegroups, as one page store. */
    public DataFiles dataFiles() {
        return dataFiles;
    }

    /** The database's filegroups and files beyond the primary ones. */
    public FileManifest files() {
        return dataFiles.manifest();
    }

    /**
     * Opens the files the manifest lists (they must exist: recovery may replay pages into them),
     * after the primary one.
     */
    private DataFiles openFiles(DataFile primary, boolean direct) {
        Path dataDirectory = directory.resolve(DatabaseLayout.DATA_DIRECTORY);
        FileManifest manifest;
        try {
            manifest = FileManifest.read(dataDirectory);
        } catch (RuntimeException e) {
            primary.close();
            throw e;
        }
        DataFiles opened = new DataFiles(primary, manifest);
        try {
            for (FileManifest.FileEntry entry : manifest.files()) {
                DataFile file = DataFile.open(files, entry.resolve(directory), entry.id(), direct);
                if (!file.databaseId().equals(primary.databaseId())) {
                    file.close();
                    throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, "data file " + entry.resolve(directory)
                            + " belongs to database " + file.databaseId() + ", not " + primary.databaseId());
                }
                opened.add(file, manifest);
            }
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    /**
     * {@code ALTER DATABASE ADD FILEGROUP}: a new, empty filegroup.
     *
     * @throws ColumbaException OBJECT_ALREADY_EXISTS if the name is taken
     */
    public void addFilegroup(String name) {
        checkOpen();
        checkWritable();
        try (Transaction writer = transactions.begin()) {
            FileManifest manifest = dataFiles.manifest();
            if (manifest.filegroup(name).isPresent()) {
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "filegroup " + name + " already exists");
            }
            FileManifest changed = manifest.withFilegroup(name);
            writeDirectoryVersion();
            changed.write(files, directory.resolve(DatabaseLayout.DATA_DIRECTORY));
            dataFiles.setManifest(changed);
        }
    }

    /**
     * {@code ALTER DATABASE ADD FILE ... TO FILEGROUP}: creates the file (its header page, forced)
     * and then lists it in the manifest, so a crash between the two leaves an unlisted file that
     * nothing uses. {@code path} is relative to the database directory, or absolute.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND for an unknown filegroup, OBJECT_ALREADY_EXISTS for
     *         a file name or path in use, INVALID_ARGUMENT beyond the last file id
     */
    public void addFile(String name, String path, String filegroup) {
        checkOpen();
        checkWritable();
        try (Transaction writer = transactions.begin()) {
            FileManifest manifest = dataFiles.manifest();
            FileManifest.Filegroup group = manifest.filegroup(filegroup).orElseThrow(() ->
                    new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "filegroup " + filegroup + " does not exist"));
            if (manifest.file(name).isPresent()) {
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "file " + name + " already exists");
            }
            FileManifest changed = manifest.withFile(name, group.id(), path);
            FileManifest.FileEntry entry = changed.files().getLast();
            if (entry.id() >= PageFormat.MAX_FILES) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a database has at most " + PageFormat.MAX_FILES + " files");
            }
            Path location = entry.resolve(directory);
            if (Files.exists(location)) {
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "cannot add file " + name + ": " + location
                        + " exists already");
            }
            try {
                Files.createDirectories(location.toAbsolutePath().getParent());
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create the folder of " + location + ": " + e, e);
            }
            DataFile file = DataFile.create(files, location, dataFile.databaseId(), entry.id(), nowMicros(),
                    globals.get(StandardSettings.DIRECT_IO));
            try {
                writeDirectoryVersion();
                changed.write(files, directory.resolve(DatabaseLayout.DATA_DIRECTORY));
            } catch (RuntimeException e) {
                file.close();
                throw e;
            }
            dataFiles.add(file, changed);
        }
    }

    /**
     * {@code ALTER DATABASE REMOVE FILEGROUP}: only an empty filegroup (no files) that no object
     * uses; the caller checks the objects.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND, or OBJECT_IN_USE for PRIMARY or a filegroup with files
     */
    public void removeFilegroup(String name) {
        checkOpen();
        checkWritable();
        try (Transaction writer = transactions.begin()) {
            FileManifest manifest = dataFiles.manifest();
            FileManifest.Filegroup group = manifest.filegroup(name).orElseThrow(() ->
                    new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "filegroup " + name + " does not exist"));
            if (group.id() == FileManifest.PRIMARY_FILEGROUP) {
                throw new ColumbaException(ErrorCode.OBJECT_IN_USE, "the PRIMARY filegroup cannot be removed");
            }
            if (!manifest.filesOf(group.id()).isEmpty()) {
                throw new ColumbaException(ErrorCode.OBJECT_IN_USE, "filegroup " + name + " cannot be removed: it has "
                        + manifest.filesOf(group.id()).size() + " file(s)");
            }
            FileManifest changed = manifest.withoutFilegroup(group.id());
            changed.write(files, directory.resolve(DatabaseLayout.DATA_DIRECTORY));
            dataFiles.setManifest(changed);
        }
    }

    /** A directory with a file manifest is version 2 (older builds would not open its files). */
    private void writeDirectoryVersion() {
        Properties stored = DatabaseProperties.read(directory);
        if (!String.valueOf(DatabaseLayout.FORMAT_VERSION).equals(stored.getProperty(DatabaseLayout.FORMAT_VERSION_KEY))) {
            stored.remove(DatabaseLayout.FORMAT_VERSION_KEY);
            stored.remove(DatabaseLayout.PAGE_SIZE_KEY);
            DatabaseProperties.write(files, directory, stored);
        }
    }

    public WriteAheadLog log() {
        return log;
    }

    public Allocator allocator() {
        return allocator;
    }

    public Catalog catalog() {
        return catalog;
    }

    public ObjectLocks locks() {
        return transactions.locks();
    }

    public TransactionManager transactions() {
        return transactions;
    }

    /** Counters charged for the database's own reads (catalog, recovery, allocation maps). */
    public IoCounters systemCounters() {
        return systemCounters;
    }

    /** Recovery, checkpoints, sweeps and background failures, as {@code sys.event_log} shows them. */
    public EventLog events() {
        return events;
    }

    public RecoveryReport recoveryReport() {
        return recovery;
    }

    /**
     * Stores a global setting's value in {@code columba.properties} (ALTER SYSTEM SET), validated
     * first; it takes effect for the running engine through its caller, and at the next open.
     */
    public synchronized void persistSetting(String name, String value) {
        checkOpen();
        checkWritable();
        dev.columba.core.settings.Setting<?> setting = StandardSettings.byName(name);
        if (setting == StandardSettings.WAL_RECOVERY_MODE) {
            throw new ColumbaException(ErrorCode.INVALID_SETTING_VALUE, setting.name() + " applies to one opening of"
                    + " the database and is never stored: give it when opening");
        }
        SettingValues.defaults().withParsed(setting, value);
        Properties stored = DatabaseProperties.read(directory);
        stored.remove(DatabaseLayout.FORMAT_VERSION_KEY);
        stored.remove(DatabaseLayout.PAGE_SIZE_KEY);
        stored.setProperty(name.toLowerCase(java.util.Locale.ROOT), value);
        DatabaseProperties.write(files, directory, stored);
    }

    /** Begins a write transaction (one at a time; waits for the current one). */
    public Transaction begin() {
        checkOpen();
        checkWritable();
        Transaction transaction = transactions.begin();
        return transaction;
    }

    /**
     * Makes every commit so far durable, delayed ones included (SQL Server's {@code sp_flush_log}):
     * returns once the log is on storage up to its end as of the call. Cheaper than a checkpoint,
     * which also flushes the log, but writes every dirty page first.
     */
    public void flushLog() {
        checkOpen();
        checkWritable();
        transactions.flushLog();
    }

    /**
     * Writes every dirty page, makes the data file durable, logs a checkpoint and records it in
     * the control file; log segments before the new redo point are removed. Readers and the writer
     * carry on meanwhile, except for the moment the redo point is chosen.
     */
    public void checkpoint() {
        checkOpen();
        checkWritable();
        synchronized (checkpointLock) {
            long started = System.nanoTime();
            long[] freedGeneration = new long[1];
            long redo = transactions.quiesced(() -> {
                long end = log.endLsn();
                transactions.setRedoPoint(end);
                freedGeneration[0] = allocator.freedExtents().redoPointChosen();
                return end;
            });
            long[] dirty = pool.dirtyPages();
            pool.writeDirty(dirty);
            dataFiles.sync();
            long[] lsns = new long[1];
            long checkpointEnd = log.append(List.of(new LogRecord.Checkpoint(redo)), lsns);
            log.flush(checkpointEnd);
            new ControlFile(dataFile.databaseId(), lsns[0], redo, transactions.nextTransactionId()).write(files, directory);
            // Frees before the redo point have no record left that recovery would replay.
            allocator.freedExtents().checkpointFinished(freedGeneration[0]);
            log.removeSegmentsBefore(redo);
            lastRedoLsn = redo;
            events.record(System.Logger.Level.DEBUG, "checkpoint", "checkpoint at redo LSN " + redo + ": " + dirty.length
                    + " dirty pages written in " + (System.nanoTime() - started) / 1_000_000 + " ms");
        }
    }

    /** Checkpoints if the log has grown past {@code checkpoint_wal_size} since the last one. */
    public void checkpointIfDue() {
        if (!readOnly && log.endLsn() - lastRedoLsn >= globals.get(StandardSettings.CHECKPOINT_WAL_SIZE)) {
            checkpoint();
        }
    }

    /**
     * {@code DBCC DROPCLEANBUFFERS}: empties the buffer pool of clean pages and drops every file of
     * the database (data file, columnstore files, log, control file) from the operating system's
     * page cache, so the next read of any of them is cold. Writes nothing; dirty pages stay
     * (checkpoint first for a fully cold pool). Returns the pages dropped.
     */
    public int dropCleanBuffers() {
        checkOpen();
        int dropped = pool.dropCleanBuffers();
        releaseKeptFiles();
        dropOsCacheUnder(directory);
        return dropped;
    }

    /**
     * Drops every file under {@code root} from the page cache ({@code POSIX_FADV_DONTNEED} drops
     * clean pages only). Pages still mapped by a running scan stay; kept mappings were let go of
     * ({@link FileCache}) and a running scan's are unmapped when it finishes.
     */
    private void dropOsCacheUnder(Path root) {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                try (dev.columba.storage.io.FileHandle file = files.open(path, FilesFacade.OpenMode.READ, false)) {
                    file.advise(0, 0, dev.columba.storage.io.FileHandle.Advice.DONTNEED);
                } catch (ColumbaException e) {
                    if (Files.exists(path)) {
                        throw e;
                    }
                    // Removed meanwhile by a reorganize: nothing to drop.
                }
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list " + root + ": " + e.getMessage(), e);
        }
    }

    /** Every read since the database opened: the buffer pool's and those through memory mappings. */
    public IoStats cumulativeIoStatistics() {
        return pool.cumulativeStatistics().plus(mappedReads.snapshot());
    }

    /**
     * Every measured wait since the database opened ({@code sys.wait_stats}): the buffer pool's,
     * and those of every statement whose waits report here (a statement's {@code QueryContext} made
     * with these as the database's waits: its exchanges and shared hash builds).
     */
    public WaitCounters waits() {
        return pool.waits();
    }

    /** The cumulative counters that reads through memory mappings add to (see {@link #cumulativeIoStatistics}). */
    public IoCounters mappedReadCounters() {
        return mappedReads;
    }

    /**
     * Pages written to the data files since the database opened: checkpoints, evictions and minimally
     * logged loads. The log's writes are {@code log().counters()}, the spill file's {@link #spillStatistics()}.
     */
    public BufferPool.WriteStatistics dataWriteStatistics() {
        return pool.writeStatistics();
    }

    /** Pages write transactions spilled to the spill file and read back, since the database opened. */
    public SpillFile.Statistics spillStatistics() {
        return spill.statistics();
    }

    /**
     * The database's one object of {@code kind}, made by {@code create} on first use: state a layer
     * above storage keeps for as long as the database is open (the columnstore's checked-object
     * memo), without a static map keyed by database. Thread-safe; {@code create} runs once.
     */
    public <T> T extension(Class<T> kind, Supplier<? extends T> create) {
        return kind.cast(extensions.computeIfAbsent(kind, ignored -> create.get()));
    }

    /**
     * An {@link #extension} that keeps some of the database's files memory-mapped between
     * statements (the columnstore's rowgroup files). {@code POSIX_FADV_DONTNEED} cannot drop pages a
     * process has mapped, so {@code DBCC DROPCLEANBUFFERS} first tells every such extension to let
     * go of its files, as does closing the database.
     */
    public interface FileCache {
        /** Stops keeping files mapped: those no statement uses are unmapped now, the others when their statement is done. */
        void releaseFiles();
    }

    private void releaseKeptFiles() {
        for (Object extension : extensions.values()) {
            if (extension instanceof FileCache cache) {
                cache.releaseFiles();
            }
        }
    }

    /** Whether the database was opened read-only at the last consistent point of a damaged log. */
    public boolean readOnly() {
        return readOnly;
    }

    private void checkWritable() {
        if (readOnly) {
            throw new ColumbaException(ErrorCode.DATABASE_READ_ONLY, "database " + directory + " is open read-only: "
                    + recovery.logRepair().describe());
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new ColumbaException(ErrorCode.DATABASE_CLOSED, "database " + directory + " is closed");
        }
    }

    /**
     * Checkpoints and closes every file; the database is then clean and needs no recovery. A
     * read-only database only closes its files.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        OPEN_IN_PROCESS.remove(processKey(directory), this);
        try {
            // The checkpoint syncs the log: delayed commits still waiting for the flusher are durable after it.
            transactions.stopFlusher();
            if (!readOnly) {
                checkpoint();
            }
        } finally {
            closed = true;
            try {
                releaseKeptFiles();
                log.close();
            } finally {
                try {
                    pool.close();
                } finally {
                    try {
                        dataFiles.close();
                        spill.close();
                    } finally {
                        lock.close();
                    }
                }
            }
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing was written through it.
        }
    }

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
