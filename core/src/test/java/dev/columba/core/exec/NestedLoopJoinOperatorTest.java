package dev.columba.core.exec;

import java.util.List;

class NestedLoopJoinOperatorTest extends OperatorTestBase {
    private JoinType joinType;
    private dev.columba.core.expr.Expr condition;

    @Override
    int inputCount() {
        return 2;
    }

    @Override
    int maxRows() {
        return 150;
    }

    @Override
    Operator create(List<Operator> inputs) {
        joinType = JoinType.values()[random.nextInt(JoinType.values().length)];
        condition = random.nextInt(6) == 0 ? null : HashJoinOperatorTest.randomCondition(random);
        return new NestedLoopJoinOperator(inputs.get(0), inputs.get(1), joinType, condition);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return HashJoinOperatorTest.referenceJoin(inputs.get(0), inputs.get(1), joinType, (left, right) -> condition == null
                || Boolean.TRUE.equals(dev.columba.core.expr.Evaluator.evaluate(condition, HashJoinOperatorTest.concat(left, right), EVALUATION)));
    }
}
