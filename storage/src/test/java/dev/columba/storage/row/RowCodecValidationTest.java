package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What encoding rejects, with which error code, and that the message names the column and value. */
class RowCodecValidationTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.INT),
            Column.nullable("total", SqlType.BIGINT),
            Column.nullable("ratio", SqlType.DOUBLE),
            Column.nullable("price", SqlType.decimal(5, 2)),
            Column.nullable("amount", SqlType.decimal(38, 0)),
            Column.nullable("name", SqlType.varchar(3)),
            Column.nullable("code", SqlType.character(2)),
            Column.nullable("day", SqlType.DATE),
            Column.nullable("moment", SqlType.TIMESTAMP),
            Column.nullable("flag", SqlType.BOOLEAN));

    private static final Object[] VALID_ROW = {1, 2L, 3.0, new BigDecimal("1.00"), BigDecimal.ONE, "abc", "ab",
        LocalDate.of(2024, 5, 6), LocalDateTime.of(2024, 5, 6, 7, 8, 9), true};

    private final RowCodec codec = new RowCodec(SCHEMA);

    static Stream<Arguments> rejectedValues() {
        return Stream.of(
                Arguments.of("id", 1L, ErrorCode.WRONG_TYPE, List.of("column id INT", "expects Integer", "Long 1")),
                Arguments.of("total", 2, ErrorCode.WRONG_TYPE, List.of("column total BIGINT", "Integer 2")),
                Arguments.of("ratio", 1.5f, ErrorCode.WRONG_TYPE, List.of("column ratio DOUBLE", "Float 1.5")),
                Arguments.of("price", 1.5, ErrorCode.WRONG_TYPE, List.of("column price DECIMAL(5,2)", "expects BigDecimal", "Double 1.5")),
                Arguments.of("name", 42, ErrorCode.WRONG_TYPE, List.of("column name VARCHAR(3)", "Integer 42")),
                Arguments.of("day", LocalDateTime.of(2024, 1, 1, 0, 0), ErrorCode.WRONG_TYPE, List.of("column day DATE", "2024-01-01T00:00")),
                Arguments.of("moment", LocalDate.of(2024, 1, 1), ErrorCode.WRONG_TYPE, List.of("column moment TIMESTAMP", "LocalDate 2024-01-01")),
                Arguments.of("flag", "true", ErrorCode.WRONG_TYPE, List.of("column flag BOOLEAN", "String 'true'")),
                Arguments.of("id", new LobRef(1, 2), ErrorCode.WRONG_TYPE, List.of("column id INT", "LobRef[firstPageId=1, byteLength=2]")),
                Arguments.of("name", "abcd", ErrorCode.STRING_TOO_LONG, List.of("column name VARCHAR(3)", "4 characters", "'abcd'")),
                Arguments.of("name", "😀😀😀😀", ErrorCode.STRING_TOO_LONG, List.of("column name VARCHAR(3)", "4 characters")),
                Arguments.of("code", "abc", ErrorCode.STRING_TOO_LONG, List.of("column code CHAR(2)", "3 characters", "'abc'")),
                Arguments.of("name", new LobRef(1, 13), ErrorCode.STRING_TOO_LONG, List.of("column name VARCHAR(3)", "13 bytes")),
                Arguments.of("price", new BigDecimal("1000"), ErrorCode.VALUE_OUT_OF_RANGE, List.of("column price DECIMAL(5,2)", "1000")),
                Arguments.of("price", new BigDecimal("1.234"), ErrorCode.VALUE_OUT_OF_RANGE, List.of("column price DECIMAL(5,2)", "1.234")),
                Arguments.of("amount", new BigDecimal(BigInteger.TEN.pow(38)), ErrorCode.VALUE_OUT_OF_RANGE,
                        List.of("column amount DECIMAL(38,0)", "1" + "0".repeat(38))),
                Arguments.of("day", LocalDate.MAX, ErrorCode.VALUE_OUT_OF_RANGE, List.of("column day DATE", "+999999999-12-31")),
                Arguments.of("moment", LocalDateTime.MIN, ErrorCode.VALUE_OUT_OF_RANGE, List.of("column moment TIMESTAMP", "-999999999-01-01T00:00")),
                Arguments.of("id", null, ErrorCode.NULL_NOT_ALLOWED, List.of("column id INT", "NOT NULL")),
                Arguments.of("name", "a\uD800", ErrorCode.INVALID_ARGUMENT, List.of("column name VARCHAR(3)", "unpaired surrogate U+D800")),
                Arguments.of("code", "\uDC00", ErrorCode.INVALID_ARGUMENT, List.of("column code CHAR(2)", "U+DC00 at index 0")));
    }

    @ParameterizedTest(name = "{0} = {1} -> {2}")
    @MethodSource("rejectedValues")
    void everyEncoderRejectsTheValueNamingColumnAndValue(String column, Object value, ErrorCode expected, List<String> fragments) {
        Object[] row = VALID_ROW.clone();
        row[SCHEMA.indexOf(column)] = value;
        byte[] untouched = new byte[256];
        Arrays.fill(untouched, (byte) 0x5A);
        MemorySegment target = MemorySegment.ofArray(untouched.clone());

        List<Executable> encoders = List.of(
                () -> codec.encode(row),
                () -> codec.encodedSize(row),
                () -> codec.encode(row, target, 0),
                () -> codec.columnsToMoveOutOfRow(row, 16));
        for (Executable encoder : encoders) {
            ColumbaException error = assertThrows(ColumbaException.class, encoder);
            assertEquals(expected, error.errorCode(), error.getMessage());
            for (String fragment : fragments) {
                assertTrue(error.getMessage().contains(fragment), "'" + fragment + "' missing from: " + error.getMessage());
            }
        }
        assertArrayEquals(untouched, target.toArray(ValueLayout.JAVA_BYTE), "a rejected row writes nothing");
    }

    @Test
    void valuesAtTheLimitsAreAccepted() {
        Object[] row = VALID_ROW.clone();
        row[SCHEMA.indexOf("name")] = "😀😀😀";
        row[SCHEMA.indexOf("code")] = "";
        row[SCHEMA.indexOf("price")] = new BigDecimal("-999.990");
        row[SCHEMA.indexOf("amount")] = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE)).negate();
        Object[] decoded = codec.decode(MemorySegment.ofArray(codec.encode(row)), 0);
        assertEquals("😀😀😀", decoded[SCHEMA.indexOf("name")], "three code points in six chars fit VARCHAR(3)");
        assertEquals("  ", decoded[SCHEMA.indexOf("code")]);
        assertEquals(new BigDecimal("-999.99"), decoded[SCHEMA.indexOf("price")]);
    }

    @Test
    void lobBytesChecksTheValueLikeEncode() {
        int name = SCHEMA.indexOf("name");
        ColumbaException tooLong = assertThrows(ColumbaException.class, () -> codec.lobBytes(name, "abcd"));
        assertEquals(ErrorCode.STRING_TOO_LONG, tooLong.errorCode());
        ColumbaException wrongType = assertThrows(ColumbaException.class, () -> codec.lobBytes(name, 5));
        assertEquals(ErrorCode.WRONG_TYPE, wrongType.errorCode());
    }

    @Test
    void misuseIsAnIllegalArgument() {
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new Object[] {1}), "too few values");
        assertThrows(IllegalArgumentException.class, () -> codec.encode(VALID_ROW, MemorySegment.ofArray(new byte[8]), 0),
                "target too small");
        MemorySegment row = MemorySegment.ofArray(codec.encode(VALID_ROW));
        assertThrows(IllegalArgumentException.class, () -> codec.decodeLong(row, 0, SCHEMA.indexOf("id")), "INT via decodeLong");
        assertThrows(IllegalArgumentException.class, () -> codec.decodeInt(row, 0, SCHEMA.indexOf("name")));
        assertThrows(IllegalArgumentException.class, () -> codec.decodeUtf8(row, 0, SCHEMA.indexOf("id")));
        assertThrows(IndexOutOfBoundsException.class, () -> codec.decodeColumn(row, 0, SCHEMA.size()));
    }
}
