package dev.columba.planner.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.Expr;
import dev.columba.core.memory.Memory;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.type.SqlType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator on its own: the series' ends and steps, values next to the ends of BIGINT and
 * INT that must not overflow, the errors, and ten million rows streamed through an allocator far
 * too small to hold them.
 */
class GenerateSeriesOperatorTest {
    private Memory memory;

    @BeforeEach
    void open() {
        memory = new Memory(64L << 20);
    }

    @AfterEach
    void close() {
        memory.close();
    }

    private static Expr bigint(long value) {
        return new Expr.Literal(value, SqlType.BIGINT);
    }

    private static Expr integer(int value) {
        return new Expr.Literal(value, SqlType.INT);
    }

    private List<Long> run(SqlType type, List<Expr> arguments, int batchSize) {
        List<Long> values = new ArrayList<>();
        try (BufferAllocator allocator = memory.child("query", 1L << 20);
             GenerateSeriesOperator operator = new GenerateSeriesOperator("generate_series", type, arguments)) {
            operator.open(new ExecutionContext(new QueryContext(SettingValues.defaults()), allocator, batchSize,
                    EvaluationContext.startingNow(Clock.systemUTC())));
            for (Batch batch = operator.next(); batch != null; batch = operator.next()) {
                assertTrue(batch.rowCount() > 0 && batch.rowCount() <= batchSize, "rows in a batch: " + batch.rowCount());
                for (int row = 0; row < batch.rowCount(); row++) {
                    values.add(type instanceof SqlType.BigintType ? ((BigIntVector) batch.column(0)).get(row)
                            : (long) ((IntVector) batch.column(0)).get(row));
                }
            }
            assertNull(operator.next(), "stays finished");
        }
        return values;
    }

    private List<Long> bigints(long start, long stop, long step) {
        return run(SqlType.BIGINT, List.of(bigint(start), bigint(stop), bigint(step)), 3);
    }

    @Test
    void stepsUpAndDownAcrossBatches() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), run(SqlType.INT, List.of(integer(1), integer(7)), 3));
        assertEquals(List.of(1L, 4L, 7L), bigints(1, 8, 3));
        assertEquals(List.of(10L, 7L, 4L, 1L), bigints(10, 0, -3));
        assertEquals(List.of(5L), bigints(5, 5, 1));
        assertEquals(List.of(5L), bigints(5, 5, -1));
        assertEquals(List.of(), bigints(5, 4, 1));
        assertEquals(List.of(), bigints(4, 5, -1));
    }

    @Test
    void neverOverflowsAtTheEndsOfTheRange() {
        assertEquals(List.of(Long.MAX_VALUE - 1, Long.MAX_VALUE), bigints(Long.MAX_VALUE - 1, Long.MAX_VALUE, 1));
        assertEquals(List.of(Long.MIN_VALUE + 1, Long.MIN_VALUE), bigints(Long.MIN_VALUE + 1, Long.MIN_VALUE, -1));
        assertEquals(List.of(Long.MAX_VALUE - 5), bigints(Long.MAX_VALUE - 5, Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(List.of(Long.MIN_VALUE, -1L, Long.MAX_VALUE - 1), bigints(Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(List.of(0L, Long.MIN_VALUE), bigints(0, Long.MIN_VALUE, Long.MIN_VALUE));
        assertEquals(List.of((long) Integer.MAX_VALUE - 1, (long) Integer.MAX_VALUE),
                run(SqlType.INT, List.of(integer(Integer.MAX_VALUE - 1), integer(Integer.MAX_VALUE)), 4096));
        assertEquals(List.of((long) Integer.MIN_VALUE, -1L, (long) Integer.MAX_VALUE - 1),
                run(SqlType.INT, List.of(integer(Integer.MIN_VALUE), integer(Integer.MAX_VALUE), integer(Integer.MAX_VALUE)), 4096));
    }

    @Test
    void nullArgumentsAndAZeroStepAreInvalidArguments() {
        ColumbaException nullStop = assertThrows(ColumbaException.class,
                () -> run(SqlType.INT, List.of(integer(1), Expr.Literal.nullOf(SqlType.INT)), 10));
        assertEquals(ErrorCode.INVALID_ARGUMENT, nullStop.errorCode());
        assertEquals("22023", nullStop.errorCode().sqlState());
        assertTrue(nullStop.getMessage().contains("argument 2 (stop) is NULL"), nullStop.getMessage());
        ColumbaException zero = assertThrows(ColumbaException.class, () -> bigints(1, 10, 0));
        assertEquals(ErrorCode.INVALID_ARGUMENT, zero.errorCode());
        assertTrue(zero.getMessage().contains("step must not be 0"), zero.getMessage());
    }

    @Test
    void streamsTenMillionRowsInOneBatchOfMemory() {
        long rows = 10_000_000;
        long count = 0;
        long sum = 0;
        // 1 MB holds one 4096-row batch many times over, and 80 MB of values not at all.
        try (BufferAllocator allocator = memory.child("query", 1L << 20);
             GenerateSeriesOperator operator = new GenerateSeriesOperator("n", SqlType.BIGINT, List.of(bigint(1), bigint(rows)))) {
            operator.open(ExecutionContext.of(new QueryContext(SettingValues.defaults()), allocator));
            for (Batch batch = operator.next(); batch != null; batch = operator.next()) {
                BigIntVector vector = (BigIntVector) batch.column(0);
                for (int row = 0; row < batch.rowCount(); row++) {
                    sum += vector.get(row);
                }
                count += batch.rowCount();
                assertTrue(allocator.getAllocatedMemory() < 1L << 20, "allocated " + allocator.getAllocatedMemory());
            }
        }
        assertEquals(rows, count);
        assertEquals(rows * (rows + 1) / 2, sum);
    }
}
