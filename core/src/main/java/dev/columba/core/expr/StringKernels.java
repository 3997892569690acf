package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Kernels over UTF-8 strings that work on the bytes in place: LIKE with a constant pattern,
 * CHAR_LENGTH, SUBSTRING, TRIM with constant ASCII characters, CONCAT, and UPPER/LOWER (ASCII
 * bytes mapped directly; a value with other characters goes through {@link String}, the one
 * place these kernels allocate).
 */
final class StringKernels {
    private StringKernels() {
    }

    private static int start(ArrowBuf offsets, int row) {
        return offsets.getInt((long) row * 4);
    }

    private static int end(ArrowBuf offsets, int row) {
        return offsets.getInt((long) (row + 1) * 4);
    }

    /** LIKE with a constant pattern and escape; a NULL pattern or escape makes every row NULL. */
    static final class LikeKernel extends Kernel {
        private final LikePattern pattern;
        private final ColumbaException patternError;
        private final boolean negated;

        LikeKernel(Kernel value, String pattern, String escape, boolean nullPattern, boolean negated, BufferAllocator allocator) {
            super(SqlType.BOOLEAN, List.of(value), allocator);
            this.negated = negated;
            LikePattern compiled = null;
            ColumbaException error = null;
            if (!nullPattern) {
                try {
                    compiled = LikePattern.compile(pattern, escape);
                } catch (ColumbaException e) {
                    // A bad pattern is an error only for rows that reach it, as in the reference evaluator.
                    error = e;
                }
            }
            this.pattern = compiled;
            this.patternError = error;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf outValues = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row) || (pattern == null && patternError == null)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                if (patternError != null) {
                    throw patternError;
                }
                boolean matches = pattern.matches(data, start(offsets, row), end(offsets, row));
                Bits.set(outValues, row, matches != negated);
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }
    }

    /**
     * {@code value [NOT] IN (constant strings)}: the value is read once per row and compared, by
     * length first, with each constant's UTF-8 bytes, instead of one equality kernel per constant
     * over a vector of that constant. TRUE on a match; else NULL if the value or a constant is
     * NULL; else FALSE (NOT IN negates TRUE and FALSE), as {@link Expr.InList} says.
     */
    static final class InConstantsKernel extends Kernel {
        private final byte[][] constants;
        private final boolean nullConstant;
        private final boolean negated;

        InConstantsKernel(Kernel value, List<String> constants, boolean negated, BufferAllocator allocator) {
            super(SqlType.BOOLEAN, List.of(value), allocator);
            List<byte[]> encoded = new ArrayList<>();
            boolean anyNull = false;
            for (String constant : constants) {
                if (constant == null) {
                    anyNull = true;
                } else {
                    encoded.add(constant.getBytes(StandardCharsets.UTF_8));
                }
            }
            this.constants = encoded.toArray(new byte[0][]);
            this.nullConstant = anyNull;
            this.negated = negated;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf outValues = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                if (matches(data, start(offsets, row), end(offsets, row))) {
                    Bits.set(outValues, row, !negated);
                    Bits.set(outValidity, row, true);
                } else if (nullConstant) {
                    Bits.set(outValidity, row, false);
                } else {
                    Bits.set(outValues, row, negated);
                    Bits.set(outValidity, row, true);
                }
            }
            return finish(out, input.rowCount());
        }

        private boolean matches(ArrowBuf data, int start, int end) {
            int length = end - start;
            for (byte[] constant : constants) {
                if (constant.length != length) {
                    continue;
                }
                int position = 0;
                while (position < length && data.getByte(start + position) == constant[position]) {
                    position++;
                }
                if (position == length) {
                    return true;
                }
            }
            return false;
        }
    }

    /** CHAR_LENGTH: counts the bytes that start a character; of a binary string, every byte. */
    static final class CharLengthKernel extends Kernel {
        private final boolean binary;

        CharLengthKernel(Kernel value, BufferAllocator allocator) {
            super(SqlType.INT, List.of(value), allocator);
            this.binary = TypeRules.isBinary(value.type);
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                int characters = 0;
                if (binary) {
                    characters = end(offsets, row) - start(offsets, row);
                } else {
                    for (int position = start(offsets, row), end = end(offsets, row); position < end; position++) {
                        if (!Utf8.isContinuation(data.getByte(position))) {
                            characters++;
                        }
                    }
                }
                outData.setInt((long) row * 4, characters);
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }
    }

    /** SUBSTRING(s, start [, length]) with BIGINT positions (the compiler widens INT). */
    static final class SubstringKernel extends Kernel {
        SubstringKernel(List<Kernel> arguments, SqlType type, BufferAllocator allocator) {
            super(type, arguments, allocator);
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            VarCharVector values = (VarCharVector) children.get(0).evaluate(input, rows);
            FieldVector starts = children.get(1).evaluate(input, rows);
            FieldVector lengths = children.size() > 2 ? children.get(2).evaluate(input, rows) : null;
            VarCharVector out = (VarCharVector) output(input.rowCount());
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (values.isNull(row) || starts.isNull(row) || (lengths != null && lengths.isNull(row))) {
                    out.setNull(row);
                    continue;
                }
                long start = starts.getDataBuffer().getLong((long) row * 8);
                long end = Long.MAX_VALUE;
                if (lengths != null) {
                    long length = lengths.getDataBuffer().getLong((long) row * 8);
                    if (length < 0) {
                        throw BuiltinFunctions.negativeSubstringLength(length);
                    }
                    end = BuiltinFunctions.saturatedAdd(start, length);
                }
                int byteStart = start(offsets, row);
                int byteEnd = end(offsets, row);
                long from = Math.max(start, 1);
                int position = byteStart;
                for (long character = 1; character < from && position < byteEnd; character++) {
                    position += Utf8.sequenceLength(data.getByte(position));
                }
                int cut = Math.min(position, byteEnd);
                for (long character = from; character < end && cut < byteEnd; character++) {
                    cut += Utf8.sequenceLength(data.getByte(cut));
                }
                cut = Math.min(cut, byteEnd);
                int begin = Math.min(position, byteEnd);
                out.setSafe(row, begin, cut - begin, data);
            }
            return finish(out, input.rowCount());
        }
    }

    /** TRIM, LTRIM, RTRIM of a constant set of ASCII characters. */
    static final class TrimKernel extends Kernel {
        private final boolean[] trimmed = new boolean[128];
        private final boolean leading;
        private final boolean trailing;

        TrimKernel(Kernel value, String characters, boolean leading, boolean trailing, SqlType type, BufferAllocator allocator) {
            super(type, List.of(value), allocator);
            for (int index = 0; index < characters.length(); index++) {
                trimmed[characters.charAt(index)] = true;
            }
            this.leading = leading;
            this.trailing = trailing;
        }

        /** Whether this kernel can trim {@code characters}: all ASCII. */
        static boolean supports(String characters) {
            return characters.chars().allMatch(character -> character < 128);
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            VarCharVector values = (VarCharVector) children.getFirst().evaluate(input, rows);
            VarCharVector out = (VarCharVector) output(input.rowCount());
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (values.isNull(row)) {
                    out.setNull(row);
                    continue;
                }
                int begin = start(offsets, row);
                int end = end(offsets, row);
                while (leading && begin < end && isTrimmed(data.getByte(begin))) {
                    begin++;
                }
                while (trailing && end > begin && isTrimmed(data.getByte(end - 1))) {
                    end--;
                }
                out.setSafe(row, begin, end - begin, data);
            }
            return finish(out, input.rowCount());
        }

        private boolean isTrimmed(byte value) {
            return value >= 0 && trimmed[value];
        }
    }

    /** CONCAT / ||: the pieces are copied into a reused buffer, then into the output. */
    static final class ConcatKernel extends Kernel {
        private byte[] scratch = new byte[256];
        private final VarCharVector[] pieces;

        ConcatKernel(List<Kernel> arguments, SqlType type, BufferAllocator allocator) {
            super(type, arguments, allocator);
            this.pieces = new VarCharVector[arguments.size()];
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            for (int argument = 0; argument < pieces.length; argument++) {
                pieces[argument] = (VarCharVector) children.get(argument).evaluate(input, rows);
            }
            VarCharVector out = (VarCharVector) output(input.rowCount());
            rowLoop:
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                long length = 0;
                for (VarCharVector piece : pieces) {
                    if (piece.isNull(row)) {
                        out.setNull(row);
                        continue rowLoop;
                    }
                    length += end(piece.getOffsetBuffer(), row) - start(piece.getOffsetBuffer(), row);
                }
                BuiltinFunctions.checkLength(length, "CONCAT");
                if (scratch.length < length) {
                    scratch = new byte[(int) Math.max(length, scratch.length * 2L)];
                }
                int written = 0;
                for (VarCharVector piece : pieces) {
                    int start = start(piece.getOffsetBuffer(), row);
                    int pieceLength = end(piece.getOffsetBuffer(), row) - start;
                    piece.getDataBuffer().getBytes(start, scratch, written, pieceLength);
                    written += pieceLength;
                }
                out.setSafe(row, scratch, 0, written);
            }
            return finish(out, input.rowCount());
        }
    }

    /** UPPER or LOWER: ASCII bytes are mapped in place; other characters go through Java's case mapping. */
    static final class CaseMappingKernel extends Kernel {
        private final boolean upper;
        private byte[] scratch = new byte[256];

        CaseMappingKernel(Kernel value, boolean upper, SqlType type, BufferAllocator allocator) {
            super(type, List.of(value), allocator);
            this.upper = upper;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            VarCharVector values = (VarCharVector) children.getFirst().evaluate(input, rows);
            VarCharVector out = (VarCharVector) output(input.rowCount());
            ArrowBuf offsets = values.getOffsetBuffer();
            ArrowBuf data = values.getDataBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (values.isNull(row)) {
                    out.setNull(row);
                    continue;
                }
                int start = start(offsets, row);
                int length = end(offsets, row) - start;
                if (scratch.length < length) {
                    scratch = new byte[Math.max(length, scratch.length * 2)];
                }
                data.getBytes(start, scratch, 0, length);
                boolean ascii = true;
                for (int position = 0; position < length; position++) {
                    byte value = scratch[position];
                    if (value < 0) {
                        ascii = false;
                        break;
                    }
                    if (upper && value >= 'a' && value <= 'z') {
                        scratch[position] = (byte) (value - 32);
                    } else if (!upper && value >= 'A' && value <= 'Z') {
                        scratch[position] = (byte) (value + 32);
                    }
                }
                if (ascii) {
                    out.setSafe(row, scratch, 0, length);
                } else {
                    data.getBytes(start, scratch, 0, length);
                    String text = new String(scratch, 0, length, StandardCharsets.UTF_8);
                    String mapped = upper ? text.toUpperCase(Locale.ROOT) : text.toLowerCase(Locale.ROOT);
                    out.setSafe(row, mapped.getBytes(StandardCharsets.UTF_8));
                }
            }
            return finish(out, input.rowCount());
        }
    }
}
