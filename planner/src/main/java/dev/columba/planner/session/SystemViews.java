package dev.columba.planner.session;

import dev.columba.columnstore.diag.DictionaryDiagnostics;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.views.ColumnstoreViews;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.stats.IoStats;
import dev.columba.core.stats.WaitStats;
import dev.columba.core.stats.WaitType;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.PartitionOptions;
import dev.columba.planner.schema.PrimaryKey;
import dev.columba.planner.schema.SystemView;
import dev.columba.planner.schema.TableConstraints;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.ObjectLocks;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@code sys} schema: catalog views ({@code server_principals} (logins, without their verifiers), {@code tables}, {@code columns}, {@code indexes},
 * {@code key_constraints}, {@code check_constraints}, {@code default_constraints}), the
 * columnstore views ({@code column_store_row_groups}, {@code column_store_segments},
 * {@code column_store_dictionaries}, and the dictionary-pressure diagnosis as
 * {@code column_store_dictionary_pressure} and {@code column_store_recommendations}, the SQL form of
 * {@code columba diag dictionary}), {@code index_physical_stats} (fragmentation, which reads every
 * page of every B+tree — run it deliberately), the engine's {@code plan_cache} and {@code event_log}, the cumulative {@code io_stats} and
 * {@code wait_stats}. Columns are snake_case; rows are computed when the view is read. {@code io_stats}'s
 * columns are described in docs/design/storage.md ("Transactions larger than the pool", "Minimally
 * logged bulk loads") and docs/design/architecture.md ("What a read is").
 */
final class SystemViews {
    private SystemViews() {
    }

    private static final SqlType NAME = SqlType.varchar(128);
    private static final SqlType TEXT = SqlType.varchar(4000);

    static Map<String, ColumbaTable> create(Database database, List<CatalogEntry> entries, PlanCache planCache) {
        Map<String, ColumbaTable> views = new LinkedHashMap<>();
        add(views, "server_principals", schema("name", NAME, "principal_id", SqlType.INT, "type", NAME,
                "type_desc", NAME, "authentication", NAME, "is_sysadmin", SqlType.BOOLEAN), () -> serverPrincipals(entries));
        add(views, "tables", schema("table_name", NAME, "object_id", SqlType.INT, "storage", NAME, "row_count", SqlType.BIGINT),
                () -> tables(entries));
        add(views, "columns", schema("table_name", NAME, "column_id", SqlType.INT, "column_name", NAME, "type_name", NAME,
                "is_nullable", SqlType.BOOLEAN), () -> columns(entries));
        add(views, "indexes", schema("table_name", NAME, "index_name", NAME, "object_id", SqlType.INT, "type", NAME,
                "is_unique", SqlType.BOOLEAN, "key_columns", TEXT), () -> indexes(entries));
        add(views, "key_constraints", schema("table_name", NAME, "constraint_name", NAME, "type", NAME, "type_desc", NAME,
                "index_name", NAME, "key_columns", TEXT), () -> keyConstraints(entries));
        add(views, "check_constraints", schema("table_name", NAME, "constraint_name", NAME, "definition", TEXT),
                () -> checkConstraints(entries));
        add(views, "default_constraints", schema("table_name", NAME, "column_name", NAME, "definition", TEXT),
                () -> defaultConstraints(entries));
        add(views, "column_store_row_groups", schema("table_name", NAME, "row_group_id", SqlType.INT, "state", NAME,
                "total_rows", SqlType.BIGINT, "deleted_rows", SqlType.BIGINT, "size_in_bytes", SqlType.BIGINT,
                "trim_reason", NAME, "created", SqlType.TIMESTAMP), () -> rowGroups(database, entries));
        add(views, "column_store_segments", schema("table_name", NAME, "row_group_id", SqlType.INT, "column_id", SqlType.INT,
                "column_name", NAME, "encoding", NAME, "archived", SqlType.BOOLEAN, "row_count", SqlType.BIGINT,
                "null_count", SqlType.BIGINT, "min_value", TEXT, "max_value", TEXT, "on_disk_size", SqlType.BIGINT,
                "primary_dictionary_id", SqlType.INT, "secondary_dictionary_id", SqlType.INT, "fallback_reason", NAME),
                () -> segments(database, entries));
        add(views, "column_store_dictionaries", schema("table_name", NAME, "column_id", SqlType.INT, "column_name", NAME,
                "kind", NAME, "dictionary_id", SqlType.INT, "row_group_id", SqlType.INT, "entry_count", SqlType.BIGINT,
                "on_disk_size", SqlType.BIGINT), () -> dictionaries(database, entries));
        add(views, "column_store_dictionary_pressure", schema("table_name", NAME, "column_id", SqlType.INT,
                "column_name", NAME, "is_culprit", SqlType.BOOLEAN, "row_groups_at_cap", SqlType.INT,
                "max_dictionary_bytes", SqlType.BIGINT, "avg_dictionary_bytes", SqlType.DOUBLE,
                "dictionary_entries", SqlType.BIGINT, "primary_dictionary_bytes", SqlType.BIGINT,
                "fallback_segments", SqlType.INT, "segment_bytes", SqlType.BIGINT, "dictionary_cap", SqlType.BIGINT),
                () -> dictionaryPressure(database, entries));
        add(views, "column_store_recommendations", schema("table_name", NAME, "rank", SqlType.INT, "action", TEXT,
                "reason", TEXT, "row_groups", SqlType.INT, "expected_row_groups", SqlType.INT,
                "avg_request_bytes", SqlType.DOUBLE, "expected_avg_request_bytes", SqlType.DOUBLE,
                "estimated_speedup", SqlType.DOUBLE), () -> recommendations(database, entries));
        add(views, "index_physical_stats", schema("table_name", NAME, "index_name", NAME, "page_count", SqlType.BIGINT,
                "leaf_pages", SqlType.BIGINT, "internal_pages", SqlType.BIGINT, "height", SqlType.INT,
                "record_count", SqlType.BIGINT, "fragment_count", SqlType.BIGINT,
                "avg_fragment_size_in_pages", SqlType.DOUBLE, "logical_fragmentation_percent", SqlType.DOUBLE,
                "avg_page_density_percent", SqlType.DOUBLE), () -> physicalStats(database, entries));
        add(views, "io_stats", schema("logical_reads", SqlType.BIGINT, "physical_reads", SqlType.BIGINT,
                "read_ahead_reads", SqlType.BIGINT, "lob_logical_reads", SqlType.BIGINT, "lob_physical_reads", SqlType.BIGINT,
                "lob_read_ahead_reads", SqlType.BIGINT, "read_ahead_used", SqlType.BIGINT, "read_ahead_wasted", SqlType.BIGINT,
                "read_ios", SqlType.BIGINT, "read_bytes", SqlType.BIGINT, "page_io_wait_ms", SqlType.DOUBLE,
                "spill_pages_written", SqlType.BIGINT, "spill_pages_read", SqlType.BIGINT,
                "pages_written", SqlType.BIGINT, "minimally_logged_pages_written", SqlType.BIGINT),
                () -> ioStats(database));
        add(views, "wait_stats", schema("wait_type", NAME, "waits", SqlType.BIGINT, "wait_time_ms", SqlType.DOUBLE),
                () -> waitStats(database));
        add(views, "log_stats", schema("full_commits", SqlType.BIGINT, "delayed_commits", SqlType.BIGINT,
                "log_syncs", SqlType.BIGINT, "flusher_runs", SqlType.BIGINT, "groups_appended", SqlType.BIGINT,
                "bytes_appended", SqlType.BIGINT, "end_lsn", SqlType.BIGINT, "durable_lsn", SqlType.BIGINT),
                () -> logStats(database));
        add(views, "partitions", schema("table_name", NAME, "object_id", SqlType.INT, "partition_number", SqlType.INT,
                "rows", SqlType.BIGINT, "filegroup", NAME, "partition_object_id", SqlType.INT, "data_compression", SqlType.INT,
                "data_compression_desc", NAME), () -> partitions(entries));
        add(views, "views", schema("view_name", NAME, "object_id", SqlType.INT, "definition", TEXT), () -> userViews(entries));
        add(views, "event_log", schema("event_time", SqlType.TIMESTAMP, "level", NAME, "source", NAME, "message", TEXT),
                () -> eventLog(database));
        add(views, "plan_cache", schema("sql_text", TEXT, "use_count", SqlType.BIGINT, "planning_time_ms", SqlType.DOUBLE,
                "created", SqlType.TIMESTAMP, "last_used", SqlType.TIMESTAMP), () -> planCache(planCache));
        return views;
    }

    /** What the engine did on its own (recovery, checkpoints, sweeps, background failures), oldest first. */
    private static List<Object[]> eventLog(Database database) {
        List<Object[]> rows = new ArrayList<>();
        for (dev.columba.storage.db.EventLog.Event event : database.events().events()) {
            String message = event.message();
            rows.add(new Object[] {LocalDateTime.ofInstant(event.time(), ZoneOffset.UTC), event.level().getName(),
                    event.source(), message.length() > 4000 ? message.substring(0, 4000) : message});
        }
        return rows;
    }

    /** The plans the engine keeps, most recently used first (SQL Server's sys.dm_exec_cached_plans, in small). */
    private static List<Object[]> planCache(PlanCache planCache) {
        List<Object[]> rows = new ArrayList<>();
        for (PlanCache.Entry entry : planCache.entries()) {
            String text = entry.displayText();
            rows.add(new Object[] {text.length() > 4000 ? text.substring(0, 4000) : text, entry.uses(),
                    entry.planningNanos() / 1e6, LocalDateTime.ofInstant(entry.created(), ZoneOffset.UTC),
                    LocalDateTime.ofInstant(entry.lastUse(), ZoneOffset.UTC)});
        }
        return rows;
    }

    private static void add(Map<String, ColumbaTable> views, String name, TableSchema schema, Supplier<List<Object[]>> rows) {
        views.put(name, new SystemView(name, schema, rows));
    }

    private static TableSchema schema(Object... namesAndTypes) {
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < namesAndTypes.length; index += 2) {
            columns.add(Column.nullable((String) namesAndTypes[index], (SqlType) namesAndTypes[index + 1]));
        }
        return new TableSchema(columns);
    }

    private static String storage(CatalogEntry.Table table) {
        return switch (table.organization()) {
            case CLUSTERED -> "ROWSTORE CLUSTERED";
            case HEAP -> "ROWSTORE HEAP";
            case COLUMNSTORE -> "COLUMNSTORE";
        };
    }

    /** The user's views and their queries (SQL Server keeps the text in sys.sql_modules; here it is one view). */
    private static List<Object[]> userViews(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.View view) {
                rows.add(new Object[] {view.name(), view.objectId(), view.definition()});
            }
        }
        return rows;
    }

    private static List<Object[]> tables(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && !PartitionOptions.partition(table)) {
                long count = 0;
                for (Object[] partition : partitionsOf(table, entries)) {
                    count += (Long) partition[3];
                }
                rows.add(new Object[] {table.name(), table.objectId(), storage(table), count});
            }
        }
        return rows;
    }

    /**
     * SQL Server's sys.partitions: a row per partition of every table (one for a table that is not
     * partitioned), with its rows and filegroup; a partition's own object id holds its pages.
     */
    private static List<Object[]> partitions(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && !PartitionOptions.partition(table)) {
                rows.addAll(partitionsOf(table, entries));
            }
        }
        return rows;
    }

    private static List<Object[]> partitionsOf(CatalogEntry.Table table, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        if (!PartitionOptions.partitioned(table)) {
            rows.add(new Object[] {table.name(), table.objectId(), 1, table.rowCount(), filegroup(table), table.objectId(),
                    compression(table).code(), compression(table).name()});
            return rows;
        }
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table partition
                    && String.valueOf(table.objectId()).equals(partition.options().get(PartitionOptions.PARTITION_OF))) {
                rows.add(new Object[] {table.name(), table.objectId(),
                        Integer.parseInt(partition.options().get(PartitionOptions.NUMBER)), partition.rowCount(),
                        filegroup(partition), partition.objectId(), compression(partition).code(),
                        compression(partition).name()});
            }
        }
        rows.sort(java.util.Comparator.comparingInt(row -> (Integer) row[2]));
        return rows;
    }

    /** SQL Server's data_compression of a partition: NONE for columnstore tables (their own encodings). */
    private static dev.columba.storage.heap.DataCompression compression(CatalogEntry.Table table) {
        return table.organization() == CatalogEntry.Organization.COLUMNSTORE ? dev.columba.storage.heap.DataCompression.NONE
                : dev.columba.storage.table.Tables.compression(table.options());
    }

    private static String filegroup(CatalogEntry.Table table) {
        return table.organization() == CatalogEntry.Organization.COLUMNSTORE ? null
                : table.options().getOrDefault(dev.columba.storage.table.Tables.FILEGROUP_OPTION,
                        dev.columba.storage.file.FileManifest.PRIMARY);
    }

    private static List<Object[]> columns(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && !PartitionOptions.partition(table)) {
                for (int column = 0; column < table.schema().size(); column++) {
                    Column definition = table.schema().column(column);
                    rows.add(new Object[] {table.name(), column + 1, definition.name(), definition.type().sqlName(),
                            definition.nullable()});
                }
            }
        }
        return rows;
    }

    private static String keyNames(CatalogEntry.Table table, List<Integer> columns) {
        List<String> names = new ArrayList<>();
        for (int column : columns) {
            names.add(table.schema().column(column).name());
        }
        return String.join(", ", names);
    }

    private static CatalogEntry.Table tableOf(List<CatalogEntry> entries, int objectId) {
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && table.objectId() == objectId) {
                return table;
            }
        }
        return null;
    }

    /** The tables SQL names (not the partitions of a partitioned table), with their constraints. */
    private static Map<CatalogEntry.Table, TableConstraints> constrainedTables(List<CatalogEntry> entries) {
        Map<CatalogEntry.Table, TableConstraints> tables = new LinkedHashMap<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && !PartitionOptions.partition(table)) {
                TableConstraints constraints = TableConstraints.of(table.schema(), table.options());
                if (constraints != TableConstraints.NONE) {
                    tables.put(table, constraints);
                }
            }
        }
        return tables;
    }

    /**
     * Primary keys and UNIQUE constraints, each with the unique index that enforces it (SQL Server's
     * sys.key_constraints). The primary key is read as JDBC's getPrimaryKeys reads it
     * ({@link PrimaryKey}): the catalog keeps no mark of its own for it, so a table clustered by
     * {@code CREATE UNIQUE CLUSTERED INDEX} is listed with a primary key too.
     */
    private static List<Object[]> keyConstraints(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && !PartitionOptions.partition(table)) {
                List<CatalogEntry.Index> indexes = entries.stream().filter(CatalogEntry.Index.class::isInstance)
                        .map(CatalogEntry.Index.class::cast).filter(index -> index.tableId() == table.objectId()).toList();
                PrimaryKey.of(table, indexes).ifPresent(key -> rows.add(new Object[] {table.name(), key.indexName(), "PK",
                        "PRIMARY_KEY_CONSTRAINT", key.indexName(), keyNames(table, key.columns())}));
            }
        }
        constrainedTables(entries).forEach((table, constraints) -> constraints.uniques().forEach((name, columns) ->
                rows.add(new Object[] {table.name(), name, "UQ", "UNIQUE_CONSTRAINT", name, keyNames(table, columns)})));
        return rows;
    }

    /** CHECK constraints with their conditions as stored (SQL Server's sys.check_constraints). */
    private static List<Object[]> checkConstraints(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        constrainedTables(entries).forEach((table, constraints) -> constraints.checks().forEach((name, condition) ->
                rows.add(new Object[] {table.name(), name, condition})));
        return rows;
    }

    /**
     * The logins (SQL Server's sys.server_principals, type S = SQL_LOGIN): names and how they
     * authenticate, never their verifiers, and whether each is a member of sysadmin (SQL Server asks
     * {@code IS_SRVROLEMEMBER}; here it is a column).
     */
    private static List<Object[]> serverPrincipals(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Login login) {
                rows.add(new Object[] {login.name(), login.objectId(), "S", "SQL_LOGIN", "SCRAM-SHA-256", login.sysadmin()});
            }
        }
        return rows;
    }

    /** Column defaults with their expressions as stored (SQL Server's sys.default_constraints, unnamed). */
    private static List<Object[]> defaultConstraints(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        constrainedTables(entries).forEach((table, constraints) -> constraints.defaults().forEach((column, value) ->
                rows.add(new Object[] {table.name(), table.schema().column(column).name(), value})));
        return rows;
    }

    private static List<Object[]> indexes(List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            switch (entry) {
                case CatalogEntry.Table table -> {
                    String type = switch (table.organization()) {
                        case CLUSTERED -> "CLUSTERED";
                        case HEAP -> "HEAP";
                        case COLUMNSTORE -> "CLUSTERED COLUMNSTORE";
                    };
                    rows.add(new Object[] {table.name(), table.organization() == CatalogEntry.Organization.HEAP ? null
                            : table.name(), table.objectId(), type, table.uniqueKey(), keyNames(table, table.keyColumns())});
                }
                case CatalogEntry.Index index -> {
                    CatalogEntry.Table table = tableOf(entries, index.tableId());
                    rows.add(new Object[] {table == null ? null : table.name(), index.name(), index.objectId(), "NONCLUSTERED",
                            index.unique(), table == null ? null : keyNames(table, index.keyColumns())});
                }
                case CatalogEntry.View ignored -> {
                    // A view has no index.
                }
                case CatalogEntry.PartitionObject ignored -> {
                    // Nor has a partition function or scheme.
                }
                case CatalogEntry.Login ignored -> {
                    // Nor a login.
                }
            }
        }
        return rows;
    }

    private static List<ColumnstoreTable> columnstoreTables(Database database, List<CatalogEntry> entries) {
        List<ColumnstoreTable> tables = new ArrayList<>();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table && table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                tables.add(ColumnstoreTable.open(database, table));
            }
        }
        return tables;
    }

    private static List<Object[]> rowGroups(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (ColumnstoreTable table : columnstoreTables(database, entries)) {
            try (ObjectLocks.Lease ignored = database.locks().shared(table.objectId())) {
                for (ColumnstoreViews.RowgroupRow row : ColumnstoreViews.rowgroups(table, database.bufferPool(),
                        database.systemCounters())) {
                    rows.add(new Object[] {row.tableName(), row.rowgroupId(), row.state().name(), row.totalRows(),
                            row.deletedRows(), row.sizeInBytes(), row.trimReason().name(),
                            LocalDateTime.ofInstant(row.created(), ZoneOffset.UTC)});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> segments(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (ColumnstoreTable table : columnstoreTables(database, entries)) {
            try (ObjectLocks.Lease ignored = database.locks().shared(table.objectId())) {
                for (ColumnstoreViews.SegmentRow row : ColumnstoreViews.segments(table, database.bufferPool(),
                        database.systemCounters())) {
                    rows.add(new Object[] {row.tableName(), row.rowgroupId(), row.columnId() + 1, row.columnName(),
                            row.encoding().name(), row.archived(), row.rowCount(), row.nullCount(), text(row.min()),
                            text(row.max()), row.onDiskSize(), row.primaryDictionaryId(), row.secondaryDictionaryId(),
                            row.fallbackReason().name()});
                }
            }
        }
        return rows;
    }

    /** One diagnosis per columnstore table, under the table's shared lock (reads footers only). */
    private static List<DictionaryDiagnostics.Report> diagnoses(Database database, List<CatalogEntry> entries) {
        List<DictionaryDiagnostics.Report> reports = new ArrayList<>();
        for (ColumnstoreTable table : columnstoreTables(database, entries)) {
            try (ObjectLocks.Lease ignored = database.locks().shared(table.objectId())) {
                reports.add(DictionaryDiagnostics.analyze(table, database.bufferPool(), database.systemCounters()));
            }
        }
        return reports;
    }

    private static List<Object[]> dictionaryPressure(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (DictionaryDiagnostics.Report report : diagnoses(database, entries)) {
            for (DictionaryDiagnostics.ColumnPressure column : report.columns()) {
                rows.add(new Object[] {report.table(), column.column() + 1, column.name(),
                        report.culprits().contains(column.name()), column.rowgroupsAtCap(), column.maxDictionaryBytes(),
                        column.averageDictionaryBytes(), column.dictionaryEntries(), column.primaryBytes(),
                        column.fallbacks(), column.segmentBytes(), report.options().dictionaryCapBytes()});
            }
        }
        return rows;
    }

    private static List<Object[]> recommendations(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (DictionaryDiagnostics.Report report : diagnoses(database, entries)) {
            int rank = 1;
            for (DictionaryDiagnostics.Recommendation recommendation : report.recommendations()) {
                rows.add(new Object[] {report.table(), rank++, recommendation.action(), recommendation.reason(),
                        report.current().rowgroups(), recommendation.expected().rowgroups(),
                        report.current().averageRequestBytes(), recommendation.expected().averageRequestBytes(),
                        recommendation.estimatedSpeedup()});
            }
        }
        return rows;
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        return text.length() > 4000 ? text.substring(0, 4000) : text;
    }

    private static List<Object[]> dictionaries(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        for (ColumnstoreTable table : columnstoreTables(database, entries)) {
            try (ObjectLocks.Lease ignored = database.locks().shared(table.objectId())) {
                for (ColumnstoreViews.DictionaryRow row : ColumnstoreViews.dictionaries(table, database.bufferPool(),
                        database.systemCounters())) {
                    rows.add(new Object[] {row.tableName(), row.columnId() + 1, row.columnName(),
                            row.kind().name().toLowerCase(Locale.ROOT), row.dictionaryId(),
                            row.rowgroupId() < 0 ? null : row.rowgroupId(), row.entryCount(), row.onDiskSize()});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> physicalStats(Database database, List<CatalogEntry> entries) {
        List<Object[]> rows = new ArrayList<>();
        IoCounters counters = database.systemCounters();
        for (CatalogEntry entry : entries) {
            BTree tree;
            String tableName;
            String indexName;
            switch (entry) {
                case CatalogEntry.Table table -> {
                    if (table.organization() != CatalogEntry.Organization.CLUSTERED) {
                        continue;
                    }
                    tree = new BTree(table.objectId(), table.rootPage(), table.firstOamPage());
                    tableName = table.name();
                    indexName = table.name();
                }
                case CatalogEntry.Index index -> {
                    CatalogEntry.Table table = tableOf(entries, index.tableId());
                    tree = new BTree(index.objectId(), index.rootPage(), index.firstOamPage());
                    tableName = table == null ? null : table.name();
                    indexName = index.name();
                }
                case CatalogEntry.View ignored -> {
                    continue;
                }
                case CatalogEntry.PartitionObject ignored -> {
                    continue;
                }
                case CatalogEntry.Login ignored -> {
                    continue;
                }
            }
            try (ObjectLocks.Lease ignored = database.locks().shared(entry.objectId())) {
                IndexPhysicalStats stats = IndexPhysicalStats.of(tree, database.bufferPool(), counters);
                rows.add(new Object[] {tableName, indexName, stats.pageCount(), stats.leafPages(), stats.internalPages(),
                        stats.height(), stats.entries(), stats.fragments(), stats.averageFragmentPages(),
                        stats.logicalFragmentationPercent(), stats.averagePageDensityPercent()});
            }
        }
        return rows;
    }

    private static List<Object[]> ioStats(Database database) {
        IoStats stats = database.cumulativeIoStatistics();
        // Spill I/O is the write transactions' temporary I/O, apart from the data file's reads above.
        var spill = database.spillStatistics();
        // Data-file writes: checkpoints and evictions of committed pages, and the pages a minimally
        // logged load writes before its commit record (counted even if it then rolls back).
        var written = database.dataWriteStatistics();
        return List.<Object[]>of(new Object[] {stats.logicalReads(), stats.physicalReads(), stats.readAheadReads(),
                stats.lobLogicalReads(), stats.lobPhysicalReads(), stats.lobReadAheadReads(), stats.readAheadUsed(),
                stats.readAheadWasted(), stats.readIos(), stats.readBytes(), stats.pageIoWaitNanos() / 1e6,
                spill.pagesWritten(), spill.pagesRead(), written.pagesWritten(), written.minimallyLoggedPagesWritten()});
    }

    /**
     * The log since the database opened: commits by durability (the database's own, such as the
     * tuple mover's, included), {@code fdatasync}s of the log (commits, the delayed-commit flusher,
     * checkpoints, segment switches), the rounds of the delayed-commit flusher, and what was appended. Full commits
     * over log syncs is how many commits a sync served (group commit).
     */
    private static List<Object[]> logStats(Database database) {
        var commits = database.transactions().commitCounters();
        var log = database.log().counters();
        return List.<Object[]>of(new Object[] {commits.full(), commits.delayed(), log.syncs(),
                database.transactions().flusher().counters().flushes(), log.groups(), log.bytes(),
                database.log().endLsn(), database.log().durableLsn()});
    }

    /**
     * Every measured wait since the database opened, a row per {@link WaitType} (zero when none
     * happened; docs/design/execution.md, "Waits"), and the log's syncs as WRITELOG, counted but
     * not timed.
     */
    private static List<Object[]> waitStats(Database database) {
        List<Object[]> rows = new ArrayList<>();
        for (WaitStats.Wait wait : database.waits().snapshot().waits()) {
            rows.add(new Object[] {wait.type().name(), wait.count(), wait.millis()});
        }
        rows.add(new Object[] {"WRITELOG", database.log().counters().syncs(), null});
        return rows;
    }
}
