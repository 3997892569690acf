package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.VectorValues;
import dev.columba.core.type.SqlType;
import io.airlift.slice.DynamicSliceOutput;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockEncoding;
import io.trino.spi.block.ByteArrayBlockEncoding;
import io.trino.spi.block.Int128ArrayBlockEncoding;
import io.trino.spi.block.IntArrayBlockEncoding;
import io.trino.spi.block.LongArrayBlockEncoding;
import io.trino.spi.block.VariableWidthBlockEncoding;
import io.trino.spi.type.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

/**
 * Every Columba type's vector, with NULLs, as a Trino block: the values Trino reads back equal the
 * vector's, and so do they after Trino's wire encoding (what a worker sends), for a vector written
 * twice (a scan reuses its vectors, so a short batch follows a long one in the same buffers).
 */
class BlockConversionTest {
    private static final long SEED = 20261127L;

    @Test
    void everyTypeRoundTripsThroughTrinosEncoding() {
        List<SqlType> types = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE, SqlType.DATE,
                SqlType.TIMESTAMP, SqlType.decimal(12, 2), SqlType.decimal(30, 4), SqlType.varchar(20),
                SqlType.character(4));
        Random random = new Random(SEED);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (SqlType type : types) {
                try (FieldVector vector = VectorValues.newVector("v", type, allocator)) {
                    for (int rows : new int[] {1000, 77}) {
                        List<Object> values = new ArrayList<>();
                        vector.allocateNew();
                        for (int row = 0; row < rows; row++) {
                            Object value = rows == 1000 || random.nextInt(3) == 0 ? value(type, random) : null;
                            values.add(value);
                            if (value == null) {
                                VectorValues.setNull(vector, row);
                            } else {
                                VectorValues.set(vector, row, type, value);
                            }
                        }
                        vector.setValueCount(rows);
                        Block block = BlockConversion.toBlock(vector, type, rows);
                        check(type, values, block, "seed " + SEED + ", " + rows + " rows of " + type.sqlName());
                        for (boolean vectorized : new boolean[] {false, true}) {
                            DynamicSliceOutput output = new DynamicSliceOutput(1024);
                            BlockEncoding encoding = encoding(block, vectorized);
                            encoding.writeBlock(null, output, block);
                            output.writeInt(0x5eed);
                            var input = output.slice().getInput();
                            Block read = encoding.readBlock(null, input);
                            String encoded = "after encoding (vectorized " + vectorized + "): " + rows + " rows of " + type.sqlName();
                            assertEquals(0x5eed, input.readInt(), encoded + ": the encoding read what it wrote");
                            check(type, values, read, encoded);
                        }
                    }
                }
            }
        }
    }

    private static void check(SqlType type, List<Object> values, Block block, String context) {
        assertEquals(values.size(), block.getPositionCount(), context);
        boolean anyNull = false;
        for (int row = 0; row < values.size(); row++) {
            Object expected = values.get(row);
            assertEquals(expected == null, block.isNull(row), context + ", row " + row);
            anyNull |= expected == null;
            if (expected != null) {
                assertEquals(expected, columbaValue(type, block, row), context + ", row " + row);
            }
        }
        assertEquals(anyNull, block.mayHaveNull() && anyNull, context);
    }

    /** The Trino block's value at {@code row} as Columba's Java value of {@code type} (CHAR padded again). */
    private static Object columbaValue(SqlType type, Block block, int row) {
        Type trinoType = TypeMapping.trinoType(type);
        return switch (type) {
            case SqlType.BooleanType ignored -> trinoType.getBoolean(block, row);
            case SqlType.IntegerType ignored -> (int) trinoType.getLong(block, row);
            case SqlType.BigintType ignored -> trinoType.getLong(block, row);
            case SqlType.DoubleType ignored -> trinoType.getDouble(block, row);
            case SqlType.DateType ignored -> LocalDate.ofEpochDay(trinoType.getLong(block, row));
            case SqlType.TimestampType ignored -> TypeMapping.columbaValue(type, trinoType.getLong(block, row));
            case SqlType.DecimalType ignored -> TypeMapping.columbaValue(type,
                    ((io.trino.spi.type.DecimalType) trinoType).isShort() ? trinoType.getLong(block, row) : trinoType.getObject(block, row));
            case SqlType.VarcharType ignored -> trinoType.getSlice(block, row).toStringUtf8();
            case SqlType.CharType character -> String.format("%-" + character.length() + "s",
                    trinoType.getSlice(block, row).toStringUtf8());
            case SqlType.VarbinaryType ignored -> TypeMapping.columbaValue(type, trinoType.getSlice(block, row));
            case SqlType.BinaryType ignored -> TypeMapping.columbaValue(type, trinoType.getSlice(block, row));
            case SqlType.UuidType ignored -> TypeMapping.columbaValue(type, trinoType.getSlice(block, row));
        };
    }

    private static Object value(SqlType type, Random random) {
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> random.nextInt();
            case SqlType.BigintType ignored -> random.nextLong();
            case SqlType.DoubleType ignored -> random.nextDouble() * 1e6;
            case SqlType.DateType ignored -> LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000);
            case SqlType.TimestampType ignored -> LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(random.nextLong(1L << 50) * 1000);
            case SqlType.DecimalType decimal -> {
                // Any value of the precision: at most 18 digits from a long, more by a power of ten.
                BigInteger unscaled = BigInteger.valueOf(random.nextLong() % 1_000_000_000_000_000_000L);
                if (decimal.precision() > 18) {
                    unscaled = unscaled.multiply(BigInteger.TEN.pow(decimal.precision() - 18))
                            .add(BigInteger.valueOf(random.nextInt(1000)));
                } else {
                    unscaled = unscaled.mod(BigInteger.TEN.pow(decimal.precision()));
                }
                yield new BigDecimal(unscaled, decimal.scale());
            }
            case SqlType.VarcharType ignored -> "v" + random.nextInt(1000) + (random.nextBoolean() ? "ü✓" : "");
            case SqlType.CharType character -> String.format("%-" + character.length() + "s", "c" + random.nextInt(10));
            case SqlType.VarbinaryType ignored -> new byte[] {(byte) random.nextInt(), 0};
            case SqlType.BinaryType binary -> new byte[binary.length()];
            case SqlType.UuidType ignored -> new java.util.UUID(random.nextLong(), random.nextLong());
        };
    }

    /** Trino's own encoding of {@code block}'s class; the server vectorizes where the CPU allows. */
    private static BlockEncoding encoding(Block block, boolean vectorized) {
        return switch (block.getClass().getSimpleName()) {
            case "ByteArrayBlock" -> new ByteArrayBlockEncoding(vectorized, vectorized);
            case "IntArrayBlock" -> new IntArrayBlockEncoding(vectorized, vectorized);
            case "LongArrayBlock" -> new LongArrayBlockEncoding(vectorized, vectorized);
            case "Int128ArrayBlock" -> new Int128ArrayBlockEncoding();
            case "VariableWidthBlock" -> new VariableWidthBlockEncoding();
            default -> throw new AssertionError(block.getClass());
        };
    }

    @Test
    void charValuesLoseTheirPaddingOnly() {
        try (BufferAllocator allocator = new RootAllocator();
             FieldVector vector = VectorValues.newVector("c", SqlType.character(4), allocator)) {
            vector.allocateNew();
            VectorValues.set(vector, 0, SqlType.character(4), "a b ");
            VectorValues.set(vector, 1, SqlType.character(4), "    ");
            vector.setValueCount(2);
            Block block = BlockConversion.toBlock(vector, SqlType.character(4), 2);
            assertEquals("a b", io.trino.spi.type.VarcharType.VARCHAR.getSlice(block, 0).toStringUtf8());
            assertEquals("", io.trino.spi.type.VarcharType.VARCHAR.getSlice(block, 1).toStringUtf8());
            assertFalse(block.isNull(1));
            assertTrue(block.getSizeInBytes() > 0);
        }
    }
}
