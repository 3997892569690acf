package dev.columba.core.exec;

import java.util.List;

class LimitOperatorTest extends OperatorTestBase {
    private long offset;
    private long limit;

    @Override
    Operator create(List<Operator> inputs) {
        offset = random.nextInt(4) == 0 ? 0 : random.nextInt(200);
        limit = random.nextInt(5) == 0 ? LimitOperator.UNLIMITED : random.nextInt(300);
        return new LimitOperator(inputs.getFirst(), offset, limit);
    }

    @Override
    Operator createReadingEverything(List<Operator> inputs) {
        return new LimitOperator(inputs.getFirst(), 0, LimitOperator.UNLIMITED);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> rows = inputs.getFirst();
        int from = (int) Math.min(offset, rows.size());
        int to = (int) Math.min(rows.size(), from + Math.min(limit, Integer.MAX_VALUE));
        return rows.subList(from, to);
    }

    @Override
    boolean ordered() {
        return true;
    }
}
