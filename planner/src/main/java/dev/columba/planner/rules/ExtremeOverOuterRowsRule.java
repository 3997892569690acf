package dev.columba.planner.rules;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindowBounds;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A scalar sub-query that takes the MIN or MAX of the outer query's own rows becomes a window over
 * those rows (a logical rewrite, before sub-queries are decorrelated): TPC-H Q2 keeps the suppliers
 * of a part whose cost is the part's lowest, {@code ps_supplycost = (SELECT MIN(ps_supplycost) FROM
 * partsupp, supplier, nation, region WHERE p_partkey = ps_partkey AND <the outer query's conditions
 * on those four tables>)}. Calcite's general path (SubQueryRemoveRule, then the decorrelator)
 * computes the minimum per ps_partkey over a second join of partsupp, supplier, nation and region
 * and joins it back to the outer rows, so partsupp is read twice. For one outer row, the
 * sub-query's rows are exactly the outer rows of the same part, so the minimum over the outer rows
 * partitioned by the part's key is the sub-query's value (DuckDB's plan takes it over the outer
 * rows in the same way):
 *
 * <pre>
 * before: LogicalProject(P)
 *           LogicalFilter(condition=[AND(C_E, C_X, C_I, =($c, $SCALAR_QUERY({
 *               LogicalAggregate(group=[{}], m=[MIN($0)])
 *                 LogicalProject($x)
 *                   LogicalFilter(condition=[AND(=($cor0.k, $j), C_I')])
 *                     I'})))], variablesSet=[[$cor0]])
 *             E ⋈ I
 * after:  LogicalProject(P, over the columns below)
 *           LogicalFilter(condition=[=($c, $w)])
 *             LogicalProject(the outer columns P and $c read, w=[MIN($x) OVER (PARTITION BY $k
 *                                        ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)])
 *               LogicalFilter(condition=[AND(C_E, C_X, C_I)])
 *                 E ⋈ I
 * </pre>
 *
 * Fires only when all of this holds (the conditions read over the joins' and the filter's
 * conjuncts together, the sub-query's columns mapped to the outer ones of the same table):
 * <ul>
 *   <li>the outer and the sub-query's FROM are inner joins of table scans, no table twice in
 *   either; every table I' of the sub-query is one of the outer query's (I), which has others (E);</li>
 *   <li>the sub-query is one MIN or MAX (not DISTINCT, no FILTER) without GROUP BY, over at most
 *   one projection, of the filtered join;</li>
 *   <li>its correlated conjuncts are each {@code $cor.k = column} with k a column of E, its
 *   filter's own correlation variable the only one used;</li>
 *   <li>its other conjuncts C_I' are, mapped, exactly the outer conjuncts over I alone (C_I), and
 *   the correlated ones are, mapped, exactly the outer conjuncts over E and I together (C_X);</li>
 *   <li>every conjunct is deterministic, and no other conjunct of the outer filter holds a
 *   sub-query.</li>
 * </ul>
 * Why that is the same value: an outer row r = (e, s) has E's part e satisfying C_E and I's part s
 * satisfying C_I and {@code s.j = e.k}. The sub-query's rows for r are the rows s' of I satisfying
 * C_I with {@code s'.j = e.k}. The outer rows whose E columns k equal e.k are the (e', s') with
 * e'.k = e.k, C_E(e'), C_I(s') and s'.j = e.k: their I parts are the same set, e itself being
 * an e' for each. MIN and MAX depend on the set of values only, not on how often each occurs, and
 * skip NULLs either way; the set is never empty (it holds s), so the sub-query's "no rows gives
 * NULL" does not arise. An outer row with a NULL k has no sub-query rows and fails the outer
 * {@code s.j = e.k} as well, so it is not an outer row. COUNT and SUM would count the rows of E
 * sharing a key several times and do not fire.
 */
public final class ExtremeOverOuterRowsRule extends RelRule<RuleConfig> {
    private ExtremeOverOuterRowsRule(RuleConfig config) {
        super(config);
    }

    public static ExtremeOverOuterRowsRule create() {
        return (ExtremeOverOuterRowsRule) RuleConfig.of("ExtremeOverOuterRowsRule",
                b -> b.operand(LogicalProject.class).predicate(project -> RexUtil.SubQueryFinder.find(project.getProjects()) == null)
                        .oneInput(b1 -> b1.operand(LogicalFilter.class).predicate(filter -> filter.getVariablesSet().size() == 1
                                && RexUtil.SubQueryFinder.find(filter.getCondition()) != null).anyInputs()),
                ExtremeOverOuterRowsRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalProject top = call.rel(0);
        LogicalFilter filter = call.rel(1);
        RelNode outer = filter.getInput().stripped();
        Joined outerRows = Joined.of(outer);
        if (outerRows == null) {
            return;
        }
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        int subQueryConjunct = -1;
        for (int index = 0; index < conjuncts.size(); index++) {
            if (RexUtil.SubQueryFinder.find(conjuncts.get(index)) != null) {
                if (subQueryConjunct >= 0) {
                    return;
                }
                subQueryConjunct = index;
            }
        }
        RexSubQuery subQuery = subQueryConjunct < 0 ? null : onlySubQuery(conjuncts.get(subQueryConjunct));
        CorrelationId variable = filter.getVariablesSet().iterator().next();
        if (subQuery == null || subQuery.getKind() != SqlKind.SCALAR_QUERY) {
            return;
        }
        RexNode window = extremeOverOuterRows(filter, outerRows, conjuncts, subQueryConjunct, subQuery, variable);
        if (window == null) {
            return;
        }
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        List<RexNode> rest = new ArrayList<>(conjuncts);
        RexNode compared = rest.remove(subQueryConjunct);
        RelNode below = rest.isEmpty() ? outer : LogicalFilter.create(outer, RexUtil.composeConjunction(rexBuilder, rest));
        // Only the outer columns that the projection above, the comparison and the window read
        // reach the window, by a projection of their own below it: Calcite's field trimmer does
        // not trim below a window, and the window passes its whole input on.
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(top.getProjects(), compared)
                .union(RelOptUtil.InputFinder.bits(window));
        int[] position = new int[outer.getRowType().getFieldCount()];
        List<RexNode> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int column : used) {
            position[column] = columns.size();
            columns.add(RexInputRef.of(column, outer.getRowType()));
            names.add(outer.getRowType().getFieldNames().get(column));
        }
        RelNode narrow = LogicalProject.create(below, List.of(), columns, names, Set.of());
        RexShuttle toNarrow = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(position[ref.getIndex()], ref.getType());
            }
        };
        List<RexNode> withExtreme = new ArrayList<>(rexBuilder.identityProjects(narrow.getRowType()));
        withExtreme.add(window.accept(toNarrow));
        List<String> withExtremeNames = new ArrayList<>(names);
        withExtremeNames.add("$extreme");
        RelNode withWindow = LogicalProject.create(narrow, List.of(), withExtreme, withExtremeNames, Set.of());
        RexNode value = new RexInputRef(columns.size(), window.getType());
        RexNode replaced = value.getType().equals(subQuery.getType()) ? value
                : rexBuilder.makeCast(subQuery.getType(), value, true, false);
        RexShuttle narrowed = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.accept(toNarrow);
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery node) {
                return node == subQuery ? replaced : super.visitSubQuery(node);
            }
        };
        RelNode kept = LogicalFilter.create(withWindow, compared.accept(narrowed));
        call.transformTo(LogicalProject.create(kept, top.getHints(), narrowed.apply(top.getProjects()),
                top.getRowType().getFieldNames(), Set.of()));
    }

    /** The one sub-query in a conjunct, or null when it has none or several. */
    private static RexSubQuery onlySubQuery(RexNode conjunct) {
        List<RexSubQuery> found = new ArrayList<>();
        conjunct.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                found.add(subQuery);
                return subQuery;
            }
        });
        return found.size() == 1 ? found.getFirst() : null;
    }

    /**
     * The window call over the outer rows that gives the sub-query's value, or null when the
     * sub-query is not a MIN or MAX of the outer query's rows as the class comment says.
     */
    private static RexNode extremeOverOuterRows(LogicalFilter filter, Joined outerRows, List<RexNode> conjuncts,
                                                int subQueryConjunct, RexSubQuery subQuery, CorrelationId variable) {
        if (!(subQuery.rel instanceof LogicalAggregate aggregate) || !aggregate.getGroupSet().isEmpty()
                || aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getAggCallList().size() != 1) {
            return null;
        }
        AggregateCall extreme = aggregate.getAggCallList().getFirst();
        SqlKind kind = extreme.getAggregation().getKind();
        if ((kind != SqlKind.MIN && kind != SqlKind.MAX) || extreme.isDistinct() || extreme.filterArg >= 0
                || extreme.getArgList().size() != 1 || extreme.ignoreNulls() || extreme.hasFilter()) {
            return null;
        }
        RelNode input = aggregate.getInput();
        RexNode argument = RexInputRef.of(extreme.getArgList().getFirst(), input.getRowType());
        if (input instanceof LogicalProject project) {
            argument = project.getProjects().get(extreme.getArgList().getFirst());
            input = project.getInput();
        }
        List<RexNode> innerConjuncts = new ArrayList<>();
        if (input instanceof LogicalFilter innerFilter) {
            if (!innerFilter.getVariablesSet().isEmpty()) {
                return null;
            }
            innerConjuncts.addAll(RelOptUtil.conjunctions(innerFilter.getCondition()));
            input = innerFilter.getInput();
        }
        Joined innerRows = Joined.of(input);
        if (innerRows == null || RexUtil.containsCorrelation(argument) || RexUtil.SubQueryFinder.find(argument) != null
                || !RexUtil.isDeterministic(argument)) {
            return null;
        }
        innerConjuncts.addAll(innerRows.conjuncts);
        // The sub-query's tables among the outer query's: its columns' positions in the outer rows.
        int[] outerColumn = new int[innerRows.width];
        boolean[] innerTable = new boolean[outerRows.tables.size()];
        for (int table = 0; table < innerRows.tables.size(); table++) {
            int match = outerRows.indexOf(innerRows.tables.get(table));
            if (match < 0 || innerTable[match]) {
                return null;
            }
            innerTable[match] = true;
            for (int column = 0; column < innerRows.tables.get(table).getRowType().getFieldCount(); column++) {
                outerColumn[innerRows.offsets.get(table) + column] = outerRows.offsets.get(match) + column;
            }
        }
        ImmutableBitSet innerColumns = outerRows.columnsOf(innerTable);
        if (innerColumns.cardinality() == outerRows.width) {
            return null;
        }
        RexShuttle toOuter = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(outerColumn[ref.getIndex()], ref.getType());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable correlation && correlation.id.equals(variable)) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }
        };
        Set<RexNode> local = new LinkedHashSet<>();
        Set<RexNode> correlated = new LinkedHashSet<>();
        Set<Integer> keys = new LinkedHashSet<>();
        for (RexNode conjunct : innerConjuncts) {
            if (!RexUtil.isDeterministic(conjunct) || RexUtil.SubQueryFinder.find(conjunct) != null) {
                return null;
            }
            if (!RexUtil.containsCorrelation(conjunct)) {
                local.add(conjunct.accept(toOuter));
                continue;
            }
            Integer key = correlationKey(conjunct, variable, innerColumns);
            if (key == null) {
                return null;
            }
            keys.add(key);
            correlated.add(conjunct.accept(toOuter));
        }
        // The outer conjuncts: over E alone anything, over I alone the sub-query's own, over both its correlation.
        Set<RexNode> outerLocal = new LinkedHashSet<>();
        Set<RexNode> outerCrossing = new LinkedHashSet<>();
        List<RexNode> outerConjuncts = new ArrayList<>(outerRows.conjuncts);
        for (int index = 0; index < conjuncts.size(); index++) {
            if (index != subQueryConjunct) {
                outerConjuncts.add(conjuncts.get(index));
            }
        }
        for (RexNode conjunct : outerConjuncts) {
            if (!RexUtil.isDeterministic(conjunct) || RexUtil.containsCorrelation(conjunct)) {
                return null;
            }
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(conjunct);
            if (innerColumns.contains(used)) {
                outerLocal.add(conjunct);
            } else if (used.intersects(innerColumns)) {
                outerCrossing.add(conjunct);
            }
        }
        if (!outerLocal.equals(local) || !sameEqualities(outerCrossing, correlated)) {
            return null;
        }
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        List<RexNode> partition = new ArrayList<>();
        for (int key : keys) {
            partition.add(RexInputRef.of(key, filter.getInput().getRowType()));
        }
        return rexBuilder.makeOver(extreme.getType(), (SqlAggFunction) extreme.getAggregation(),
                List.of(argument.accept(toOuter)), partition, ImmutableList.of(), RexWindowBounds.UNBOUNDED_PRECEDING,
                RexWindowBounds.UNBOUNDED_FOLLOWING, true, true, false, false, false);
    }

    /**
     * The outer column k of a correlated conjunct {@code $cor.k = column} (either way round) when k
     * is a column of a table the sub-query does not read and the column one it does; else null.
     */
    private static Integer correlationKey(RexNode conjunct, CorrelationId variable, ImmutableBitSet innerColumns) {
        if (conjunct.getKind() != SqlKind.EQUALS) {
            return null;
        }
        List<RexNode> operands = ((RexCall) conjunct).getOperands();
        for (int side = 0; side < 2; side++) {
            if (operands.get(side) instanceof RexFieldAccess access
                    && access.getReferenceExpr() instanceof RexCorrelVariable correlation && correlation.id.equals(variable)
                    && operands.get(1 - side) instanceof RexInputRef
                    && !innerColumns.get(access.getField().getIndex())) {
                return access.getField().getIndex();
            }
        }
        return null;
    }

    /** Whether two sets of conjuncts are the same, an equality matching one with its operands swapped. */
    private static boolean sameEqualities(Set<RexNode> outer, Set<RexNode> inner) {
        if (outer.size() != inner.size()) {
            return false;
        }
        for (RexNode conjunct : inner) {
            if (!outer.contains(conjunct) && !outer.contains(swapped(conjunct))) {
                return false;
            }
        }
        for (RexNode conjunct : outer) {
            if (!inner.contains(conjunct) && !inner.contains(swapped(conjunct))) {
                return false;
            }
        }
        return true;
    }

    private static RexNode swapped(RexNode equality) {
        RexCall call = (RexCall) equality;
        return call.clone(call.getType(), List.of(call.getOperands().get(1), call.getOperands().get(0)));
    }

    /**
     * Inner joins of table scans flattened: the scans in the order of their columns, each one's
     * first column, and the joins' conditions over the concatenated columns.
     */
    private record Joined(List<TableScan> tables, List<Integer> offsets, List<RexNode> conjuncts, int width) {
        static Joined of(RelNode node) {
            List<TableScan> tables = new ArrayList<>();
            List<Integer> offsets = new ArrayList<>();
            List<RexNode> conjuncts = new ArrayList<>();
            if (!collect(node.stripped(), 0, tables, offsets, conjuncts)) {
                return null;
            }
            Map<List<String>, Integer> seen = new HashMap<>();
            for (TableScan table : tables) {
                if (seen.put(table.getTable().getQualifiedName(), 1) != null) {
                    return null;
                }
            }
            return new Joined(tables, offsets, conjuncts, node.getRowType().getFieldCount());
        }

        private static boolean collect(RelNode node, int offset, List<TableScan> tables, List<Integer> offsets,
                                       List<RexNode> conjuncts) {
            if (node instanceof TableScan scan && scan.getInputs().isEmpty()) {
                tables.add(scan);
                offsets.add(offset);
                return true;
            }
            if (!(node instanceof LogicalJoin join) || join.getJoinType() != JoinRelType.INNER
                    || !join.getVariablesSet().isEmpty() || RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
                return false;
            }
            for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
                if (!conjunct.isAlwaysTrue()) {
                    conjuncts.add(RexUtil.shift(conjunct, offset));
                }
            }
            int leftWidth = join.getLeft().getRowType().getFieldCount();
            return collect(join.getLeft().stripped(), offset, tables, offsets, conjuncts)
                    && collect(join.getRight().stripped(), offset + leftWidth, tables, offsets, conjuncts);
        }

        /** The position of the scan of the same table with the same columns, or -1. */
        int indexOf(TableScan other) {
            for (int index = 0; index < tables.size(); index++) {
                TableScan table = tables.get(index);
                if (table.getTable().getQualifiedName().equals(other.getTable().getQualifiedName())
                        && table.getRowType().equals(other.getRowType()) && table.getClass() == other.getClass()) {
                    return index;
                }
            }
            return -1;
        }

        /** The columns of the marked tables. */
        ImmutableBitSet columnsOf(boolean[] marked) {
            ImmutableBitSet.Builder columns = ImmutableBitSet.builder();
            for (int table = 0; table < tables.size(); table++) {
                if (marked[table]) {
                    int width = tables.get(table).getRowType().getFieldCount();
                    columns.set(offsets.get(table), offsets.get(table) + width);
                }
            }
            return columns.build();
        }
    }
}
