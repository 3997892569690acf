package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class PlainEncodingTest extends AbstractEncodingTest {

    @Override
    EncodingKind kind() {
        return EncodingKind.PLAIN;
    }

    @Override
    boolean appliesTo(SqlType type) {
        return true;
    }

    @Test
    void aStringOffsetOutOfOrderIsCorruptWhenRead() throws Exception {
        Seeds.run("PlainEncodingTest.aStringOffsetOutOfOrderIsCorruptWhenRead", random -> {
            Encoded encoded = encode(SqlType.varchar(10), List.of("ab", "cde", "f"), random);
            byte[] bytes = encoded.bytes().clone();
            // Offsets 2, 5, 6 after the 16-byte header; make the first end after the second.
            MemorySegment.ofArray(bytes).set(SegmentFormat.LE_INT, 16, 6);
            SegmentReader reader = open(encoded, bytes);
            ColumbaException decode = assertThrows(ColumbaException.class, () -> {
                try (FieldVector target = TestColumns.newVector(allocator, SqlType.varchar(10))) {
                    reader.decode(0, 3, target, 0);
                }
            });
            assertEquals(ErrorCode.INDEX_CORRUPT, decode.errorCode());
            assertEquals("[INDEX_CORRUPT] test segment: string of row 1 ends at 5 (offset 20), outside 6..6",
                    decode.getMessage());
            ColumbaException fetch = assertThrows(ColumbaException.class, () -> reader.fetch(1));
            assertEquals("[INDEX_CORRUPT] test segment: string of row 1 spans 6..5 (offset 20) of 6 bytes", fetch.getMessage());
        });
    }

    @Test
    void doubleBitsSurviveExactly() throws Exception {
        Seeds.run("PlainEncodingTest.doubleBitsSurviveExactly", random -> {
            List<Object> values = List.of(Double.longBitsToDouble(0x7ff0000000000001L), Double.longBitsToDouble(0xfff8000000000abcL),
                    -0.0, 0.0, Double.MIN_VALUE);
            Encoded encoded = encode(SqlType.DOUBLE, values, random);
            try (FieldVector decoded = TestColumns.newVector(allocator, SqlType.DOUBLE)) {
                open(encoded).decode(0, values.size(), decoded, 0);
                assertValues(values, TestColumns.read(decoded), "NaN payloads and signed zeros");
            }
        });
    }
}
