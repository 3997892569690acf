package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.table.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table options that describe a partitioned table and its partitions (docs/format/catalog.md,
 * "Partitioned tables"). A partitioned table's own entry holds no rows; it records how rows are
 * divided, with the partition function's boundaries copied in when the table was created (so the
 * table reads without its function), and each partition is a table entry of its own that names
 * its table and number.
 */
public final class PartitionOptions {
    private PartitionOptions() {
    }

    /** On the partitioned table: the partitioning column's name. */
    public static final String COLUMN = "partition_column";
    /** On the partitioned table: range_left, range_right or hash. */
    public static final String KIND = "partition_kind";
    /** On the partitioned table: the number of partitions. */
    public static final String COUNT = "partition_count";
    /** On the partitioned table: boundary i (1-based) as text in the column's type (range kinds). */
    public static final String BOUNDARY = "partition_boundary.";
    /** On the partitioned table: the scheme it was created on (range kinds), for DROP checks and sys views. */
    public static final String SCHEME = "partition_scheme";
    /** On a partition: the partitioned table's object id. */
    public static final String PARTITION_OF = "partition_of";
    /** On a partition: its number, 1-based. */
    public static final String NUMBER = "partition_number";

    /** Whether {@code table} is a partitioned table (it holds no rows itself). */
    public static boolean partitioned(CatalogEntry.Table table) {
        return table.options().containsKey(KIND);
    }

    /** Whether {@code table} is a partition of a partitioned table (hidden from names). */
    public static boolean partition(CatalogEntry.Table table) {
        return table.options().containsKey(PARTITION_OF);
    }

    /** The name of partition {@code number} of {@code table}: not a name SQL can write unquoted. */
    public static String partitionName(String table, int number) {
        return table + "#partition" + number;
    }

    /** A boundary value as stored: its text in the column's type. */
    public static String boundaryText(SqlType type, Object value) {
        return (String) Evaluator.cast(value, type, SqlType.varchar(SqlType.VarcharType.MAX_LENGTH));
    }

    /** {@code table}'s partitioning, with its partitions' tables found among {@code tables}. */
    public static TablePartitions read(CatalogEntry.Table table, List<CatalogEntry.Table> tables) {
        Map<String, String> options = table.options();
        int column = table.schema().indexOf(options.get(COLUMN));
        if (column < 0) {
            throw corrupt(table, "its partitioning column " + options.get(COLUMN) + " is not one of its columns");
        }
        SqlType type = table.schema().column(column).type();
        TablePartitions.Kind kind = TablePartitions.Kind.valueOf(options.get(KIND).toUpperCase(Locale.ROOT));
        int count = Integer.parseInt(options.get(COUNT));
        List<Object> boundaries = new ArrayList<>();
        for (int index = 1; options.containsKey(BOUNDARY + index); index++) {
            boundaries.add(Values.canonical(type, Evaluator.cast(options.get(BOUNDARY + index),
                    SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), type)));
        }
        TableStore[] stores = new TableStore[count];
        for (CatalogEntry.Table candidate : tables) {
            String parent = candidate.options().get(PARTITION_OF);
            if (parent != null && Integer.parseInt(parent) == table.objectId()) {
                int number = Integer.parseInt(candidate.options().get(NUMBER));
                if (number < 1 || number > count || stores[number - 1] != null) {
                    throw corrupt(table, "partition " + number + " is out of range or listed twice");
                }
                stores[number - 1] = new TableStore(candidate, List.of());
            }
        }
        for (int index = 0; index < count; index++) {
            if (stores[index] == null) {
                throw corrupt(table, "partition " + (index + 1) + " has no table");
            }
        }
        return new TablePartitions(column, type, kind, boundaries, List.of(stores));
    }

    private static ColumbaException corrupt(CatalogEntry.Table table, String what) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, "partitioned table " + table.name() + " is damaged: " + what);
    }
}
