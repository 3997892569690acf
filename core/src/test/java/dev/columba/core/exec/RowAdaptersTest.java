package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rows into batches ({@link RowsToBatch}, {@link ValuesOperator}) and back out ({@link BatchRows}, {@link RowCursor}). */
class RowAdaptersTest {
    private static final TableSchema ALL_TYPES = TableSchema.of(
            Column.nullable("b", SqlType.BOOLEAN), Column.nullable("i", SqlType.INT), Column.nullable("l", SqlType.BIGINT),
            Column.nullable("x", SqlType.DOUBLE), Column.nullable("d", SqlType.decimal(20, 3)), Column.nullable("v", SqlType.varchar(10)),
            Column.nullable("c", SqlType.character(3)), Column.nullable("t", SqlType.DATE), Column.nullable("ts", SqlType.TIMESTAMP));

    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(64L << 20);
        allocator = memory.child("query", 32L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    private ExecutionContext context(int batchSize) {
        return new ExecutionContext(QueryContext.withDefaults(), allocator, batchSize,
                new EvaluationContext(LocalDateTime.of(2024, 1, 1, 0, 0)));
    }

    private static Object[] row(int seed) {
        if (seed % 5 == 4) {
            return new Object[ALL_TYPES.size()];
        }
        return new Object[] {seed % 2 == 0, seed, seed * 10_000_000_000L, seed / 4.0, BigDecimal.valueOf(seed * 1001L - 5000, 3),
            "r\u00e9" + seed, "c" + (seed % 10) + " ", LocalDate.of(2020, 1, 1).plusDays(seed),
            LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(seed * 3601L).plusNanos(seed * 1000L)};
    }

    /** A cursor-shaped source that reuses its row array, as a rowstore cursor may. */
    private static final class ReusingSource implements RowSource {
        private final int rows;
        private final Object[] current = new Object[ALL_TYPES.size()];
        private int next;
        boolean closed;

        ReusingSource(int rows) {
            this.rows = rows;
        }

        @Override
        public Object[] next() {
            if (next == rows) {
                return null;
            }
            System.arraycopy(row(next++), 0, current, 0, current.length);
            return current;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void rowsBecomeBatchesAndComeBackTheSame() {
        ReusingSource source = new ReusingSource(100);
        Operator scan = RowsToBatch.operator(ALL_TYPES, context -> source);
        assertEquals(ExecutionMode.ROW, scan.mode(), "rows are produced one at a time");
        List<Object[]> read = new ArrayList<>();
        try (RowCursor cursor = new RowCursor(scan, context(7))) {
            assertEquals(ALL_TYPES, cursor.schema());
            while (cursor.next()) {
                Object[] values = new Object[ALL_TYPES.size()];
                for (int column = 0; column < values.length; column++) {
                    values[column] = cursor.getObject(column);
                }
                read.add(values);
            }
            assertFalse(cursor.next());
        }
        assertTrue(source.closed);
        assertEquals(100, read.size());
        for (int index = 0; index < read.size(); index++) {
            assertArrayEquals(row(index), read.get(index), "row " + index);
        }
    }

    @Test
    void gettersConvertWithinAFamilyAndRejectTheRest() {
        List<Object[]> rows = List.of(row(3), row(4), row(6));
        try (Batch batch = TestBatches.batch(ALL_TYPES, rows, allocator)) {
            batch.select(new int[] {0, 1}, 2);
            BatchRows reader = new BatchRows(batch, ALL_TYPES);
            assertEquals(2, reader.rowCount());
            assertFalse(reader.getBoolean(0, 0));
            assertEquals(3, reader.getInt(0, 1));
            assertEquals(3L, reader.getLong(0, 1));
            assertEquals(30_000_000_000L, reader.getLong(0, 2));
            assertEquals(0.75, reader.getDouble(0, 3));
            assertEquals(-1.997, reader.getDouble(0, 4));
            assertEquals(new BigDecimal("-1.997"), reader.getDecimal(0, 4));
            assertEquals(BigDecimal.valueOf(3), reader.getDecimal(0, 1));
            assertEquals("r\u00e93", reader.getString(0, 5));
            assertEquals("c3 ", reader.getString(0, 6));
            assertEquals("-1.997", reader.getString(0, 4));
            assertEquals("FALSE", reader.getString(0, 0));
            assertEquals(LocalDate.of(2020, 1, 4), reader.getDate(0, 7));
            assertEquals(LocalDate.of(2020, 1, 4).atStartOfDay(), reader.getTimestamp(0, 7));
            assertEquals(LocalDate.of(2020, 1, 1), reader.getDate(0, 8));
            assertEquals("2020-01-01 03:00:03.000003", reader.getString(0, 8));
            for (int column = 0; column < ALL_TYPES.size(); column++) {
                assertTrue(reader.isNull(1, column));
                assertNull(reader.getObject(1, column));
            }
            assertEquals(0, reader.getInt(1, 1));
            assertEquals(0.0, reader.getDouble(1, 4));
            assertNull(reader.getString(1, 5));
            ColumbaException wrong = assertThrows(ColumbaException.class, () -> reader.getInt(0, 2));
            assertEquals(ErrorCode.WRONG_TYPE, wrong.errorCode());
            assertTrue(wrong.getMessage().contains("(l) is BIGINT"), wrong.getMessage());
            assertThrows(ColumbaException.class, () -> reader.getDate(0, 5));
            assertThrows(ColumbaException.class, () -> reader.getDouble(0, 5));
        }
    }

    @Test
    void valuesAreCheckedAndComeInBatches() {
        List<Object[]> rows = new ArrayList<>();
        for (int index = 0; index < 10; index++) {
            rows.add(row(index));
        }
        ValuesOperator values = new ValuesOperator(ALL_TYPES, rows);
        values.open(context(4));
        List<Integer> sizes = new ArrayList<>();
        for (Batch batch = values.next(); batch != null; batch = values.next()) {
            sizes.add(batch.selectedCount());
        }
        values.close();
        assertEquals(List.of(4, 4, 2), sizes);

        TableSchema strict = TableSchema.of(Column.notNull("n", SqlType.INT), Column.nullable("d", SqlType.decimal(4, 2)));
        ColumbaException nullValue = assertThrows(ColumbaException.class,
                () -> new ValuesOperator(strict, List.<Object[]>of(new Object[] {null, null})));
        assertEquals(ErrorCode.NULL_NOT_ALLOWED, nullValue.errorCode());
        ColumbaException wrongType = assertThrows(ColumbaException.class,
                () -> new ValuesOperator(strict, List.<Object[]>of(new Object[] {1, new BigDecimal("123.456")})));
        assertEquals(ErrorCode.WRONG_TYPE, wrongType.errorCode());
        assertTrue(wrongType.getMessage().contains("123.456"), wrongType.getMessage());
        assertThrows(ColumbaException.class, () -> new ValuesOperator(strict, List.<Object[]>of(new Object[] {1})));
    }

    @Test
    void theBatchSizeIsBounded() {
        ColumbaException error = assertThrows(ColumbaException.class, () -> context(0));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals(ExecutionContext.DEFAULT_BATCH_SIZE, ExecutionContext.of(QueryContext.withDefaults(), allocator).batchSize());
    }
}
