package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RowsToBatch;
import dev.columba.planner.exec.RowSources;
import dev.columba.planner.schema.SystemView;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/** A system view's rows, computed when the scan opens. ROW mode. */
public final class ColumbaSystemViewScan extends org.apache.calcite.rel.core.TableScan implements ColumbaRel {
    private final SystemView view;

    public ColumbaSystemViewScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
        super(cluster, traits, List.of(), table);
        this.view = table.unwrap(SystemView.class);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaSystemViewScan(getCluster(), traitSet, getTable());
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = view.rowCount();
        return Costs.cost(planner, rows, rows * Costs.ROW_DECODE, 0);
    }

    @Override
    public String explainDetail() {
        return "sys." + view.name();
    }

    @Override
    public Operator instantiate(Execution execution) {
        int[] all = new int[view.schema().size()];
        Arrays.setAll(all, column -> column);
        return RowsToBatch.operator(view.schema(), context -> RowSources.rows(view.rows().iterator(), all));
    }
}
