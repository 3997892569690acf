package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ProjectOperator;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/** Computes the output columns: core's {@link ProjectOperator} (column references pass vectors through). */
public final class ColumbaProject extends Project implements ColumbaRel {
    public ColumbaProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
                          RelDataType rowType) {
        super(cluster, traits, List.of(), input, projects, rowType, java.util.Set.of());
    }

    @Override
    public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
        return new ColumbaProject(getCluster(), traitSet, input, projects, rowType);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        long computed = getProjects().stream().filter(project -> !(project instanceof RexInputRef)).count();
        return Costs.cost(planner, rows, rows * Costs.BATCH_ROW * (0.1 + computed), 0);
    }

    @Override
    public String explainDetail() {
        return getProjects().toString();
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator input = execution.instantiate(getInput());
        return new ProjectOperator(input, execution.translator(input.schema()).translateAll(getProjects()),
                Execution.uniqueNames(getRowType().getFieldNames()));
    }
}
