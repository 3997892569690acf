package dev.columba.planner.rel;

import dev.columba.columnstore.scan.ScanAggregate;
import dev.columba.core.exec.AggregateFunction;
import dev.columba.core.exec.HashAggregateOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ProjectOperator;
import dev.columba.core.exec.SharedAggregation;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUP BY with COUNT, SUM, AVG, MIN, MAX, STRING_AGG / LISTAGG (DISTINCT and FILTER included): core's
 * {@link HashAggregateOperator}. Calcite's {@code $SUM0} (a SUM that is 0 over no rows, from
 * rewritten COUNTs) is SUM followed by COALESCE(sum, 0). Calcite's {@code LITERAL_AGG(v)} (the
 * constant v for every group, which its rewrite of {@code NOT IN} / {@code IN} sub-queries uses as
 * a "row found" marker) is not computed at all: a projection above the aggregate puts the literal
 * in its column. One grouping set only.
 */
public final class ColumbaAggregate extends Aggregate implements ColumbaRel {
    public ColumbaAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
                            List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, groupSets, aggCalls);
    }

    /** Whether Columba can run this aggregate: one grouping set, supported functions, at most one argument. */
    public static boolean supported(Aggregate aggregate) {
        if (aggregate.getGroupType() != Group.SIMPLE) {
            return false;
        }
        boolean computed = aggregate.getGroupCount() > 0;
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (isLiteral(call)) {
                continue;
            }
            AggregateFunction function = function(call);
            if (function == null) {
                return false;
            }
            if (function == AggregateFunction.STRING_AGG) {
                if (separator(aggregate, call) == null || !call.collation.equals(withinGroup(aggregate))) {
                    return false;
                }
            } else if (call.getArgList().size() > 1 || !call.collation.getFieldCollations().isEmpty()) {
                return false;
            }
            computed = true;
        }
        // Without keys and computed calls there is nothing for the hash aggregate to do.
        return computed;
    }

    /** What of {@code aggregate} Columba cannot run, for the 0A000 message when {@link #supported} says no. */
    public static String unsupportedPart(Aggregate aggregate) {
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (function(call) == AggregateFunction.STRING_AGG) {
                if (separator(aggregate, call) == null) {
                    return "STRING_AGG with a separator that is not a constant string (" + call + ")";
                }
                if (!call.collation.equals(withinGroup(aggregate))) {
                    return "STRING_AGG calls with different WITHIN GROUP orders in one aggregation";
                }
            }
        }
        return "the aggregate " + aggregate.getAggCallList();
    }

    /**
     * The order STRING_AGG's WITHIN GROUP (ORDER BY ...) asks of the input, empty for none: the
     * first call's that has one. Every ordered call must ask for the same ({@link #supported}),
     * since the input is sorted once ({@code ColumbaAggregateRule}) and the hash aggregation then
     * takes each group's rows in the order they arrive.
     */
    public static RelCollation withinGroup(Aggregate aggregate) {
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!call.collation.getFieldCollations().isEmpty()) {
                return call.collation;
            }
        }
        return RelCollations.EMPTY;
    }

    /**
     * STRING_AGG's separator: its second argument, which must be a string constant where the
     * input computes it (a projection, seen through the nodes that pass rows on with their columns:
     * filters, sorts, the exchanges of a parallel plan); LISTAGG without one
     * joins with a comma, as Calcite and H2 do. Null when the separator is not a constant.
     */
    static String separator(Aggregate aggregate, AggregateCall call) {
        if (call.getArgList().size() == 1) {
            return ",";
        }
        if (call.getArgList().size() != 2) {
            return null;
        }
        RelNode node = aggregate.getInput();
        int column = call.getArgList().get(1);
        while (true) {
            node = unwrap(node);
            if (node instanceof Project project) {
                RexNode expression = project.getProjects().get(column);
                if (expression instanceof RexLiteral literal) {
                    // A binary literal (X'FF') is no text to put between strings.
                    return literal.isNull() || !SqlTypeFamily.CHARACTER.contains(literal.getType()) ? null
                            : literal.getValueAs(String.class);
                }
                if (!(expression instanceof RexInputRef reference)) {
                    return null;
                }
                column = reference.getIndex();
                node = project.getInput();
            } else if (node.getInputs().size() == 1 && node.getRowType().equals(node.getInput(0).getRowType())) {
                // Rows passed on with their columns (a filter, a sort, a gather or repartition of a parallel plan).
                node = node.getInput(0);
            } else {
                return null;
            }
        }
    }

    private static RelNode unwrap(RelNode node) {
        return switch (node) {
            case org.apache.calcite.plan.volcano.RelSubset subset ->
                    subset.getBest() != null ? subset.getBest() : subset.getOriginal();
            case org.apache.calcite.plan.hep.HepRelVertex vertex -> vertex.getCurrentRel();
            default -> node;
        };
    }

    /** {@code LITERAL_AGG(v)}: the constant {@code v} per group, whatever the rows. */
    private static boolean isLiteral(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.LITERAL_AGG && call.rexList.size() == 1
                && call.rexList.getFirst() instanceof RexLiteral;
    }

    private static AggregateFunction function(AggregateCall call) {
        return switch (call.getAggregation().getKind()) {
            case COUNT -> AggregateFunction.COUNT;
            case SUM, SUM0 -> AggregateFunction.SUM;
            case AVG -> AggregateFunction.AVG;
            case MIN, ANY_VALUE -> AggregateFunction.MIN;
            case MAX -> AggregateFunction.MAX;
            case LISTAGG, STRING_AGG -> AggregateFunction.STRING_AGG;
            default -> null;
        };
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet, List<ImmutableBitSet> groupSets,
                          List<AggregateCall> aggCalls) {
        return new ColumbaAggregate(getCluster(), traitSet, input, groupSet, groupSets, aggCalls);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        double groups = mq.getRowCount(this);
        double distinctCalls = getAggCallList().stream().filter(AggregateCall::isDistinct).count();
        return Costs.cost(planner, groups, rows * Costs.HASH_PROBE_ROW * (1 + getAggCallList().size() * 0.2 + distinctCalls)
                + groups * Costs.HASH_BUILD_ROW * RowBytes.weight(this, mq), 0);
    }

    @Override
    public String explainDetail() {
        List<String> keys = new ArrayList<>();
        for (int key : getGroupSet()) {
            keys.add(getInput().getRowType().getFieldNames().get(key));
        }
        return "group by " + keys + ", " + getAggCallList();
    }

    @Override
    public Operator instantiate(Execution execution) {
        return instantiate(execution, instantiateInput(execution, getInput()), HashAggregateOperator.Phase.COMPLETE, null);
    }

    /**
     * Instantiates {@code input} (this aggregate's input, or the partial aggregation's in a
     * parallel plan), letting its columnstore scan defer the strings of group keys nothing else
     * reads ({@link #deferKeyStrings}); a request the scan did not take is withdrawn.
     */
    Operator instantiateInput(Execution execution, RelNode input) {
        ColumbaColumnstoreScan scan = deferKeyStrings(execution, input);
        ColumbaColumnstoreScan summedScan = deferSummedLongs(execution, input);
        aggregateInScan(execution, input);
        Operator operator = execution.instantiate(input);
        if (scan != null) {
            execution.dropDeferredStrings(scan);
        }
        if (summedScan != null) {
            execution.dropDeferredLongs(summedScan);
        }
        return operator;
    }

    /**
     * Lets the columnstore scan under {@code input} hand on as stored longs, without writing their
     * vectors, the whole-number and narrow DECIMAL columns that this aggregate only sums: columns
     * read by no call but SUM and AVG (without DISTINCT or FILTER) and by no group key, reaching the
     * scan through projections that pass them on, widen them to BIGINT ({@link #passedOn}: the
     * projection hands the longs on, {@code ProjectOperator}) or multiply them into a DECIMAL
     * product that such a call sums (which the aggregation computes from the longs, {@code
     * DecimalProducts}); a projection that computes anything else is not passed. TPC-H Q1's quantity, price, discount
     * and tax then go from the packed segments into the sums as longs. Returns the scan told, or null.
     */
    private ColumbaColumnstoreScan deferSummedLongs(Execution execution, RelNode input) {
        Set<Integer> columns = new HashSet<>();
        for (AggregateCall call : getAggCallList()) {
            AggregateFunction function = function(call);
            if ((function == AggregateFunction.SUM || function == AggregateFunction.AVG) && !isLiteral(call)
                    && !call.isDistinct() && call.filterArg < 0 && call.getArgList().size() == 1) {
                columns.add(call.getArgList().getFirst());
            }
        }
        for (AggregateCall call : getAggCallList()) {
            AggregateFunction function = function(call);
            if (function != AggregateFunction.SUM && function != AggregateFunction.AVG || call.isDistinct() || call.filterArg >= 0) {
                columns.removeAll(call.getArgList());
            }
            columns.remove(call.filterArg);
        }
        columns.removeAll(getGroupSet().asList());
        RelNode node = physical(input);
        while (!columns.isEmpty() && node instanceof ColumbaProject project) {
            Set<Integer> below = new HashSet<>();
            Set<Integer> otherwiseRead = new HashSet<>();
            List<RexNode> projects = project.getProjects();
            for (int output = 0; output < projects.size(); output++) {
                RexNode expression = projects.get(output);
                boolean summed = columns.contains(output);
                if (!(expression instanceof RexInputRef) && !(summed && passedOn(expression) != null)
                        && !(summed && expression.getKind() == SqlKind.TIMES
                        && SqlTypes.fromRelType(expression.getType()) instanceof SqlType.DecimalType)) {
                    return null;
                }
                for (int column : RelOptUtil.InputFinder.bits(expression)) {
                    (summed ? below : otherwiseRead).add(column);
                }
            }
            below.removeAll(otherwiseRead);
            columns = below;
            node = physical(project.getInput());
        }
        if (!(node instanceof ColumbaColumnstoreScan scan)) {
            return null;
        }
        columns.removeIf(column -> !scan.canDeferToLongs(column));
        if (columns.isEmpty()) {
            return null;
        }
        execution.deferLongs(scan, columns);
        return scan;
    }

    /**
     * Asks the columnstore scan under {@code input} to compute this aggregate's calls itself over
     * the rowgroups it can answer without their rows (SQL Server's aggregate pushdown; see
     * {@code ColumnstoreScan.aggregate}), when that is exact whatever the rowgroups hold: no GROUP
     * BY, every call COUNT, SUM, AVG, MIN or MAX without DISTINCT or FILTER, over a column that
     * reaches the scan through projections of plain columns only (no expression whose evaluation
     * would be skipped; COUNT, SUM and AVG also through a widening cast to BIGINT, {@link #passedOn}), and a scan without pushed filters. {@link #instantiate} then adds what the scan computed ({@link
     * HashAggregateOperator#foldFrom}).
     */
    private void aggregateInScan(Execution execution, RelNode input) {
        if (!getGroupSet().isEmpty() || getAggCallList().isEmpty()) {
            return;
        }
        List<ScanAggregate> requested = new ArrayList<>();
        List<Integer> columns = new ArrayList<>();
        for (AggregateCall call : getAggCallList()) {
            AggregateFunction function = function(call);
            if (function == null || isLiteral(call) || call.isDistinct() || call.filterArg >= 0 || call.getArgList().size() > 1) {
                return;
            }
            ScanAggregate.Function pushed = switch (function) {
                case COUNT -> call.getArgList().isEmpty() ? ScanAggregate.Function.COUNT_ROWS : ScanAggregate.Function.COUNT_VALUES;
                case SUM, AVG -> ScanAggregate.Function.SUM;
                case MIN -> call.getAggregation().getKind() == SqlKind.MIN ? ScanAggregate.Function.MIN : null;
                case MAX -> ScanAggregate.Function.MAX;
                case STRING_AGG -> null;
            };
            if (pushed == null || (pushed != ScanAggregate.Function.COUNT_ROWS && call.getArgList().isEmpty())) {
                return;
            }
            requested.add(new ScanAggregate(pushed, 0));
            columns.add(call.getArgList().isEmpty() ? -1 : call.getArgList().getFirst());
        }
        RelNode node = physical(input);
        while (node instanceof ColumbaProject project) {
            // Only projections of plain columns and widening casts: rows the scan answers for are never
            // projected, so an expression there (one that could fail on some row) would be skipped.
            if (!project.getProjects().stream().allMatch(expression -> passedOn(expression) != null)) {
                return;
            }
            for (int index = 0; index < columns.size(); index++) {
                int column = columns.get(index);
                if (column < 0) {
                    continue;
                }
                RexNode expression = project.getProjects().get(column);
                // A widened column's MIN or MAX would come back in the column's Java type, not the cast's.
                if (!(expression instanceof RexInputRef) && (requested.get(index).function() == ScanAggregate.Function.MIN
                        || requested.get(index).function() == ScanAggregate.Function.MAX)) {
                    return;
                }
                columns.set(index, passedOn(expression).getIndex());
            }
            node = physical(project.getInput());
        }
        if (!(node instanceof ColumbaColumnstoreScan scan) || scan.filtersRows()) {
            return;
        }
        List<ScanAggregate> resolved = new ArrayList<>();
        for (int index = 0; index < requested.size(); index++) {
            resolved.add(new ScanAggregate(requested.get(index).function(), Math.max(0, columns.get(index))));
        }
        execution.aggregateInScan(scan, this, new ScanAggregation(resolved));
    }

    /**
     * The column {@code expression} passes on unchanged in value: a plain column, or a cast of a
     * TINYINT, SMALLINT or INT column to BIGINT, which cannot fail and leaves COUNT and SUM (the
     * exact total, see {@code ColumnstoreScan.aggregate}) as they are (the peers suite's
     * {@code SUM(CAST(l_partkey AS BIGINT))}); null for anything else.
     */
    private static RexInputRef passedOn(RexNode expression) {
        if (expression instanceof RexInputRef reference) {
            return reference;
        }
        if (expression.getKind() == SqlKind.CAST && expression instanceof RexCall cast
                && cast.getOperands().getFirst() instanceof RexInputRef reference
                && cast.getType().getSqlTypeName() == SqlTypeName.BIGINT
                && switch (reference.getType().getSqlTypeName()) {
                    case TINYINT, SMALLINT, INTEGER -> true;
                    default -> false;
                }) {
            return reference;
        }
        return null;
    }

    /**
     * Lets the columnstore scan under {@code input} (this aggregate's input, or the partial
     * aggregation's in a parallel plan) defer decoding the strings of group keys and of MIN and MAX
     * arguments that nothing else reads: columns that reach the scan through projections that only
     * pass them on, read by no other aggregate call, no other projected expression and no pushed
     * filter. The grouping goes by the dictionary codes and decodes strings only for groups it has
     * not seen (TPC-H Q1's {@code l_returnflag, l_linestatus}); MIN and MAX go by the codes and
     * decode only each batch's best ({@code Accumulators.ExtremeAccumulator.addCoded}). Returns the
     * scan told, or null.
     */
    private ColumbaColumnstoreScan deferKeyStrings(Execution execution, RelNode input) {
        Set<Integer> columns = new HashSet<>(getGroupSet().asList());
        for (AggregateCall call : getAggCallList()) {
            if (extremeByCodes(call)) {
                columns.addAll(call.getArgList());
            }
        }
        for (AggregateCall call : getAggCallList()) {
            if (!extremeByCodes(call)) {
                columns.removeAll(call.getArgList());
            }
            columns.remove(call.filterArg);
        }
        RelNode node = physical(input);
        while (!columns.isEmpty() && node instanceof ColumbaProject project) {
            Map<Integer, Integer> references = new HashMap<>();
            for (RexNode expression : project.getProjects()) {
                for (int column : RelOptUtil.InputFinder.bits(expression)) {
                    references.merge(column, 1, Integer::sum);
                }
            }
            Set<Integer> below = new HashSet<>();
            for (int column : columns) {
                if (project.getProjects().get(column) instanceof RexInputRef reference
                        && references.get(reference.getIndex()) == 1) {
                    below.add(reference.getIndex());
                }
            }
            columns = below;
            node = physical(project.getInput());
        }
        if (!(node instanceof ColumbaColumnstoreScan scan)) {
            return null;
        }
        columns.removeIf(column -> !scan.canDeferStrings(column));
        if (columns.isEmpty()) {
            return null;
        }
        execution.deferStrings(scan, columns);
        return scan;
    }

    /** A MIN or MAX of one column without DISTINCT: the aggregation can take it from a string column's codes alone. */
    private static boolean extremeByCodes(AggregateCall call) {
        AggregateFunction function = function(call);
        return (function == AggregateFunction.MIN || function == AggregateFunction.MAX) && !isLiteral(call)
                && !call.isDistinct() && call.getArgList().size() == 1;
    }

    /** The columnstore scan under {@code input} through projections, or {@code input} itself (a key nothing was put under). */
    private static RelNode scanUnder(RelNode input) {
        RelNode node = physical(input);
        while (node instanceof ColumbaProject project) {
            node = physical(project.getInput());
        }
        return node;
    }

    private static RelNode physical(RelNode node) {
        return node instanceof org.apache.calcite.plan.volcano.RelSubset subset ? subset.getBest() : node;
    }

    /** The planner's estimate of this aggregate's groups, -1 until computed (once: a cached plan is instantiated per execution). */
    private long estimatedGroups = -1;

    /**
     * The estimated groups, computed on the first instantiation; under the cluster's lock, since the
     * metadata query is not thread-safe and sessions may instantiate one cached plan at once.
     */
    private long estimatedGroups() {
        synchronized (getCluster()) {
            if (estimatedGroups < 0) {
                Double rows = getCluster().getMetadataQuery().getRowCount(this);
                estimatedGroups = rows == null || rows.isNaN() ? 0 : (long) Math.ceil(Math.min(rows, Long.MAX_VALUE));
            }
            return estimatedGroups;
        }
    }

    /** The span of a single group key's values ({@link #keySpan}), computed on the first instantiation; {@code NO_SPAN} when none. */
    private long[] keySpan;
    private static final long[] NO_SPAN = new long[0];

    /**
     * The smallest and the largest value of this aggregate's single group key, when the key is a
     * whole number (INT, BIGINT) that traces, underived, to a column of a columnstore table whose
     * segments all have figures: every value the key takes is one of that column's (filters and
     * joins only drop rows; NULL is grouped apart). Null otherwise. Computed once, under the
     * cluster's lock as {@link #estimatedGroups} is.
     */
    private long[] keySpan() {
        synchronized (getCluster()) {
            if (keySpan == null) {
                keySpan = getGroupCount() == 1 ? ColumbaDistinctRowCount.wholeNumberSpan(getInput(),
                        getCluster().getMetadataQuery(), getGroupSet().nth(0)) : null;
                if (keySpan == null) {
                    keySpan = NO_SPAN;
                }
            }
            return keySpan.length == 2 ? keySpan : null;
        }
    }

    /**
     * Whether this aggregate can run split, a partial aggregation per worker and a final merge: no
     * DISTINCT (a value counted by two workers would count twice), no STRING_AGG WITHIN GROUP (the
     * workers' texts would be joined in the order they come, not in the order asked for).
     */
    public boolean splittable() {
        return getAggCallList().stream().noneMatch(AggregateCall::isDistinct) && withinGroup(this).getFieldCollations().isEmpty();
    }

    /**
     * The operators of one phase of this aggregate over {@code input}: the whole aggregate, a
     * worker's partial aggregation (keys and aggregate states out), or the final merge of the
     * states that {@code input} (a gather of partial aggregations) returns; {@code partialInput}
     * is then the schema of the partial aggregations' input (the rows).
     */
    Operator instantiate(Execution execution, Operator input, HashAggregateOperator.Phase phase, TableSchema partialInput) {
        return instantiate(execution, input, phase, partialInput, null);
    }

    /**
     * As {@link #instantiate(Execution, Operator, HashAggregateOperator.Phase, TableSchema)}; a
     * complete aggregation with {@code acrossWorkers} is one worker's part of an aggregation the
     * workers of a fragment finish together ({@link HashAggregateOperator#mergeAcrossWorkers}).
     */
    Operator instantiate(Execution execution, Operator input, HashAggregateOperator.Phase phase, TableSchema partialInput,
                         SharedAggregation acrossWorkers) {
        TableSchema inputSchema = phase == HashAggregateOperator.Phase.FINAL ? partialInput : input.schema();
        List<Integer> keys = getGroupSet().asList();
        List<String> wanted = new ArrayList<>();
        for (int key : keys) {
            wanted.add(inputSchema.column(key).name());
        }
        wanted.addAll(getRowType().getFieldNames().subList(keys.size(), getRowType().getFieldCount()));
        List<String> names = Execution.uniqueNames(wanted);
        List<dev.columba.core.exec.AggregateCall> calls = new ArrayList<>();
        boolean needsProjection = false;
        for (int index = 0; index < getAggCallList().size(); index++) {
            AggregateCall call = getAggCallList().get(index);
            if (isLiteral(call)) {
                needsProjection = true;
                continue;
            }
            AggregateFunction function = function(call);
            int argument = call.getArgList().isEmpty() ? dev.columba.core.exec.AggregateCall.NO_ARGUMENT : call.getArgList().getFirst();
            SqlType type = switch (function) {
                case COUNT -> SqlType.BIGINT;
                case MIN, MAX -> inputSchema.column(argument).type();
                case SUM, AVG -> SqlTypes.fromRelType(call.getType());
                case STRING_AGG -> dev.columba.core.exec.AggregateCall.defaultType(function, null);
            };
            needsProjection |= call.getAggregation().getKind() == SqlKind.SUM0;
            calls.add(new dev.columba.core.exec.AggregateCall(function, argument, call.isDistinct(),
                    call.filterArg < 0 ? dev.columba.core.exec.AggregateCall.NO_FILTER : call.filterArg, type,
                    names.get(keys.size() + index),
                    function == AggregateFunction.STRING_AGG ? separator(this, call) : null));
        }
        HashAggregateOperator aggregate = switch (phase) {
            case COMPLETE -> new HashAggregateOperator(input, keys, calls);
            case PARTIAL -> HashAggregateOperator.partial(input, keys, calls);
            case FINAL -> HashAggregateOperator.merging(input, keys.size(), calls,
                    HashAggregateOperator.argumentTypes(inputSchema, calls));
        };
        if (phase != HashAggregateOperator.Phase.FINAL) {
            // A worker's partial aggregation may meet every group: the whole estimate is its bound too.
            aggregate.expectGroups(estimatedGroups());
            long[] span = keySpan();
            if (span != null) {
                aggregate.expectKeys(span[0], span[1]);
            }
            ScanAggregation scanAggregation = execution.takeAggregationMade(this, scanUnder(getInput()));
            if (scanAggregation != null && scanAggregation.scan() != null) {
                aggregate.foldFrom(scanAggregation.scan()::folded);
                execution.computedInScan(this);
            }
        }
        if (acrossWorkers != null) {
            aggregate.mergeAcrossWorkers(acrossWorkers);
        }
        if (!needsProjection || phase == HashAggregateOperator.Phase.PARTIAL) {
            return aggregate;
        }
        // The calls' columns in Calcite's order: keys, then each call, literals put back in place.
        TableSchema computed = aggregate.schema();
        List<Expr> expressions = new ArrayList<>();
        for (int key = 0; key < keys.size(); key++) {
            expressions.add(new Expr.ColumnReference(key, computed.column(key).type()));
        }
        int computedColumn = keys.size();
        for (AggregateCall call : getAggCallList()) {
            if (isLiteral(call)) {
                RexLiteral literal = (RexLiteral) call.rexList.getFirst();
                SqlType type = SqlTypes.fromRelType(call.getType());
                expressions.add(new Expr.Literal(ExpressionTranslator.literalValue(literal, type), type));
                continue;
            }
            Expr reference = new Expr.ColumnReference(computedColumn, computed.column(computedColumn).type());
            computedColumn++;
            if (call.getAggregation().getKind() == SqlKind.SUM0) {
                expressions.add(new Expr.Coalesce(List.of(reference, new Expr.Cast(new Expr.Literal(0, SqlType.INT),
                        reference.type())), reference.type()));
            } else {
                expressions.add(reference);
            }
        }
        return new ProjectOperator(aggregate, expressions, names);
    }
}
