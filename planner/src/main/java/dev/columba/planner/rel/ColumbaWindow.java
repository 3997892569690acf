package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SortKey;
import dev.columba.core.exec.WindowCall;
import dev.columba.core.exec.WindowFrame;
import dev.columba.core.exec.WindowFunction;
import dev.columba.core.exec.WindowGroup;
import dev.columba.core.exec.WindowOperator;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SqlTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Window functions: core's {@link WindowOperator}, one {@link WindowGroup} per Calcite window
 * group (groups with the same partitioning and order share the operator's sort). Calcite's
 * ProjectToWindowRule has moved the {@code OVER} calls of a projection into this node; its
 * constants (frame offsets, LAG/LEAD offsets and defaults, NTILE's buckets) are input references
 * past the input's columns. Supported: ROW_NUMBER, RANK, DENSE_RANK, NTILE(n), LAG/LEAD(x [, n [,
 * default]]), FIRST_VALUE, LAST_VALUE, COUNT, SUM, AVG, MIN, MAX (and Calcite's {@code $SUM0}),
 * without DISTINCT, IGNORE NULLS or EXCLUDE.
 */
public final class ColumbaWindow extends Window implements ColumbaRel {
    public ColumbaWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexLiteral> constants,
                         RelDataType rowType, List<Group> groups) {
        super(cluster, traits, input, constants, rowType, groups);
    }

    /** Whether Columba can run {@code window}: supported functions, constant offsets and defaults, no DISTINCT or EXCLUDE. */
    public static boolean supported(Window window) {
        int inputColumns = window.getInput().getRowType().getFieldCount();
        for (Group group : window.groups) {
            if (group.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
                return false;
            }
            for (RexWinAggCall call : group.aggCalls) {
                WindowFunction function = function(call);
                if (function == null || call.distinct || call.ignoreNulls) {
                    return false;
                }
                for (int operand = 0; operand < call.getOperands().size(); operand++) {
                    if (!(call.getOperands().get(operand) instanceof RexInputRef reference)) {
                        return false;
                    }
                    boolean constant = reference.getIndex() >= inputColumns;
                    boolean mustBeConstant = function == WindowFunction.NTILE || operand > 0;
                    if (constant != mustBeConstant) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static WindowFunction function(RexWinAggCall call) {
        return switch (call.getOperator().getKind()) {
            case ROW_NUMBER -> WindowFunction.ROW_NUMBER;
            case RANK -> WindowFunction.RANK;
            case DENSE_RANK -> WindowFunction.DENSE_RANK;
            case NTILE -> WindowFunction.NTILE;
            case LAG -> WindowFunction.LAG;
            case LEAD -> WindowFunction.LEAD;
            case FIRST_VALUE -> WindowFunction.FIRST_VALUE;
            case LAST_VALUE -> WindowFunction.LAST_VALUE;
            case COUNT -> WindowFunction.COUNT;
            case SUM -> WindowFunction.SUM;
            case SUM0 -> WindowFunction.SUM0;
            case AVG -> WindowFunction.AVG;
            case MIN -> WindowFunction.MIN;
            case MAX -> WindowFunction.MAX;
            default -> null;
        };
    }

    @Override
    public Window copy(List<RexLiteral> constants) {
        return new ColumbaWindow(getCluster(), getTraitSet(), getInput(), constants, getRowType(), groups);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ColumbaWindow(getCluster(), traitSet, inputs.getFirst(), constants, getRowType(), groups);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        long sorts = groups.stream().map(group -> List.of(group.keys, group.orderKeys)).distinct().count();
        double comparisons = rows * Math.max(1, Math.log(Math.max(2, rows)) / Math.log(2)) * sorts;
        return Costs.cost(planner, rows, comparisons * Costs.SORT_COMPARISON + rows * Costs.BATCH_ROW * (1 + groups.size()), 0);
    }

    @Override
    public String explainDetail() {
        List<String> names = getInput().getRowType().getFieldNames();
        List<String> texts = new ArrayList<>();
        int output = names.size();
        for (Group group : groups) {
            List<String> partition = group.keys.asList().stream().map(names::get).toList();
            List<String> order = new ArrayList<>();
            for (RelFieldCollation field : group.orderKeys.getFieldCollations()) {
                order.add(names.get(field.getFieldIndex()) + (field.getDirection().isDescending() ? " DESC" : ""));
            }
            List<String> calls = new ArrayList<>();
            for (RexWinAggCall call : group.aggCalls) {
                calls.add(getRowType().getFieldNames().get(output++) + "=" + call.getOperator().getName());
            }
            texts.add(calls + " over (partition by " + partition + " order by " + order + " "
                    + (group.isRows ? "rows" : "range") + " " + group.lowerBound + " to " + group.upperBound + ")");
        }
        return String.join(", ", texts);
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator input = execution.instantiate(getInput());
        int inputColumns = input.schema().size();
        List<String> wanted = new ArrayList<>(input.schema().columns().stream().map(column -> column.name()).toList());
        wanted.addAll(getRowType().getFieldNames().subList(inputColumns, getRowType().getFieldCount()));
        List<String> names = Execution.uniqueNames(wanted);
        List<WindowGroup> windowGroups = new ArrayList<>();
        int output = inputColumns;
        for (Group group : groups) {
            List<SortKey> order = new ArrayList<>();
            for (RelFieldCollation field : group.orderKeys.getFieldCollations()) {
                boolean descending = field.getDirection().isDescending();
                boolean nullsFirst = switch (field.nullDirection) {
                    case FIRST -> true;
                    case LAST -> false;
                    case UNSPECIFIED -> descending;
                };
                order.add(new SortKey(field.getFieldIndex(), descending, nullsFirst));
            }
            SqlType orderType = order.size() == 1 ? input.schema().column(order.getFirst().column()).type() : null;
            WindowFrame frame = new WindowFrame(group.isRows, bound(group.lowerBound, inputColumns, orderType),
                    bound(group.upperBound, inputColumns, orderType));
            List<WindowCall> calls = new ArrayList<>();
            for (RexWinAggCall call : group.aggCalls) {
                calls.add(call(call, inputColumns, names.get(output++)));
            }
            windowGroups.add(new WindowGroup(group.keys.asList(), order, frame, calls));
        }
        return new WindowOperator(input, windowGroups);
    }

    private WindowCall call(RexWinAggCall call, int inputColumns, String name) {
        WindowFunction function = function(call);
        SqlType type = SqlTypes.fromRelType(call.getType());
        List<RexNode> operands = call.getOperands();
        return switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK -> WindowCall.of(function, type, name);
            case NTILE -> new WindowCall(function, WindowCall.NO_ARGUMENT, wholeConstant(operands.getFirst(), inputColumns, "NTILE"),
                    null, type, name);
            case LAG, LEAD -> {
                long offset = operands.size() > 1 ? wholeConstant(operands.get(1), inputColumns, function.toString()) : 1;
                Object defaultValue = operands.size() > 2
                        ? ExpressionTranslator.literalValue(constant(operands.get(2), inputColumns), type) : null;
                yield new WindowCall(function, column(operands.getFirst()), offset, defaultValue, type, name);
            }
            case COUNT -> operands.isEmpty() ? WindowCall.of(function, type, name) : WindowCall.of(function, column(operands.getFirst()), type, name);
            case FIRST_VALUE, LAST_VALUE, SUM, SUM0, AVG, MIN, MAX -> WindowCall.of(function, column(operands.getFirst()), type, name);
        };
    }

    private static int column(RexNode operand) {
        return ((RexInputRef) operand).getIndex();
    }

    private RexLiteral constant(RexNode operand, int inputColumns) {
        return switch (operand) {
            case RexLiteral literal -> literal;
            case RexInputRef reference when reference.getIndex() >= inputColumns -> constants.get(reference.getIndex() - inputColumns);
            default -> throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a window function's offset must be a constant, got "
                    + operand);
        };
    }

    private long wholeConstant(RexNode operand, int inputColumns, String what) {
        BigDecimal value = constant(operand, inputColumns).getValueAs(BigDecimal.class);
        if (value == null) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, what + " needs a number, got NULL");
        }
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, what + " needs a whole number, got " + value.toPlainString(), e);
        }
    }

    /** Calcite's bound as core's; an interval offset (for a DATE order key) in whole days. */
    private WindowFrame.Bound bound(RexWindowBound bound, int inputColumns, SqlType orderType) {
        if (bound.isUnboundedPreceding()) {
            return WindowFrame.Bound.UNBOUNDED_PRECEDING;
        }
        if (bound.isUnboundedFollowing()) {
            return WindowFrame.Bound.UNBOUNDED_FOLLOWING;
        }
        if (bound.isCurrentRow()) {
            return WindowFrame.Bound.CURRENT_ROW;
        }
        RexLiteral literal = constant(bound.getOffset(), inputColumns);
        BigDecimal offset = literal.getValueAs(BigDecimal.class);
        if (offset == null) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a frame offset must not be NULL");
        }
        if (literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
            if (!(orderType instanceof SqlType.DateType)) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "an interval frame offset needs a DATE order key");
            }
            BigDecimal[] days = offset.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
            if (days[1].signum() != 0) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a frame offset over a DATE must be whole days, got "
                        + offset + " ms");
            }
            offset = days[0];
        }
        return new WindowFrame.Bound(bound.isPreceding() ? WindowFrame.BoundKind.PRECEDING : WindowFrame.BoundKind.FOLLOWING,
                offset);
    }
}
