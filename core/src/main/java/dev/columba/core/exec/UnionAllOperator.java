package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * UNION ALL: the batches of each input in turn, passed through untouched. Inputs must have the
 * same column types up to string lengths (the planner casts); the output takes the first input's
 * names, the longer string type, and is nullable where any input is. UNION (distinct) is {@link HashAggregateOperator#distinct} over this.
 *
 * <p>Memory: none; a returned batch is the input's, valid until the next {@code next()}.
 */
public final class UnionAllOperator extends BaseOperator {
    private final List<Operator> inputs;
    private int current;

    public UnionAllOperator(List<Operator> inputs) {
        super(schemaOf(inputs), inputs);
        this.inputs = List.copyOf(inputs);
    }

    private static TableSchema schemaOf(List<Operator> inputs) {
        if (inputs.isEmpty()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "UNION ALL needs at least one input");
        }
        TableSchema first = inputs.getFirst().schema();
        List<Column> columns = new ArrayList<>(first.columns());
        for (Operator input : inputs.subList(1, inputs.size())) {
            TableSchema schema = input.schema();
            if (schema.size() != first.size()) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "UNION inputs have " + first.size() + " and "
                        + schema.size() + " columns");
            }
            for (int columnIndex = 0; columnIndex < first.size(); columnIndex++) {
                Column column = columns.get(columnIndex);
                Column other = schema.column(columnIndex);
                if (!column.type().arrowType().equals(other.type().arrowType())) {
                    throw new ColumbaException(ErrorCode.WRONG_TYPE, "UNION column " + (columnIndex + 1) + " is "
                            + column.type().sqlName() + " in one input and " + other.type().sqlName() + " in another");
                }
                columns.set(columnIndex, new Column(column.name(), TypeRules.commonType(column.type(), other.type()),
                        column.nullable() || other.nullable()));
            }
        }
        return new TableSchema(columns);
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
    }

    @Override
    Batch produce() {
        while (current < inputs.size()) {
            Batch batch = inputs.get(current).next();
            if (batch != null) {
                return batch;
            }
            current++;
        }
        return null;
    }

    @Override
    void release() {
    }
}
