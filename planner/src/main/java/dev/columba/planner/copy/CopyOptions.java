package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.parser.SqlOption;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@code COPY ... FROM | TO 'file' [WITH] (option, ...)}, PostgreSQL's names:
 * <ul>
 *   <li>{@code FORMAT csv | parquet | arrow} — without it, a file named {@code *.parquet} is
 *       Parquet, {@code *.arrow}, {@code *.arrows}, {@code *.feather} or {@code *.ipc} Arrow IPC,
 *       anything else CSV ({@link FileFormat});</li>
 *   <li>{@code DELIMITER ','}, {@code QUOTE '"'}, {@code ESCAPE} (default: the quote, i.e. doubled
 *       quotes) — one ASCII character each ({@code '\t'} is a tab);</li>
 *   <li>{@code NULL ''} — the text of an unquoted field that is NULL (a quoted field never is);</li>
 *   <li>{@code HEADER [true | false]} — the first line names the columns and is checked against them;</li>
 *   <li>{@code ENCODING 'name'} — the file's encoding, PostgreSQL's or Java's name (default UTF8; another is
 *       transcoded through a UTF-8 copy, {@link Transcoding});</li>
 *   <li>{@code MAXDOP n} — threads that parse the file; 0 (the default) is every available processor.</li>
 * </ul>
 * An option not in this list is an error (42601), never ignored; a bad value is 22023, and so is
 * a CSV option (DELIMITER, QUOTE, ESCAPE, NULL, HEADER, ENCODING) given with FORMAT parquet or
 * arrow, whose files carry their own column names and types.
 */
public record CopyOptions(FileFormat fileFormat, CsvFormat format, int maxDop, Charset encoding) {
    /** The kinds of file COPY reads and writes. */
    public enum FileFormat {
        CSV, PARQUET, ARROW;

        /** The format a file's name suggests when FORMAT is not given. */
        static FileFormat ofFileName(String file) {
            String lower = file.toLowerCase(Locale.ROOT);
            if (lower.endsWith(".parquet")) {
                return PARQUET;
            }
            if (lower.endsWith(".arrow") || lower.endsWith(".arrows") || lower.endsWith(".feather")
                    || lower.endsWith(".ipc")) {
                return ARROW;
            }
            return CSV;
        }
    }

    private static final List<String> CSV_ONLY = List.of("delimiter", "quote", "escape", "null", "header", "encoding");

    /** CSV options, MAXDOP 1: what tests and callers without SQL options use. */
    public CopyOptions(CsvFormat format, int maxDop) {
        this(FileFormat.CSV, format, maxDop, StandardCharsets.UTF_8);
    }

    /** MAXDOP's upper bound. */
    public static final int MAX_DOP = 1024;
    private static final List<String> NAMES = List.of("format", "delimiter", "quote", "escape", "null", "header",
            "encoding", "maxdop");

    public CopyOptions {
        if (maxDop < 1 || maxDop > MAX_DOP) {
            throw new IllegalArgumentException("maxDop " + maxDop + " is outside 1.." + MAX_DOP);
        }
    }

    /**
     * The options as given; {@code processors} replaces MAXDOP 0.
     *
     * @throws ColumbaException SYNTAX_ERROR for an unknown option, INVALID_ARGUMENT for a bad value,
     *         or an unknown encoding
     */
    public static CopyOptions of(List<SqlOption> options, int processors) {
        return of(options, processors, "");
    }

    /**
     * As {@link #of(List, int)}, the format taken from {@code file}'s name when no FORMAT is given.
     */
    public static CopyOptions of(List<SqlOption> options, int processors, String file) {
        FileFormat fileFormat = null;
        byte delimiter = ',';
        byte quote = '"';
        Byte escape = null;
        String nullText = "";
        boolean header = false;
        int maxDop = 0;
        Charset encoding = StandardCharsets.UTF_8;
        for (SqlOption option : options) {
            switch (option.name()) {
                case "format" -> {
                    String format = text(option).toLowerCase(Locale.ROOT);
                    fileFormat = switch (format) {
                        case "csv" -> FileFormat.CSV;
                        case "parquet" -> FileFormat.PARQUET;
                        case "arrow", "ipc", "feather" -> FileFormat.ARROW;
                        default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY FORMAT '"
                                + format + "' is unknown; formats: csv, parquet, arrow");
                    };
                }
                case "delimiter" -> delimiter = character(option);
                case "quote" -> quote = character(option);
                case "escape" -> escape = character(option);
                case "null" -> nullText = text(option);
                case "header" -> header = bool(option);
                case "encoding" -> encoding = Transcoding.charset(text(option));
                case "maxdop" -> maxDop = wholeNumber(option, 0, MAX_DOP);
                default -> throw new ColumbaException(ErrorCode.SYNTAX_ERROR, "unknown COPY option "
                        + option.nameIdentifier() + "; COPY takes " + String.join(", ",
                        NAMES.stream().map(name -> name.toUpperCase(Locale.ROOT)).toList()));
            }
        }
        if (fileFormat == null) {
            fileFormat = FileFormat.ofFileName(file);
        }
        if (fileFormat != FileFormat.CSV) {
            for (SqlOption option : options) {
                if (CSV_ONLY.contains(option.name())) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY option " + option.nameIdentifier()
                            .toString().toUpperCase(Locale.ROOT) + " applies to FORMAT csv only, not "
                            + fileFormat.name().toLowerCase(Locale.ROOT) + " (whose files name and type their columns)");
                }
            }
        }
        byte escapeCharacter = escape == null ? quote : escape;
        if (delimiter == quote) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY DELIMITER and QUOTE must differ, both are '"
                    + (char) delimiter + "'");
        }
        if (escapeCharacter == delimiter) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY ESCAPE and DELIMITER must differ, both are '"
                    + (char) delimiter + "'");
        }
        byte[] nullBytes = nullText.getBytes(StandardCharsets.UTF_8);
        for (byte b : nullBytes) {
            if (b == delimiter || b == '\n' || b == '\r') {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY NULL '" + nullText
                        + "' must not hold the delimiter or a line break");
            }
        }
        return new CopyOptions(fileFormat, new CsvFormat(delimiter, quote, escapeCharacter, nullBytes, header),
                maxDop == 0 ? Math.max(1, Math.min(processors, MAX_DOP)) : maxDop, encoding);
    }

    private static String text(SqlOption option) {
        return option.valueText().orElseThrow(() -> new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY option "
                + option.nameIdentifier() + " needs a value"));
    }

    private static byte character(SqlOption option) {
        String text = text(option);
        if (text.equals("\\t")) {
            return '\t';
        }
        if (text.length() != 1 || text.charAt(0) >= 0x80 || text.charAt(0) == '\n' || text.charAt(0) == '\r') {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY " + option.nameIdentifier().toString()
                    .toUpperCase(Locale.ROOT) + " must be one ASCII character other than a line break, was '" + text + "'");
        }
        return (byte) text.charAt(0);
    }

    private static boolean bool(SqlOption option) {
        if (option.value().isEmpty()) {
            return true;
        }
        String text = text(option).toLowerCase(Locale.ROOT);
        return switch (text) {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY option " + option.nameIdentifier()
                    + " is true or false, was '" + text + "'");
        };
    }

    private static int wholeNumber(SqlOption option, int min, int max) {
        String text = text(option);
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY option " + option.nameIdentifier()
                + " needs a whole number from " + min + " to " + max + ", was '" + text + "'");
    }
}
