package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaWindow;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalWindow;

/**
 * A logical window (the OVER calls Calcite's ProjectToWindowRule took out of a projection) becomes
 * Columba's window node; windows with functions it lacks (or DISTINCT, IGNORE NULLS, EXCLUDE) do
 * not convert.
 *
 * <pre>
 * before: LogicalWindow(window#0=[window(partition {1} order by [0] aggs [ROW_NUMBER()])])
 * after:  ColumbaWindow(window#0=[window(partition {1} order by [0] aggs [ROW_NUMBER()])]) = Window
 * </pre>
 */
public final class ColumbaWindowRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalWindow.class, ColumbaWindow::supported, Convention.NONE, ColumbaRel.CONVENTION,
                    "ColumbaWindowRule")
            .withRuleFactory(ColumbaWindowRule::new);

    private ColumbaWindowRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalWindow window = (LogicalWindow) rel;
        RelNode input = convert(window.getInput(), window.getInput().getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaWindow(window.getCluster(), window.getTraitSet().replace(ColumbaRel.CONVENTION), input,
                window.getConstants(), window.getRowType(), window.groups);
    }
}
