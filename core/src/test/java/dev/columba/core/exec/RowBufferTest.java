package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.batch.Batch;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * A row buffer handed over without copying ({@link RowBuffer#transfer}), as a shared hash build
 * takes the largest worker's share for its table: the new buffer holds the rows and appends after
 * them, the old one is empty, and closing both frees everything.
 */
class RowBufferTest {
    private static final TableSchema SCHEMA = TableSchema.of(Column.nullable("id", SqlType.BIGINT),
            Column.nullable("name", SqlType.varchar(20)));

    private static List<Object[]> rows(int from, int to) {
        List<Object[]> rows = new ArrayList<>();
        for (int row = from; row < to; row++) {
            rows.add(new Object[] {row % 7 == 0 ? null : (long) row, row % 5 == 0 ? null : "name " + row});
        }
        return rows;
    }

    private static void append(RowBuffer buffer, List<Object[]> rows, RootAllocator allocator) {
        try (Batch batch = TestBatches.batch(SCHEMA, rows, allocator)) {
            int[] positions = Vectors.livePositions(batch, new int[0]);
            buffer.append(batch, positions, batch.selectedCount());
        }
    }

    @Test
    void aTransferredBufferHoldsTheRowsAndAppendsAfterThem() {
        try (RootAllocator allocator = new RootAllocator()) {
            RowBuffer share = new RowBuffer(SCHEMA, allocator);
            append(share, rows(0, 3000), allocator);
            RowBuffer taken = share.transfer();
            assertEquals(0, share.size());
            assertEquals(3000, taken.size());
            append(taken, rows(3000, 5000), allocator);
            List<Object[]> expected = rows(0, 5000);
            List<Object[]> actual = TestBatches.rows(taken.asBatch(), SCHEMA);
            assertEquals(expected.size(), actual.size());
            for (int row = 0; row < expected.size(); row++) {
                assertArrayEquals(expected.get(row), actual.get(row), "row " + row);
            }
            share.close();
            taken.close();
            assertEquals(0, allocator.getAllocatedMemory());
        }
    }
}
