package dev.columba.columnstore.build;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A columnstore table's options (`CREATE TABLE ... WITH (...)`, `ALTER TABLE ... SET (...)`),
 * stored as text in the catalog entry. Unknown names and bad values are rejected by name.
 *
 * @param rowgroupMaxRows     rows at which a delta rowgroup closes and a bulk insert cuts a rowgroup
 * @param bulkMinRows         a bulk insert of at least this many rows compresses directly
 * @param dictionaryCapBytes  the largest a dictionary may grow
 * @param overflow            what a value that would overflow a dictionary does
 * @param archive             zstd over every segment (COLUMNSTORE_ARCHIVE)
 */
public record ColumnstoreOptions(int rowgroupMaxRows, int bulkMinRows, long dictionaryCapBytes,
                                 DictionaryOverflow overflow, boolean archive) {

    /** What happens when a new value would push a dictionary over its cap. */
    public enum DictionaryOverflow {
        /** SQL Server's behaviour: the rowgroup is cut short (trim_reason DICTIONARY_SIZE). */
        TRIM,
        /** Parquet's: the rowgroup stays full; that column's segment is encoded without a dictionary. */
        FALLBACK
    }

    public static final int MAX_ROWGROUP_ROWS = 1_048_576;
    public static final ColumnstoreOptions DEFAULTS =
            new ColumnstoreOptions(MAX_ROWGROUP_ROWS, 102_400, 16L << 20, DictionaryOverflow.FALLBACK, false);

    public ColumnstoreOptions {
        if (rowgroupMaxRows < 1 || rowgroupMaxRows > MAX_ROWGROUP_ROWS) {
            throw invalid("rowgroup_max_rows", rowgroupMaxRows, "must be between 1 and " + MAX_ROWGROUP_ROWS);
        }
        if (bulkMinRows < 1) {
            throw invalid("bulk_min_rows", bulkMinRows, "must be positive");
        }
        if (dictionaryCapBytes < 1024 || dictionaryCapBytes > (1L << 30)) {
            throw invalid("dictionary_cap", dictionaryCapBytes, "must be between 1KB and 1GB");
        }
    }

    private static ColumbaException invalid(String name, Object value, String problem) {
        return new ColumbaException(ErrorCode.INVALID_SETTING_VALUE, "invalid value " + value + " for columnstore option "
                + name + ": " + problem);
    }

    /**
     * Options from their stored text form; absent names take their defaults. Names with a colon
     * ({@code identity:ID}, {@code computed:IDvarchar}) are column options of the SQL layer, kept
     * in the same table options and ignored here.
     */
    public static ColumnstoreOptions parse(Map<String, String> options) {
        int maxRows = DEFAULTS.rowgroupMaxRows();
        int bulkMin = DEFAULTS.bulkMinRows();
        long cap = DEFAULTS.dictionaryCapBytes();
        DictionaryOverflow overflow = DEFAULTS.overflow();
        boolean archive = DEFAULTS.archive();
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (option.getKey().contains(":")) {
                continue;
            }
            String value = option.getValue().trim();
            try {
                switch (option.getKey().toLowerCase(Locale.ROOT)) {
                    case "storage" -> {
                        if (!value.equalsIgnoreCase("columnstore")) {
                            throw invalid("storage", value, "a columnstore table has storage = columnstore");
                        }
                    }
                    case "rowgroup_max_rows" -> maxRows = Integer.parseInt(value.replace("_", ""));
                    case "bulk_min_rows" -> bulkMin = Integer.parseInt(value.replace("_", ""));
                    case "dictionary_cap" -> cap = parseBytes(value);
                    case "dictionary_overflow" -> overflow = DictionaryOverflow.valueOf(value.toUpperCase(Locale.ROOT));
                    case "compression" -> archive = switch (value.toLowerCase(Locale.ROOT)) {
                        case "archive", "columnstore_archive" -> true;
                        case "none", "columnstore" -> false;
                        default -> throw invalid("compression", value, "expected archive or none");
                    };
                    default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "unknown columnstore option '"
                            + option.getKey() + "' (options: rowgroup_max_rows, bulk_min_rows, dictionary_cap,"
                            + " dictionary_overflow, compression)");
                }
            } catch (IllegalArgumentException e) {
                throw invalid(option.getKey(), value, "not understood");
            }
        }
        return new ColumnstoreOptions(maxRows, bulkMin, cap, overflow, archive);
    }

    /** The text form stored in the catalog. */
    public Map<String, String> toMap() {
        Map<String, String> map = new TreeMap<>();
        map.put("storage", "columnstore");
        map.put("rowgroup_max_rows", String.valueOf(rowgroupMaxRows));
        map.put("bulk_min_rows", String.valueOf(bulkMinRows));
        map.put("dictionary_cap", String.valueOf(dictionaryCapBytes));
        map.put("dictionary_overflow", overflow.name().toLowerCase(Locale.ROOT));
        map.put("compression", archive ? "archive" : "none");
        return map;
    }

    private static long parseBytes(String text) {
        String upper = text.toUpperCase(Locale.ROOT).replace(" ", "");
        long multiplier = 1;
        if (upper.endsWith("GB")) {
            multiplier = 1L << 30;
        } else if (upper.endsWith("MB")) {
            multiplier = 1L << 20;
        } else if (upper.endsWith("KB")) {
            multiplier = 1L << 10;
        }
        String digits = multiplier == 1 ? upper.replace("B", "") : upper.substring(0, upper.length() - 2);
        return Math.multiplyExact(Long.parseLong(digits), multiplier);
    }
}
