package dev.columba.planner.session;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.planner.parser.ColumbaSqlParser;
import dev.columba.planner.parser.SqlDropPartitionObject;
import dev.columba.planner.parser.SqlPartitionFunction;
import dev.columba.planner.parser.SqlPartitionScheme;
import dev.columba.planner.schema.PartitionOptions;
import dev.columba.planner.schema.TablePartitions;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * Partition functions, partition schemes and partitioned tables (docs/design/storage.md,
 * "Partitioned tables"): {@code CREATE / DROP PARTITION FUNCTION | SCHEME}, kept in the catalog as
 * their statements' text, and {@code CREATE TABLE ... ON scheme (column)} or {@code ... PARTITION BY
 * HASH (column) PARTITIONS n [ON (filegroup, ...)]}, which make the table's entry and one rowstore
 * table per partition on the partition's filegroup. Runs in the statement's write transaction.
 */
final class PartitionDdl {
    /** The options the parser writes for ON scheme (column) and PARTITION BY HASH. */
    static final String SCHEME_OPTION = "partition_scheme";
    static final String HASH_OPTION = "partition_hash";
    static final String FILEGROUPS_OPTION = "partition_filegroups";
    /** Partitions a table may have: SQL Server's limit. */
    static final int MAX_PARTITIONS = 15_000;

    private final Database database;

    PartitionDdl(Database database) {
        this.database = database;
    }

    void createFunction(Transaction transaction, SqlPartitionFunction function) {
        String name = function.name().getSimple();
        requireNewName(transaction, name);
        boundaries(function);
        put(transaction, name, CatalogEntry.PartitionObject.Kind.FUNCTION, ColumbaSqlParser.toSql(function));
    }

