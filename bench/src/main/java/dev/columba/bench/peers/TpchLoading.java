package dev.columba.bench.peers;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TpchGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Loads TPC-H tables ({@link TpchGenerator}, dbgen's rows) into Columba's columnstore and into
 * DuckDB, each through the engine's own bulk path, with the same column types (the generator's
 * schema, DDL as written by {@code SqlType.sqlName()}, every column NOT NULL). The peers suite loads
 * lineitem alone this way, the tpch suite all eight tables.
 *
 * <ul>
 *   <li>Columba columnstore: {@code ColumnstoreTable.bulkInsert} in one transaction per table,
 *       rowgroups compressed as the rows arrive (default geometry: 1,048,576 rows per rowgroup; a
 *       table smaller than that, as every table of a short run, gets 16,384-row rowgroups so that it
 *       is still compressed), then a checkpoint;</li>
 *   <li>DuckDB: its appender into tables without constraints, then a checkpoint.</li>
 * </ul>
 */
public final class TpchLoading {
    /** Tables smaller than one full rowgroup get rowgroups of this many rows. */
    static final int SMALL_ROWGROUP_ROWS = 16_384;
    private static final int FULL_ROWGROUP_ROWS = 1_048_576;
    private static final String LOAD_BUFFER_POOL = "256MB";

    private TpchLoading() {
    }

    /** Creates one columnstore table per generator in a new Columba database at {@code directory} and fills it. */
    public static void columnstore(Path directory, List<TpchGenerator> generators) {
        try (Database database = Database.open(directory, loadSettings(), NativeFilesFacade.INSTANCE)) {
            for (TpchGenerator generator : generators) {
                Map<String, String> options = generator.rowCount() < FULL_ROWGROUP_ROWS
                        ? Map.of("rowgroup_max_rows", String.valueOf(SMALL_ROWGROUP_ROWS), "bulk_min_rows", "1000")
                        : Map.of();
                try (Transaction transaction = database.begin()) {
                    ColumnstoreTable table = ColumnstoreTable.create(database, transaction, generator.tableName(),
                            generator.schema(), options);
                    long rows = table.bulkInsert(transaction, generator.rows());
                    if (rows != generator.rowCount()) {
                        throw new ColumbaException(ErrorCode.INTERNAL, "bulk insert into the columnstore table "
                                + generator.tableName() + " took " + rows + " rows of " + generator.rowCount());
                    }
                    transaction.commit();
                }
            }
            database.checkpoint();
        }
    }

    /** Creates one table per generator in a new DuckDB database file and fills it with DuckDB's appender. */
    public static void duckDb(Path databaseFile, List<TpchGenerator> generators) {
        String url = "jdbc:duckdb:" + databaseFile.toAbsolutePath();
        try (Connection connection = DriverManager.getConnection(url)) {
            for (TpchGenerator generator : generators) {
                TableSchema schema = generator.schema();
                try (Statement statement = connection.createStatement()) {
                    statement.execute(createTable(generator.tableName(), schema));
                }
                try (DuckDBAppender appender = connection.unwrap(DuckDBConnection.class)
                        .createAppender(generator.tableName())) {
                    RowCursor cursor = generator.cursor();
                    while (cursor.next()) {
                        Object[] row = cursor.row();
                        appender.beginRow();
                        for (int column = 0; column < schema.size(); column++) {
                            switch (row[column]) {
                                case Long value -> appender.append(value.longValue());
                                case Integer value -> appender.append(value.intValue());
                                case BigDecimal value -> appender.append(value);
                                case String value -> appender.append(value);
                                case LocalDate value -> appender.append(value);
                                default -> throw new ColumbaException(ErrorCode.INTERNAL, "no DuckDB appender call for "
                                        + row[column].getClass().getName() + " in column " + schema.column(column).name());
                            }
                        }
                        appender.endRow();
                    }
                }
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("CHECKPOINT");
            }
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "loading DuckDB at " + url + " failed: " + e.getMessage(), e);
        }
    }

    /** {@code CREATE TABLE name (...)} with the generator's types, every column NOT NULL. */
    static String createTable(String name, TableSchema schema) {
        List<String> columns = new ArrayList<>();
        for (Column column : schema.columns()) {
            columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        return "CREATE TABLE " + name + " (" + String.join(", ", columns) + ")";
    }

    /** The settings of a Columba database while the bench loads it. */
    static Properties loadSettings() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", LOAD_BUFFER_POOL);
        return settings;
    }
}
