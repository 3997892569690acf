package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.columba.core.batch.Batch;
import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.testing.TestSeeds;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The contract every operator keeps, tested against a straightforward reference implementation on
 * Java lists: random inputs with NULLs and duplicates, empty inputs, single rows, inputs spanning
 * many small batches, inputs with selection vectors; closing releases every byte (also when
 * stopped early and after an input fails); cancellation ends the query with 57014. Each operator's
 * test extends this and supplies the operator and its reference.
 */
abstract class OperatorTestBase {
    /** The input columns: small value domains, so keys repeat and groups and joins have duplicates. */
    static final TableSchema SCHEMA = TableSchema.of(
            Column.nullable("k", SqlType.INT),
            Column.nullable("s", SqlType.varchar(8)),
            Column.nullable("d", SqlType.decimal(12, 2)),
            Column.nullable("x", SqlType.DOUBLE),
            Column.nullable("t", SqlType.DATE),
            Column.nullable("b", SqlType.BOOLEAN),
            Column.nullable("l", SqlType.BIGINT));
    static final EvaluationContext EVALUATION = new EvaluationContext(LocalDateTime.of(2024, 6, 1, 12, 0));
    private static final String[] STRINGS = {"a", "b", "ab", "\u00e9t\u00e9", "", "zz", "a "};

    Memory memory;
    BufferAllocator queryAllocator;
    Random random;
    long seed;

