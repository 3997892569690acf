package dev.columba.planner.rules;

import dev.columba.planner.rel.ColumbaProject;
import dev.columba.planner.rel.ColumbaRel;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexOver;

/**
 * A logical projection becomes Columba's project. Window functions ({@code OVER}) have no
 * operator, so a projection holding one does not convert (and the statement fails to plan).
 *
 * <pre>
 * before: LogicalProject(ID=[$0], x=[+($2, 1)])       after: ColumbaProject(ID=[$0], x=[+($2, 1)])
 * </pre>
 */
public final class ColumbaProjectRule extends ConverterRule {
    public static final Config CONFIG = Config.INSTANCE
            .withConversion(LogicalProject.class, project -> !RexOver.containsOver(project.getProjects(), null),
                    Convention.NONE, ColumbaRel.CONVENTION, "ColumbaProjectRule")
            .withRuleFactory(ColumbaProjectRule::new);

    private ColumbaProjectRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalProject project = (LogicalProject) rel;
        RelNode input = convert(project.getInput(), project.getInput().getTraitSet().replace(ColumbaRel.CONVENTION));
        return new ColumbaProject(project.getCluster(), project.getTraitSet().replace(ColumbaRel.CONVENTION), input,
                project.getProjects(), project.getRowType());
    }
}
