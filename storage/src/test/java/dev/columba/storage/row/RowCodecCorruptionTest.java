package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Damaged rows fail with an exact error naming the row's offset and the bad value, never with an
 * out-of-bounds access. The row under test, byte by byte ({@code docs/format/row.md}):
 *
 * <pre>
 *  0      header 0x01 (version 1, no flags)
 *  1..2   column count 4
 *  3      null bitmap 0x00
 *  4..7   id = 7
 *  8      flag = 1
 *  9..10  end of name = 16
 *  11..12 end of note = 18
 *  13..15 "abc"
 *  16..17 "xy"
 * </pre>
 */
class RowCodecCorruptionTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.INT),
            Column.nullable("name", SqlType.varchar(20)),
            Column.nullable("flag", SqlType.BOOLEAN),
            Column.nullable("note", SqlType.varchar(20)));
    private static final int NAME = 1;
    private static final int FLAG = 2;
    private static final int NOTE = 3;
    private static final Set<ErrorCode> CORRUPTION = Set.of(ErrorCode.INDEX_CORRUPT, ErrorCode.FORMAT_TOO_NEW);

    private final RowCodec codec = new RowCodec(SCHEMA);

    private byte[] validRow() {
        byte[] row = codec.encode(new Object[] {7, "abc", true, "xy"});
        assertEquals(18, row.length, "the layout in the class comment");
        return row;
    }

    @Test
    void zeroVersionIsCorruption() {
        byte[] row = validRow();
        row[0] = 0x00;
        assertFails(ErrorCode.INDEX_CORRUPT, "corrupt row at offset 0: format version 0 does not exist", () -> codec.decodeColumn(segment(row), 0, 0));
    }

    @Test
    void newerVersionIsTooNew() {
        byte[] row = validRow();
        row[0] = 0x02;
        assertFails(ErrorCode.FORMAT_TOO_NEW, "row at offset 0 has format version 2, this build reads version 1",
                () -> codec.rowLength(segment(row), 0));
    }

    @Test
    void reservedHeaderBitsAreCorruption() {
        byte[] row = validRow();
        row[0] = 0x41;
        assertFails(ErrorCode.INDEX_CORRUPT, "reserved header bits set (header byte 0x41)", () -> codec.isNull(segment(row), 0, 0));
    }

    @Test
    void variableLengthFlagsInATableWithoutVariableLengthColumnsAreCorruption() {
        RowCodec fixedOnly = new RowCodec(TableSchema.of(Column.notNull("id", SqlType.INT)));
        byte[] row = fixedOnly.encode(new Object[] {5});
        row[0] = (byte) (RowFormat.VERSION | RowFormat.FLAG_OUT_OF_ROW);
        assertFails(ErrorCode.INDEX_CORRUPT, "header byte 0x21 flags variable-length values", () -> fixedOnly.decodeInt(segment(row), 0, 0));
    }

    @Test
    void columnCountOfAnotherTableIsCorruption() {
        byte[] row = validRow();
        row[1] = 5;
        assertFails(ErrorCode.INDEX_CORRUPT, "row has 5 columns, table has 4", () -> codec.decode(segment(row), 0));
    }

    @Test
    void endOffsetPastTheRowIsCorruption() {
        byte[] row = validRow();
        putShort(row, 9, 0xFFFF);
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) spans [13, 65535), outside the variable data [13, 18)",
                () -> codec.decodeColumn(segment(row), 0, NAME));
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) ends at 65535, outside [13, 18]", () -> codec.rowLength(segment(row), 0));
        assertFails(ErrorCode.INDEX_CORRUPT, "column note VARCHAR(20) spans [65535, 18)", () -> codec.decodeUtf8(segment(row), 0, NOTE));
    }

    @Test
    void rowEndingBeforeItsVariableDataIsCorruption() {
        byte[] row = validRow();
        putShort(row, 11, 12);
        assertFails(ErrorCode.INDEX_CORRUPT, "row ends at 12, outside [13, 18]", () -> codec.decodeColumn(segment(row), 0, NAME));
    }

    @Test
    void descendingOffsetsAreCorruption() {
        byte[] row = validRow();
        putShort(row, 9, 17);
        putShort(row, 11, 16);
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) spans [13, 17), outside the variable data [13, 16)",
                () -> codec.decodeColumn(segment(row), 0, NAME));
        assertFails(ErrorCode.INDEX_CORRUPT, "column note VARCHAR(20) spans [17, 16)", () -> codec.decodeColumn(segment(row), 0, NOTE));
    }

    @Test
    void everyTruncationIsCorruption() {
        byte[] row = validRow();
        for (int length = 0; length < row.length; length++) {
            MemorySegment truncated = segment(Arrays.copyOf(row, length));
            assertFails(ErrorCode.INDEX_CORRUPT, "corrupt row at offset 0", () -> codec.rowLength(truncated, 0));
            assertFails(ErrorCode.INDEX_CORRUPT, "corrupt row at offset 0", () -> codec.decodeColumn(truncated, 0, NOTE));
        }
    }

    @Test
    void rowOffsetOutsideTheSegmentIsCorruption() {
        MemorySegment row = segment(validRow());
        assertFails(ErrorCode.INDEX_CORRUPT, "corrupt row at offset 17: the 3-byte header does not fit in a segment of 18 bytes",
                () -> codec.decodeColumn(row, 17, 0));
        assertFails(ErrorCode.INDEX_CORRUPT, "corrupt row at offset -1", () -> codec.decodeColumn(row, -1, 0));
    }

    @Test
    void booleanOtherThanZeroOrOneIsCorruption() {
        byte[] row = validRow();
        row[8] = 2;
        assertFails(ErrorCode.INDEX_CORRUPT, "column flag BOOLEAN holds byte 2, not 0 or 1", () -> codec.decodeColumn(segment(row), 0, FLAG));
        assertFails(ErrorCode.INDEX_CORRUPT, "column flag BOOLEAN holds byte 2", () -> codec.decodeBoolean(segment(row), 0, FLAG));
    }

    @Test
    void outOfRowFlagOverAShortValueIsCorruption() {
        byte[] row = validRow();
        // The out-of-row bitmap now claims byte 13 ('a' = 0x61, bit 0 set: name); name's value shrinks to [14, 16).
        row[0] = (byte) (RowFormat.VERSION | RowFormat.FLAG_OUT_OF_ROW);
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) is out of row but holds 2 bytes instead of a 16-byte reference",
                () -> codec.decodeColumn(segment(row), 0, NAME));
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) is marked out of row but holds 2 bytes",
                () -> codec.rowLength(segment(row), 0));
    }

    @Test
    void negativeLobReferenceIsCorruption() {
        byte[] row = codec.encode(new Object[] {7, new LobRef(3, 10), true, null});
        // The reference follows the 1-byte out-of-row bitmap at 13.
        MemorySegment.ofArray(row).set(RowFormat.ROW_LONG, 14, -1L);
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) refers to page -1 for 10 bytes",
                () -> codec.decodeColumn(segment(row), 0, NAME));
    }

    @Test
    void nullValueWithBytesIsCorruptionToTheVerifier() {
        byte[] row = validRow();
        row[3] = 1 << NAME;
        assertNull(codec.decodeColumn(segment(row), 0, NAME), "decoders trust the null bitmap");
        assertFails(ErrorCode.INDEX_CORRUPT, "column name VARCHAR(20) is NULL but has 3 bytes", () -> codec.rowLength(segment(row), 0));
    }

    @Test
    void randomDamageNeverEscapesAsAnythingButCorruption() throws Exception {
        Seeds.run("randomDamageNeverEscapesAsAnythingButCorruption", random -> {
            RandomValues values = new RandomValues(random);
            for (int attempt = 0; attempt < 300; attempt++) {
                TableSchema schema = values.schema(8);
                RowCodec randomCodec = new RowCodec(schema);
                Object[] input = values.row(schema, 0.3);
                for (int columnIndex = 0; columnIndex < input.length; columnIndex++) {
                    if (input[columnIndex] instanceof String && random.nextInt(4) == 0) {
                        input[columnIndex] = new LobRef(random.nextInt(1000), random.nextInt(4));
                    }
                }
                byte[] encoded = randomCodec.encode(input);
                for (int damage = 0; damage < 20; damage++) {
                    byte[] damaged = random.nextInt(4) == 0
                            ? Arrays.copyOf(encoded, random.nextInt(encoded.length))
                            : encoded.clone();
                    for (int flip = 1 + random.nextInt(3); flip > 0 && damaged.length > 0; flip--) {
                        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                    }
                    readEverything(randomCodec, segment(damaged));
                }
            }
        });
    }

    /** Reads every column every way; only success or a corruption error is acceptable. */
    private static void readEverything(RowCodec codec, MemorySegment row) {
        TableSchema schema = codec.schema();
        acceptCorruption(() -> codec.rowLength(row, 0));
        acceptCorruption(() -> codec.decode(row, 0));
        for (int columnIndex = 0; columnIndex < schema.size(); columnIndex++) {
            int column = columnIndex;
            acceptCorruption(() -> codec.decodeColumn(row, 0, column));
            acceptCorruption(() -> codec.isNull(row, 0, column));
            acceptCorruption(() -> codec.isOutOfRow(row, 0, column));
            switch (schema.column(columnIndex).type()) {
                case SqlType.BooleanType ignored -> acceptCorruption(() -> codec.decodeBoolean(row, 0, column));
                case SqlType.IntegerType ignored -> acceptCorruption(() -> codec.decodeInt(row, 0, column));
                case SqlType.DateType ignored -> acceptCorruption(() -> codec.decodeInt(row, 0, column));
                case SqlType.BigintType ignored -> acceptCorruption(() -> codec.decodeLong(row, 0, column));
                case SqlType.TimestampType ignored -> acceptCorruption(() -> codec.decodeLong(row, 0, column));
                case SqlType.DoubleType ignored -> acceptCorruption(() -> codec.decodeDouble(row, 0, column));
                case SqlType.DecimalType ignored -> acceptCorruption(() -> codec.decodeDecimalHigh(row, 0, column));
                case SqlType.VarcharType ignored -> acceptCorruption(() -> {
                    if (!codec.isOutOfRow(row, 0, column)) {
                        codec.decodeUtf8(row, 0, column);
                    }
                });
                case SqlType.CharType ignored -> acceptCorruption(() -> {
                    if (!codec.isOutOfRow(row, 0, column)) {
                        codec.decodeUtf8(row, 0, column);
                    }
                });
                case SqlType.VarbinaryType ignored -> { }
                case SqlType.BinaryType ignored -> { }
                case SqlType.UuidType ignored -> { }
            }
        }
    }

    private static void acceptCorruption(Executable read) {
        try {
            read.execute();
        } catch (ColumbaException error) {
            assertTrue(CORRUPTION.contains(error.errorCode()), error.getMessage());
        } catch (Throwable other) {
            throw new AssertionError("damage escaped as " + other, other);
        }
    }

    private static void assertFails(ErrorCode expected, String fragment, Executable read) {
        ColumbaException error = assertThrows(ColumbaException.class, read);
        assertEquals(expected, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().contains(fragment), "'" + fragment + "' missing from: " + error.getMessage());
    }

    private static MemorySegment segment(byte[] bytes) {
        return MemorySegment.ofArray(bytes);
    }

    private static void putShort(byte[] row, int offset, int value) {
        MemorySegment.ofArray(row).set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), offset, (short) value);
    }
}
