package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parallel ORDER BY's merge: three workers, each a sort of a source of its own on a thread of
 * its own, by one to three random keys (ascending or descending, NULLs first or last, over every
 * type of the base test's columns, strings among them). The merged rows must be exactly a stable
 * sort of the three inputs one after the other: ties between workers come in worker order, ties
 * within one in its input order. The base class also stops it early, fails an input, cancels it and
 * checks the query's allocator after each case.
 */
class MergeGatherOperatorTest extends OperatorTestBase {
    private List<SortKey> keys;

    @Override
    int inputCount() {
        return 3;
    }

    @Override
    Operator create(List<Operator> inputs) {
        keys = randomKeys();
        List<SortOperator> sorts = new ArrayList<>();
        for (Operator input : inputs) {
            sorts.add(new SortOperator(input, keys));
        }
        return new MergeGatherOperator(sorts);
    }

    private List<SortKey> randomKeys() {
        List<SortKey> result = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int key = 0; key < count; key++) {
            result.add(new SortKey(random.nextInt(SCHEMA.size()), random.nextBoolean(), random.nextBoolean()));
        }
        return result;
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return SortOperatorTest.sorted(all, keys);
    }

    @Override
    boolean ordered() {
        return true;
    }

    @Test
    void oneFailingWorkerStopsTheOthersAndItsErrorReachesTheConsumer() {
        List<ListSource> sources = List.of(
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(50), 10, null, 2),
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1));
        List<SortKey> byFirst = List.of(new SortKey(0, false, false));
        List<SortOperator> sorts = new ArrayList<>();
        for (ListSource source : sources) {
            sorts.add(new SortOperator(source, byFirst));
        }
        MergeGatherOperator merge = new MergeGatherOperator(sorts);
        merge.open(context(10));
        ColumbaException failure = assertThrows(ColumbaException.class, merge::next);
        assertEquals(ErrorCode.IO_ERROR, failure.errorCode());
        merge.close();
        for (ListSource source : sources) {
            assertTrue(source.closed, "every worker closed its fragment");
        }
        assertEquals(0, queryAllocator.getAllocatedMemory());
    }

    @Test
    void workersThatSortByOtherKeysAreRefused() {
        List<SortOperator> sorts = List.of(
                new SortOperator(new ListSource(SCHEMA, randomRows(5), 10, null, -1), List.of(new SortKey(0, false, false))),
                new SortOperator(new ListSource(SCHEMA, randomRows(5), 10, null, -1), List.of(new SortKey(1, false, false))));
        ColumbaException refused = assertThrows(ColumbaException.class, () -> new MergeGatherOperator(sorts));
        assertEquals(ErrorCode.INTERNAL, refused.errorCode());
        sorts.forEach(SortOperator::close);
    }
}
