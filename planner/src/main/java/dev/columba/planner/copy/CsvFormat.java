package dev.columba.planner.copy;

import java.util.Arrays;

/**
 * How a CSV file is written: single-byte ASCII delimiter, quote and escape characters (so that
 * none can occur inside a UTF-8 sequence), the text that stands for NULL in an unquoted field, and
 * whether the first line is a header. With {@code escape == quote} (RFC 4180) a quote inside a
 * quoted field is doubled; otherwise the escape character makes the next character literal inside
 * a quoted field.
 *
 * @param nullText the NULL text in UTF-8; an empty array makes an empty unquoted field NULL
 */
public record CsvFormat(byte delimiter, byte quote, byte escape, byte[] nullText, boolean header) {
    public CsvFormat {
        if (delimiter == quote || delimiter == '\n' || delimiter == '\r' || quote == '\n' || quote == '\r'
                || escape == '\n' || escape == '\r' || delimiter < 0 || quote < 0 || escape < 0) {
            throw new IllegalArgumentException("delimiter " + delimiter + ", quote " + quote + " and escape " + escape
                    + " must be distinct ASCII characters other than line breaks");
        }
        nullText = nullText.clone();
    }

    @Override
    public byte[] nullText() {
        return nullText.clone();
    }

    /** Whether the unquoted field {@code bytes[start, end)} is the NULL text. */
    boolean isNull(byte[] bytes, int start, int end) {
        return end - start == nullText.length && Arrays.equals(bytes, start, end, nullText, 0, nullText.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CsvFormat format && delimiter == format.delimiter && quote == format.quote
                && escape == format.escape && header == format.header && Arrays.equals(nullText, format.nullText);
    }

    @Override
    public int hashCode() {
        return ((delimiter * 31 + quote) * 31 + escape) * 31 + Arrays.hashCode(nullText) + (header ? 1 : 0);
    }

    @Override
    public String toString() {
        return "CsvFormat[delimiter=" + (char) delimiter + ", quote=" + (char) quote + ", escape=" + (char) escape
                + ", null=" + new String(nullText, java.nio.charset.StandardCharsets.UTF_8) + ", header=" + header + "]";
    }
}
