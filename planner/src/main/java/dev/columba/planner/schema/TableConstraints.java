package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.parser.ColumbaSqlParser;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * A table's DEFAULT values, CHECK constraints and UNIQUE constraints, as its DDL recorded them in
 * the table's options (docs/format/catalog.md, "Column and constraint options"):
 * {@code default:<column>} = the default's SQL, {@code check:<constraint>} = the condition's SQL
 * over the table's columns, {@code unique:<constraint>} = its columns' names, comma-separated. A
 * UNIQUE constraint is enforced by the unique secondary index of the same name, which the option
 * only marks as a constraint's (for the system views); a CHECK constraint by the insert operator on
 * every row it writes; a default by Calcite's converter where an INSERT leaves the column out or
 * writes {@code DEFAULT} (docs/design/planner.md, "Constraints and defaults").
 *
 * @param defaults column index to the default's SQL, in column order
 * @param checks   constraint name to the condition's SQL, by name
 * @param uniques  constraint name to its columns' indexes, by name
 */
public record TableConstraints(Map<Integer, String> defaults, Map<String, String> checks,
                               Map<String, List<Integer>> uniques) {
    public static final String DEFAULT_OPTION = "default:";
    public static final String CHECK_OPTION = "check:";
    public static final String UNIQUE_OPTION = "unique:";

    public static final TableConstraints NONE = new TableConstraints(Map.of(), Map.of(), Map.of());

    public TableConstraints {
        defaults = Collections.unmodifiableMap(new TreeMap<>(defaults));
        checks = Collections.unmodifiableMap(new TreeMap<>(checks));
        Map<String, List<Integer>> copied = new TreeMap<>();
        uniques.forEach((name, columns) -> copied.put(name, List.copyOf(columns)));
        uniques = Collections.unmodifiableMap(copied);
    }

    /** Whether an option key is one of these (it belongs to the SQL layer, kept for both stores). */
    public static boolean isConstraintOption(String key) {
        return key.startsWith(DEFAULT_OPTION) || key.startsWith(CHECK_OPTION) || key.startsWith(UNIQUE_OPTION);
    }

    /** Reads the constraints of a table with {@code schema} from its {@code options}. */
    public static TableConstraints of(TableSchema schema, Map<String, String> options) {
        Map<Integer, String> defaults = new LinkedHashMap<>();
        Map<String, String> checks = new LinkedHashMap<>();
        Map<String, List<Integer>> uniques = new LinkedHashMap<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey();
            if (key.startsWith(DEFAULT_OPTION)) {
                defaults.put(column(schema, key.substring(DEFAULT_OPTION.length()), key), option.getValue());
            } else if (key.startsWith(CHECK_OPTION)) {
                checks.put(key.substring(CHECK_OPTION.length()), option.getValue());
            } else if (key.startsWith(UNIQUE_OPTION)) {
                List<Integer> columns = new ArrayList<>();
                for (String name : option.getValue().split(",")) {
                    columns.add(column(schema, name, key));
                }
                uniques.put(key.substring(UNIQUE_OPTION.length()), columns);
            }
        }
        if (defaults.isEmpty() && checks.isEmpty() && uniques.isEmpty()) {
            return NONE;
        }
        return new TableConstraints(defaults, checks, uniques);
    }

    /** The option that records UNIQUE constraint {@code name} on {@code columns}. */
    public static Map.Entry<String, String> uniqueOption(String name, List<String> columns) {
        return Map.entry(UNIQUE_OPTION + name, String.join(",", columns));
    }

    private static int column(TableSchema schema, String name, String key) {
        for (int index = 0; index < schema.size(); index++) {
            if (schema.column(index).name().equalsIgnoreCase(name)) {
                return index;
            }
        }
        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "table option " + key + " names no column of the table");
    }

    /** Parses one stored expression (a default or a CHECK condition) of table {@code table}. */
    public static SqlNode expression(String sql, String what, String table) {
        SqlNode query = ColumbaSqlParser.parse("SELECT " + sql);
        if (!(query instanceof SqlSelect select) || select.getSelectList().size() != 1) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, what + " of " + table
                    + " does not parse as one expression: " + sql);
        }
        return select.getSelectList().get(0);
    }

    /** Whether the table has any CHECK constraint or default. */
    public boolean any() {
        return !defaults.isEmpty() || !checks.isEmpty();
    }
}
