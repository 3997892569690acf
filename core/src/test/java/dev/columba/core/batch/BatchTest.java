package dev.columba.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

class BatchTest {
    @Test
    void selectionNamesTheLiveRowsAndClosingReleasesEverything() {
        try (Memory memory = new Memory(64 << 20)) {
            BufferAllocator allocator = memory.child("test", 16 << 20);
            TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(10)));
            try (Batch batch = Batch.create(schema, allocator)) {
                IntVector ids = (IntVector) batch.column(0);
                VarCharVector names = (VarCharVector) batch.column(1);
                ids.allocateNew(4);
                names.allocateNew(4);
                for (int row = 0; row < 4; row++) {
                    ids.set(row, row * 10);
                    names.setSafe(row, ("n" + row).getBytes(StandardCharsets.UTF_8));
                }
                batch.setRowCount(4);
                assertFalse(batch.hasSelection());
                assertEquals(4, batch.selectedCount());
                batch.select(new int[] {1, 3}, 2);
                assertTrue(batch.hasSelection());
                assertEquals(2, batch.selectedCount());
                assertEquals(30, ids.get(batch.selectedRow(1)));
                assertTrue(allocator.getAllocatedMemory() > 0);
            }
            assertEquals(0, allocator.getAllocatedMemory(), "closing the batch released its vectors");
            allocator.close();
        }
    }

    /**
     * An owned batch makes its root only when asked (no Arrow {@code Schema} on the statement
     * path): the vectors' value counts follow {@code setRowCount} before and after, the root made
     * late has the batch's fields and row count, and closing releases the vectors either way.
     */
    @Test
    void anOwnedBatchsRootIsMadeOnlyWhenAskedAndFollowsItsRowCount() {
        try (Memory memory = new Memory(64 << 20)) {
            BufferAllocator allocator = memory.child("test", 16 << 20);
            TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(10)));
            try (Batch batch = Batch.create(schema, allocator)) {
                IntVector ids = (IntVector) batch.column(0);
                assertEquals("id", ids.getField().getName());
                assertFalse(ids.getField().isNullable());
                assertTrue(batch.column(1).getField().isNullable());
                ids.allocateNew(4);
                ((VarCharVector) batch.column(1)).allocateNew(4);
                batch.setRowCount(3);
                assertEquals(3, ids.getValueCount());
                assertEquals(3, batch.column(1).getValueCount());
                assertEquals(3, batch.root().getRowCount());
                assertEquals(java.util.List.of("id", "name"), batch.root().getSchema().getFields().stream()
                        .map(org.apache.arrow.vector.types.pojo.Field::getName).toList());
                batch.setRowCount(2);
                assertEquals(2, batch.root().getRowCount());
                assertEquals(2, ids.getValueCount());
            }
            try (Batch unused = Batch.create(schema, allocator)) {
                ((IntVector) unused.column(0)).allocateNew(8);
                assertTrue(allocator.getAllocatedMemory() > 0);
            }
            assertEquals(0, allocator.getAllocatedMemory(), "closing a batch that never made a root released its vectors");
            allocator.close();
        }
    }

    @Test
    void aViewSharesVectorsItDoesNotOwnAndHasItsOwnSelection() {
        try (Memory memory = new Memory(64 << 20)) {
            BufferAllocator allocator = memory.child("test", 16 << 20);
            TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT));
            try (Batch batch = Batch.create(schema, allocator)) {
                IntVector ids = (IntVector) batch.column(0);
                ids.allocateNew(3);
                for (int row = 0; row < 3; row++) {
                    ids.set(row, row);
                }
                batch.setRowCount(3);
                batch.select(new int[] {2}, 1);
                Batch view = Batch.view(batch.root().getFieldVectors(), 3);
                assertFalse(view.ownsVectors());
                assertEquals(3, view.selectedCount());
                view.copySelection(batch);
                assertEquals(2, view.selectedRow(0));
                view.selectAll();
                assertEquals(3, view.selectedCount());
                assertEquals(1, batch.selectedCount(), "the source keeps its own selection");
                assertThrows(IllegalStateException.class, () -> view.setRowCount(2));
                view.close();
                assertEquals(2, ids.get(2), "closing the view left the vectors alone");
            }
            assertEquals(0, allocator.getAllocatedMemory());
            allocator.close();
        }
    }
}
