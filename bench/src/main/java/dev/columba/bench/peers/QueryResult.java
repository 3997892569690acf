package dev.columba.bench.peers;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A query's rows in a form every engine's driver gives alike: numbers as plain decimal text
 * (whatever Java type the driver chose), dates as ISO dates, text as it is.
 *
 * <p>Two results agree when they have the same shape, equal text and dates, and numbers within a
 * cent or a trillionth of their size, whichever is larger: the engines type averages differently
 * (DuckDB a DOUBLE, H2 and Columba DECIMALs of different scales), and TPC-H's own
 * answer sets round averages to the cent (specification clause 2.1.3.5). Sums and counts over
 * decimals are exact in every engine, so for them the rule is equality, give or take what an
 * engine that sums in floating point would lose.
 *
 * @param rows the values of each row, in column order
 */
public record QueryResult(List<List<String>> rows) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final BigDecimal CENT = new BigDecimal("0.01");
    private static final BigDecimal RELATIVE = new BigDecimal("1e-12");

    public QueryResult {
        rows = rows.stream().map(List::copyOf).toList();
    }

    /** Reads every row of {@code results} (and closes nothing). */
    static QueryResult read(ResultSet results) throws SQLException {
        ResultSetMetaData metadata = results.getMetaData();
        int columns = metadata.getColumnCount();
        List<List<String>> rows = new ArrayList<>();
        while (results.next()) {
            List<String> row = new ArrayList<>(columns);
            for (int column = 1; column <= columns; column++) {
                row.add(canonical(results.getObject(column)));
            }
            rows.add(row);
        }
        return new QueryResult(rows);
    }

    private static String canonical(Object value) {
        return switch (value) {
            case null -> "NULL";
            case Number number -> new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
            case java.sql.Date date -> date.toLocalDate().toString();
            case LocalDate date -> date.toString();
            default -> value.toString();
        };
    }

    /** How this result differs from {@code other}, or empty when they agree (see the class comment). */
    public Optional<String> difference(QueryResult other) {
        if (rows.size() != other.rows.size()) {
            return Optional.of(rows.size() + " rows against " + other.rows.size());
        }
        for (int rowIndex = 0; rowIndex < rows.size(); rowIndex++) {
            List<String> row = rows.get(rowIndex);
            List<String> otherRow = other.rows.get(rowIndex);
            if (row.size() != otherRow.size()) {
                return Optional.of("row " + (rowIndex + 1) + " has " + row.size() + " columns against " + otherRow.size());
            }
            for (int columnIndex = 0; columnIndex < row.size(); columnIndex++) {
                if (!agree(row.get(columnIndex), otherRow.get(columnIndex))) {
                    return Optional.of("row " + (rowIndex + 1) + ", column " + (columnIndex + 1) + ": "
                            + row.get(columnIndex) + " against " + otherRow.get(columnIndex));
                }
            }
        }
        return Optional.empty();
    }

    private static boolean agree(String value, String other) {
        if (value.equals(other)) {
            return true;
        }
        BigDecimal number = number(value);
        BigDecimal otherNumber = number(other);
        if (number == null || otherNumber == null) {
            return false;
        }
        BigDecimal allowed = number.abs().max(otherNumber.abs()).multiply(RELATIVE).max(CENT);
        return number.subtract(otherNumber).abs().compareTo(allowed) <= 0;
    }

    private static BigDecimal number(String text) {
        if (text.isEmpty() || !(Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
            return null;
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The rows as a JSON array of arrays of strings, for the databases' marker file. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(rows);
        } catch (JacksonException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "cannot write a query result as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The result {@link #toJson} wrote.
     *
     * @throws ColumbaException INVALID_ARGUMENT naming {@code where} if the text is not such JSON
     */
    public static QueryResult fromJson(String json, String where) {
        try {
            return new QueryResult(JSON.readValue(json, new TypeReference<List<List<String>>>() { }));
        } catch (JacksonException | IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, where + " is not a query result in JSON: '" + json
                    + "'", e);
        }
    }

    @Override
    public String toString() {
        return rows.toString();
    }
}
