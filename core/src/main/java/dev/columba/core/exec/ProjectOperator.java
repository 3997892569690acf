package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.NativeLongs;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.CompiledExpression;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExpressionCompiler;
import dev.columba.core.expr.Nullability;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Computes one expression per output column over each input batch. A column reference passes the
 * input's vector through untouched; computed columns are evaluated only for the live rows, at
 * their own positions, so the output keeps the input's selection instead of compacting.
 *
 * <p>A computation that several output columns share (TPC-H Q1's {@code l_extendedprice * (1 -
 * l_discount)}, in its discounted price and in its charge) is evaluated once per batch: such
 * common subexpressions are computed first, into extra columns after the input's, and the output
 * expressions read them there. Only operands that are always evaluated are shared: nothing inside
 * a CASE, COALESCE, AND or OR, which evaluate their operands for some rows only.
 *
 * <p>Memory: one output vector per computed column (owned by its compiled expression). A returned
 * batch is a {@linkplain Batch#view view} valid until the next {@code next()}.
 */
public final class ProjectOperator extends BaseOperator {
    private final Operator input;
    private final List<Expr> expressions;
    private final List<CompiledExpression> compiled = new ArrayList<>();
    private final List<CompiledExpression> sharedCompiled = new ArrayList<>();
    private final List<FieldVector> vectors = new ArrayList<>();
    private final List<FieldVector> extended = new ArrayList<>();
    private final List<FieldVector> placeholders = new ArrayList<>();
    /** Output columns the consumer computes itself ({@link #handOver}): not evaluated, their vectors left undefined. */
    private final boolean[] handedOver;
    /** The input batch of the last {@link #produce}, or null. */
    private Batch current;
    /**
     * Whether some evaluated expression computes something (more than a column reference): it reads
     * its columns' vectors, which a producer that handed on {@link NativeLongs} may not have written.
     */
    private boolean computes;
    /**
     * Per output column that widens an INT column to BIGINT ({@link #widenedColumn}), what it hands
     * on as {@link NativeLongs} while its input column's longs are deferred; null for the others.
     */
    private WidenedLongs[] widened;

    /**
     * @param expressions one per output column, over the input's columns
     * @param names the output column names (unique ignoring case)
     */
    public ProjectOperator(Operator input, List<Expr> expressions, List<String> names) {
        super(schemaOf(input.schema(), expressions, names), List.of(input));
        this.input = input;
        this.expressions = List.copyOf(expressions);
        this.handedOver = new boolean[expressions.size()];
    }

    /**
     * Hands output column {@code column}'s computation to this operator's consumer, before
     * {@link #open}, and returns its expression over {@link #inputSchema}: the column is then not
     * evaluated, its vector in every returned batch holds no defined values, and the consumer
     * computes what it needs from {@link #currentInput}. For a consumer that is the only reader
     * of the column (an aggregation summing a product, {@code HashAggregateOperator}).
     */
    Expr handOver(int column) {
        if (context != null) {
            throw new IllegalStateException(name() + " is already open");
        }
        handedOver[column] = true;
        return expressions.get(column);
    }

    /** Output column {@code column}'s expression over {@link #inputSchema}. */
    Expr expression(int column) {
        return expressions.get(column);
    }

    /** The columns this operator reads. */
    TableSchema inputSchema() {
        return input.schema();
    }

    /** The input batch the last returned batch was computed from (the same rows and selection), valid as long as that batch. */
    Batch currentInput() {
        return current;
    }

    private static TableSchema schemaOf(TableSchema input, List<Expr> expressions, List<String> names) {
        if (expressions.size() != names.size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, expressions.size() + " expressions but " + names.size() + " names");
        }
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < expressions.size(); index++) {
            Expr expression = expressions.get(index);
            columns.add(new Column(names.get(index), expression.type(), Nullability.nullable(expression, input)));
        }
        return new TableSchema(columns);
    }

    @Override
    public ExecutionMode mode() {
        ExecutionMode mode = ExecutionMode.BATCH;
        for (Expr expression : expressions) {
            mode = mode.and(ExpressionCompiler.mode(expression));
        }
        return mode;
    }

    @Override
    void opened() {
        TableSchema inputSchema = input.schema();
        List<Expr> computed = new ArrayList<>();
        for (int index = 0; index < expressions.size(); index++) {
            if (!handedOver[index]) {
                computed.add(expressions.get(index));
            }
        }
        List<Expr> shared = sharedSubexpressions(computed);
        List<Column> columns = new ArrayList<>(inputSchema.columns());
        for (int index = 0; index < shared.size(); index++) {
            Expr expression = shared.get(index);
            sharedCompiled.add(ExpressionCompiler.compile(expression, inputSchema, context.evaluation(), allocator));
            String name = "$shared" + index;
            while (inputSchema.indexOf(name) >= 0) {
                name = "$" + name;
            }
            columns.add(new Column(name, expression.type(), Nullability.nullable(expression, inputSchema)));
        }
        TableSchema extendedSchema = shared.isEmpty() ? inputSchema : new TableSchema(columns);
        computes = !shared.isEmpty();
        widened = new WidenedLongs[expressions.size()];
        for (int index = 0; index < expressions.size(); index++) {
            Expr expression = expressions.get(index);
            if (handedOver[index]) {
                compiled.add(null);
                placeholders.add(VectorValues.newVector("$handedOver" + index, expression.type(), allocator));
                continue;
            }
            int widenedColumn = widenedColumn(expression);
            if (widenedColumn >= 0) {
                widened[index] = new WidenedLongs(widenedColumn, new BigIntVector("$widened" + index, allocator));
            }
            computes |= !(expression instanceof Expr.ColumnReference) && widenedColumn < 0;
            Expr reading = shared.isEmpty() ? expression : readShared(expression, shared, inputSchema.size());
            compiled.add(ExpressionCompiler.compile(reading, extendedSchema, context.evaluation(), allocator));
        }
    }

    @Override
    Batch produce() {
        Batch batch = input.next();
        if (batch == null) {
            return null;
        }
        current = batch;
        if (computes) {
            for (int column = 0; column < batch.columnCount(); column++) {
                NativeLongs longs = batch.longs(column);
                if (longs != null) {
                    longs.materialize();
                }
            }
        }
        Batch source = batch;
        if (!sharedCompiled.isEmpty()) {
            extended.clear();
            for (int column = 0; column < batch.columnCount(); column++) {
                extended.add(batch.column(column));
            }
            for (CompiledExpression expression : sharedCompiled) {
                extended.add(expression.evaluate(batch));
            }
            source = Batch.view(extended, batch.rowCount());
            source.copySelection(batch);
        }
        vectors.clear();
        int placeholder = 0;
        boolean handsOnLongs = false;
        for (int index = 0; index < compiled.size(); index++) {
            CompiledExpression expression = compiled.get(index);
            WidenedLongs widening = widened[index];
            if (widening != null && widening.handOn(batch)) {
                vectors.add(widening.vector);
                handsOnLongs = true;
                continue;
            }
            if (expression == null) {
                FieldVector undefined = placeholders.get(placeholder++);
                // Sized for the view's check, never written: its consumer computes the column itself.
                undefined.setValueCount(batch.rowCount());
                vectors.add(undefined);
                continue;
            }
            vectors.add(expression.evaluate(source));
        }
        Batch output = Batch.view(vectors, batch.rowCount());
        output.copySelection(batch);
        output.inheritCodes(batch);
        if (handsOnLongs) {
            for (int index = 0; index < widened.length; index++) {
                if (widened[index] != null && widened[index].handedOn) {
                    output.attachLongs(index, widened[index].longs);
                }
            }
        }
        return output;
    }

    /**
     * The input column {@code expression} widens without changing any value, a cast of an INT
     * column to BIGINT (the peers suite's {@code SUM(CAST(l_partkey AS BIGINT))}), or -1: the
     * column's stored longs ({@link NativeLongs}) are then the output's as they are.
     */
    static int widenedColumn(Expr expression) {
        return expression instanceof Expr.Cast cast && cast.type() instanceof SqlType.BigintType
                && cast.operand() instanceof Expr.ColumnReference reference && reference.type() instanceof SqlType.IntegerType
                ? reference.index() : -1;
    }

    /**
     * An output column widening an INT column to BIGINT, handed on as its input's stored longs
     * while the input defers writing its vector: the planner defers an input column only when
     * every output that reads it is only added up ({@code ColumbaAggregate.deferSummedLongs}), so
     * this output's vector is written (from the longs) only when a consumer asks for it.
     */
    private static final class WidenedLongs {
        private final int column;
        private final BigIntVector vector;
        private final NativeLongs longs = new NativeLongs();
        private final Runnable writeVector = this::writeVector;
        /** The input batch whose longs were handed on last, while {@link #handedOn}. */
        private Batch source;
        private boolean handedOn;

        WidenedLongs(int column, BigIntVector vector) {
            this.column = column;
            this.vector = vector;
        }

        /**
         * Hands on the input column's longs for {@code batch} when they are defined and its vector is
         * deferred (the vector then sized but not written); false, handing on nothing, otherwise.
         */
        boolean handOn(Batch batch) {
            NativeLongs input = batch.longs(column);
            handedOn = input != null && input.defined() && input.deferred();
            if (!handedOn) {
                longs.forget();
                source = null;
                return false;
            }
            source = batch;
            longs.mirror(input, writeVector);
            vector.setValueCount(batch.rowCount()); // sized for the view's check, written when asked
            return true;
        }

        /** Writes the live rows' values, none of them NULL (defined longs hold none). */
        private void writeVector() {
            long[] values = longs.values();
            Batch batch = source;
            int live = batch.selectedCount();
            for (int index = 0; index < live; index++) {
                int row = batch.selectedRow(index);
                vector.set(row, values[row]);
            }
        }
    }

    @Override
    void release() {
        for (CompiledExpression expression : compiled) {
            if (expression != null) {
                expression.close();
            }
        }
        for (FieldVector placeholder : placeholders) {
            placeholder.close();
        }
        if (widened != null) {
            for (WidenedLongs widening : widened) {
                if (widening != null) {
                    widening.vector.close();
                }
            }
        }
        current = null;
        for (CompiledExpression expression : sharedCompiled) {
            expression.close();
        }
    }

    /**
     * The largest computations that occur more than once among {@code expressions}, counting only
     * occurrences that are always evaluated, in order of first occurrence.
     */
    static List<Expr> sharedSubexpressions(List<Expr> expressions) {
        Map<Expr, Integer> occurrences = new HashMap<>();
        for (Expr expression : expressions) {
            count(expression, occurrences);
        }
        Map<Expr, Boolean> shared = new LinkedHashMap<>();
        for (Expr expression : expressions) {
            collectShared(expression, occurrences, shared);
        }
        return List.copyOf(shared.keySet());
    }

    private static void count(Expr expression, Map<Expr, Integer> occurrences) {
        List<Expr> operands = alwaysEvaluatedOperands(expression);
        if (operands == null) {
            return;
        }
        occurrences.merge(expression, 1, Integer::sum);
        for (Expr operand : operands) {
            count(operand, occurrences);
        }
    }

    private static void collectShared(Expr expression, Map<Expr, Integer> occurrences, Map<Expr, Boolean> shared) {
        List<Expr> operands = alwaysEvaluatedOperands(expression);
        if (operands == null) {
            return;
        }
        if (occurrences.getOrDefault(expression, 0) > 1) {
            shared.put(expression, Boolean.TRUE);
            return;
        }
        for (Expr operand : operands) {
            collectShared(operand, occurrences, shared);
        }
    }

    /**
     * The operands of a computation that evaluates all of them for every row it evaluates, or null
     * for anything else: column references and literals (nothing to share) and the expressions
     * that evaluate some operands for some rows only.
     */
    private static List<Expr> alwaysEvaluatedOperands(Expr expression) {
        return switch (expression) {
            case Expr.Arithmetic arithmetic -> List.of(arithmetic.left(), arithmetic.right());
            case Expr.Negate negate -> List.of(negate.operand());
            case Expr.Cast cast -> List.of(cast.operand());
            case Expr.Call call -> call.arguments();
            case Expr.Extract extract -> List.of(extract.operand());
            case Expr.DateAdd dateAdd -> List.of(dateAdd.operand(), dateAdd.amount());
            default -> null;
        };
    }

    /** {@code expression} with each occurrence of a shared computation replaced by its column ({@code firstShared} on). */
    private static Expr readShared(Expr expression, List<Expr> shared, int firstShared) {
        if (alwaysEvaluatedOperands(expression) == null) {
            return expression;
        }
        int index = shared.indexOf(expression);
        if (index >= 0) {
            return new Expr.ColumnReference(firstShared + index, expression.type());
        }
        return switch (expression) {
            case Expr.Arithmetic arithmetic -> new Expr.Arithmetic(arithmetic.operator(),
                    readShared(arithmetic.left(), shared, firstShared), readShared(arithmetic.right(), shared, firstShared),
                    arithmetic.type());
            case Expr.Negate negate -> new Expr.Negate(readShared(negate.operand(), shared, firstShared));
            case Expr.Cast cast -> new Expr.Cast(readShared(cast.operand(), shared, firstShared), cast.type());
            case Expr.Call call -> new Expr.Call(call.function(),
                    call.arguments().stream().map(argument -> readShared(argument, shared, firstShared)).toList());
            case Expr.Extract extract -> new Expr.Extract(extract.field(), readShared(extract.operand(), shared, firstShared));
            case Expr.DateAdd dateAdd -> new Expr.DateAdd(readShared(dateAdd.operand(), shared, firstShared),
                    readShared(dateAdd.amount(), shared, firstShared), dateAdd.unit());
            default -> expression;
        };
    }
}
