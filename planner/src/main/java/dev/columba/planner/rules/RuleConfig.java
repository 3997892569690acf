package dev.columba.planner.rules;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * A rule's configuration without Calcite's generated immutables: its operands, description and
 * how to build it. Columba's rules carry per-statement state (hints, settings), so they are built
 * per planning from this.
 */
record RuleConfig(String description, RelRule.OperandTransform operandSupplier, RelBuilderFactory relBuilderFactory,
                  Function<RuleConfig, RelOptRule> factory) implements RelRule.Config {

    static RuleConfig of(String description, RelRule.OperandTransform operands, Function<RuleConfig, RelOptRule> factory) {
        return new RuleConfig(description, operands, RelFactories.LOGICAL_BUILDER, factory);
    }

    @Override
    public RelOptRule toRule() {
        return factory.apply(this);
    }

    @Override
    public RelRule.Config withRelBuilderFactory(RelBuilderFactory builderFactory) {
        return new RuleConfig(description, operandSupplier, builderFactory, factory);
    }

    @Override
    public RelRule.Config withDescription(String newDescription) {
        return new RuleConfig(newDescription, operandSupplier, relBuilderFactory, factory);
    }

    @Override
    public RelRule.Config withOperandSupplier(RelRule.OperandTransform transform) {
        return new RuleConfig(description, transform, relBuilderFactory, factory);
    }
}
