package dev.columba.core.settings;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.Setting.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every setting Columba knows, with its default. {@code StandardSettingsTest} pins each name and
 * default, so changing one is a visible decision.
 */
public final class StandardSettings {

    private StandardSettings() {
    }

    public static final Setting<Boolean> READ_AHEAD = Setting.bool("read_ahead",
            "Sequential read-ahead for rowstore scans and columnstore segment reads (trace flag 652 turns it off).",
            true, Scope.SESSION);

    public static final Setting<Integer> READ_AHEAD_MAX_PAGES_PER_IO = Setting.integer("read_ahead_max_pages_per_io",
            "Largest read-ahead I/O of a rowstore scan, in contiguous 8 KB pages.",
            64, 1, 1024, "pages", Scope.SESSION);

    public static final Setting<Integer> READ_AHEAD_DEPTH_PAGES = Setting.integer("read_ahead_depth_pages",
            "How far ahead of the reader a rowstore scan keeps its read-ahead, in 8 KB pages.",
            500, 1, 1 << 20, "pages", Scope.SESSION);

    public static final Setting<Boolean> PREFETCH = Setting.bool("prefetch",
            "Random prefetch of inner-side pages for index nested-loop joins (trace flag 8744 turns it off).",
            true, Scope.SESSION);

    public static final Setting<Boolean> TRIVIAL_PLANS = Setting.bool("trivial_plans",
            "Lookups, updates and deletes by clustered key and INSERT ... VALUES skip cost-based optimization "
                    + "(trace flag 8757 turns it off).",
            true, Scope.SESSION);

    public static final Setting<Boolean> DIRECT_LOOKUPS = Setting.bool("direct_lookups",
            "A query whose plan is one seek of a unique clustered key reads its row straight from the leaf, "
                    + "without an operator tree or batch; off runs the plan's operators (same rows, same reads).",
            true, Scope.SESSION);

    public static final Setting<Boolean> BITMAP_FILTERS = Setting.bool("bitmap_filters",
            "Hash joins on whole-number keys hand their build side's keys to the columnstore scans on their probe side, "
                    + "which drop rows without a partner before they are joined further.",
            true, Scope.SESSION);

    public static final Setting<Integer> PREFETCH_THRESHOLD_ROWS = Setting.integer("prefetch_threshold_rows",
            "The planner enables random prefetch when the outer side is estimated above this many rows.",
            25, 0, Integer.MAX_VALUE, "rows", Scope.SESSION);

    public static final Setting<Integer> PREFETCH_DEPTH = Setting.integer("prefetch_depth",
            "How many page reads random prefetch keeps in flight.",
            64, 1, 4096, "pages", Scope.SESSION);

    public static final Setting<Long> BUFFER_POOL_SIZE = Setting.bytes("buffer_pool_size",
            "Capacity of the buffer pool (off-heap frames of 8 KB).",
            256L << 20, 1L << 20, 1L << 40, Scope.STARTUP);

    public static final Setting<Boolean> DIRECT_IO = Setting.bool("direct_io",
            "Open data files with O_DIRECT, bypassing the operating system's page cache.",
            false, Scope.STARTUP);

    public static final Setting<Integer> IO_THREADS = Setting.integer("io_threads",
            "Threads that perform asynchronous reads (read-ahead and prefetch); bounds the I/Os in flight.",
            32, 1, 1024, "threads", Scope.STARTUP);

    public static final Setting<Long> WAL_SEGMENT_SIZE = Setting.bytes("wal_segment_size",
            "Size at which the write-ahead log starts a new segment file.",
            64L << 20, 1L << 20, 1L << 30, Scope.STARTUP);

    public static final Setting<Long> CHECKPOINT_WAL_SIZE = Setting.bytes("checkpoint_wal_size",
            "A checkpoint starts automatically when this much log has been written since the last one.",
            256L << 20, 1L << 20, 1L << 40, Scope.GLOBAL);

    /**
     * Read only when the database is opened, and only from the settings given to that opening:
     * discarding committed transactions must be asked for each time, so it is never stored.
     */
    public static final Setting<WalRecoveryMode> WAL_RECOVERY_MODE = Setting.enumeration("wal_recovery_mode",
            "What opening does with a damaged write-ahead log: fail (refuse to open; the default), "
                    + "read_only_consistent (open read-only at the last consistent point before the damage, changing "
                    + "no log file) or point_in_time (cut the log at the last consistent point before the damage, "
                    + "discarding what follows, after copying the damaged files into the database's damaged/ folder).",
            WalRecoveryMode.class, WalRecoveryMode.FAIL, Scope.STARTUP);

    /**
     * Off by default: delayed commits can be lost on a crash of the machine, so a session or the
     * database must ask for them (SQL Server's DELAYED_DURABILITY, PostgreSQL's
     * {@code synchronous_commit = off}).
     */
    public static final Setting<Boolean> DELAYED_DURABILITY = Setting.bool("delayed_durability",
            "When on, a commit returns once its commit record is written to the log file, before it is on storage; "
                    + "a background flusher syncs it within 5 ms, and a crash of the machine before that loses it and "
                    + "every later delayed commit (never part of a transaction). Off (the default): a commit returns "
                    + "once it is on storage. DDL always commits durably; EXEC sys.sp_flush_log or CHECKPOINT flushes "
                    + "at once.",
            false, Scope.SESSION);

