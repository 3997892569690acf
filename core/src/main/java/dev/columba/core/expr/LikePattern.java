package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A LIKE pattern compiled for matching UTF-8 bytes in place. The pattern is split at its
 * {@code %}s into segments; a segment is a sequence of literal bytes and {@link #ANY_CHARACTER}
 * ({@code _}, one code point of one to four bytes). The first segment must match at the start,
 * the last at the end (matched backwards), and the ones between at their leftmost place in
 * between: the leftmost place never loses a match, so no backtracking is needed.
 */
final class LikePattern {
    /** A segment element matching any one character. Literal bytes are 0..255. */
    static final int ANY_CHARACTER = -1;

    private final int[][] segments;

    /** Whether a segment is literal bytes only (no {@code _}): searched for by its first byte. */
    private final boolean[] literal;

    private LikePattern(int[][] segments) {
        this.segments = segments;
        this.literal = new boolean[segments.length];
        for (int segment = 0; segment < segments.length; segment++) {
            literal[segment] = segments[segment].length > 0
                    && java.util.Arrays.stream(segments[segment]).allMatch(element -> element != ANY_CHARACTER);
        }
    }

    /**
     * Compiles {@code pattern} with the escape character {@code escape} (null for none).
     *
     * @throws ColumbaException {@link ErrorCode#INVALID_ESCAPE_SEQUENCE} for a bad escape
     */
    static LikePattern compile(String pattern, String escape) {
        int escapeCodePoint = BuiltinFunctions.escapeCodePoint(escape);
        List<int[]> segments = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        for (int index = 0; index < pattern.length(); ) {
            int codePoint = pattern.codePointAt(index);
            index += Character.charCount(codePoint);
            if (codePoint == escapeCodePoint) {
                if (index >= pattern.length()) {
                    throw new ColumbaException(ErrorCode.INVALID_ESCAPE_SEQUENCE,
                            "LIKE pattern must not end with the escape character: '" + pattern + "'");
                }
                int escaped = pattern.codePointAt(index);
                index += Character.charCount(escaped);
                addLiteral(current, escaped);
            } else if (codePoint == '%') {
                segments.add(toArray(current));
                current.clear();
            } else if (codePoint == '_') {
                current.add(ANY_CHARACTER);
            } else {
                addLiteral(current, codePoint);
            }
        }
        segments.add(toArray(current));
        return new LikePattern(segments.toArray(new int[0][]));
    }

    private static void addLiteral(List<Integer> elements, int codePoint) {
        for (byte value : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
            elements.add(value & 0xFF);
        }
    }

    private static int[] toArray(List<Integer> elements) {
        int[] array = new int[elements.size()];
        for (int index = 0; index < array.length; index++) {
            array[index] = elements.get(index);
        }
        return array;
    }

    /** Whether the UTF-8 bytes {@code data[start, end)} match. */
    boolean matches(ArrowBuf data, long start, long end) {
        if (segments.length == 1) {
            return matchForward(segments[0], data, start, end) == end;
        }
        long position = matchForward(segments[0], data, start, end);
        if (position < 0) {
            return false;
        }
        long suffixStart = matchBackward(segments[segments.length - 1], data, position, end);
        if (suffixStart < 0) {
            return false;
        }
        for (int segment = 1; segment < segments.length - 1; segment++) {
            int[] elements = segments[segment];
            if (elements.length == 0) {
                continue;
            }
            long found = -1;
            if (literal[segment]) {
                found = findLiteral(elements, data, position, suffixStart);
                if (found < 0) {
                    return false;
                }
                position = found;
                continue;
            }
            for (long candidate = position; candidate <= suffixStart; ) {
                found = matchForward(elements, data, candidate, suffixStart);
                if (found >= 0) {
                    break;
                }
                if (candidate == suffixStart) {
                    break;
                }
                candidate += Utf8.sequenceLength(data.getByte(candidate));
            }
            if (found < 0) {
                return false;
            }
            position = found;
        }
        return true;
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /**
     * Where the leftmost occurrence of the literal bytes {@code elements} lying wholly in
     * {@code [from, limit)} ends, or -1. Candidates are found eight at a time by the literal's first
     * and last bytes together (Muła's generic SIMD substring search, in one word): a word XORed with
     * the first byte repeated has a zero byte where that byte is, the word {@code length - 1}
     * further on the same for the last byte, and a start needs both. Testing the first byte alone
     * stopped at every common letter (TPC-H Q13's {@code '%special%requests%'} over {@code
     * o_comment}: 19% of the query in this search). The zero-byte test never misses a zero byte
     * but may flag a byte above one, so every flagged start is checked in full. A literal segment
     * starts with an ASCII or UTF-8 lead byte, never a continuation byte, so every byte match is at
     * a character boundary.
     */
    private static long findLiteral(int[] elements, ArrowBuf data, long from, long limit) {
        long lastStart = limit - elements.length;
        int first = elements[0];
        int lastOffset = elements.length - 1;
        long repeatedFirst = ONES * first;
        long repeatedLast = ONES * elements[lastOffset];
        long candidate = from;
        while (candidate <= lastStart) {
            if (candidate + lastOffset + Long.BYTES <= limit) {
                long firsts = data.getLong(candidate) ^ repeatedFirst;
                long lasts = data.getLong(candidate + lastOffset) ^ repeatedLast;
                long starts = (firsts - ONES) & ~firsts & (lasts - ONES) & ~lasts & HIGH_BITS;
                if (starts == 0) {
                    candidate += Long.BYTES;
                    continue;
                }
                candidate += Long.numberOfTrailingZeros(starts) >>> 3;
                if (candidate > lastStart) {
                    return -1;
                }
            }
            if ((data.getByte(candidate) & 0xFF) == first && literalAt(elements, data, candidate)) {
                return candidate + elements.length;
            }
            candidate++;
        }
        return -1;
    }

    /** Whether the literal bytes {@code elements} are at {@code position} (the caller knows they fit). */
    private static boolean literalAt(int[] elements, ArrowBuf data, long position) {
        for (int element = 1; element < elements.length; element++) {
            if ((data.getByte(position + element) & 0xFF) != elements[element]) {
                return false;
            }
        }
        return true;
    }

    /** Where a match of {@code elements} starting at {@code position} ends, or -1; never passes {@code limit}. */
    private static long matchForward(int[] elements, ArrowBuf data, long position, long limit) {
        for (int element : elements) {
            if (position >= limit) {
                return -1;
            }
            if (element == ANY_CHARACTER) {
                position += Utf8.sequenceLength(data.getByte(position));
                if (position > limit) {
                    return -1;
                }
            } else {
                if ((data.getByte(position) & 0xFF) != element) {
                    return -1;
                }
                position++;
            }
        }
        return position;
    }

    /** Where a match of {@code elements} ending at {@code end} starts, or -1; never before {@code floor}. */
    private static long matchBackward(int[] elements, ArrowBuf data, long floor, long end) {
        long position = end;
        for (int element = elements.length - 1; element >= 0; element--) {
            if (position <= floor) {
                return -1;
            }
            if (elements[element] == ANY_CHARACTER) {
                position--;
                while (position > floor && Utf8.isContinuation(data.getByte(position))) {
                    position--;
                }
            } else {
                position--;
                if ((data.getByte(position) & 0xFF) != elements[element]) {
                    return -1;
                }
            }
        }
        return position;
    }
}
