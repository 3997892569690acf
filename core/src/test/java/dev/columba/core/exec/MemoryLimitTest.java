package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * Materializing operators stop at the query's memory limit with OUT_OF_MEMORY (53200) naming
 * themselves, whether Arrow buffers or heap structures charged to the limit run out, and leave
 * nothing allocated once closed.
 */
class MemoryLimitTest {
    private static final TableSchema WIDE = TableSchema.of(Column.notNull("id", SqlType.BIGINT), Column.nullable("text", SqlType.varchar(40)));

    private static List<Object[]> rows(int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            rows.add(new Object[] {(long) row, "some text to fill memory, row " + row});
        }
        return rows;
    }

    private void assertOutOfMemory(long limit, Function<Operator, Operator> operatorOver, String expectedName) {
        try (Memory memory = new Memory(1L << 30)) {
            BufferAllocator query = memory.child("query", limit);
            Operator operator = operatorOver.apply(ListSource.of(WIDE, rows(40_000), 1000));
            operator.open(new ExecutionContext(QueryContext.withDefaults(), query, 1000, new EvaluationContext(LocalDateTime.now())));
            ColumbaException error = assertThrows(ColumbaException.class, () -> {
                while (operator.next() != null) {
                    // runs until the limit is hit
                }
            });
            assertEquals(ErrorCode.OUT_OF_MEMORY, error.errorCode());
            assertEquals("53200", error.errorCode().sqlState());
            assertTrue(error.getMessage().contains(expectedName), error.getMessage());
            // A limit quoted is the query's, not an operator allocator's unlimited one.
            assertFalse(error.getMessage().contains(String.valueOf(Long.MAX_VALUE)), error.getMessage());
            if (error.getMessage().contains("limit of ")) {
                assertTrue(error.getMessage().contains("limit of " + limit + " bytes"), error.getMessage());
            }
            operator.close();
            assertEquals(0, query.getAllocatedMemory(), "nothing leaked");
            query.close();
        }
    }

    @Test
    void aSortOverTheLimitFails() {
        assertOutOfMemory(1L << 20, input -> new SortOperator(input, List.of(SortKey.descending(0))), "SortOperator");
    }

    @Test
    void anAggregationWithTooManyGroupsFails() {
        assertOutOfMemory(1L << 20, input -> new HashAggregateOperator(input, List.of(0),
                List.of(AggregateCall.of(AggregateFunction.MAX, 1, false, WIDE, "longest"))), "HashAggregateOperator");
    }

    @Test
    void aWindowOverTheLimitFails() {
        WindowFrame sliding = new WindowFrame(true, WindowFrame.Bound.preceding(3), WindowFrame.Bound.CURRENT_ROW);
        assertOutOfMemory(1L << 20, input -> new WindowOperator(input, List.of(new WindowGroup(List.of(), List.of(SortKey.descending(0)),
                sliding, List.of(WindowCall.of(WindowFunction.MIN, 1, SqlType.varchar(40), "lowest"),
                        WindowCall.of(WindowFunction.SUM, 0, SqlType.decimal(38, 0), "total"))))), "WindowOperator");
    }

    @Test
    void aNestedLoopJoinWhoseInnerSideDoesNotFitFails() {
        assertOutOfMemory(1L << 20, input -> new NestedLoopJoinOperator(ListSource.of(WIDE, rows(3), 10), input, JoinType.INNER, null),
                "NestedLoopJoinOperator");
    }
}
