package dev.columba.cli.inspect;

import dev.columba.storage.row.LobRef;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.StringJoiner;

/** How decoded values, bytes and times appear in a dump: SQL-like literals, hex, UTC instants. */
final class ValueText {
    private ValueText() {
    }

    /** Strings longer than this are cut, so that one row stays one readable line. */
    private static final int MAX_STRING = 40;
    /** Bytes of hex shown inline before the rest is summarized. */
    static final int MAX_INLINE_HEX = 24;

    static String tuple(Object[] values) {
        StringJoiner joiner = new StringJoiner(", ", "(", ")");
        for (Object value : values) {
            joiner.add(value(value));
        }
        return joiner.toString();
    }

    static String value(Object value) {
        return switch (value) {
            case null -> "NULL";
            case String text -> quoted(text);
            case BigDecimal decimal -> decimal.toPlainString();
            case LobRef lob -> "<out of row: " + lob.byteLength() + " bytes from page " + lob.firstPageId() + ">";
            default -> value.toString();
        };
    }

    private static String quoted(String text) {
        String shown = text.length() > MAX_STRING ? text.substring(0, MAX_STRING) : text;
        return "'" + shown.replace("'", "''") + "'" + (shown.length() < text.length()
                ? "... (" + text.length() + " chars)" : "");
    }

    /** Space-separated hex, cut after {@link #MAX_INLINE_HEX} bytes with the total length. */
    static String hex(byte[] bytes) {
        if (bytes.length <= MAX_INLINE_HEX) {
            return HexFormat.ofDelimiter(" ").formatHex(bytes);
        }
        return HexFormat.ofDelimiter(" ").formatHex(bytes, 0, MAX_INLINE_HEX) + " ... (" + bytes.length + " bytes)";
    }

    static String hex32(int value) {
        return String.format("0x%08x", value);
    }

    /** Microseconds since the epoch as an ISO instant in UTC, e.g. {@code 2026-11-02T10:15:30.123456Z}. */
    static String micros(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString();
    }
}
