package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.testing.TestBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A spool read by two consumers (a UNION ALL of two readers, as a plan reading one subplan twice
 * would): each reader returns the input's rows in order, the input runs once, and the copies are
 * released when the last reader closes — with the operator contract's early stops, input failures
 * and cancellation from {@link OperatorTestBase}.
 */
class SpoolTest extends OperatorTestBase {
    @Override
    Operator create(List<Operator> inputs) {
        Spool spool = new Spool(inputs.getFirst());
        return new UnionAllOperator(List.of(spool.reader(), spool.reader()));
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> twice = new ArrayList<>(inputs.getFirst());
        twice.addAll(inputs.getFirst());
        return twice;
    }

    @Override
    boolean ordered() {
        return true;
    }

    @Test
    void theSecondReaderReadsCopiesAfterTheInputIsClosed() {
        List<Object[]> rows = randomRows(700);
        ListSource source = new ListSource(SCHEMA, rows, 64, new Random(seed), -1);
        Spool spool = new Spool(source);
        Operator first = spool.reader();
        Operator second = spool.reader();
        ExecutionContext context = context(64);
        first.open(context);
        second.open(context);
        List<Object[]> read = new ArrayList<>();
        for (Batch batch = first.next(); batch != null; batch = first.next()) {
            read.addAll(TestBatches.rows(batch, first.schema()));
        }
        assertTrue(source.closed, "the input is closed once drained: the readers need only the copies");
        first.close();
        assertTrue(queryAllocator.getAllocatedMemory() > 0, "the copies stay while a reader is open");
        for (Batch batch = second.next(); batch != null; batch = second.next()) {
            read.addAll(TestBatches.rows(batch, second.schema()));
        }
        second.close();
        List<Object[]> expected = new ArrayList<>(rows);
        expected.addAll(rows);
        assertRows(expected, read, "seed " + seed);
        assertEquals(0, queryAllocator.getAllocatedMemory(), "the last reader's close released the copies");
    }

    @Test
    void aFailureWhileFillingIsEveryLaterReadersFailureNotAShortResult() {
        ListSource source = new ListSource(SCHEMA, randomRows(500), 10, null, 3);
        Spool spool = new Spool(source);
        Operator first = spool.reader();
        Operator second = spool.reader();
        ExecutionContext context = context(10);
        first.open(context);
        second.open(context);
        ColumbaException failed = assertThrows(ColumbaException.class, first::next);
        assertEquals(ErrorCode.IO_ERROR, failed.errorCode());
        ColumbaException again = assertThrows(ColumbaException.class, second::next);
        assertEquals(ErrorCode.IO_ERROR, again.errorCode());
        first.close();
        second.close();
        assertEquals(0, queryAllocator.getAllocatedMemory());
    }

    @Test
    void readersClosedUnopenedCloseTheInput() {
        ListSource source = ListSource.of(SCHEMA, randomRows(10), 4);
        Spool spool = new Spool(source);
        Operator first = spool.reader();
        Operator second = spool.reader();
        first.close();
        assertFalse(source.closed, "one reader is still to close");
        second.close();
        assertTrue(source.closed);
        assertThrows(IllegalStateException.class, spool::reader, "no reader after the spool was released");
    }
}
