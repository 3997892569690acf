package dev.columba.planner.function;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.ExecutionContext;
import dev.columba.core.exec.Operator;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;

/**
 * The rows of {@link GenerateSeries}, streamed: one batch of at most the batch size, reused, so
 * {@code generate_series(1, 10000000)} holds 4096 values at a time, never ten million. BATCH mode.
 *
 * <p>The arguments are constant expressions (literals, parameters, arithmetic on them) evaluated
 * once when the operator opens. Values advance in 64-bit arithmetic that never overflows: the
 * series ends at the last value whose successor would pass {@code stop} (or leave BIGINT's range),
 * so {@code generate_series(9223372036854775806, 9223372036854775807)} yields exactly two rows.
 * Each returned batch is valid until the next {@code next()}.
 */
public final class GenerateSeriesOperator implements Operator {
    private static final List<String> ARGUMENT_NAMES = List.of("start", "stop", "step");

    private final TableSchema schema;
    private final List<Expr> arguments;
    private final boolean bigint;
    private ExecutionContext context;
    private BufferAllocator allocator;
    private Batch output;
    private long current;
    private long step;
    /** Whether {@link #current} is still to be returned. */
    private boolean remaining;
    /** Whether any value has a successor within {@code stop}: false when {@code stop - step} leaves BIGINT's range. */
    private boolean anySuccessor;
    /** {@code stop - step}: a value has a successor iff it is at most this (ascending) or at least this (descending). */
    private long successorLimit;

    /**
     * @param columnName the output column's name (the query's alias for it, or {@code generate_series})
     * @param type       INT or BIGINT (see {@link GenerateSeries})
     * @param arguments  start, stop and optionally step, constant expressions of whole-number types
     */
    public GenerateSeriesOperator(String columnName, SqlType type, List<Expr> arguments) {
        if (!(type instanceof SqlType.IntegerType) && !(type instanceof SqlType.BigintType)) {
            throw new ColumbaException(ErrorCode.INTERNAL, "generate_series produces INT or BIGINT, not " + type.sqlName());
        }
        if (arguments.size() < 2 || arguments.size() > 3) {
            throw new ColumbaException(ErrorCode.INTERNAL, "generate_series takes 2 or 3 arguments, not " + arguments.size());
        }
        this.schema = TableSchema.of(Column.notNull(columnName, type));
        this.arguments = List.copyOf(arguments);
        this.bigint = type instanceof SqlType.BigintType;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    /**
     * @throws ColumbaException {@link ErrorCode#INVALID_ARGUMENT} (22023) for a NULL argument or a zero step
     */
    @Override
    public void open(ExecutionContext executionContext) {
        context = executionContext;
        long start = argument(0, executionContext);
        long stop = argument(1, executionContext);
        step = arguments.size() == 3 ? argument(2, executionContext) : 1;
        if (step == 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "generate_series: step must not be 0");
        }
        current = start;
        if (step > 0) {
            remaining = start <= stop;
            anySuccessor = stop >= Long.MIN_VALUE + step;
        } else {
            remaining = start >= stop;
            anySuccessor = stop <= Long.MAX_VALUE + step;
        }
        successorLimit = stop - step;
        allocator = executionContext.allocator().newChildAllocator("GenerateSeries", 0, Long.MAX_VALUE);
        try {
            output = Batch.create(schema, allocator);
            if (bigint) {
                ((BigIntVector) output.column(0)).allocateNew(executionContext.batchSize());
            } else {
                ((IntVector) output.column(0)).allocateNew(executionContext.batchSize());
            }
        } catch (OutOfMemoryException e) {
            throw new ColumbaException(ErrorCode.OUT_OF_MEMORY, "generate_series needs more memory than the query may use: "
                    + e.getMessage(), e);
        }
    }

    private long argument(int index, ExecutionContext executionContext) {
        Object value = Evaluator.evaluate(arguments.get(index), new Object[0], executionContext.evaluation());
        if (value == null) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "generate_series: argument " + (index + 1) + " ("
                    + ARGUMENT_NAMES.get(index) + ") is NULL");
        }
        return ((Number) value).longValue();
    }

    @Override
    public Batch next() {
        if (!remaining) {
            return null;
        }
        context.checkCancelled();
        int capacity = context.batchSize();
        int count = bigint ? fillBigint((BigIntVector) output.column(0), capacity)
                : fillInt((IntVector) output.column(0), capacity);
        output.setRowCount(count);
        return output;
    }

    private int fillBigint(BigIntVector vector, int capacity) {
        int row = 0;
        while (row < capacity && remaining) {
            vector.set(row++, current);
            advance();
        }
        return row;
    }

    private int fillInt(IntVector vector, int capacity) {
        int row = 0;
        // Every value lies between start and stop, both INT, so the narrowing is exact.
        while (row < capacity && remaining) {
            vector.set(row++, (int) current);
            advance();
        }
        return row;
    }

    private void advance() {
        boolean successor = anySuccessor && (step > 0 ? current <= successorLimit : current >= successorLimit);
        if (successor) {
            current += step;
        } else {
            remaining = false;
        }
    }

    @Override
    public void close() {
        remaining = false;
        if (output != null) {
            output.close();
            output = null;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (IllegalStateException e) {
                throw new ColumbaException(ErrorCode.INTERNAL, "generate_series did not release its memory: "
                        + e.getMessage(), e);
            } finally {
                allocator = null;
            }
        }
    }
}
