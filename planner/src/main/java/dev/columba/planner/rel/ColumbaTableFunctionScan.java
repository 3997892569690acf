package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.function.GenerateSeries;
import dev.columba.planner.function.GenerateSeriesOperator;
import dev.columba.planner.schema.SqlTypes;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.metadata.RelColumnMapping;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * A call of {@link GenerateSeries} in FROM: a leaf producing its rows through
 * {@link GenerateSeriesOperator}, batch by batch. BATCH mode. Its estimated rows are exact when
 * the arguments are literals ({@link #estimatedRows}), so joins against it are costed on real
 * numbers; with parameters it guesses {@value #UNKNOWN_ROWS}, as PostgreSQL guesses for a
 * set-returning function.
 */
public final class ColumbaTableFunctionScan extends TableFunctionScan implements ColumbaRel {
    /** The guess for a series whose bounds are parameters. */
    static final double UNKNOWN_ROWS = 1000;
    /**
     * The input the arguments are translated over: none (a leaf's arguments are constants), but a
     * schema needs a column, so one that no argument can reference.
     */
    private static final TableSchema NO_INPUT = TableSchema.of(Column.nullable("$no input", SqlType.INT));

    public ColumbaTableFunctionScan(RelOptCluster cluster, RelTraitSet traits, RexNode call, RelDataType rowType) {
        super(cluster, traits, List.of(), call, null, rowType, Set.of());
    }

    @Override
    public TableFunctionScan copy(RelTraitSet traitSet, List<RelNode> inputs, RexNode call, Type elementType,
                                  RelDataType rowType, Set<RelColumnMapping> columnMappings) {
        return new ColumbaTableFunctionScan(getCluster(), traitSet, call, rowType);
    }

    /** Whether {@code scan} is a call this node runs: generate_series without table inputs. */
    public static boolean runs(TableFunctionScan scan) {
        return scan.getInputs().isEmpty() && scan.getCall() instanceof RexCall call
                && call.getOperator() == GenerateSeries.INSTANCE;
    }

    /**
     * The number of rows of a generate_series call whose arguments are literals, exactly; empty
     * when an argument is not a literal, or is NULL, or the step is 0 (the call fails when it runs).
     */
    public static OptionalDouble estimatedRows(RexNode node) {
        if (!(node instanceof RexCall call)) {
            return OptionalDouble.empty();
        }
        List<BigDecimal> values = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (!(operand instanceof RexLiteral literal) || literal.isNull()) {
                return OptionalDouble.empty();
            }
            values.add(literal.getValueAs(BigDecimal.class));
        }
        BigDecimal start = values.get(0);
        BigDecimal stop = values.get(1);
        BigDecimal step = values.size() == 3 ? values.get(2) : BigDecimal.ONE;
        if (step.signum() == 0) {
            return OptionalDouble.empty();
        }
        BigDecimal steps = stop.subtract(start).divideToIntegralValue(step);
        return OptionalDouble.of(steps.signum() < 0 ? 0 : steps.doubleValue() + 1);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return estimatedRows(getCall()).orElse(UNKNOWN_ROWS);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(this);
        return Costs.cost(planner, rows, rows * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        RexCall call = (RexCall) getCall();
        String arguments = call.getOperands().stream()
                .map(operand -> switch (operand) {
                    case RexLiteral literal when literal.isNull() -> "NULL";
                    case RexLiteral literal -> String.valueOf(literal.getValueAs(BigDecimal.class));
                    case RexDynamicParam parameter -> "?" + (parameter.getIndex() + 1);
                    default -> operand.toString();
                })
                .collect(Collectors.joining(", "));
        RelDataType column = getRowType().getFieldList().getFirst().getType();
        return GenerateSeries.NAME + "(" + arguments + "), " + SqlTypes.fromRelType(column).sqlName();
    }

    @Override
    public Operator instantiate(Execution execution) {
        RexCall call = (RexCall) getCall();
        RelDataType column = getRowType().getFieldList().getFirst().getType();
        return new GenerateSeriesOperator(getRowType().getFieldNames().getFirst(), SqlTypes.fromRelType(column),
                execution.translator(NO_INPUT).translateAll(call.getOperands()));
    }
}
