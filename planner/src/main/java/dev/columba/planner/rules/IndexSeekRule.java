package dev.columba.planner.rules;

import dev.columba.core.type.SqlType;
import dev.columba.planner.rel.ColumbaFilter;
import dev.columba.planner.rel.ColumbaIndexSeek;
import dev.columba.planner.rel.ColumbaRowstoreScan;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.storage.table.IndexStore;
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
 * Equalities on a prefix of a secondary index's key turn a rowstore scan into an index seek: the
 * index's matching entries, then each row by locator. The whole condition stays in the filter
 * above the seek except equalities on NOT NULL columns of exact types; the cost model weighs the
 * seek (random fetches) against the scan.
 *
 * <pre>
 * before: ColumbaFilter(condition=[=($1, '42')])
 *           ColumbaRowstoreScan(table=[[testtable2]])
 * after:  ColumbaIndexSeek(table=[[testtable2]], index=[ix_IDVARCHAR], values=['42'])   (+ filter for what remains)
 * </pre>
 * Does not fire for scans with a key range, tables without secondary indexes, or conditions
 * without an equality on an index's first column.
 */
public final class IndexSeekRule extends RelRule<RuleConfig> {
    private IndexSeekRule(RuleConfig config) {
        super(config);
    }

    public static IndexSeekRule create() {
        return (IndexSeekRule) RuleConfig.of("IndexSeekRule",
                b -> b.operand(ColumbaFilter.class).oneInput(b2 -> b2.operand(ColumbaRowstoreScan.class)
                        .predicate(scan -> scan.range() == null && !scan.rowstore().store().indexes().isEmpty()).noInputs()),
                IndexSeekRule::new).toRule();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ColumbaFilter filter = call.rel(0);
        ColumbaRowstoreScan scan = call.rel(1);
        RowstoreTable table = scan.rowstore();
        int[] projection = scan.projection();
        RexBuilder builder = filter.getCluster().getRexBuilder();
        List<RexNode> conjuncts = Conjuncts.split(builder, filter.getCondition());
        for (IndexStore index : table.store().indexes()) {
            List<RexNode> values = new ArrayList<>();
            List<RexNode> used = new ArrayList<>();
            for (int keyColumn : index.definition().keyColumns()) {
                SqlType type = table.schema().column(keyColumn).type();
                RexNode found = null;
                for (RexNode conjunct : conjuncts) {
                    Conjuncts.Comparison comparison = Conjuncts.comparison(conjunct);
                    if (comparison != null && comparison.kind() == SqlKind.EQUALS && projection[comparison.column()] == keyColumn
                            && Conjuncts.fits(comparison.constant(), type) && !(type instanceof SqlType.CharType)) {
                        found = comparison.constant();
                        if (!table.schema().column(keyColumn).nullable() && !(type instanceof SqlType.DoubleType)
                                && !(type instanceof SqlType.VarcharType)) {
                            used.add(conjunct);
                        }
                        break;
                    }
                }
                if (found == null) {
                    break;
                }
                values.add(found);
            }
            if (values.isEmpty()) {
                continue;
            }
            List<RexNode> residual = new ArrayList<>(conjuncts);
            residual.removeAll(used);
            RelNode seek = new ColumbaIndexSeek(scan.getCluster(), scan.getTraitSet(), scan.getTable(),
                    index.definition().name(), values, projection);
            call.transformTo(residual.isEmpty() ? seek
                    : filter.copy(filter.getTraitSet(), seek, RexUtil.composeConjunction(builder, residual)));
        }
    }
}
