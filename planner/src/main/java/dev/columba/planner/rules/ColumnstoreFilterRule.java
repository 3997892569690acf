package dev.columba.planner.rules;

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
 *
 * <pre>
 * before: ColumbaFilter(condition=[AND(&gt;=($10, 1994-01-01), &lt;($4, 24), LIKE($1, 'a%'))])
 *           ColumbaColumnstoreScan(table=[[lineitem]])
 * after:  ColumbaFilter(condition=[LIKE($1, 'a%')])
 *           ColumbaColumnstoreScan(table=[[lineitem]], filters=[l_shipdate &gt;= 1994-01-01 AND l_quantity &lt; 24])
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
                        .predicate(scan -> scan.filters().isEmpty()).noInputs()),
                ColumnstoreFilterRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaFilter filter = call.rel(0);
        ColumbaColumnstoreScan scan = call.rel(1);
        int[] projection = scan.projection();
        RexBuilder builder = filter.getCluster().getRexBuilder();
        List<PushedFilter> pushed = new ArrayList<>();
        List<RexNode> residual = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            PushedFilter in = inList(conjunct, projection, scan);
            if (in != null) {
                pushed.add(in);
                continue;
            }
            for (RexNode part : Conjuncts.split(builder, conjunct)) {
                PushedFilter single = single(part, projection, scan);
                if (single != null) {
                    pushed.add(single);
                } else {
                    residual.add(part);
                }
            }
        }
        if (pushed.isEmpty()) {
            return;
        }
        RelNode newScan = scan.withFilters(pushed);
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
