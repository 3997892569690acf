package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaAggregate;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.AggregateCall;

/**
 * Empties the projection of a rowstore scan below an aggregate that reads none of its columns
 * ({@code COUNT(*)} without GROUP BY): the scan then counts the rows of each page without
 * decoding a value. Calcite's conversion puts the aggregate straight on the table's full scan,
 * so without this rule a {@code SELECT COUNT(*)} decodes every column of every row.
 *
 * <pre>
 * before: ColumbaAggregate(group=[{}], EXPR$0=[COUNT()])
 *           ColumbaRowstoreScan(table=[[t]], projection=[0, 1, 2, 3])
 * after:  ColumbaAggregate(group=[{}], EXPR$0=[COUNT()])
 *           ColumbaRowstoreScan(table=[[t]], projection=[])
 * </pre>
 * Does not fire when the aggregate groups by, or passes to a function or a FILTER, any column,
 * nor when the scan already produces no column.
 */
public final class CountIntoScanRule extends RelRule<RuleConfig> {
    private CountIntoScanRule(RuleConfig config) {
        super(config);
    }

    public static CountIntoScanRule create() {
        return (CountIntoScanRule) RuleConfig.of("CountIntoScanRule",
                b -> b.operand(ColumbaAggregate.class).predicate(CountIntoScanRule::readsNoColumn)
                        .oneInput(b2 -> b2.operand(ColumbaRowstoreScan.class)
                                .predicate(scan -> scan.projection().length > 0).noInputs()),
                CountIntoScanRule::new).toRule();
    }

    private static boolean readsNoColumn(ColumbaAggregate aggregate) {
        if (!aggregate.getGroupSet().isEmpty()) {
            return false;
        }
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!call.getArgList().isEmpty() || call.filterArg >= 0 || !call.rexList.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaAggregate aggregate = call.rel(0);
        ColumbaRowstoreScan scan = call.rel(1);
        call.transformTo(aggregate.copy(aggregate.getTraitSet(), scan.withProjection(new int[0]),
                aggregate.getGroupSet(), aggregate.getGroupSets(), aggregate.getAggCallList()));
    }
}