    @BeforeEach
    void openMemory(TestInfo info) {
        memory = new Memory(1L << 30);
        queryAllocator = memory.child("query", 256L << 20);
        seed = TestSeeds.seed(getClass().getSimpleName() + "." + info.getDisplayName());
        random = new Random(seed);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, queryAllocator.getAllocatedMemory(), () -> "everything released: " + queryAllocator.toVerboseString());
        queryAllocator.close();
        memory.close();
    }

    /** How many inputs the operator takes. */
    int inputCount() {
        return 1;
    }

    /** The operator under test over {@code inputs}; may use {@link #random} to pick its parameters. */
    abstract Operator create(List<Operator> inputs);

    /** An operator that reads all of its inputs (for the failure test); by default {@link #create}. */
    Operator createReadingEverything(List<Operator> inputs) {
        return create(inputs);
    }

    /** What the operator created last must return for {@code inputs}. */
    abstract List<Object[]> expected(List<List<Object[]>> inputs);

    /** Whether the output order is part of the result (else rows are compared as multisets). */
    boolean ordered() {
        return false;
    }

    ExecutionContext context(int batchSize) {
        return new ExecutionContext(QueryContext.withDefaults(), queryAllocator, batchSize, EVALUATION);
    }

    static Object[] randomRow(Random random) {
        boolean nulls = random.nextInt(5) == 0;
        return new Object[] {
            nulls && random.nextBoolean() ? null : random.nextInt(7),
            nulls && random.nextBoolean() ? null : STRINGS[random.nextInt(STRINGS.length)],
            nulls && random.nextBoolean() ? null : BigDecimal.valueOf(random.nextInt(2001) - 1000, 2),
            nulls && random.nextBoolean() ? null : (random.nextInt(81) - 40) / 8.0,
            nulls && random.nextBoolean() ? null : LocalDate.of(2024, 1, 1).plusDays(random.nextInt(20)),
            nulls && random.nextBoolean() ? null : random.nextBoolean(),
            nulls && random.nextBoolean() ? null : (random.nextInt(7) - 3) * 1_000_000_000_000L
        };
    }

    List<Object[]> randomRows(int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            rows.add(randomRow(random));
        }
        return rows;
    }

    /** Runs the operator to the end and returns its rows; checks that every byte is released after. */
    List<Object[]> run(Operator operator, ExecutionContext context) {
        List<Object[]> rows = new ArrayList<>();
        operator.open(context);
        try {
            for (Batch batch = operator.next(); batch != null; batch = operator.next()) {
                assertTrue(batch.selectedCount() > 0, "no batch without live rows");
                rows.addAll(TestBatches.rows(batch, operator.schema()));
            }
        } finally {
            operator.close();
        }
        assertEquals(0, queryAllocator.getAllocatedMemory(), "closing the operator released everything");
        return rows;
    }

    /** The most rows a test gives one input (a nested-loop join pairs them all). */
    int maxRows() {
        return 3000;
    }

    private void checkCase(int requestedRows, int batchSize, boolean selections, String what) {
        int rowCount = Math.min(requestedRows, maxRows());
        List<List<Object[]>> inputs = new ArrayList<>();
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < inputCount(); input++) {
            List<Object[]> rows = randomRows(input == 0 ? rowCount : random.nextInt(Math.max(rowCount, 1) * 2));
            inputs.add(rows);
            sources.add(new ListSource(SCHEMA, rows, Math.max(1, batchSize + random.nextInt(3) - 1),
                    selections ? new Random(random.nextLong()) : null, -1));
        }
        Operator operator = create(sources);
        List<Object[]> expected = expected(inputs);
        List<Object[]> actual = run(operator, context(batchSize));
        assertRows(expected, actual, "seed " + seed + ", " + what + " (" + rowCount + " rows, batches of " + batchSize + ")");
        for (Operator source : sources) {
            assertTrue(((ListSource) source).closed, "inputs closed");
        }
    }

    void assertRows(List<Object[]> expected, List<Object[]> actual, String context) {
        List<List<Object>> expectedRows = canonical(expected);
        List<List<Object>> actualRows = canonical(actual);
        if (!ordered()) {
            expectedRows.sort(ROW_ORDER);
            actualRows.sort(ROW_ORDER);
        }
        if (!expectedRows.equals(actualRows)) {
            fail(context + "\nexpected " + expectedRows.size() + " rows: " + head(expectedRows) + "\nactual   " + actualRows.size()
                    + " rows: " + head(actualRows));
        }
    }

    private static String head(List<List<Object>> rows) {
        return rows.size() <= 30 ? rows.toString() : rows.subList(0, 30) + " ...";
    }

    private static List<List<Object>> canonical(List<Object[]> rows) {
        List<List<Object>> result = new ArrayList<>();
        for (Object[] row : rows) {
            result.add(Arrays.asList(row.clone()));
        }
        return result;
    }

    static final Comparator<List<Object>> ROW_ORDER = (left, right) -> {
        for (int column = 0; column < Math.min(left.size(), right.size()); column++) {
            Object a = left.get(column);
            Object b = right.get(column);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? -1 : 1;
                }
                continue;
            }
            int comparison = Comparisons.compare(a, b);
            if (comparison != 0) {
                return comparison;
            }
        }
        return Integer.compare(left.size(), right.size());
    };

    @Test
    void matchesTheReferenceOnRandomInputs() {
        for (int round = 0; round < 12; round++) {
            checkCase(random.nextInt(300), 1 + random.nextInt(64), random.nextBoolean(), "round " + round);
        }
    }

    @Test
    void handlesEmptyInputs() {
        checkCase(0, 16, false, "empty input");
    }

    @Test
    void handlesASingleRow() {
        checkCase(1, 16, false, "one row");
    }

    @Test
    void handlesInputsSpanningManyBatchesWithSelectionVectors() {
        checkCase(2000, 7, true, "many small batches");
        checkCase(3000, 1000, true, "large batches");
    }

    @Test
    void closesEverythingWhenStoppedEarly() {
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < inputCount(); input++) {
            sources.add(new ListSource(SCHEMA, randomRows(500), 10, new Random(seed), -1));
        }
        Operator operator = create(sources);
        operator.open(context(10));
        operator.next();
        operator.close();
        operator.close();
        for (Operator source : sources) {
            assertTrue(((ListSource) source).closed, "inputs closed");
        }
    }

    @Test
    void closesEverythingAfterAnInputFails() {
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < inputCount(); input++) {
            sources.add(new ListSource(SCHEMA, randomRows(500), 10, null, 3));
        }
        Operator operator = createReadingEverything(sources);
        operator.open(context(10));
        ColumbaException failure = assertThrows(ColumbaException.class, () -> {
            while (operator.next() != null) {
                // drains until the input fails
            }
        });
        assertEquals(ErrorCode.IO_ERROR, failure.errorCode());
        operator.close();
    }

    @Test
    void cancellationEndsTheQuery() {
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < inputCount(); input++) {
            sources.add(new ListSource(SCHEMA, randomRows(100), 10, null, -1));
        }
        Operator operator = create(sources);
        ExecutionContext context = context(10);
        operator.open(context);
        context.cancel();
        ColumbaException cancelled = assertThrows(ColumbaException.class, operator::next);
        assertEquals(ErrorCode.QUERY_CANCELLED, cancelled.errorCode());
        assertEquals("57014", cancelled.errorCode().sqlState());
        operator.close();
    }
}
