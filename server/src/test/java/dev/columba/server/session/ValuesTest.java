package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parameter decoding and result encoding against the forms PostgreSQL documents and clients send. */
class ValuesTest {

    @Test
    void doublesPrintInPostgresShortestForm() {
        assertEquals("0.1", Values.doubleText(0.1));
        assertEquals("1", Values.doubleText(1.0));
        assertEquals("-2.5", Values.doubleText(-2.5));
        assertEquals("123456789012345", Values.doubleText(123456789012345.0));
        assertEquals("1e+15", Values.doubleText(1e15));
        assertEquals("1.5e+300", Values.doubleText(1.5e300));
        assertEquals("0.0001", Values.doubleText(1e-4));
        assertEquals("1.2345e-05", Values.doubleText(1.2345e-5));
        assertEquals("NaN", Values.doubleText(Double.NaN));
        assertEquals("-Infinity", Values.doubleText(Double.NEGATIVE_INFINITY));
        assertEquals("-0", Values.doubleText(-0.0));
        for (double value : new double[] {0.1 + 0.2, Math.PI, 1e-300, Double.MAX_VALUE, Double.MIN_VALUE}) {
            assertEquals(value, Double.parseDouble(Values.doubleText(value)));
        }
    }

    @Test
    void binaryParametersDecodeByType() {
        assertEquals(42, decode(ByteBuffer.allocate(4).putInt(42).array(), PgTypes.INT4));
        assertEquals(-7, decode(ByteBuffer.allocate(2).putShort((short) -7).array(), PgTypes.INT2));
        assertEquals(Long.MAX_VALUE, decode(ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array(), PgTypes.INT8));
        assertEquals(0.1, decode(ByteBuffer.allocate(8).putDouble(0.1).array(), PgTypes.FLOAT8));
        assertEquals(true, decode(new byte[] {1}, PgTypes.BOOL));
        assertEquals(LocalDate.of(2000, 1, 1), decode(new byte[4], PgTypes.DATE));
        assertEquals(LocalDate.of(1999, 12, 31), decode(ByteBuffer.allocate(4).putInt(-1).array(), PgTypes.DATE));
        assertEquals(LocalDateTime.of(2000, 1, 1, 0, 0, 1, 500_000),
                decode(ByteBuffer.allocate(8).putLong(1_000_500).array(), PgTypes.TIMESTAMP));
        WireSqlException wrongLength = assertThrows(WireSqlException.class, () -> decode(new byte[3], PgTypes.INT4));
        assertEquals("22P03", wrongLength.sqlState());
    }

    @Test
    void textParametersDecodeByTypeAndUnspecifiedStaysText() {
        assertEquals(12, Values.decodeParameter(bytes("12"), PgTypes.INT4, Format.TEXT, 1));
        assertEquals(new BigDecimal("1.50"), Values.decodeParameter(bytes("1.50"), PgTypes.NUMERIC, Format.TEXT, 1));
        assertEquals(false, Values.decodeParameter(bytes("f"), PgTypes.BOOL, Format.TEXT, 1));
        assertEquals("42", Values.decodeParameter(bytes("42"), PgTypes.UNSPECIFIED, Format.TEXT, 1));
        assertEquals("hello +01", Values.decodeParameter(bytes("hello +01"), PgTypes.UNSPECIFIED, Format.TEXT, 1));
        // pgJDBC's setDate / setTimestamp: date-time text with the JVM's zone, type unspecified.
        assertEquals(LocalDate.of(2024, 2, 29),
                Values.decodeParameter(bytes("2024-02-29 +01"), PgTypes.UNSPECIFIED, Format.TEXT, 1));
        assertEquals(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_000),
                Values.decodeParameter(bytes("2024-02-29 23:59:58.123456-05:30"), PgTypes.UNSPECIFIED, Format.TEXT, 1));
        WireSqlException bad = assertThrows(WireSqlException.class,
                () -> Values.decodeParameter(bytes("twelve"), PgTypes.INT4, Format.TEXT, 3));
        assertEquals("22P02", bad.sqlState());
        assertEquals(null, Values.decodeParameter(null, PgTypes.INT4, Format.BINARY, 1));
    }

    @Test
    void uuidParametersBindAsTheirCanonicalText() {
        String canonical = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
        // pgJDBC's setObject(UUID) and psycopg's binary dumper: 16 bytes, most significant first.
        byte[] binary = ByteBuffer.allocate(16).putLong(0xa0eebc999c0b4ef8L).putLong(0xbb6d6bb9bd380a11L).array();
        assertEquals(canonical, decode(binary, PgTypes.UUID));
        for (String text : List.of(canonical, "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
                "a0eebc999c0b4ef8bb6d6bb9bd380a11")) {
            assertEquals(canonical, Values.decodeParameter(bytes(text), PgTypes.UUID, Format.TEXT, 1), text);
        }
        assertEquals("22P02", assertThrows(WireSqlException.class,
                () -> Values.decodeParameter(bytes("a0eebc99-9c0b"), PgTypes.UUID, Format.TEXT, 2)).sqlState());
        assertEquals("22P03", assertThrows(WireSqlException.class,
                () -> decode(new byte[15], PgTypes.UUID)).sqlState());
    }

    @Test
    void binaryNumericRoundTripsAndMatchesPostgresLayout() {
        // PostgreSQL sends 12345.678 as ndigits 3, weight 1, sign 0, dscale 3, digits 1 2345 6780.
        ByteBuffer expected = ByteBuffer.allocate(14).putShort((short) 3).putShort((short) 1).putShort((short) 0)
                .putShort((short) 3).putShort((short) 1).putShort((short) 2345).putShort((short) 6780);
        assertArrayEquals(expected.array(), Values.BinaryNumeric.encode(new BigDecimal("12345.678")));
        for (String text : List.of("0", "0.00", "1", "-1", "10000", "0.0001", "-0.01", "12345678.90",
                "99999999999999999999.123456789", "100000000", "0.000000001")) {
            BigDecimal value = new BigDecimal(text);
            BigDecimal back = Values.BinaryNumeric.decode(ByteBuffer.wrap(Values.BinaryNumeric.encode(value)));
            assertEquals(value, back, text);
        }
    }

    @Test
    void resultsEncodeAsPostgresText() {
        assertEquals("t", Values.text(true));
        assertEquals("2024-02-29 23:59:58.5", Values.text(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 500_000_000)));
        assertEquals("2024-02-29 00:00:00", Values.text(LocalDateTime.of(2024, 2, 29, 0, 0)));
        assertEquals("1E+3", new BigDecimal("1E+3").toString());
        assertEquals("1000", Values.text(new BigDecimal("1E+3")));
        assertArrayEquals(ByteBuffer.allocate(8).putLong(1_000_500).array(),
                Values.encode(LocalDateTime.of(2000, 1, 1, 0, 0, 1, 500_000), PgTypes.TIMESTAMP, Format.BINARY));
    }

    private static Object decode(byte[] value, int typeOid) {
        return Values.decodeParameter(value, typeOid, Format.BINARY, 1);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
