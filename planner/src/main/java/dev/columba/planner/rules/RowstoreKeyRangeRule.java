package dev.columba.planner.rules;

import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.rel.KeyRange;
import dev.columba.planner.schema.RowstoreTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Pushes comparisons on the leading clustered-key columns into the rowstore scan as a key range:
 * equalities on a prefix of the key, then bounds on the next key column. The scan then starts at
 * the range's first key and stops after its last (a seek instead of a full scan). Comparisons the
 * range fully expresses leave the filter when the key column is NOT NULL and of an exact type
 * (integers, decimals, dates, timestamps); others stay in the filter as well.
 *
 * <pre>
 * before: ColumbaFilter(condition=[AND(&lt;($0, 27), =($4, 30))])
 *           ColumbaRowstoreScan(table=[[TestTable]])
 * after:  ColumbaFilter(condition=[=($4, 30)])
 *           ColumbaRowstoreScan(table=[[TestTable]], range=[ID &lt; 27])
 * </pre>
 * Does not fire for heaps, scans that already have a range, or conditions without a usable
 * comparison on the leading key column.
 */
public final class RowstoreKeyRangeRule extends RelRule<RuleConfig> {
    private RowstoreKeyRangeRule(RuleConfig config) {
        super(config);
    }

    public static RowstoreKeyRangeRule create() {
        return (RowstoreKeyRangeRule) RuleConfig.of("RowstoreKeyRangeRule",
                b -> b.operand(ColumbaFilter.class).oneInput(b2 -> b2.operand(ColumbaRowstoreScan.class)
                        .predicate(scan -> scan.clustered() && scan.range() == null).noInputs()),
                RowstoreKeyRangeRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaFilter filter = call.rel(0);
        ColumbaRowstoreScan scan = call.rel(1);
        RowstoreTable table = scan.rowstore();
        int[] projection = scan.projection();
        RexBuilder builder = filter.getCluster().getRexBuilder();
        List<RexNode> conjuncts = Conjuncts.split(builder, filter.getCondition());
        List<Integer> keys = table.keyColumns();
        List<RexNode> consumed = new ArrayList<>();
        List<RexNode> prefix = new ArrayList<>();
        RexNode low = null;
        RexNode high = null;
        boolean lowInclusive = true;
        boolean highInclusive = true;
        for (int keyIndex = 0; keyIndex < keys.size(); keyIndex++) {
            int keyColumn = keys.get(keyIndex);
            SqlType keyType = table.schema().column(keyColumn).type();
            RexNode equal = null;
            for (RexNode conjunct : conjuncts) {
                Conjuncts.Comparison comparison = Conjuncts.comparison(conjunct);
                if (comparison == null || projection[comparison.column()] != keyColumn
                        || !Conjuncts.fits(comparison.constant(), keyType)) {
                    continue;
                }
                switch (comparison.kind()) {
                    case EQUALS -> {
                        if (equal == null) {
                            equal = comparison.constant();
                            consumed.add(conjunct);
                        }
                    }
                    case LESS_THAN, LESS_THAN_OR_EQUAL -> {
                        if (high == null) {
                            high = comparison.constant();
                            highInclusive = comparison.kind() == SqlKind.LESS_THAN_OR_EQUAL;
                            consumed.add(conjunct);
                        }
                    }
                    case GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                        if (low == null) {
                            low = comparison.constant();
                            lowInclusive = comparison.kind() == SqlKind.GREATER_THAN_OR_EQUAL;
                            consumed.add(conjunct);
                        }
                    }
                    default -> {
                    }
                }
            }
            if (equal != null) {
                prefix.add(equal);
                // An equality makes any bound on this column redundant; they stay in the residual.
                low = null;
                high = null;
                continue;
            }
            break;
        }
        if (prefix.isEmpty() && low == null && high == null) {
            return;
        }
        KeyRange range = new KeyRange(prefix, low, lowInclusive, high, highInclusive);
        int rangeColumns = prefix.size() + (low != null || high != null ? 1 : 0);
        List<RexNode> residual = new ArrayList<>();
        for (RexNode conjunct : conjuncts) {
            Conjuncts.Comparison comparison = Conjuncts.comparison(conjunct);
            boolean expressed = consumed.contains(conjunct) && comparison != null
                    && keys.subList(0, rangeColumns).contains(projection[comparison.column()])
                    && exact(table, projection[comparison.column()])
                    && (conjunct == rangeConjunct(comparison, prefix, low, high));
            if (!expressed) {
                residual.add(conjunct);
            }
        }
        RelNode newScan = scan.withRange(range);
        RexNode remaining = RexUtil.composeConjunction(builder, residual);
        call.transformTo(residual.isEmpty() ? newScan : filter.copy(filter.getTraitSet(), newScan, remaining));
    }

    /** The conjunct that became part of the range for this comparison's bound, if it did. */
    private static RexNode rangeConjunct(Conjuncts.Comparison comparison, List<RexNode> prefix, RexNode low, RexNode high) {
        RexNode constant = comparison.constant();
        boolean used = switch (comparison.kind()) {
            case EQUALS -> prefix.contains(constant);
            case LESS_THAN, LESS_THAN_OR_EQUAL -> high == constant;
            case GREATER_THAN, GREATER_THAN_OR_EQUAL -> low == constant;
            default -> false;
        };
        return used ? comparison.original() : null;
    }

    /** Whether the key encoding orders and compares this column exactly as SQL does, without NULLs. */
    private static boolean exact(RowstoreTable table, int column) {
        var field = table.schema().column(column);
        return !field.nullable() && switch (field.type()) {
            case SqlType.IntegerType ignored -> true;
            case SqlType.BigintType ignored -> true;
            case SqlType.DecimalType ignored -> true;
            case SqlType.DateType ignored -> true;
            case SqlType.TimestampType ignored -> true;
            case SqlType.VarcharType ignored -> false;
            case SqlType.CharType ignored -> false;
            case SqlType.VarbinaryType ignored -> false;
            case SqlType.BinaryType ignored -> false;
            case SqlType.UuidType ignored -> false;
            case SqlType.DoubleType ignored -> false;
            case SqlType.BooleanType ignored -> false;
        };
    }
}
