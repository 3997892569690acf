package dev.columba.planner.rel;

import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.UnionAllOperator;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * UNION ALL (each input's batches in turn), and UNION as its distinct rows (a hash aggregate over
 * the UNION ALL). Inputs' columns are cast to the union's column types where their vectors differ.
 */
public final class ColumbaUnion extends Union implements ColumbaRel {
    public ColumbaUnion(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new ColumbaUnion(getCluster(), traitSet, inputs, all);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(this);
        return Costs.cost(planner, rows, all ? 0 : rows * Costs.HASH_PROBE_ROW * 2, 0);
    }

    @Override
    public String explainDetail() {
        return all ? "all" : "distinct";
    }

    @Override
    public Operator instantiate(Execution execution) {
        List<Operator> inputs = new ArrayList<>();
        for (RelNode input : getInputs()) {
            Operator operator = execution.instantiate(input);
            for (int column = 0; column < operator.schema().size(); column++) {
                SqlType wanted = SqlTypes.fromRelType(getRowType().getFieldList().get(column).getType());
                SqlType actual = operator.schema().column(column).type();
                boolean bothVarchar = wanted instanceof SqlType.VarcharType && actual instanceof SqlType.VarcharType;
                if (!actual.equals(wanted) && !bothVarchar) {
                    operator = Joins.castColumn(operator, column, wanted);
                }
            }
            inputs.add(operator);
        }
        Operator union = new UnionAllOperator(inputs);
        return all ? union : HashAggregateOperator.distinct(union);
    }
}
