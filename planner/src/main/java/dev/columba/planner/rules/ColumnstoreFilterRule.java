package dev.columba.planner.rules;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.scan.ColumnComparison;
import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ColumbaColumnstoreScan;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.PushedFilter;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

/**
 * Pushes simple predicates into the columnstore scan: a column compared with a constant, IN lists
 * of constants, IS [NOT] NULL. The scan evaluates them on encoded segments and skips rowgroups whose
 * min/max rule them out (rowgroup elimination), with SQL's semantics, so they leave the filter.
 * CHAR columns are left to the filter (the scan pads constants, core's comparison does not).
 * Comparisons between two columns of the scanned table of the same type (whole numbers, DATE,
 * TIMESTAMP, DECIMAL up to 18 digits: types whose stored longs order as their values) are pushed
 * too, as {@link ColumnComparison}s the scan evaluates before decoding the other columns.
 *
 * <pre>
 * before: ColumbaFilter(condition=[AND(&gt;=($10, 1994-01-01), &lt;($4, 24), LIKE($1, 'a%'))])
 *           ColumbaColumnstoreScan(table=[[lineitem]])
 * after:  ColumbaFilter(condition=[LIKE($1, 'a%')])
 *           ColumbaColumnstoreScan(table=[[lineitem]], filters=[l_shipdate &gt;= 1994-01-01 AND l_quantity &lt; 24])
 *
 * before: ColumbaFilter(condition=[AND(&lt;($11, $12), &gt;=($12, 1994-01-01))])
 *           ColumbaColumnstoreScan(table=[[lineitem]])
 * after:  ColumbaColumnstoreScan(table=[[lineitem]], filters=[l_receiptdate &gt;= 1994-01-01 AND l_commitdate &lt; l_receiptdate])
 * </pre>
 * Does not fire when the scan already has filters or no conjunct qualifies.
 */
public final class ColumnstoreFilterRule extends RelRule<RuleConfig> {
    private ColumnstoreFilterRule(RuleConfig config) {
        super(config);
    }

    public static ColumnstoreFilterRule create() {
        return (ColumnstoreFilterRule) RuleConfig.of("ColumnstoreFilterRule",
                b -> b.operand(ColumbaFilter.class).oneInput(b2 -> b2.operand(ColumbaColumnstoreScan.class)
                        .predicate(scan -> !scan.filtersRows()).noInputs()),
                ColumnstoreFilterRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaFilter filter = call.rel(0);
        ColumbaColumnstoreScan scan = call.rel(1);
        int[] projection = scan.projection();
        RexBuilder builder = filter.getCluster().getRexBuilder();
        List<PushedFilter> pushed = new ArrayList<>();
        List<ColumnComparison> compared = new ArrayList<>();
        List<RexNode> residual = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            PushedFilter in = inList(conjunct, projection, scan);
            if (in != null) {
                pushed.add(in);
                continue;
            }
            for (RexNode part : Conjuncts.split(builder, conjunct)) {
                PushedFilter single = single(part, projection, scan);
                ColumnComparison betweenColumns = single == null ? betweenColumns(part, projection, scan) : null;
                if (single != null) {
                    pushed.add(single);
                } else if (betweenColumns != null) {
                    compared.add(betweenColumns);
                } else {
                    residual.add(part);
                }
            }
        }
        if (pushed.isEmpty() && compared.isEmpty()) {
            return;
        }
        RelNode newScan = scan.withFilters(pushed, compared);
        call.transformTo(residual.isEmpty() ? newScan
                : filter.copy(filter.getTraitSet(), newScan, RexUtil.composeConjunction(builder, residual)));
    }

    private static SqlType columnType(ColumbaColumnstoreScan scan, int tableColumn) {
        return scan.columnstore().schema().column(tableColumn).type();
    }

    private static boolean pushable(SqlType type) {
        return !(type instanceof SqlType.CharType) && !(type instanceof SqlType.BooleanType);
    }