    /**
     * On by default, as SQL Server's BULK_LOGGED recovery model for bulk loads; off is its FULL
     * model: every page of a load in the log, so a copy of the log alone (a log backup) could rebuild
     * the loaded pages (docs/design/storage.md, "Minimally logged bulk loads").
     */
    public static final Setting<Boolean> MINIMAL_LOGGING = Setting.bool("minimal_logging",
            "When on (the default), a bulk load into an empty rowstore table (COPY, INSERT ... SELECT, CREATE TABLE AS, "
                    + "CREATE INDEX) writes the pages it allocates straight to the data file, synced before its commit, "
                    + "and logs only the allocation and catalog changes: each page is written once instead of logged and "
                    + "then checkpointed. Off: every page is logged in full.",
            true, Scope.GLOBAL);

    public static final Setting<Integer> TRANSACTION_MAX_BUFFER_PERCENT = Setting.integer(
            "transaction_max_buffer_percent",
            "Share of the buffer pool one write transaction's private page copies may occupy.",
            50, 1, 90, "percent", Scope.GLOBAL);

    public static final Setting<Long> COLUMNSTORE_READ_AHEAD_MAX_BYTES = Setting.bytes("columnstore_read_ahead_max_bytes",
            "Largest MADV_WILLNEED request of a columnstore scan; never past the end of a rowgroup.",
            8L << 20, 8L << 10, 1L << 30, Scope.SESSION);

    /**
     * 128 MB: a scan tops its window up as it checks each rowgroup, not while it decodes one, so the
     * window must hold what the disk (~1 GB/s) reads while the CPU decodes a full rowgroup (~0.1 s
     * for seed 001's 176 MB rowgroups). Measured on seed 001's tables (docs/design/columnstore.md),
     * 128 MB was best for full rowgroups and as good as 32–64 MB for trimmed 17 MB ones; a scan
     * stopped early wastes at most this much read-ahead.
     */
    public static final Setting<Long> COLUMNSTORE_READ_AHEAD_DEPTH = Setting.bytes("columnstore_read_ahead_depth",
            "Bytes of read-ahead a columnstore scan keeps requested ahead of the segments it has touched, "
                    + "across rowgroup boundaries; 0 reads ahead the current rowgroup only.",
            128L << 20, 0, 1L << 32, Scope.SESSION);

    public static final Setting<Integer> BATCH_SIZE = Setting.integer("batch_size",
            "Rows per batch in batch-mode execution.",
            4096, 1, 1 << 20, "rows", Scope.SESSION);

    public static final Setting<Long> QUERY_MEMORY_LIMIT = Setting.bytes("query_memory_limit",
            "Memory one statement's operators may hold (hash tables, sorts); beyond it the statement fails.",
            2L << 30, 1L << 20, 1L << 40, Scope.SESSION);

    public static final Setting<Integer> MAX_DOP = Setting.integer("max_dop",
            "Workers a parallel plan may use (OPTION (MAXDOP n) overrides it for one statement); 0 means one per available processor, 1 runs every plan serially.",
            0, 0, 64, "workers", Scope.SESSION);

    public static final Setting<Integer> PARALLELISM_THRESHOLD_ROWS = Setting.integer("parallelism_threshold_rows",
            "The planner runs a scan's fragment in parallel when the scan is estimated to read at least this many rows, and the plan's scans twenty times as many in all (SQL Server's cost threshold for parallelism, in rows).",
            100_000, 0, Integer.MAX_VALUE, "rows", Scope.SESSION);

    /** Every setting, in the order {@code SHOW ALL} lists them. */
    public static final List<Setting<?>> ALL = List.of(
            READ_AHEAD, READ_AHEAD_MAX_PAGES_PER_IO, READ_AHEAD_DEPTH_PAGES,
            PREFETCH, PREFETCH_THRESHOLD_ROWS, PREFETCH_DEPTH, TRIVIAL_PLANS, DIRECT_LOOKUPS,
            BUFFER_POOL_SIZE, DIRECT_IO, IO_THREADS,
            WAL_SEGMENT_SIZE, CHECKPOINT_WAL_SIZE, WAL_RECOVERY_MODE, DELAYED_DURABILITY, MINIMAL_LOGGING,
            TRANSACTION_MAX_BUFFER_PERCENT,
            COLUMNSTORE_READ_AHEAD_MAX_BYTES, COLUMNSTORE_READ_AHEAD_DEPTH, BATCH_SIZE, QUERY_MEMORY_LIMIT,
            MAX_DOP, PARALLELISM_THRESHOLD_ROWS, BITMAP_FILTERS);

    private static final Map<String, Setting<?>> BY_NAME =
            ALL.stream().collect(Collectors.toUnmodifiableMap(Setting::name, Function.identity()));

    /**
     * The setting named {@code name}, ignoring case.
     *
     * @throws ColumbaException {@link ErrorCode#UNKNOWN_SETTING} if there is none
     */
    public static Setting<?> byName(String name) {
        Setting<?> setting = BY_NAME.get(name.toLowerCase(Locale.ROOT));
        if (setting == null) {
            throw new ColumbaException(ErrorCode.UNKNOWN_SETTING, "unknown setting '" + name + "'");
        }
        return setting;
    }
}
