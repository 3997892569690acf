package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.parser.ColumbaSqlParser;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * A table's IDENTITY and computed (persisted) columns, as its DDL recorded them in the table's
 * options: {@code identity:<column>} = {@code seed,increment}, {@code identity_last:<column>} =
 * the last value handed out (absent until the first insert), {@code computed:<column>} = the
 * expression's SQL over the table's other columns. INSERT fills both kinds; a statement may not
 * write them itself.
 *
 * @param identity  the identity column, or -1
 * @param computed  computed columns by index, each with its expression's SQL
 */
public record GeneratedColumns(int identity, long seed, long increment, Long lastIdentity,
                               Map<Integer, String> computed) {
    public static final String IDENTITY_OPTION = "identity:";
    public static final String IDENTITY_LAST_OPTION = "identity_last:";
    public static final String COMPUTED_OPTION = "computed:";

    public static final GeneratedColumns NONE = new GeneratedColumns(-1, 0, 0, null, Map.of());

    public GeneratedColumns {
        computed = Collections.unmodifiableMap(new LinkedHashMap<>(computed));
    }

    /** Reads the generated columns of a table with {@code schema} from its {@code options}. */
    public static GeneratedColumns of(TableSchema schema, Map<String, String> options) {
        int identity = -1;
        long seed = 0;
        long increment = 0;
        Long last = null;
        Map<Integer, String> computed = new LinkedHashMap<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey();
            if (key.startsWith(IDENTITY_OPTION)) {
                identity = column(schema, key.substring(IDENTITY_OPTION.length()), key);
                String[] parts = option.getValue().split(",");
                try {
                    seed = Long.parseLong(parts[0].strip());
                    increment = Long.parseLong(parts[1].strip());
                } catch (RuntimeException e) {
                    throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "table option " + key + " = '" + option.getValue()
                            + "' is not 'seed,increment'", e);
                }
            } else if (key.startsWith(IDENTITY_LAST_OPTION)) {
                last = Long.parseLong(option.getValue());
            } else if (key.startsWith(COMPUTED_OPTION)) {
                computed.put(column(schema, key.substring(COMPUTED_OPTION.length()), key), option.getValue());
            }
        }
        if (identity < 0 && computed.isEmpty()) {
            return NONE;
        }
        return new GeneratedColumns(identity, seed, increment, last, computed);
    }

    private static int column(TableSchema schema, String name, String key) {
        for (int index = 0; index < schema.size(); index++) {
            if (schema.column(index).name().equalsIgnoreCase(name)) {
                return index;
            }
        }
        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "table option " + key + " names no column of the table");
    }

    /** Parses computed column {@code column}'s stored expression (of table {@code table}). */
    public SqlNode expression(int column, String table) {
        String sql = computed.get(column);
        SqlNode query = ColumbaSqlParser.parse("SELECT " + sql);
        if (!(query instanceof SqlSelect select) || select.getSelectList().size() != 1) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "computed column expression of " + table
                    + " does not parse as one expression: " + sql);
        }
        return select.getSelectList().get(0);
    }

    /** Whether the table has any generated column. */
    public boolean any() {
        return identity >= 0 || !computed.isEmpty();
    }

    /** Whether {@code column} is filled by the database (identity or computed). */
    public boolean isGenerated(int column) {
        return column == identity || computed.containsKey(column);
    }

    /** The value the next inserted row gets, given the last one handed out (null before the first). */
    public long nextIdentity(Long last) {
        if (last == null) {
            return seed;
        }
        try {
            return Math.addExact(last, increment);
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "identity column overflows after " + last, e);
        }
    }
}
