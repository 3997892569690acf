package dev.columba.core.exec;

import java.util.ArrayList;
import java.util.List;

class UnionAllOperatorTest extends OperatorTestBase {
    @Override
    int inputCount() {
        return 2;
    }

    @Override
    Operator create(List<Operator> inputs) {
        return new UnionAllOperator(inputs);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> rows = new ArrayList<>();
        inputs.forEach(rows::addAll);
        return rows;
    }

    @Override
    boolean ordered() {
        return true;
    }
}
