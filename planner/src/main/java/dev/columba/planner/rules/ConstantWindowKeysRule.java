package dev.columba.planner.rules;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.rex.RexWindow;
import com.google.common.collect.ImmutableList;

/**
 * A window's partition or order key that is a literal partitions and orders nothing, so it is
 * dropped before the OVER calls become window nodes: {@code ROW_NUMBER() OVER (ORDER BY 1)} is
 * planned as {@code ROW_NUMBER() OVER ()}. Calcite's projection-to-window rule makes a literal key
 * a reference to the window's constants and projects the input's columns the window uses below it:
 * with only literal keys and no column argument that is a projection of no column, on which
 * Calcite's {@code ValuesReduceRule} asserts over a SELECT without FROM (an
 * ArrayIndexOutOfBoundsException where assertions are off; the SQL fuzzing campaign's seed
 * 20261228), and which the field trimmer refuses ("Expected identity mapping") over a table.
 *
 * <pre>
 * before: LogicalProject(EXPR$0=[ROW_NUMBER() OVER (ORDER BY 1)])
 *           LogicalValues(tuples=[[{ 0 }]])
 * after:  LogicalProject(EXPR$0=[ROW_NUMBER() OVER ()])
 *           LogicalValues(tuples=[[{ 0 }]])
 * </pre>
 *
 * The answers are the same: every row of a partition has the same constant, so all rows are peers.
 * A RANGE frame's CURRENT ROW is then the whole partition, as the window operator takes it with no
 * order key; RANK and DENSE_RANK are 1, and ROW_NUMBER numbers the rows in no particular order, as
 * before; a ROWS frame is kept as it is. A RANGE frame with an offset over literal order keys alone
 * is refused (0A000): it is the whole partition or no row depending on the offsets, and without the
 * key the window would take it for the whole partition. A constant expression such as {@code 1 + 1}
 * is computed as a column below the window and needs nothing. Does not fire on a projection whose
 * windows' keys are all expressions.
 */
public final class ConstantWindowKeysRule extends RelRule<RuleConfig> {
    private ConstantWindowKeysRule(RuleConfig config) {
        super(config);
    }

    public static ConstantWindowKeysRule create() {
        return (ConstantWindowKeysRule) RuleConfig.of("ConstantWindowKeysRule",
                b -> b.operand(LogicalProject.class).predicate(ConstantWindowKeysRule::hasConstantKey).anyInputs(),
                ConstantWindowKeysRule::new).toRule();
    }

    private static boolean hasConstantKey(LogicalProject project) {
        boolean[] found = {false};
        RexVisitorImpl<Void> finder = new RexVisitorImpl<>(true) {
            @Override
            public Void visitOver(RexOver over) {
                RexWindow window = over.getWindow();
                found[0] |= window.partitionKeys.stream().anyMatch(RexLiteral.class::isInstance)
                        || window.orderKeys.stream().anyMatch(key -> key.left instanceof RexLiteral);
                return super.visitOver(over);
            }
        };
        project.getProjects().forEach(expression -> expression.accept(finder));
        return found[0];
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalProject project = call.rel(0);
        RexBuilder rexBuilder = project.getCluster().getRexBuilder();
        RexShuttle withoutConstantKeys = new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                RexOver visited = (RexOver) super.visitOver(over);
                RexWindow window = visited.getWindow();
                List<RexNode> partition = window.partitionKeys.stream().filter(key -> !(key instanceof RexLiteral)).toList();
                ImmutableList<RexFieldCollation> order = window.orderKeys.stream()
                        .filter(key -> !(key.left instanceof RexLiteral)).collect(ImmutableList.toImmutableList());
                if (order.isEmpty() && !window.orderKeys.isEmpty() && !window.isRows()
                        && (window.getLowerBound().getOffset() != null || window.getUpperBound().getOffset() != null)) {
                    throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a RANGE frame with an offset needs an"
                            + " ORDER BY key that is a column or an expression of the row, not only constants: ORDER BY "
                            + window.orderKeys.stream().map(key -> key.left.toString()).toList() + " RANGE BETWEEN "
                            + window.getLowerBound() + " AND " + window.getUpperBound());
                }
                // allowPartial and nullWhenCountZero as they leave the call itself: the conversion
                // already wrapped it for them, around this RexOver.
                return rexBuilder.makeOver(visited.getType(), visited.getAggOperator(), visited.getOperands(), partition,
                        order, window.getLowerBound(), window.getUpperBound(), window.getExclude(), window.isRows(),
                        true, false, visited.isDistinct(), visited.ignoreNulls());
            }
        };
        List<RexNode> expressions = project.getProjects().stream().map(expression -> expression.accept(withoutConstantKeys)).toList();
        call.transformTo(project.copy(project.getTraitSet(), project.getInput(), expressions, project.getRowType()));
    }
}