    void createScheme(Transaction transaction, SqlPartitionScheme scheme) {
        String name = scheme.name().getSimple();
        requireNewName(transaction, name);
        SqlPartitionFunction function = function(transaction, scheme.function().getSimple());
        int partitions = boundaries(function).size() + 1;
        for (String filegroup : scheme.filegroups()) {
            requireFilegroup(filegroup);
        }
        if (scheme.all() && scheme.filegroups().size() != 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "ALL TO names one filegroup, not "
                    + scheme.filegroups().size());
        }
        if (!scheme.all() && scheme.filegroups().size() < partitions) {
            // SQL Server's Msg 7707.
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "partition function " + function.name()
                    + " makes " + partitions + " partitions, but scheme " + name + " names only "
                    + scheme.filegroups().size() + " filegroups");
        }
        put(transaction, name, CatalogEntry.PartitionObject.Kind.SCHEME, ColumbaSqlParser.toSql(scheme));
    }

    void drop(Transaction transaction, SqlDropPartitionObject drop) {
        String name = drop.name().getSimple();
        IoCounters counters = transaction.systemCounters();
        CatalogEntry.PartitionObject.Kind kind = drop.scheme() ? CatalogEntry.PartitionObject.Kind.SCHEME
                : CatalogEntry.PartitionObject.Kind.FUNCTION;
        CatalogEntry.PartitionObject object = find(transaction, name, kind).orElseThrow(() -> new ColumbaException(
                ErrorCode.OBJECT_NOT_FOUND, "partition " + kind.name().toLowerCase(Locale.ROOT) + " " + name
                        + " does not exist"));
        for (CatalogEntry entry : database.catalog().entries(transaction.writes(), counters)) {
            if (drop.scheme() && entry instanceof CatalogEntry.Table table
                    && name.equalsIgnoreCase(table.options().get(PartitionOptions.SCHEME))) {
                throw new ColumbaException(ErrorCode.OBJECT_IN_USE, "partition scheme " + name + " cannot be dropped:"
                        + " table " + table.name() + " is partitioned by it");
            }
            if (!drop.scheme() && entry instanceof CatalogEntry.PartitionObject other
                    && other.kind() == CatalogEntry.PartitionObject.Kind.SCHEME
                    && scheme(other).function().getSimple().equalsIgnoreCase(name)) {
                throw new ColumbaException(ErrorCode.OBJECT_IN_USE, "partition function " + name + " cannot be dropped:"
                        + " scheme " + other.name() + " uses it");
            }
        }
        database.catalog().remove(transaction.writes(), database.allocator(), object.objectId(), counters);
    }

    /**
     * Creates partitioned table {@code name}: its own entry (no rows; the partitioning in its
     * options) and one table per partition on the partition's filegroup.
     */
    TablePartitions createTable(Transaction transaction, String name, TableSchema schema, List<Integer> key,
                                Map<String, String> options) {
        String columnName = options.get(PartitionOptions.COLUMN);
        int column = schema.indexOf(columnName);
        if (column < 0) {
            throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "partitioning column " + columnName
                    + " is not a column of table " + name);
        }
        if (!key.isEmpty() && !key.contains(column)) {
            // SQL Server's Msg 1908: uniqueness is checked within a partition only.
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the primary key of partitioned table " + name
                    + " must include its partitioning column " + columnName);
        }
        SqlType type = schema.column(column).type();
        Map<String, String> parent = new LinkedHashMap<>();
        options.forEach((option, value) -> {
            if (option.contains(":")) {
                parent.put(option, value);
            }
        });
        parent.put(PartitionOptions.COLUMN, schema.column(column).name());
        String compression = options.get(Tables.COMPRESSION_OPTION);
        if (compression != null) {
            parent.put(Tables.COMPRESSION_OPTION, compression);
        }
        List<Object> boundaries = List.of();
        List<String> filegroups = new ArrayList<>();
        TablePartitions.Kind kind;
        int count;
        if (options.containsKey(SCHEME_OPTION)) {
            String schemeName = options.get(SCHEME_OPTION);
            SqlPartitionScheme scheme = find(transaction, schemeName, CatalogEntry.PartitionObject.Kind.SCHEME)
                    .map(PartitionDdl::scheme).orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND,
                            "partition scheme " + schemeName + " does not exist"));
            SqlPartitionFunction function = function(transaction, scheme.function().getSimple());
            SqlType functionType = DdlExecutor.typeOf(function.type());
            if (!functionType.equals(type)) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "partitioning column " + columnName + " is " + type
                        + ", but partition function " + function.name() + " takes " + functionType);
            }
            boundaries = boundaries(function);
            kind = function.right() ? TablePartitions.Kind.RANGE_RIGHT : TablePartitions.Kind.RANGE_LEFT;
            count = boundaries.size() + 1;
            for (int number = 1; number <= count; number++) {
                filegroups.add(scheme.all() ? scheme.filegroups().getFirst() : scheme.filegroups().get(number - 1));
            }
            parent.put(PartitionOptions.SCHEME, scheme.name().getSimple());
        } else {
            kind = TablePartitions.Kind.HASH;
            try {
                count = Integer.parseInt(options.get(HASH_OPTION));
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 1 || count > MAX_PARTITIONS) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "PARTITIONS must be 1 to " + MAX_PARTITIONS
                        + ", was " + options.get(HASH_OPTION));
            }
            List<String> given = options.containsKey(FILEGROUPS_OPTION)
                    ? List.of(options.get(FILEGROUPS_OPTION).split(",")) : List.of(FileManifest.PRIMARY);
            for (int number = 1; number <= count; number++) {
                filegroups.add(given.get((number - 1) % given.size()));
            }
        }
        for (String filegroup : filegroups) {
            requireFilegroup(filegroup);
        }
        parent.put(PartitionOptions.KIND, kind.name().toLowerCase(Locale.ROOT));
        parent.put(PartitionOptions.COUNT, String.valueOf(count));
        for (int index = 0; index < boundaries.size(); index++) {
            parent.put(PartitionOptions.BOUNDARY + (index + 1), PartitionOptions.boundaryText(type, boundaries.get(index)));
        }
        Tables tables = new Tables(database);
        TableStore table = tables.createTable(transaction, name, schema, key, true, parent);
        List<TableStore> stores = new ArrayList<>();
        for (int number = 1; number <= count; number++) {
            Map<String, String> partition = new LinkedHashMap<>();
            partition.put(Tables.FILEGROUP_OPTION, filegroups.get(number - 1));
            if (compression != null) {
                partition.put(Tables.COMPRESSION_OPTION, compression);
            }
            partition.put(PartitionOptions.PARTITION_OF, String.valueOf(table.definition().objectId()));
            partition.put(PartitionOptions.NUMBER, String.valueOf(number));
            stores.add(tables.createTable(transaction, PartitionOptions.partitionName(name, number), schema, key, true,
                    partition));
        }
        return new TablePartitions(column, type, kind, boundaries, stores);
    }

    /** Drops the partitions of partitioned table {@code table} (the caller drops the table's own entry). */
    void dropPartitions(Transaction transaction, CatalogEntry.Table table) {
        IoCounters counters = transaction.systemCounters();
        Tables tables = new Tables(database);
        for (CatalogEntry.Table candidate : tables.list(transaction.writes(), counters)) {
            if (String.valueOf(table.objectId()).equals(candidate.options().get(PartitionOptions.PARTITION_OF))) {
                tables.dropTable(transaction, candidate.name());
            }
        }
    }

    /** The function's boundary values in its type, ascending; 22023 when they do not ascend, 42804 when one is not of the type. */
    static List<Object> boundaries(SqlPartitionFunction function) {
        SqlType type = DdlExecutor.typeOf(function.type());
        List<Object> values = new ArrayList<>();
        for (SqlNode boundary : function.boundaries()) {
            String text = literalText(boundary);
            Object value;
            try {
                value = Values.canonical(type, Evaluator.cast(text, SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), type));
            } catch (ColumbaException e) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "boundary value " + boundary + " of partition function "
                        + function.name() + " is not a " + type + ": " + e.detail());
            }
            if (value == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a partition boundary cannot be NULL");
            }
            values.add(value);
        }
        if (values.size() + 1 > MAX_PARTITIONS) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a partition function makes at most " + MAX_PARTITIONS
                    + " partitions");
        }
        // SQL Server's Msg 7708 for duplicates; ascending in the key order.
        TablePartitions.requireAscending(type, values);
        return values;
    }

    /** A boundary as text: a literal, or a negated numeric literal. */
    private static String literalText(SqlNode boundary) {
        if (boundary instanceof SqlLiteral literal) {
            String text = literal.toValue();
            if (text == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a partition boundary cannot be NULL");
            }
            return text;
        }
        if (boundary instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX
                && call.operand(0) instanceof SqlLiteral literal && literal.toValue() != null) {
            return "-" + literal.toValue();
        }
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a partition boundary must be a literal, not " + boundary);
    }

    private void requireFilegroup(String filegroup) {
        if (database.files().filegroup(filegroup).isEmpty()) {
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "filegroup " + filegroup + " does not exist");
        }
    }

    private void requireNewName(Transaction transaction, String name) {
        if (database.catalog().byName(transaction.writes(), name, transaction.systemCounters()).isPresent()) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "There is already an object named '" + name
                    + "' in the database");
        }
    }

    private void put(Transaction transaction, String name, CatalogEntry.PartitionObject.Kind kind, String definition) {
        IoCounters counters = transaction.systemCounters();
        int objectId = database.catalog().allocateObjectId(transaction.writes(), counters);
        database.catalog().put(transaction.writes(), database.allocator(),
                new CatalogEntry.PartitionObject(objectId, name, kind, definition), counters);
    }

    private Optional<CatalogEntry.PartitionObject> find(Transaction transaction, String name,
                                                        CatalogEntry.PartitionObject.Kind kind) {
        return database.catalog().byName(transaction.writes(), name, transaction.systemCounters())
                .filter(entry -> entry instanceof CatalogEntry.PartitionObject object && object.kind() == kind)
                .map(entry -> (CatalogEntry.PartitionObject) entry);
    }

    private SqlPartitionFunction function(Transaction transaction, String name) {
        return find(transaction, name, CatalogEntry.PartitionObject.Kind.FUNCTION)
                .map(object -> (SqlPartitionFunction) ColumbaSqlParser.parse(object.definition()))
                .orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "partition function " + name
                        + " does not exist"));
    }

    private static SqlPartitionScheme scheme(CatalogEntry.PartitionObject object) {
        return (SqlPartitionScheme) ColumbaSqlParser.parse(object.definition());
    }
}
