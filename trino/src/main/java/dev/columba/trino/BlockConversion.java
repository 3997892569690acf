package dev.columba.trino;

import dev.columba.core.type.SqlType;
import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies an Arrow vector of a scan batch into a Trino block. Trino owns its blocks after a page is
 * returned, and the scan writes its vectors again at the next batch, so values are copied (bulk
 * memory copies, no per-row calls, except booleans unpacked from bits and CHAR's padding stripped).
 * Arrow's validity bitmap and Trino's ({@code valueIsValid}, a bit per position set when not NULL,
 * in little-endian 64-bit words) have the same layout: it is copied as is.
 */
final class BlockConversion {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private BlockConversion() {
    }

    /** The first {@code rows} values of {@code vector}, which holds values of {@code type}, as a block. */
    static Block toBlock(FieldVector vector, SqlType type, int rows) {
        Optional<long[]> valid = validity(vector, rows);
        return switch (type) {
            case SqlType.BooleanType ignored -> {
                BitVector bits = (BitVector) vector;
                byte[] values = new byte[rows];
                MemorySegment data = view(bits.getDataBuffer());
                for (int row = 0; row < rows; row++) {
                    values[row] = (byte) ((data.get(ValueLayout.JAVA_BYTE, row >>> 3) >>> (row & 7)) & 1);
                }
                yield new ByteArrayBlock(rows, valid, values);
            }
            case SqlType.IntegerType ignored -> new IntArrayBlock(rows, valid, ints(vector, rows));
            case SqlType.DateType ignored -> new IntArrayBlock(rows, valid, ints(vector, rows));
            // DOUBLE travels as its IEEE bits in a long, as Trino stores it.
            case SqlType.BigintType ignored -> new LongArrayBlock(rows, valid, longs(vector, rows));
            case SqlType.DoubleType ignored -> new LongArrayBlock(rows, valid, longs(vector, rows));
            case SqlType.TimestampType ignored -> new LongArrayBlock(rows, valid, longs(vector, rows));
            case SqlType.DecimalType decimal -> decimal(vector, decimal, rows, valid);
            case SqlType.VarcharType ignored -> strings(vector, rows, valid, false);
            case SqlType.CharType ignored -> strings(vector, rows, valid, true);
            // Binary strings and UUIDs reach Trino as VARBINARY (TypeMapping): their bytes.
            case SqlType.VarbinaryType ignored -> strings(vector, rows, valid, false);
            case SqlType.BinaryType ignored -> strings(vector, rows, valid, false);
            case SqlType.UuidType ignored -> strings(vector, rows, valid, false);
        };
    }

    /**
     * Arrow keeps a DECIMAL as 16 bytes, low 8 first (little-endian two's complement). Trino keeps a
     * short decimal (precision at most 18) as its unscaled long, which is the low 8 bytes since the
     * value fits, and a long one as two longs, high first.
     */
    private static Block decimal(FieldVector vector, SqlType.DecimalType type, int rows, Optional<long[]> valid) {
        MemorySegment data = view(vector.getDataBuffer());
        if (type.precision() <= io.trino.spi.type.Decimals.MAX_SHORT_PRECISION) {
            long[] values = new long[rows];
            for (int row = 0; row < rows; row++) {
                values[row] = data.get(LONG, 16L * row);
            }
            return new LongArrayBlock(rows, valid, values);
        }
        long[] values = new long[2 * rows];
        for (int row = 0; row < rows; row++) {
            values[2 * row] = data.get(LONG, 16L * row + 8);
            values[2 * row + 1] = data.get(LONG, 16L * row);
        }
        return new Int128ArrayBlock(rows, valid, values);
    }

    /**
     * UTF-8 bytes and offsets copied whole. Two cases need a pass over the values: a NULL row must be
     * empty in a Trino block (its wire encoding sends the lengths of non-NULL values only, and the
     * scan may leave bytes under a NULL row), and a CHAR value's trailing blanks are dropped, since
     * Trino keeps CHAR(n) values without their padding (Columba keeps them padded).
     */
    private static Block strings(FieldVector vector, int rows, Optional<long[]> valid, boolean stripPadding) {
        int[] offsets = new int[rows + 1];
        MemorySegment.copy(view(vector.getOffsetBuffer()), INT, 0, offsets, 0, rows + 1);
        int start = offsets[0];
        int end = offsets[rows];
        byte[] bytes = new byte[end - start];
        MemorySegment.copy(view(vector.getDataBuffer()), ValueLayout.JAVA_BYTE, start, bytes, 0, bytes.length);
        if (start != 0) {
            for (int row = 0; row <= rows; row++) {
                offsets[row] -= start;
            }
        }
        if (!stripPadding && valid.isEmpty()) {
            return new VariableWidthBlock(rows, Slices.wrappedBuffer(bytes), offsets, valid);
        }
        long[] validWords = valid.orElse(null);
        int[] compacted = new int[rows + 1];
        int written = 0;
        for (int row = 0; row < rows; row++) {
            if (validWords == null || (validWords[row >>> 6] & (1L << row)) != 0) {
                int valueEnd = offsets[row + 1];
                if (stripPadding) {
                    while (valueEnd > offsets[row] && bytes[valueEnd - 1] == ' ') {
                        valueEnd--;
                    }
                }
                int length = valueEnd - offsets[row];
                // Moves bytes towards the start only (written <= offsets[row]): the copy never overtakes its source.
                System.arraycopy(bytes, offsets[row], bytes, written, length);
                written += length;
            }
            compacted[row + 1] = written;
        }
        Slice slice = Slices.wrappedBuffer(bytes, 0, written);
        return new VariableWidthBlock(rows, slice, compacted, valid);
    }

    private static int[] ints(FieldVector vector, int rows) {
        int[] values = new int[rows];
        MemorySegment.copy(view(vector.getDataBuffer()), INT, 0, values, 0, rows);
        return values;
    }

    private static long[] longs(FieldVector vector, int rows) {
        long[] values = new long[rows];
        MemorySegment.copy(view(vector.getDataBuffer()), LONG, 0, values, 0, rows);
        return values;
    }

    /** The validity words, or empty when no value is NULL (Trino's blocks then skip their NULL checks). */
    private static Optional<long[]> validity(FieldVector vector, int rows) {
        if (vector.getNullCount() == 0) {
            return Optional.empty();
        }
        long[] words = new long[(rows + 63) >>> 6];
        MemorySegment.copy(view(vector.getValidityBuffer()), 0, MemorySegment.ofArray(words), 0, (rows + 7) >>> 3);
        // Bits past the last row are cleared: the scan reuses its vectors, so they may hold an earlier
        // batch's, and Trino's serialized form counts set bits over whole words.
        if ((rows & 63) != 0) {
            words[words.length - 1] &= (1L << (rows & 63)) - 1;
        }
        return Optional.of(words);
    }

    private static MemorySegment view(ArrowBuf buffer) {
        return MemorySegment.ofAddress(buffer.memoryAddress()).reinterpret(buffer.capacity());
    }
}
