package dev.columba.planner.plan;

import dev.columba.core.exec.Operator;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ColumbaTableModify;
import dev.columba.planner.rel.Execution;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;

/**
 * A statement planned into Columba's physical convention. The plan was instantiated once while
 * planning (every expression translated, every operator constructed), which fixed its schema and
 * the EXPLAIN text; each execution instantiates it again with its environment and parameters.
 * Immutable and thread-safe: executions share nothing.
 */
final class PlannedStatement implements PreparedStatementPlan {
    private final RelNode root;
    private final RexBuilder rexBuilder;
    private final TableSchema schema;
    private final boolean modifies;
    private final int[] objectIds;
    private final List<SqlType> parameterTypes;
    private final String explain;
    private final boolean reusable;

    PlannedStatement(RelNode root, RexBuilder rexBuilder, TableSchema schema, boolean modifies, int[] objectIds,
                     List<SqlType> parameterTypes, String explain, boolean reusable) {
        this.root = root;
        this.rexBuilder = rexBuilder;
        this.schema = schema;
        this.modifies = modifies;
        this.objectIds = objectIds.clone();
        this.parameterTypes = List.copyOf(parameterTypes);
        this.explain = explain;
        this.reusable = reusable;
    }

    /** This plan with its rows described by {@code columns} (as many, of the same types). */
    PlannedStatement withSchema(TableSchema columns) {
        return new PlannedStatement(root, rexBuilder, columns, modifies, objectIds, parameterTypes, explain, reusable);
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public boolean modifies() {
        return modifies;
    }

    @Override
    public int[] objectIds() {
        return objectIds.clone();
    }

    @Override
    public List<SqlType> parameterTypes() {
        return parameterTypes;
    }

    @Override
    public String explain() {
        return explain;
    }

    @Override
    public boolean reusable() {
        return reusable;
    }

    @Override
    public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
        if (parameters.size() != parameterTypes.size()) {
            throw new dev.columba.core.error.ColumbaException(dev.columba.core.error.ErrorCode.INVALID_ARGUMENT,
                    "the statement has " + parameterTypes.size() + " parameters, " + parameters.size() + " values were given");
        }
        return Execution.of(environment, parameters, rexBuilder).instantiate(root);
    }

    @Override
    public boolean insertsOneRowPerParameterSet() {
        return root instanceof ColumbaTableModify modify && modify.insertsOneRow();
    }

    @Override
    public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
        if (!(root instanceof ColumbaTableModify modify) || !modify.insertsOneRow()) {
            throw new dev.columba.core.error.ColumbaException(dev.columba.core.error.ErrorCode.INTERNAL,
                    "the statement is not an INSERT of one row of values; run its parameter sets one at a time");
        }
        return modify.instantiateBatch(Execution.of(environment, List.of(), rexBuilder), parameterTypes, parameterSets);
    }
}
