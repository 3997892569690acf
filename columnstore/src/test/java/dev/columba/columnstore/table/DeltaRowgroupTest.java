package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaRowgroupTest {
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("name", SqlType.varchar(40)));

    @TempDir
    Path directory;

    private static Properties settings() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return properties;
    }

    @Test
    void trickleInsertsFillDeltaRowgroupsThatCloseAtTheLimitAndSurviveReopen() {
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable table;
            try (Transaction transaction = database.begin()) {
                table = ColumnstoreTable.create(database, transaction, "events", SCHEMA,
                        Map.of("rowgroup_max_rows", "1000"));
                for (int id = 0; id < 2500; id++) {
                    table.insert(transaction, new Object[] {id, id % 10 == 0 ? null : "name " + id});
                }
                transaction.commit();
            }
            List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), counters);
            assertEquals(List.of(RowgroupState.CLOSED, RowgroupState.CLOSED, RowgroupState.OPEN),
                    rowgroups.stream().map(RowgroupEntry::state).toList());
            assertEquals(List.of(1000L, 1000L, 500L), rowgroups.stream().map(RowgroupEntry::totalRows).toList());
            try (Transaction transaction = database.begin()) {
                assertTrue(table.delete(transaction, 1, 5));
                assertFalse(table.delete(transaction, 1, 5), "already deleted");
                assertFalse(table.delete(transaction, 2, 700), "no such position");
                transaction.commit();
            }
        }
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE)) {
            ColumnstoreTable table = ColumnstoreTable.find(database, database.bufferPool(), "events", counters).orElseThrow();
            RowgroupEntry second = table.rowgroups(database.bufferPool(), counters).get(1);
            assertEquals(1, second.deletedRows());
            List<Object[]> seen = new ArrayList<>();
            table.forEachDeltaRow(database.bufferPool(), second, counters,
                    (position, page, offset) -> seen.add(new Object[] {position, table.rowCodec().decode(page, offset)[0]}));
            assertEquals(999, seen.size());
            assertEquals(4, seen.get(4)[0]);
            assertEquals(6, seen.get(5)[0], "position 5 was deleted");
            assertEquals(1006, seen.get(5)[1]);
        }
    }

    @Test
    void badOptionsAreRejectedByName() {
        try (Database database = Database.open(directory, settings(), NativeFilesFacade.INSTANCE);
             Transaction transaction = database.begin()) {
            ColumbaException unknown = assertThrows(ColumbaException.class,
                    () -> ColumnstoreTable.create(database, transaction, "t", SCHEMA, Map.of("rowgroup_size", "5")));
            assertEquals(ErrorCode.INVALID_ARGUMENT, unknown.errorCode());
            assertTrue(unknown.getMessage().contains("rowgroup_size"), unknown.getMessage());
            ColumbaException bad = assertThrows(ColumbaException.class, () -> ColumnstoreTable.create(database, transaction,
                    "t", SCHEMA, Map.of("dictionary_overflow", "explode")));
            assertEquals(ErrorCode.INVALID_SETTING_VALUE, bad.errorCode());
        }
    }
}
