package dev.columba.core.exec;

import java.util.List;

class TopNOperatorTest extends OperatorTestBase {
    private List<SortKey> keys;
    private long offset;
    private long limit;

    @Override
    Operator create(List<Operator> inputs) {
        SortOperatorTest helper = new SortOperatorTest();
        helper.random = random;
        keys = helper.randomKeys();
        offset = random.nextInt(3) == 0 ? 0 : random.nextInt(30);
        limit = random.nextInt(6) == 0 ? 0 : random.nextInt(4) == 0 ? 1000 : 1 + random.nextInt(40);
        return new TopNOperator(inputs.getFirst(), keys, offset, limit);
    }

    @Override
    Operator createReadingEverything(List<Operator> inputs) {
        return new TopNOperator(inputs.getFirst(), List.of(SortKey.ascending(0)), 0, 10);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> sorted = SortOperatorTest.sorted(inputs.getFirst(), keys);
        int from = (int) Math.min(offset, sorted.size());
        return sorted.subList(from, (int) Math.min(sorted.size(), from + limit));
    }

    @Override
    boolean ordered() {
        return true;
    }
}
