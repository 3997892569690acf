package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.CompiledExpression;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExpressionCompiler;
import dev.columba.core.expr.Nullability;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Computes one expression per output column over each input batch. A column reference passes the
 * input's vector through untouched; computed columns are evaluated only for the live rows, at
 * their own positions, so the output keeps the input's selection instead of compacting.
 *
 * <p>Memory: one output vector per computed column (owned by its compiled expression). A returned
 * batch is a {@linkplain Batch#view view} valid until the next {@code next()}.
 */
public final class ProjectOperator extends BaseOperator {
    private final Operator input;
    private final List<Expr> expressions;
    private final List<CompiledExpression> compiled = new ArrayList<>();
    private final List<FieldVector> vectors = new ArrayList<>();

    /**
     * @param expressions one per output column, over the input's columns
     * @param names the output column names (unique ignoring case)
     */
    public ProjectOperator(Operator input, List<Expr> expressions, List<String> names) {
        super(schemaOf(input.schema(), expressions, names), List.of(input));
        this.input = input;
        this.expressions = List.copyOf(expressions);
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
        for (Expr expression : expressions) {
            compiled.add(ExpressionCompiler.compile(expression, input.schema(), context.evaluation(), allocator));
        }
    }

    @Override
    Batch produce() {
        Batch batch = input.next();
        if (batch == null) {
            return null;
        }
        vectors.clear();
        for (CompiledExpression expression : compiled) {
            vectors.add(expression.evaluate(batch));
        }
        Batch output = Batch.view(vectors, batch.rowCount());
        output.copySelection(batch);
        output.inheritCodes(batch);
        return output;
    }

    @Override
    void release() {
        for (CompiledExpression expression : compiled) {
            expression.close();
        }
    }
}
