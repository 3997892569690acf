package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.Operator;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreTableAdapter;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.planner.schema.SystemView;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import dev.columba.core.expr.Expr;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * INSERT, UPDATE, DELETE or MERGE of a rowstore or columnstore table (see {@link TableModifyOperator}).
 * INSERT into a columnstore table from anything but literal rows takes the bulk path. With an
 * OUTPUT or RETURNING clause ({@link #withOutput}) its rows are the clause's, not the count.
 */
public final class ColumbaTableModify extends TableModify implements ColumbaRel {
    /** The table's computed columns, in column order, as expressions over its row (set after planning). */
    private final List<RexNode> computed;
    /** The table's CHECK conditions, in constraint-name order, as expressions over its row (set after planning). */
    private final List<RexNode> checks;
    /** The OUTPUT / RETURNING clause (set after planning), or null: the statement's rows are then the count. */
    private final Output output;

    /**
     * An OUTPUT or RETURNING clause: {@code expressions} over a row of {@link TableModifyOperator#changeSchema}
     * (the new row, the old row, MERGE's action), whose values are rows of type {@code rowType}. With
     * {@code into} (OUTPUT ... INTO), those rows are inserted by {@code into}, a planned INSERT of
     * one row of parameters of types {@code intoParameterTypes}, and the statement's rows are the count.
     */
    public record Output(List<RexNode> expressions, RelDataType rowType, ColumbaTableModify into,
                         List<dev.columba.core.type.SqlType> intoParameterTypes) {
        public Output {
            expressions = List.copyOf(expressions);
            intoParameterTypes = List.copyOf(intoParameterTypes);
            if (expressions.size() != rowType.getFieldCount()) {
                throw new IllegalArgumentException(expressions.size() + " output expressions for " + rowType);
            }
            if (into != null && !into.insertsOneRow()) {
                throw new IllegalArgumentException("OUTPUT ... INTO needs an INSERT of one row of values: " + into);
            }
        }
    }

    public ColumbaTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
                              RelNode input, Operation operation, List<String> updateColumnList,
                              List<RexNode> sourceExpressionList, boolean flattened) {
        this(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened,
                List.of(), List.of(), null);
    }

    private ColumbaTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
                               Prepare.CatalogReader catalogReader, RelNode input, Operation operation,
                               List<String> updateColumnList, List<RexNode> sourceExpressionList, boolean flattened,
                               List<RexNode> computed, List<RexNode> checks, Output output) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened);
        this.computed = List.copyOf(computed);
        this.checks = List.copyOf(checks);
        this.output = output;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), inputs.getFirst(),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened(), computed, checks,
                output);
    }

    /**
     * This modification with the target's computed columns (one expression over the table's row per
     * computed column, in column order), which the operator evaluates on every row it writes.
     */
    public ColumbaTableModify withComputed(List<RexNode> computedColumns) {
        return new ColumbaTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(), getInput(),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened(), computedColumns, checks,
                output);
    }

    /**
     * This modification with the target's CHECK constraints (one condition over the table's row per
     * constraint, in the order of {@code TableConstraints.checks()}), which the operator evaluates on
     * every row it writes.
     */
    public ColumbaTableModify withChecks(List<RexNode> checkConditions) {
        return new ColumbaTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(), getInput(),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened(), computed, checkConditions,
                output);
    }

    /** This modification with an OUTPUT or RETURNING clause. */
    public ColumbaTableModify withOutput(Output clause) {
        return new ColumbaTableModify(getCluster(), getTraitSet(), getTable(), getCatalogReader(), getInput(),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened(), computed, checks,
                clause);
    }

    /** Whether the statement's rows are an OUTPUT or RETURNING clause's rather than the count. */
    public boolean returnsRows() {
        return output != null && output.into() == null;
    }

    @Override
    public RelDataType deriveRowType() {
        return returnsRows() ? output.rowType() : super.deriveRowType();
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        return Costs.cost(planner, 1, rows * Costs.ROW_DECODE * 10, rows * 0.05);
    }

    private ColumbaTable target() {
        return getTable().unwrap(ColumbaTable.class);
    }

    /**
     * The object id of the columnstore table this statement changes, or empty for a rowstore one
     * (as planned; only DDL changes a table's organization or its id).
     */
    public java.util.OptionalInt columnstoreWritten() {
        return target() instanceof ColumnstoreTableAdapter columnstore
                ? java.util.OptionalInt.of(columnstore.table().objectId()) : java.util.OptionalInt.empty();
    }

    /** Whether INSERT reads only literal rows (a columnstore then takes the delta store, not the bulk path). */
    private boolean literalSource() {
        RelNode input = getInput();
        if (input instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
            input = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
        }
        while (input instanceof org.apache.calcite.rel.core.Project project) {
            input = project.getInput();
            if (input instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
                input = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
            }
        }
        return input instanceof Values;
    }

    /** Whether the source reads the target table (the statement must not see its own rows). */
    private boolean sourceReadsTarget() {
        for (RelOptTable table : PlanTables.read(getInput())) {
            if (table.getQualifiedName().equals(getTable().getQualifiedName())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String explainDetail() {
        String kind = getOperation().toString();
        if (getOperation() == Operation.INSERT && target() instanceof ColumnstoreTableAdapter) {
            kind += literalSource() ? " (delta store)" : " (bulk load)";
        }
        return kind + " " + target().name() + (getUpdateColumnList() == null || getUpdateColumnList().isEmpty() ? ""
                : " set " + getUpdateColumnList()) + (output == null ? ""
                : " output " + output.rowType().getFieldNames() + (output.into() == null ? ""
                        : " into " + output.into().target().name()));
    }

    /**
     * Whether this is an INSERT of one row of literals and parameters ({@code INSERT INTO t VALUES
     * (?, ?)}: {@code [Project] Values} with one tuple), which {@link #instantiateBatch} runs for
     * many parameter sets at once.
     */
    public boolean insertsOneRow() {
        if (getOperation() != Operation.INSERT || target() instanceof SystemView || output != null) {
            return false;
        }
        RelNode input = ParameterSetRows.best(getInput());
        if (input instanceof ColumbaProject project) {
            input = ParameterSetRows.best(project.getInput());
        }
        return input instanceof ColumbaValues values && values.getTuples().size() == 1;
    }

    /**
     * One INSERT of the rows of every parameter set ({@link ParameterSetRows}), for a plan
     * {@link #insertsOneRow()}: one operator tree, one pass through the table's insert path (a
     * columnstore's bulk path, which takes the delta store below its bulk threshold).
     */
    public Operator instantiateBatch(Execution execution, List<dev.columba.core.type.SqlType> parameterTypes,
                                     List<List<Object>> parameterSets) {
        if (!insertsOneRow()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "only an INSERT of one row of values runs parameter sets at once");
        }
        Operator source = ParameterSetRows.operator(execution, getInput(), parameterTypes, parameterSets);
        TableModifyOperator.Target target = targetOf(target());
        return new TableModifyOperator(execution.environment(), source, target, TableModifyOperator.Kind.INSERT,
                new int[0], target instanceof TableModifyOperator.ColumnstoreTarget, false, computedColumns(execution),
                checks(execution))
                .numberingFailuresByParameterSet(parameterSets.size());
    }

    private static TableModifyOperator.Target targetOf(ColumbaTable table) {
        return switch (table) {
            case RowstoreTable rowstore -> new TableModifyOperator.RowstoreTarget(rowstore.store(), rowstore.statistics(),
                    rowstore.partitions());
            case ColumnstoreTableAdapter columnstore -> new TableModifyOperator.ColumnstoreTarget(columnstore.table());
            case SystemView view -> throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "system view sys." + view.name()
                    + " cannot be changed");
        };
    }

    private Map<Integer, Expr> computedColumns(Execution execution) {
        Map<Integer, Expr> computedColumns = new LinkedHashMap<>();
        if (!computed.isEmpty()) {
            ExpressionTranslator translator = execution.translator(target().schema());
            Iterator<RexNode> expressions = computed.iterator();
            for (int column : target().generated().computed().keySet()) {
                computedColumns.put(column, translator.translate(expressions.next()));
            }
        }
        return computedColumns;
    }

    private List<TableModifyOperator.Check> checks(Execution execution) {
        if (checks.isEmpty()) {
            return List.of();
        }
        List<TableModifyOperator.Check> compiled = new java.util.ArrayList<>();
        ExpressionTranslator translator = execution.translator(target().schema());
        Iterator<RexNode> conditions = checks.iterator();
        for (Map.Entry<String, String> check : target().constraints().checks().entrySet()) {
            compiled.add(new TableModifyOperator.Check(check.getKey(), check.getValue(),
                    translator.translate(conditions.next())));
        }
        return compiled;
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator source = execution.instantiate(getInput());
        TableModifyOperator.Target target = targetOf(target());
        TableModifyOperator.Kind kind = switch (getOperation()) {
            case INSERT -> TableModifyOperator.Kind.INSERT;
            case UPDATE -> TableModifyOperator.Kind.UPDATE;
            case DELETE -> TableModifyOperator.Kind.DELETE;
            case MERGE -> TableModifyOperator.Kind.MERGE;
            default -> throw ExpressionTranslator.unsupported(getOperation().toString());
        };
        int[] updated;
        if (kind == TableModifyOperator.Kind.MERGE) {
            // MERGE's source gives every column's new value (MergeRewrite).
            updated = java.util.stream.IntStream.range(0, target().schema().size()).toArray();
        } else {
            updated = new int[getUpdateColumnList() == null ? 0 : getUpdateColumnList().size()];
            for (int index = 0; index < updated.length; index++) {
                updated[index] = target().schema().indexOf(getUpdateColumnList().get(index));
            }
        }
        TableModifyOperator operator = new TableModifyOperator(execution.environment(), source, target, kind, updated,
                kind == TableModifyOperator.Kind.INSERT && !literalSource(),
                kind == TableModifyOperator.Kind.INSERT && sourceReadsTarget(), computedColumns(execution),
                kind == TableModifyOperator.Kind.DELETE ? List.of() : checks(execution));
        if (output != null) {
            ExpressionTranslator translator = execution.translator(TableModifyOperator.changeSchema(target().schema(), kind));
            List<Expr> expressions = new java.util.ArrayList<>();
            for (RexNode expression : output.expressions()) {
                expressions.add(translator.translate(expression));
            }
            ColumbaTableModify into = output.into();
            operator.returning(new TableModifyOperator.Output(dev.columba.planner.schema.SqlTypes.fromRowType(output.rowType()),
                    expressions, into == null ? null
                            : parameterSets -> into.instantiateBatch(execution, output.intoParameterTypes(), parameterSets)));
        }
        return operator;
    }
}
