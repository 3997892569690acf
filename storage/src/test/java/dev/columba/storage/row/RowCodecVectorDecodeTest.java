package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RowCodec#decodeInto}, the batch path of rowstore scans, against {@link RowCodec#decode},
 * the reference: every type's edge values and NULLs, projections in any order, out-of-row values,
 * positions past the vectors' initial capacity, and damage reported as by the reference.
 */
class RowCodecVectorDecodeTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close(); // fails on a leaked buffer
    }

    @Test
    void edgeValuesDecodeIntoVectorsAsIntoObjects() {
        TableSchema schema = RowCodecRoundTripTest.EVERY_TYPE;
        RowCodec codec = new RowCodec(schema);
        List<byte[]> rows = new ArrayList<>();
        int distinctRows = RowCodecRoundTripTest.EDGE_VALUES.stream().mapToInt(List::size).max().orElseThrow();
        // Past 4,096 rows so that every vector grows while being filled; every 7th row all NULL.
        for (int rowIndex = 0; rowIndex < 5_000; rowIndex++) {
            Object[] row = new Object[schema.size()];
            for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                List<Object> edges = RowCodecRoundTripTest.EDGE_VALUES.get(columnIndex);
                row[columnIndex] = rowIndex % 7 == 6 ? null : edges.get((rowIndex + columnIndex) % distinctRows % edges.size());
            }
            rows.add(codec.encode(row));
        }
        int[][] projections = {allColumns(schema.size()), reversed(allColumns(schema.size())), {6, 0, 5}, {9}};
        for (int[] projection : projections) {
            FieldVector[] vectors = vectors(schema, projection);
            try {
                for (int position = 0; position < rows.size(); position++) {
                    codec.decodeInto(MemorySegment.ofArray(rows.get(position)), 0, projection, vectors, position, lob -> {
                        throw new AssertionError("no value is out of row");
                    });
                }
                Object[] expected = new Object[projection.length];
                for (int position = 0; position < rows.size(); position++) {
                    codec.decode(MemorySegment.ofArray(rows.get(position)), 0, projection, expected);
                    for (int slot = 0; slot < projection.length; slot++) {
                        vectors[slot].setValueCount(rows.size());
                        SqlType type = schema.column(projection[slot]).type();
                        assertEquals(expected[slot], VectorValues.get(vectors[slot], position, type),
                                "row " + position + ", column " + schema.column(projection[slot]).name() + ", projection "
                                        + Arrays.toString(projection));
                    }
                }
            } finally {
                close(vectors);
            }
        }
    }

    @Test
    void outOfRowValuesAreReadThroughTheLobReader() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("text", SqlType.varchar(100)));
        RowCodec codec = new RowCodec(schema);
        String text = "ünïcödé out of row";
        byte[] row = codec.encode(new Object[] {1, new LobRef(42, text.getBytes(StandardCharsets.UTF_8).length)});
        FieldVector[] vectors = vectors(schema, new int[] {0, 1});
        List<LobRef> asked = new ArrayList<>();
        try {
            codec.decodeInto(MemorySegment.ofArray(row), 0, new int[] {0, 1}, vectors, 0, reference -> {
                asked.add(reference);
                return text.getBytes(StandardCharsets.UTF_8);
            });
            vectors[1].setValueCount(1);
            assertEquals(List.of(new LobRef(42, text.getBytes(StandardCharsets.UTF_8).length)), asked);
            assertEquals(text, VectorValues.get(vectors[1], 0, schema.column(1).type()));
        } finally {
            close(vectors);
        }
    }

    @Test
    void shortDecimalsMayDecodeIntoUnscaledLongs() {
        TableSchema schema = TableSchema.of(Column.nullable("price", SqlType.decimal(18, 4)));
        RowCodec codec = new RowCodec(schema);
        try (BigIntVector unscaled = new BigIntVector("price", allocator)) {
            codec.decodeInto(MemorySegment.ofArray(codec.encode(new Object[] {new BigDecimal("-12.3456")})), 0, new int[] {0},
                    new FieldVector[] {unscaled}, 0, lob -> null);
            codec.decodeInto(MemorySegment.ofArray(codec.encode(new Object[] {null})), 0, new int[] {0},
                    new FieldVector[] {unscaled}, 1, lob -> null);
            unscaled.setValueCount(2);
            assertEquals(-123_456L, unscaled.get(0));
            assertTrue(unscaled.isNull(1));
        }
    }

    @Test
    void damageIsReportedAsByTheReferenceDecoder() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(20)));
        RowCodec codec = new RowCodec(schema);
        byte[] row = codec.encode(new Object[] {7, "seven"});
        // The name's end offset (the last two bytes before the data) now points far past the row.
        int endOffset = row.length - "seven".length() - 2;
        row[endOffset] = (byte) 0xff;
        row[endOffset + 1] = (byte) 0xff;
        FieldVector[] vectors = vectors(schema, new int[] {0, 1});
        try {
            ColumbaException reference = assertThrows(ColumbaException.class,
                    () -> codec.decode(MemorySegment.ofArray(row), 0, new int[] {0, 1}, new Object[2]));
            ColumbaException batch = assertThrows(ColumbaException.class,
                    () -> codec.decodeInto(MemorySegment.ofArray(row), 0, new int[] {0, 1}, vectors, 0, lob -> null));
            assertEquals(ErrorCode.INDEX_CORRUPT, batch.errorCode());
            assertEquals(reference.getMessage(), batch.getMessage());
        } finally {
            close(vectors);
        }
    }

    private FieldVector[] vectors(TableSchema schema, int[] projection) {
        FieldVector[] vectors = new FieldVector[projection.length];
        for (int slot = 0; slot < projection.length; slot++) {
            Column column = schema.column(projection[slot]);
            vectors[slot] = VectorValues.newVector(column.name(), column.type(), allocator);
        }
        return vectors;
    }

    private static void close(FieldVector[] vectors) {
        for (FieldVector vector : vectors) {
            vector.close();
        }
    }

    private static int[] allColumns(int count) {
        int[] columns = new int[count];
        Arrays.setAll(columns, column -> column);
        return columns;
    }

    private static int[] reversed(int[] columns) {
        int[] result = new int[columns.length];
        for (int index = 0; index < columns.length; index++) {
            result[index] = columns[columns.length - 1 - index];
        }
        return result;
    }
}
