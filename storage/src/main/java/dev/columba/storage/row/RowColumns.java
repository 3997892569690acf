package dev.columba.storage.row;

import dev.columba.core.type.SqlType;

/**
 * Rows of a table held column by column in primitive form, as a bulk load's parser leaves them, for
 * {@link RowCodec#encode(RowColumns, int, int)} and {@link KeyCodec#encode(RowColumns, int[], int)}
 * to encode without a Java object per row or per value. Which accessor holds a column follows its
 * type:
 * <ul>
 *   <li>{@link #longValue}: BOOLEAN (0 or 1), INT, BIGINT, DATE (days since the epoch), TIMESTAMP
 *       (microseconds since the epoch), DECIMAL of precision at most 18 (the unscaled value at the
 *       column's scale);</li>
 *   <li>{@link #doubleValue}: DOUBLE;</li>
 *   <li>{@link #bytes}, {@link #valueStart}, {@link #valueEnd}: VARCHAR and CHAR, valid UTF-8
 *       (a CHAR blank-padded to its length, as store assignment leaves it);</li>
 *   <li>{@link #value}: any column as its Java value (see {@link SqlType}) — the only accessor of a
 *       DECIMAL of precision above 18 and of VARBINARY, BINARY and UUID, and what a codec falls back on for a row it cannot encode
 *       from the primitive forms (one with values to move out of row).</li>
 * </ul>
 * A value is meaningful only when {@link #isNull} is false. The codecs check what the Java-value
 * path checks (NOT NULL, string lengths, decimal precision) and fail with the same errors.
 */
public interface RowColumns {
    boolean isNull(int column, int row);

    long longValue(int column, int row);

    double doubleValue(int column, int row);

    /** The array holding the UTF-8 bytes of a VARCHAR or CHAR column's rows. */
    byte[] bytes(int column);

    /** Where row {@code row}'s bytes start in {@link #bytes}. */
    int valueStart(int column, int row);

    /** Where row {@code row}'s bytes end in {@link #bytes}. */
    int valueEnd(int column, int row);

    /** The Java value of a column at a row, or null. */
    Object value(int column, int row);
}
