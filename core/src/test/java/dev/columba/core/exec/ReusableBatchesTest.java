package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What {@link ReusableBatches} keeps, hands out and frees. */
class ReusableBatchesTest {
    private static final TableSchema INTS = TableSchema.of(Column.nullable("v", SqlType.INT));
    private static final TableSchema STRINGS = TableSchema.of(Column.nullable("s", SqlType.varchar(20)));

    private Memory memory;
    private ReusableBatches batches;

    @BeforeEach
    void open() {
        memory = new Memory(1L << 30);
        batches = new ReusableBatches(() -> memory.child("kept", Long.MAX_VALUE));
    }

    @AfterEach
    void close() {
        batches.close();
        assertEquals(0, memory.allocatedBytes(), "closing frees every kept batch");
        memory.close();
    }

    private Batch small(TableSchema schema) {
        Batch batch = Batch.create(schema, batches.allocator());
        for (int column = 0; column < batch.columnCount(); column++) {
            FieldVector vector = batch.column(column);
            vector.setInitialCapacity(16);
            vector.allocateNew();
        }
        return batch;
    }

    @Test
    void aKeptBatchIsTakenOnceAndOnlyForItsSchema() {
        Batch batch = small(INTS);
        batch.setRowCount(3);
        assertTrue(batches.keep(INTS, batch));
        assertEquals(0, batch.rowCount(), "a kept batch holds no rows");
        assertNull(batches.take(STRINGS));
        assertSame(batch, batches.take(INTS));
        assertNull(batches.take(INTS), "taken: no longer kept");
        batch.close();
    }

    @Test
    void largeBatchesAndBatchesOfOtherAllocatorsAreNotKept() {
        Batch large = small(INTS);
        while (large.column(0).getValueCapacity() * 4L <= ReusableBatches.MAX_BYTES) {
            large.column(0).reAlloc();
        }
        assertFalse(batches.keep(INTS, large));
        large.close();
        try (BufferAllocator other = memory.child("other", Long.MAX_VALUE)) {
            Batch foreign = Batch.create(INTS, other);
            foreign.column(0).allocateNew();
            assertFalse(batches.keep(INTS, foreign));
            foreign.close();
        }
        assertEquals(0, batches.size());
    }

    @Test
    void atMostMaxBatchesAreKeptAndNoneAfterClose() {
        for (int index = 0; index < ReusableBatches.MAX_BATCHES; index++) {
            assertTrue(batches.keep(STRINGS, small(STRINGS)));
        }
        Batch extra = small(STRINGS);
        assertFalse(batches.keep(STRINGS, extra));
        extra.close();
        assertEquals(ReusableBatches.MAX_BATCHES, batches.size());
        batches.take(STRINGS).close();
        batches.close();
        assertEquals(0, batches.size());
        assertThrows(IllegalStateException.class, batches::allocator, "closed: no batch is made for keeping");
    }
}
