package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The key encoding's byte order is the SQL order; prefixes bound exactly the keys they start. */
class KeyCodecTest {

    @Test
    void singleColumnByteOrderIsSqlOrder() throws Exception {
        Seeds.run("singleColumnByteOrderIsSqlOrder", random -> {
            RandomValues values = new RandomValues(random);
            List<SqlType> types = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE, SqlType.decimal(18, 3),
                    SqlType.decimal(19, 0), SqlType.decimal(38, 12), SqlType.varchar(30), SqlType.character(4), SqlType.DATE,
                    SqlType.TIMESTAMP);
            for (SqlType type : types) {
                KeyCodec codec = KeyCodec.of(type);
                List<Object[]> keys = new ArrayList<>();
                for (int keyNumber = 0; keyNumber < 250; keyNumber++) {
                    keys.add(new Object[] {random.nextInt(20) == 0 ? null : values.value(type)});
                }
                assertOrderAgrees(codec, keys);
            }
        });
    }

    /**
     * Binary strings and UUIDs as key columns, alone and after others: the byte order is their
     * SQL order (unsigned bytes, BINARY with its zero padding), keys decode to the canonical values
     * and a prefix bounds exactly the keys that start with it. Zero bytes, each escaped, are common.
     */
    @Test
    void binaryAndUuidKeysOrderDecodeAndBound() throws Exception {
        Seeds.run("binaryAndUuidKeysOrderDecodeAndBound", random -> {
            RandomValues values = new RandomValues(random);
            List<List<SqlType>> shapes = List.of(List.of(SqlType.varbinary(12)), List.of(SqlType.binary(5)),
                    List.of(SqlType.UUID), List.of(SqlType.varbinary(3), SqlType.INT), List.of(SqlType.UUID, SqlType.binary(2)));
            for (List<SqlType> types : shapes) {
                KeyCodec codec = new KeyCodec(types);
                List<Object[]> keys = randomKeys(codec, values, 200);
                assertOrderAgrees(codec, keys);
                for (Object[] key : keys) {
                    Object[] expected = new Object[key.length];
                    for (int columnIndex = 0; columnIndex < key.length; columnIndex++) {
                        expected[columnIndex] = SqlOrder.keyCanonical(types.get(columnIndex), key[columnIndex]);
                    }
                    byte[] encoded = codec.encode(key);
                    assertEquals(encoded.length, codec.encodedLength(key));
                    assertArrayEquals(expected, codec.decode(encoded));
                    Object[] prefix = Arrays.copyOf(key, 1);
                    byte[] lower = codec.prefixLowerBound(prefix);
                    byte[] upper = codec.prefixUpperBound(prefix);
                    for (Object[] other : keys) {
                        byte[] otherEncoded = codec.encode(other);
                        boolean inRange = Arrays.compareUnsigned(lower, otherEncoded) <= 0
                                && Arrays.compareUnsigned(otherEncoded, upper) < 0;
                        assertEquals(SqlOrder.compareKeys(types.subList(0, 1), prefix, Arrays.copyOf(other, 1)) == 0, inRange,
                                () -> "key " + Arrays.deepToString(other) + " against prefix " + Arrays.deepToString(prefix));
                    }
                }
            }
        });
    }

    @Test
    void compositeByteOrderIsSqlOrder() throws Exception {
        Seeds.run("compositeByteOrderIsSqlOrder", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 40; keyShape++) {
                KeyCodec codec = new KeyCodec(randomTypes(values));
                assertOrderAgrees(codec, randomKeys(codec, values, 120));
            }
        });
    }

    @Test
    void decodeReturnsTheCanonicalValues() throws Exception {
        Seeds.run("decodeReturnsTheCanonicalValues", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 100; keyShape++) {
                KeyCodec codec = new KeyCodec(randomTypes(values));
                for (Object[] key : randomKeys(codec, values, 20)) {
                    byte[] encoded = codec.encode(key);
                    assertEquals(encoded.length, codec.encodedLength(key));
                    Object[] expected = new Object[key.length];
                    for (int columnIndex = 0; columnIndex < key.length; columnIndex++) {
                        expected[columnIndex] = SqlOrder.keyCanonical(codec.types().get(columnIndex), key[columnIndex]);
                    }
                    assertArrayEquals(expected, codec.decode(encoded));

                    // Stored among other bytes, as in a page: the length is found by walking the key.
                    byte[] page = new byte[encoded.length + 7];
                    Arrays.fill(page, (byte) 0xEE);
                    assertEquals(encoded.length, codec.encode(key, MemorySegment.ofArray(page), 3));
                    assertEquals(encoded.length, codec.encodedLength(MemorySegment.ofArray(page), 3));
                    assertArrayEquals(expected, codec.decode(MemorySegment.ofArray(page), 3, encoded.length));
                }
            }
        });
    }

    @Test
    void prefixEncodingIsABytePrefixOfTheKey() throws Exception {
        Seeds.run("prefixEncodingIsABytePrefixOfTheKey", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 100; keyShape++) {
                KeyCodec codec = new KeyCodec(randomTypes(values));
                for (Object[] key : randomKeys(codec, values, 10)) {
                    byte[] encoded = codec.encode(key);
                    for (int prefixLength = 0; prefixLength <= key.length; prefixLength++) {
                        byte[] prefix = codec.prefixLowerBound(Arrays.copyOf(key, prefixLength));
                        assertTrue(prefix.length <= encoded.length);
                        assertArrayEquals(prefix, Arrays.copyOf(encoded, prefix.length), "prefix of " + prefixLength + " columns");
                    }
                    assertArrayEquals(encoded, codec.prefixLowerBound(key));
                }
            }
        });
    }

    @Test
    void prefixBoundsEncloseExactlyTheKeysWithThatPrefix() throws Exception {
        Seeds.run("prefixBoundsEncloseExactlyTheKeysWithThatPrefix", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 40; keyShape++) {
                KeyCodec codec = new KeyCodec(randomTypes(values));
                List<Object[]> keys = randomKeys(codec, values, 150);
                for (int probe = 0; probe < 20; probe++) {
                    Object[] prefix = Arrays.copyOf(keys.get(random.nextInt(keys.size())), random.nextInt(codec.types().size() + 1));
                    byte[] lower = codec.prefixLowerBound(prefix);
                    byte[] upper = codec.prefixUpperBound(prefix);
                    for (Object[] key : keys) {
                        byte[] encoded = codec.encode(key);
                        boolean inRange = Arrays.compareUnsigned(lower, encoded) <= 0 && Arrays.compareUnsigned(encoded, upper) < 0;
                        assertEquals(startsWith(codec.types(), key, prefix), inRange,
                                () -> "key " + Arrays.toString(key) + " against prefix " + Arrays.toString(prefix));
                    }
                }
            }
        });
    }

    @Test
    void orderingExamples() {
        KeyCodec doubles = KeyCodec.of(SqlType.DOUBLE);
        assertArrayEquals(doubles.encode(new Object[] {0.0}), doubles.encode(new Object[] {-0.0}), "-0.0 = 0.0");
        assertArrayEquals(doubles.encode(new Object[] {Double.NaN}),
                doubles.encode(new Object[] {Double.longBitsToDouble(0x7FF8_0000_0000_0001L)}), "one NaN");
        assertAscending(doubles, null, Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_VALUE, 0.0, Double.MIN_VALUE,
                1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN);

        KeyCodec ints = KeyCodec.of(SqlType.INT);
        assertAscending(ints, null, Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE);

        KeyCodec strings = KeyCodec.of(SqlType.varchar(10));
        // Code point order: U+FFFD < U+1F600, though String.compareTo puts the surrogate pair first.
        assertAscending(strings, null, "", "\0", "\0\0", "\u0001", "a", "a\0", "a\0b", "a\u0001", "ab", "\uFFFD", "😀");

        KeyCodec decimals = KeyCodec.of(SqlType.decimal(10, 2));
        assertArrayEquals(decimals.encode(new Object[] {new BigDecimal("1.5")}), decimals.encode(new Object[] {new BigDecimal("1.50")}));
        assertAscending(decimals, null, new BigDecimal("-99999999.99"), new BigDecimal("-0.01"), BigDecimal.ZERO, new BigDecimal("1E+2"),
                new BigDecimal("99999999.99"));

        KeyCodec chars = KeyCodec.of(SqlType.character(3));
        assertArrayEquals(chars.encode(new Object[] {"ab"}), chars.encode(new Object[] {"ab "}), "CHAR compares padded");
        assertAscending(chars, "ab\t", "ab", "ab!");
    }

    @Test
    void prefixBoundExamples() {
        KeyCodec codec = KeyCodec.of(SqlType.INT, SqlType.varchar(5));
        assertArrayEquals(new byte[0], codec.prefixLowerBound(new Object[0]));
        assertArrayEquals(new byte[] {RowFormat.KEY_PREFIX_UPPER}, codec.prefixUpperBound(new Object[0]), "above every key");
        HexFormat hex = HexFormat.of();
        assertEquals("0180000007", hex.formatHex(codec.prefixLowerBound(new Object[] {7})));
        assertEquals("018000000702", hex.formatHex(codec.prefixUpperBound(new Object[] {7})));
        assertEquals("00", hex.formatHex(codec.prefixLowerBound(new Object[] {null})));
        assertEquals("0002", hex.formatHex(codec.prefixUpperBound(new Object[] {null})));
    }

    @Test
    void invalidKeyValuesAreRejectedNamingTheColumn() {
        KeyCodec codec = KeyCodec.of(SqlType.INT, SqlType.varchar(2), SqlType.decimal(3, 1));
        assertRejected(ErrorCode.WRONG_TYPE, "key column 0 INT expects Integer values, got Long 1",
                () -> codec.encode(new Object[] {1L, "a", BigDecimal.ONE}));
        assertRejected(ErrorCode.STRING_TOO_LONG, "key column 1 VARCHAR(2) cannot hold a string of 3 characters: 'abc'",
                () -> codec.encodedLength(new Object[] {1, "abc", BigDecimal.ONE}));
        assertRejected(ErrorCode.VALUE_OUT_OF_RANGE, "key column 2 DECIMAL(3,1) cannot hold 100",
                () -> codec.prefixLowerBound(new Object[] {1, "a", new BigDecimal("100")}));
        assertRejected(ErrorCode.INVALID_ARGUMENT, "key column 1 VARCHAR(2) cannot hold '\uD83D'",
                () -> codec.prefixUpperBound(new Object[] {1, "\uD83D"}));
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new Object[] {1, "a"}), "a key needs every column");
        assertThrows(IllegalArgumentException.class, () -> codec.prefixLowerBound(new Object[] {1, "a", null, null}));
    }

    @Test
    void corruptKeysFailWithIndexCorrupt() {
        KeyCodec codec = KeyCodec.of(SqlType.BOOLEAN, SqlType.varchar(5), SqlType.INT);
        byte[] valid = codec.encode(new Object[] {true, "a\0", 9});
        assertEquals("0101" + "01" + "6100ff0001" + "0180000009", HexFormat.of().formatHex(valid));

        assertCorrupt("key column 0 BOOLEAN starts with byte 0x7 at 0, not a NULL or value marker", codec, with(valid, 0, 7));
        assertCorrupt("key column 0 BOOLEAN holds byte 2 at 1, not 0 or 1", codec, with(valid, 1, 2));
        assertCorrupt("key column 1 VARCHAR(5) has byte 0x00 followed by 0x5 at 5, neither escape nor end", codec, with(valid, 5, 5));
        assertCorrupt("key column 2 INT needs 4 bytes at 9 but the key ends at 11", codec, Arrays.copyOf(valid, 11));
        assertCorrupt("key column 1 VARCHAR(5) needs 1 bytes at 7 but the key ends at 7", codec, Arrays.copyOf(valid, 7));
        byte[] trailing = Arrays.copyOf(valid, valid.length + 2);
        ColumbaException error = assertThrows(ColumbaException.class, () -> codec.decode(trailing));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode());
        assertTrue(error.getMessage().contains("2 bytes follow the last key column"), error.getMessage());
        assertEquals(valid.length, codec.encodedLength(MemorySegment.ofArray(trailing), 0), "walking stops at the key's end");
    }

    @Test
    void randomDamageNeverEscapesAsAnythingButCorruption() throws Exception {
        Seeds.run("keyRandomDamageNeverEscapesAsAnythingButCorruption", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 100; keyShape++) {
                KeyCodec codec = new KeyCodec(randomTypes(values));
                for (Object[] key : randomKeys(codec, values, 10)) {
                    byte[] encoded = codec.encode(key);
                    byte[] damaged = random.nextBoolean() ? Arrays.copyOf(encoded, random.nextInt(encoded.length)) : encoded.clone();
                    if (damaged.length > 0) {
                        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                    }
                    for (Executable read : List.<Executable>of(() -> codec.decode(damaged),
                            () -> codec.encodedLength(MemorySegment.ofArray(damaged), 0))) {
                        try {
                            read.execute();
                        } catch (ColumbaException error) {
                            assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
                        } catch (Throwable other) {
                            throw new AssertionError("damage escaped as " + other, other);
                        }
                    }
                }
            }
        });
    }

    @Test
    void descendingColumnsReverseTheirOrderAndDecodeAsTheyWere() throws Exception {
        Seeds.run("descendingColumnsReverseTheirOrderAndDecodeAsTheyWere", random -> {
            RandomValues values = new RandomValues(random);
            for (int keyShape = 0; keyShape < 40; keyShape++) {
                List<SqlType> types = randomTypes(values);
                List<Boolean> descending = new ArrayList<>();
                for (int columnIndex = 0; columnIndex < types.size(); columnIndex++) {
                    descending.add(random.nextBoolean());
                }
                KeyCodec codec = new KeyCodec(types, descending);
                List<Object[]> keys = randomKeys(codec, values, 100);
                List<byte[]> encodings = new ArrayList<>();
                for (Object[] key : keys) {
                    byte[] encoded = codec.encode(key);
                    encodings.add(encoded);
                    Object[] expected = new Object[key.length];
                    for (int columnIndex = 0; columnIndex < key.length; columnIndex++) {
                        expected[columnIndex] = SqlOrder.keyCanonical(types.get(columnIndex), key[columnIndex]);
                    }
                    assertArrayEquals(expected, codec.decode(encoded));
                    byte[] page = new byte[encoded.length + 7];
                    Arrays.fill(page, (byte) 0xEE);
                    assertEquals(encoded.length, codec.encode(key, MemorySegment.ofArray(page), 3));
                    assertEquals(encoded.length, codec.encodedLength(MemorySegment.ofArray(page), 3));
                }
                for (int left = 0; left < keys.size(); left++) {
                    for (int right = 0; right < keys.size(); right++) {
                        int expected = 0;
                        for (int columnIndex = 0; columnIndex < types.size() && expected == 0; columnIndex++) {
                            int order = SqlOrder.compare(types.get(columnIndex), keys.get(left)[columnIndex],
                                    keys.get(right)[columnIndex]);
                            expected = Integer.signum(descending.get(columnIndex) ? -order : order);
                        }
                        int actual = Integer.signum(Arrays.compareUnsigned(encodings.get(left), encodings.get(right)));
                        assertEquals(expected, actual, () -> types + " " + descending);
                    }
                }
                for (int probe = 0; probe < 20; probe++) {
                    Object[] prefix = Arrays.copyOf(keys.get(random.nextInt(keys.size())), random.nextInt(types.size() + 1));
                    byte[] lower = codec.prefixLowerBound(prefix);
                    byte[] upper = codec.prefixUpperBound(prefix);
                    for (Object[] key : keys) {
                        byte[] encoded = codec.encode(key);
                        boolean inRange = Arrays.compareUnsigned(lower, encoded) <= 0
                                && (upper == null || Arrays.compareUnsigned(encoded, upper) < 0);
                        assertEquals(startsWith(types, key, prefix), inRange,
                                () -> "key " + Arrays.toString(key) + " against prefix " + Arrays.toString(prefix));
                    }
                }
            }
        });
    }

    @Test
    void descendingColumnExample() {
        KeyCodec codec = new KeyCodec(List.of(SqlType.INT, SqlType.varchar(5)), List.of(true, false));
        // 7 DESC: marker 0x01 and 0x80000007 inverted; 'a' ASC as written ascending.
        assertEquals("fe7ffffff8" + "01" + "610001", HexFormat.of().formatHex(codec.encode(new Object[] {7, "a"})));
        // NULL DESC (0xff) sorts after every value, as NULLs sort last in ORDER BY ... DESC.
        assertTrue(Arrays.compareUnsigned(codec.encode(new Object[] {-5, "a"}), codec.encode(new Object[] {null, "a"})) < 0);
        assertTrue(Arrays.compareUnsigned(codec.encode(new Object[] {8, "z"}), codec.encode(new Object[] {7, "a"})) < 0);
        // A prefix of NULL in a DESC first column is all 0xff: nothing lies above it.
        assertEquals(null, codec.prefixUpperBound(new Object[] {null}));
        assertArrayEquals(new byte[] {(byte) 0xff}, codec.prefixLowerBound(new Object[] {null}));
    }

    /** Every pair's byte order equals its SQL order. */
    private static void assertOrderAgrees(KeyCodec codec, List<Object[]> keys) {
        List<byte[]> encodings = new ArrayList<>();
        for (Object[] key : keys) {
            encodings.add(codec.encode(key));
        }
        for (int left = 0; left < keys.size(); left++) {
            for (int right = 0; right < keys.size(); right++) {
                int expected = Integer.signum(SqlOrder.compareKeys(codec.types(), keys.get(left), keys.get(right)));
                int actual = Integer.signum(Arrays.compareUnsigned(encodings.get(left), encodings.get(right)));
                if (expected != actual) {
                    throw new AssertionError(codec.types() + ": SQL order " + expected + " but byte order " + actual + " for "
                            + Arrays.toString(keys.get(left)) + " vs " + Arrays.toString(keys.get(right)));
                }
            }
        }
    }

    private static void assertAscending(KeyCodec codec, Object... ascending) {
        for (int index = 1; index < ascending.length; index++) {
            byte[] lower = codec.encode(new Object[] {ascending[index - 1]});
            byte[] higher = codec.encode(new Object[] {ascending[index]});
            assertTrue(Arrays.compareUnsigned(lower, higher) < 0, ascending[index - 1] + " sorts before " + ascending[index]);
        }
    }

    private static boolean startsWith(List<SqlType> types, Object[] key, Object[] prefix) {
        for (int columnIndex = 0; columnIndex < prefix.length; columnIndex++) {
            if (SqlOrder.compare(types.get(columnIndex), key[columnIndex], prefix[columnIndex]) != 0) {
                return false;
            }
        }
        return true;
    }

    private static List<SqlType> randomTypes(RandomValues values) {
        Random random = values.random();
        List<SqlType> types = new ArrayList<>();
        for (int columnCount = 1 + random.nextInt(4); columnCount > 0; columnCount--) {
            types.add(values.type());
        }
        return types;
    }

    private static List<Object[]> randomKeys(KeyCodec codec, RandomValues values, int count) {
        List<Object[]> keys = new ArrayList<>();
        for (int keyNumber = 0; keyNumber < count; keyNumber++) {
            Object[] key = new Object[codec.types().size()];
            for (int columnIndex = 0; columnIndex < key.length; columnIndex++) {
                key[columnIndex] = values.random().nextInt(10) == 0 ? null : values.value(codec.types().get(columnIndex));
            }
            // Keys sharing leading columns exercise the later ones.
            if (!keys.isEmpty() && values.random().nextBoolean()) {
                Object[] other = keys.get(values.random().nextInt(keys.size()));
                System.arraycopy(other, 0, key, 0, values.random().nextInt(key.length));
            }
            keys.add(key);
        }
        return keys;
    }

    private static void assertRejected(ErrorCode expected, String fragment, Executable encode) {
        ColumbaException error = assertThrows(ColumbaException.class, encode);
        assertEquals(expected, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().contains(fragment), "'" + fragment + "' missing from: " + error.getMessage());
    }

    private static void assertCorrupt(String fragment, KeyCodec codec, byte[] key) {
        ColumbaException error = assertThrows(ColumbaException.class, () -> codec.decode(key));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
        assertTrue(error.getMessage().contains(fragment), "'" + fragment + "' missing from: " + error.getMessage());
    }

    private static byte[] with(byte[] bytes, int index, int value) {
        byte[] changed = bytes.clone();
        changed[index] = (byte) value;
        return changed;
    }
}
