package dev.columba.planner.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlAggFunction;

/**
 * A window over a projection of no column reads the projection's input instead. Calcite's
 * projection-to-window rule projects below a window the input columns it uses; a window that uses
 * none (its arguments and keys are constants, or it has none) next to another expression of the
 * SELECT gets a projection of no column, on which Calcite's {@code ValuesReduceRule} asserts over a
 * SELECT without FROM ({@code SELECT 2, ROW_NUMBER() OVER ()}: an ArrayIndexOutOfBoundsException
 * where assertions are off; the SQL fuzzing campaign's seed 20261228), and which Columba cannot run
 * (every relation it runs has a column).
 *
 * <pre>
 * before: LogicalProject(EXPR$0=[2], EXPR$1=[$0])
 *           LogicalWindow(window#0=[window(aggs [ROW_NUMBER()])])
 *             LogicalProject
 *               LogicalValues(tuples=[[{ 0 }]])
 * after:  LogicalProject(EXPR$0=[2], EXPR$1=[$0])
 *           LogicalProject($0=[$1])
 *             LogicalWindow(window#0=[window(aggs [ROW_NUMBER()])])
 *               LogicalValues(tuples=[[{ 0 }]])
 * </pre>
 *
 * The window's references (all to its constants, since its input had no column) move past the new
 * input's columns, and a projection above keeps only the window's own columns, so the rows and the
 * answers are the same. Does not fire on a window whose input has a column.
 */
public final class WindowOverNoColumnRule extends RelRule<RuleConfig> {
    private WindowOverNoColumnRule(RuleConfig config) {
        super(config);
    }

    public static WindowOverNoColumnRule create() {
        return (WindowOverNoColumnRule) RuleConfig.of("WindowOverNoColumnRule",
                b -> b.operand(LogicalWindow.class).oneInput(
                        p -> p.operand(LogicalProject.class).predicate(project -> project.getProjects().isEmpty()).anyInputs()),
                WindowOverNoColumnRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalWindow window = call.rel(0);
        RelNode input = call.<LogicalProject>rel(1).getInput();
        int columns = input.getRowType().getFieldCount();
        RexShuttle shift = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                return new RexInputRef(reference.getIndex() + columns, reference.getType());
            }
        };
        List<Window.Group> groups = new ArrayList<>();
        for (Window.Group group : window.groups) {
            List<Window.RexWinAggCall> calls = new ArrayList<>();
            for (Window.RexWinAggCall aggregate : group.aggCalls) {
                calls.add(new Window.RexWinAggCall((SqlAggFunction) aggregate.getOperator(),
                        aggregate.getType(), shift.apply(aggregate.getOperands()), aggregate.ordinal, aggregate.distinct,
                        aggregate.ignoreNulls));
            }
            groups.add(new Window.Group(group.keys.shift(columns), group.isRows, group.lowerBound.accept(shift),
                    group.upperBound.accept(shift), group.exclude, RelCollations.shift(group.orderKeys, columns), calls));
        }
        RelDataType rowType = window.getCluster().getTypeFactory().builder()
                .addAll(input.getRowType().getFieldList()).addAll(window.getRowType().getFieldList()).uniquify().build();
        LogicalWindow wider = LogicalWindow.create(window.getTraitSet(), input, window.constants, rowType, groups);
        List<RexNode> own = new ArrayList<>();
        for (int field = 0; field < window.getRowType().getFieldCount(); field++) {
            own.add(RexInputRef.of(columns + field, rowType));
        }
        call.transformTo(LogicalProject.create(wider, List.of(), own, window.getRowType(), Set.of()));
    }
}
