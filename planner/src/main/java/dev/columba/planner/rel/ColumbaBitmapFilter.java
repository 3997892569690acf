package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RuntimeFilterOperator;
import dev.columba.planner.exec.ColumnstoreScanOperator;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A scan's rows tested against a hash join's bitmap filter: placed above a columnstore scan on the
 * probe side of the join by {@code BitmapFilters} after planning; the join (further up) publishes
 * its build keys under {@link #filterName()}. Executed inside the columnstore scan operator (which
 * then decodes its other columns only at the rows that pass), or as core's
 * {@link RuntimeFilterOperator} over any other input.
 */
public final class ColumbaBitmapFilter extends SingleRel implements ColumbaRel {
    private final int column;
    private final String filterName;

    public ColumbaBitmapFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, int column, String filterName) {
        super(cluster, traits, input);
        this.column = column;
        this.filterName = filterName;
    }

    public int column() {
        return column;
    }

    public String filterName() {
        return filterName;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaBitmapFilter(getCluster(), traitSet, sole(inputs), column, filterName);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("column", column).item("filter", filterName);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        return Costs.cost(planner, rows, rows * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        return "$" + column + " IN " + filterName;
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator input = execution.instantiate(getInput());
        if (input instanceof ColumnstoreScanOperator scan) {
            // Tested inside the scan, which then decodes its other columns at the rows left only.
            scan.testAgainst(column, execution.runtimeFilter(filterName));
            return scan;
        }
        return new RuntimeFilterOperator(input, column, execution.runtimeFilter(filterName));
    }
}
