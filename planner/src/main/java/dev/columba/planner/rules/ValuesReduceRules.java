package dev.columba.planner.rules;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.rules.ValuesReduceRule;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * Calcite's {@link ValuesReduceRule} (a filter or projection over literal rows computed into new literal rows
 * while planning), kept from conditions and expressions that hold a parameter marker.
 *
 * <pre>
 * before: LogicalFilter(condition=[=($0, 't')])
 *           LogicalValues(tuples=[[{ 'public' }, { 't' }]])
 * after:  LogicalValues(tuples=[[{ 't' }]])
 * </pre>
 *
 * Why: the rule keeps a row only where the condition folds to TRUE, and a condition with a parameter does not fold
 * (its value is known at run time only), so Calcite's rule dropped every row: {@code SELECT x FROM (VALUES ('t'))
 * AS v(x) WHERE x = ?} answered no rows. Does not fire when the filter's condition or a projected expression holds a
 * {@code ?}; the filter then runs over the rows at run time.
 */
public final class ValuesReduceRules {
    private ValuesReduceRules() {
    }

    /** Filter over literal rows, without parameters. */
    public static RelOptRule filter() {
        return ValuesReduceRule.Config.FILTER
                .withOperandSupplier(b0 -> b0.operand(LogicalFilter.class)
                        .predicate(filter -> !hasParameter(filter.getCondition()))
                        .oneInput(b1 -> b1.operand(LogicalValues.class).predicate(Values::isNotEmpty).noInputs()))
                .as(ValuesReduceRule.Config.class)
                .withDescription("ValuesReduceRules(Filter)")
                .as(ValuesReduceRule.Config.class)
                .toRule();
    }

    /** Projection of literal rows, without parameters. */
    public static RelOptRule project() {
        return ValuesReduceRule.Config.PROJECT
                .withOperandSupplier(b0 -> b0.operand(LogicalProject.class)
                        .predicate(project -> project.getProjects().stream().noneMatch(ValuesReduceRules::hasParameter))
                        .oneInput(b1 -> b1.operand(LogicalValues.class).predicate(Values::isNotEmpty).noInputs()))
                .as(ValuesReduceRule.Config.class)
                .withDescription("ValuesReduceRules(Project)")
                .as(ValuesReduceRule.Config.class)
                .toRule();
    }

    /** Whether {@code expression} holds a {@code ?} anywhere (its value then comes at run time only). */
    public static boolean hasParameter(RexNode expression) {
        Boolean found = expression.accept(new RexVisitorImpl<Boolean>(true) {
            @Override
            public Boolean visitDynamicParam(RexDynamicParam parameter) {
                return true;
            }

            @Override
            public Boolean visitCall(org.apache.calcite.rex.RexCall call) {
                for (RexNode operand : call.getOperands()) {
                    if (Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }
}
