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
 * The exchange of parallel plans: three workers, each a source of its own, on threads of their
 * own; the gather returns all their rows (in no particular order), stops and closes every worker
 * when one fails, when the query is cancelled or when the consumer stops early, and leaves no
 * memory behind (the base class checks the query's allocator after each case).
 */
class GatherOperatorTest extends OperatorTestBase {
    @Override
    int inputCount() {
        return 3;
    }

    @Override
    Operator create(List<Operator> inputs) {
        return new GatherOperator(inputs);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return all;
    }

    @Test
    void oneFailingWorkerStopsTheOthersAndItsErrorReachesTheConsumer() {
        List<Operator> workers = List.of(
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(50), 10, null, 2),
                new ListSource(SCHEMA, randomRows(5000), 10, null, -1));
        GatherOperator gather = new GatherOperator(workers);
        gather.open(context(10));
        ColumbaException failure = assertThrows(ColumbaException.class, () -> {
            while (gather.next() != null) {
                // drains until the second worker fails
            }
        });
        assertEquals(ErrorCode.IO_ERROR, failure.errorCode());
        gather.close();
        for (Operator worker : workers) {
            assertTrue(((ListSource) worker).closed, "every worker closed its fragment");
        }
        assertEquals(0, queryAllocator.getAllocatedMemory());
    }

    @Test
    void workersRunOnThreadsOfTheirOwnAndTheirCpuTimeIsCounted() {
        List<Operator> workers = new ArrayList<>();
        for (int worker = 0; worker < 3; worker++) {
            workers.add(new ListSource(SCHEMA, randomRows(2000), 50, null, -1));
        }
        GatherOperator gather = new GatherOperator(workers);
        ExecutionContext context = context(50);
        assertEquals(6000, run(gather, context).size());
        assertEquals(3, context.query().statistics().degree());
        assertTrue(context.query().statistics().workerCpuNanos() > 0, "the workers' CPU time is the statement's");
    }
}