    /** {@code column IN (constants)}: a SEARCH of points that is UNKNOWN for NULL. */
    private static PushedFilter inList(RexNode conjunct, int[] projection, ColumbaColumnstoreScan scan) {
        if (conjunct.getKind() != SqlKind.SEARCH) {
            return null;
        }
        RexCall call = (RexCall) conjunct;
        if (!(call.getOperands().get(0) instanceof RexInputRef reference)) {
            return null;
        }
        Sarg<?> sarg = ((RexLiteral) call.getOperands().get(1)).getValueAs(Sarg.class);
        if (sarg == null || !sarg.isPoints() || sarg.nullAs != RexUnknownAs.UNKNOWN || sarg.pointCount <= 1) {
            return null;
        }
        int column = projection[reference.getIndex()];
        SqlType type = columnType(scan, column);
        if (!pushable(type)) {
            return null;
        }
        RexBuilder builder = scan.getCluster().getRexBuilder();
        List<RexNode> constants = new ArrayList<>();
        for (RexNode point : RelOptUtil.disjunctions(RexUtil.expandSearch(builder, null, conjunct))) {
            Conjuncts.Comparison comparison = Conjuncts.comparison(point);
            if (comparison == null || comparison.kind() != SqlKind.EQUALS || !Conjuncts.fits(comparison.constant(), type)) {
                return null;
            }
            constants.add(comparison.constant());
        }
        return new PushedFilter(column, PushedFilter.Kind.IN, constants);
    }

    /**
     * {@code column op column} over two different columns of the table of the same type whose stored
     * longs order as their values (the scan compares those), or null.
     */
    private static ColumnComparison betweenColumns(RexNode conjunct, int[] projection, ColumbaColumnstoreScan scan) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2
                || !(call.getOperands().get(0) instanceof RexInputRef left)
                || !(call.getOperands().get(1) instanceof RexInputRef right)) {
            return null;
        }
        ColumnPredicate.Operator operator = switch (conjunct.getKind()) {
            case EQUALS -> ColumnPredicate.Operator.EQUAL;
            case NOT_EQUALS -> ColumnPredicate.Operator.NOT_EQUAL;
            case LESS_THAN -> ColumnPredicate.Operator.LESS;
            case LESS_THAN_OR_EQUAL -> ColumnPredicate.Operator.LESS_OR_EQUAL;
            case GREATER_THAN -> ColumnPredicate.Operator.GREATER;
            case GREATER_THAN_OR_EQUAL -> ColumnPredicate.Operator.GREATER_OR_EQUAL;
            default -> null;
        };
        int leftColumn = projection[left.getIndex()];
        int rightColumn = projection[right.getIndex()];
        SqlType type = columnType(scan, leftColumn);
        if (operator == null || leftColumn == rightColumn || !type.equals(columnType(scan, rightColumn))
                || !comparableAsStoredLongs(type)) {
            return null;
        }
        return new ColumnComparison(leftColumn, operator, rightColumn);
    }

    private static boolean comparableAsStoredLongs(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType || type instanceof SqlType.DateType
                || type instanceof SqlType.TimestampType
                || (type instanceof SqlType.DecimalType decimal && decimal.precision() <= 18);
    }

    private static PushedFilter single(RexNode conjunct, int[] projection, ColumbaColumnstoreScan scan) {
        if ((conjunct.getKind() == SqlKind.IS_NULL || conjunct.getKind() == SqlKind.IS_NOT_NULL)
                && ((RexCall) conjunct).getOperands().getFirst() instanceof RexInputRef reference) {
            int column = projection[reference.getIndex()];
            return new PushedFilter(column, conjunct.getKind() == SqlKind.IS_NULL ? PushedFilter.Kind.IS_NULL
                    : PushedFilter.Kind.IS_NOT_NULL, List.of());
        }
        Conjuncts.Comparison comparison = Conjuncts.comparison(conjunct);
        if (comparison == null) {
            return null;
        }
        int column = projection[comparison.column()];
        SqlType type = columnType(scan, column);
        if (!pushable(type) || !Conjuncts.fits(comparison.constant(), type)) {
            return null;
        }
        PushedFilter.Kind kind = switch (comparison.kind()) {
            case EQUALS -> PushedFilter.Kind.EQUAL;
            case NOT_EQUALS -> PushedFilter.Kind.NOT_EQUAL;
            case LESS_THAN -> PushedFilter.Kind.LESS;
            case LESS_THAN_OR_EQUAL -> PushedFilter.Kind.LESS_OR_EQUAL;
            case GREATER_THAN -> PushedFilter.Kind.GREATER;
            case GREATER_THAN_OR_EQUAL -> PushedFilter.Kind.GREATER_OR_EQUAL;
            default -> null;
        };
        return kind == null ? null : new PushedFilter(column, kind, List.of(comparison.constant()));
    }
}
