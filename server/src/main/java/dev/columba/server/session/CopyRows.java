package dev.columba.server.session;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Rows between PostgreSQL's COPY formats and what Columba reads and the server writes. In: PostgreSQL's
 * text format becomes CSV for Columba's COPY (every value quoted, a NULL an empty unquoted field, which
 * Columba's {@code NULL ''} reads as NULL and never confuses with an empty string). Out: the text of each
 * value, as the server sends it in DataRow, joined in text format (backslash escapes, {@code \N}) or CSV.
 * All the characters these formats give meaning to are ASCII, so UTF-8 is processed as bytes.
 */
final class CopyRows {
    private CopyRows() {
    }

    /**
     * Converts PostgreSQL text-format rows to CSV with comma, double quote and {@code NULL ''}.
     *
     * @return the rows written
     * @throws WireSqlException 22P04 for a backslash at the end of the data
     */
    static long textToCsv(InputStream input, OutputStream output, WireCopy copy) throws IOException {
        byte delimiter = (byte) copy.delimiter();
        byte[] nullText = copy.nullText().getBytes(StandardCharsets.UTF_8);
        BufferedInputStream in = new BufferedInputStream(input, 1 << 16);
        BufferedOutputStream out = new BufferedOutputStream(output, 1 << 16);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        long rows = 0;
        boolean skipHeader = copy.header();
        boolean lineHasData = false;
        boolean firstField = true;
        while (true) {
            int next = in.read();
            if (next == '\r') {
                continue;
            }
            boolean endOfField = next == -1 || next == '\n' || next == delimiter;
            if (!endOfField) {
                raw.write(next);
                lineHasData = true;
                if (next == '\\') {
                    int escaped = in.read();
                    if (escaped == -1) {
                        throw new WireSqlException("22P04", "COPY data ends with a backslash");
                    }
                    raw.write(escaped);
                    unescape(escaped, in, value, raw);
                } else {
                    value.write(next);
                }
                continue;
            }
            boolean endOfLine = next != delimiter;
            if (next == -1 && !lineHasData && firstField) {
                break;
            }
            if (endOfLine && firstField && isEndMarker(raw)) {
                // \. alone on a line: the end of the data, as older clients mark it.
                break;
            }
            if (!skipHeader) {
                if (!firstField) {
                    out.write(',');
                }
                if (raw.size() != nullText.length || !Arrays.equals(raw.toByteArray(), nullText)) {
                    out.write('"');
                    byte[] bytes = value.toByteArray();
                    for (byte b : bytes) {
                        if (b == '"') {
                            out.write('"');
                        }
                        out.write(b);
                    }
                    out.write('"');
                }
            }
            raw.reset();
            value.reset();
            firstField = false;
            if (endOfLine) {
                if (!skipHeader) {
                    out.write('\n');
                    rows++;
                }
                skipHeader = false;
                firstField = true;
                lineHasData = false;
                if (next == -1) {
                    break;
                }
            }
        }
        out.flush();
        return rows;
    }

    private static boolean isEndMarker(ByteArrayOutputStream raw) {
        if (raw.size() != 2) {
            return false;
        }
        byte[] bytes = raw.toByteArray();
        return bytes[0] == '\\' && bytes[1] == '.';
    }

    /** Appends the character a backslash sequence stands for; octal and hex digits are read from {@code in}. */
    private static void unescape(int escaped, BufferedInputStream in, ByteArrayOutputStream value,
                                 ByteArrayOutputStream raw) throws IOException {
        switch (escaped) {
            case 'b' -> value.write('\b');
            case 'f' -> value.write('\f');
            case 'n' -> value.write('\n');
            case 'r' -> value.write('\r');
            case 't' -> value.write('\t');
            case 'v' -> value.write(0x0b);
            case 'x' -> value.write(digits(in, raw, 16, 2, 1));
            default -> {
                if (escaped >= '0' && escaped <= '7') {
                    value.write(octal(escaped, in, raw));
                } else {
                    value.write(escaped);
                }
            }
        }
    }

    private static int octal(int first, BufferedInputStream in, ByteArrayOutputStream raw) throws IOException {
        int result = first - '0';
        for (int digit = 1; digit < 3; digit++) {
            in.mark(1);
            int next = in.read();
            if (next < '0' || next > '7') {
                in.reset();
                break;
            }
            raw.write(next);
            result = result * 8 + (next - '0');
        }
        return result & 0xff;
    }

    private static int digits(BufferedInputStream in, ByteArrayOutputStream raw, int radix, int most, int least)
            throws IOException {
        int result = 0;
        int read = 0;
        while (read < most) {
            in.mark(1);
            int next = in.read();
            int digit = next < 0 ? -1 : Character.digit(next, radix);
            if (digit < 0) {
                in.reset();
                break;
            }
            raw.write(next);
            result = result * radix + digit;
            read++;
        }
        if (read < least) {
            // "\x" without digits is the letter x, as PostgreSQL reads it.
            return 'x';
        }
        return result & 0xff;
    }

    /** The header line of COPY TO STDOUT: the column names in the copy's format. */
    static byte[] header(List<String> names, WireCopy copy) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int column = 0; column < names.size(); column++) {
            if (column > 0) {
                line.write(copy.delimiter());
            }
            byte[] name = names.get(column).getBytes(StandardCharsets.UTF_8);
            if (copy.csv()) {
                writeCsvField(line, name, copy);
            } else {
                writeTextField(line, name, copy);
            }
        }
        line.write('\n');
        return line.toByteArray();
    }

    /** One row of COPY TO STDOUT; {@code values} are the text forms, null for NULL. */
    static byte[] row(List<byte[]> values, WireCopy copy) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] nullText = copy.nullText().getBytes(StandardCharsets.UTF_8);
        for (int column = 0; column < values.size(); column++) {
            if (column > 0) {
                line.write(copy.delimiter());
            }
            byte[] value = values.get(column);
            if (value == null) {
                line.writeBytes(nullText);
            } else if (copy.csv()) {
                writeCsvField(line, value, copy);
            } else {
                writeTextField(line, value, copy);
            }
        }
        line.write('\n');
        return line.toByteArray();
    }

    private static void writeTextField(ByteArrayOutputStream line, byte[] value, WireCopy copy) {
        for (byte b : value) {
            switch (b) {
                case '\\' -> line.writeBytes(new byte[] {'\\', '\\'});
                case '\n' -> line.writeBytes(new byte[] {'\\', 'n'});
                case '\r' -> line.writeBytes(new byte[] {'\\', 'r'});
                case '\t' -> line.writeBytes(new byte[] {'\\', 't'});
                default -> {
                    if (b == copy.delimiter()) {
                        line.write('\\');
                    }
                    line.write(b);
                }
            }
        }
    }

    /** A CSV field, quoted when it holds a special character or could be read as NULL (the empty string). */
    private static void writeCsvField(ByteArrayOutputStream line, byte[] value, WireCopy copy) {
        boolean quote = value.length == 0 || new String(value, StandardCharsets.UTF_8).equals(copy.nullText());
        for (byte b : value) {
            if (b == copy.delimiter() || b == copy.quote() || b == copy.escape() || b == '\n' || b == '\r') {
                quote = true;
                break;
            }
        }
        if (!quote) {
            line.writeBytes(value);
            return;
        }
        line.write(copy.quote());
        for (byte b : value) {
            if (b == copy.quote() || b == copy.escape()) {
                line.write(copy.escape());
            }
            line.write(b);
        }
        line.write(copy.quote());
    }
}
