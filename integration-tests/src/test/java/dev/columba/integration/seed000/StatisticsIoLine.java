package dev.columba.integration.seed000;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code SET STATISTICS IO ON} output in SQL Server's format, parsed from the text the
 * driver returns as a SQLWarning: the user-visible contract, so the tests read it and nothing else.
 *
 * <pre>
 * Table 'TestTable'. Scan count 1, logical reads 5, physical reads 1, read-ahead reads 2, lob logical reads 0, lob physical reads 0, lob read-ahead reads 0.
 * </pre>
 */
record StatisticsIoLine(String table, long scanCount, long logicalReads, long physicalReads, long readAheadReads,
                        long lobLogicalReads, long lobPhysicalReads, long lobReadAheadReads) {
    private static final Pattern LINE = Pattern.compile("Table '([^']+)'\\. Scan count (\\d+), logical reads (\\d+), "
            + "physical reads (\\d+), read-ahead reads (\\d+), lob logical reads (\\d+), lob physical reads (\\d+), "
            + "lob read-ahead reads (\\d+)\\.");

    /** The line parsed; null if {@code message} is another kind of message (STATISTICS TIME, DBCC, PRINT). */
    static StatisticsIoLine parse(String message) {
        Matcher matcher = LINE.matcher(message);
        if (!matcher.matches()) {
            if (message.startsWith("Table '") && !message.contains("Segment reads")) {
                throw new IllegalArgumentException("a STATISTICS IO line not in SQL Server's format: " + message);
            }
            return null;
        }
        return new StatisticsIoLine(matcher.group(1), number(matcher, 2), number(matcher, 3), number(matcher, 4),
                number(matcher, 5), number(matcher, 6), number(matcher, 7), number(matcher, 8));
    }

    /** The STATISTICS IO lines among {@code messages}, by table name, in order. */
    static Map<String, StatisticsIoLine> byTable(Iterable<String> messages) {
        Map<String, StatisticsIoLine> lines = new LinkedHashMap<>();
        for (String message : messages) {
            StatisticsIoLine line = parse(message);
            if (line != null && lines.put(line.table(), line) != null) {
                throw new IllegalArgumentException("two STATISTICS IO lines for table " + line.table() + " in " + messages);
            }
        }
        return lines;
    }

    private static long number(Matcher matcher, int group) {
        return Long.parseLong(matcher.group(group));
    }
}
