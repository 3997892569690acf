package dev.columba.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * {@link LikePattern} against a regular expression built from the same pattern, over random
 * values long enough for the word-at-a-time search of literal segments, placed at every offset
 * of a buffer so words cross value boundaries.
 */
class LikePatternTest {
    private static final String ALPHABET = "abcs\u00e9\u65e5";

    @Test
    void matchesAsTheEquivalentRegularExpression() {
        matchesAsRegularExpressions(new Random(20261126), 3, 40);
    }

    /** Literal segments long enough to be found by their first and last bytes a word at a time, in longer values. */
    @Test
    void longLiteralsMatchAsTheEquivalentRegularExpression() {
        matchesAsRegularExpressions(new Random(20261127), 10, 120);
    }

    private static void matchesAsRegularExpressions(Random random, int longestLiteral, int longestValue) {
        try (BufferAllocator allocator = new RootAllocator(); ArrowBuf data = allocator.buffer(1024)) {
            for (int trial = 0; trial < 20_000; trial++) {
                String pattern = randomPattern(random, longestLiteral);
                String value = randomText(random, random.nextInt(longestValue));
                byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                int offset = random.nextInt(16);
                for (int index = 0; index < data.capacity(); index++) {
                    data.setByte(index, 'a' + random.nextInt(3));
                }
                data.setBytes(offset, bytes);
                boolean expected = regex(pattern).matcher(value).matches();
                boolean actual = LikePattern.compile(pattern, null).matches(data, offset, offset + bytes.length);
                assertEquals(expected, actual, () -> "'" + value + "' LIKE '" + pattern + "'");
            }
        }
    }

    private static String randomPattern(Random random, int longestLiteral) {
        StringBuilder pattern = new StringBuilder();
        int parts = 1 + random.nextInt(5);
        for (int part = 0; part < parts; part++) {
            switch (random.nextInt(4)) {
                case 0 -> pattern.append('%');
                case 1 -> pattern.append('_');
                default -> pattern.append(randomText(random, 1 + random.nextInt(longestLiteral)));
            }
        }
        return pattern.toString();
    }

    private static String randomText(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < length; index++) {
            text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }

    private static Pattern regex(String like) {
        StringBuilder regex = new StringBuilder();
        for (char c : like.toCharArray()) {
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
