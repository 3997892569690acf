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
import org.apache.calcite.rex.RexNode;

/**
 * INSERT, UPDATE or DELETE of a rowstore or columnstore table (see {@link TableModifyOperator}).
 * INSERT into a columnstore table from anything but literal rows takes the bulk path.
 */
public final class ColumbaTableModify extends TableModify implements ColumbaRel {
    public ColumbaTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
                              RelNode input, Operation operation, List<String> updateColumnList,
                              List<RexNode> sourceExpressionList, boolean flattened) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), inputs.getFirst(),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened());
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        return Costs.cost(planner, 1, rows * Costs.ROW_DECODE * 10, rows * 0.05);
    }

    private ColumbaTable target() {
        return getTable().unwrap(ColumbaTable.class);
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
                : " set " + getUpdateColumnList());
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator source = execution.instantiate(getInput());
        TableModifyOperator.Target target = switch (target()) {
            case RowstoreTable rowstore -> new TableModifyOperator.RowstoreTarget(rowstore.store(), rowstore.statistics());
            case ColumnstoreTableAdapter columnstore -> new TableModifyOperator.ColumnstoreTarget(columnstore.table());
            case SystemView view -> throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "system view sys." + view.name()
                    + " cannot be changed");
        };
        TableModifyOperator.Kind kind = switch (getOperation()) {
            case INSERT -> TableModifyOperator.Kind.INSERT;
            case UPDATE -> TableModifyOperator.Kind.UPDATE;
            case DELETE -> TableModifyOperator.Kind.DELETE;
            default -> throw ExpressionTranslator.unsupported(getOperation().toString());
        };
        int[] updated = new int[getUpdateColumnList() == null ? 0 : getUpdateColumnList().size()];
        for (int index = 0; index < updated.length; index++) {
            updated[index] = target().schema().indexOf(getUpdateColumnList().get(index));
        }
        return new TableModifyOperator(execution.environment(), source, target, kind, updated,
                kind == TableModifyOperator.Kind.INSERT && !literalSource(),
                kind == TableModifyOperator.Kind.INSERT && sourceReadsTarget());
    }
}
