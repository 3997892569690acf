package dev.columba.planner.rel;

import dev.columba.planner.schema.ColumbaTable;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * The estimated width of the rows an operator keeps: a hash join's build rows, a nested-loop
 * join's inner rows, an aggregate's groups, a sort's rows. Each such row is hashed or compared
 * whatever its width, and then its values are copied in (strings with all their bytes) and held
 * until the operator ends; counting rows alone made a build of 90 thousand customers with their
 * names, addresses and comments cost less than one of 76 thousand rows of two numbers and a key
 * (TPC-H Q10, bench/results/joins9-20261127.md), and the wide one was a third slower.
 *
 * <p>Fixed-width values count their vector width (DATE 4 bytes, DECIMAL up to precision 18 and
 * BIGINT 8...). A string counts the average entry of its column's primary dictionary when the
 * column comes straight from a columnstore table with figures ({@code StatisticsStore}); otherwise
 * half its declared VARCHAR length or its CHAR length, at most {@value #MAX_GUESSED_STRING} bytes.
 * Strings also carry a 4-byte offset.
 */
public final class RowBytes {
    /**
     * Hashing a row and inserting it costs about as much as copying this many bytes; a row's
     * weight is {@code 1 + bytes / ROW_BYTES}, so a row of a few keys weighs little more than 1
     * and one of 200 bytes of strings about 7.
     */
    public static final double ROW_BYTES = 32;
    private static final double MAX_GUESSED_STRING = 200;
    private static final double OFFSET_BYTES = 4;

    private RowBytes() {
    }

    /** {@code 1 + bytes / ROW_BYTES} for {@code rel}'s whole row: what one kept row costs in rows. */
    public static double weight(RelNode rel, RelMetadataQuery mq) {
        return 1 + bytes(rel, mq) / ROW_BYTES;
    }

    /** The estimated bytes of one row of {@code rel}. */
    public static double bytes(RelNode rel, RelMetadataQuery mq) {
        double bytes = 0;
        for (int field = 0; field < rel.getRowType().getFieldCount(); field++) {
            bytes += field(rel, field, mq);
        }
        return bytes;
    }

    /** The estimated bytes of field {@code field} of {@code rel}'s row. */
    public static double field(RelNode rel, int field, RelMetadataQuery mq) {
        RelDataType type = rel.getRowType().getFieldList().get(field).getType();
        return switch (type.getSqlTypeName()) {
            case BOOLEAN, TINYINT -> 1;
            case SMALLINT -> 2;
            case INTEGER, DATE, TIME, REAL -> 4;
            case BIGINT, DOUBLE, FLOAT, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 8;
            case DECIMAL -> type.getPrecision() <= 18 ? 8 : 16;
            case CHAR, VARCHAR -> OFFSET_BYTES + stringBytes(rel, field, type, mq);
            default -> 16;
        };
    }

    private static double stringBytes(RelNode rel, int field, RelDataType type, RelMetadataQuery mq) {
        Set<RelColumnOrigin> origins = mq.getColumnOrigins(rel, field);
        if (origins != null && origins.size() == 1) {
            RelColumnOrigin origin = origins.iterator().next();
            ColumbaTable table = origin.isDerived() ? null : origin.getOriginTable().unwrap(ColumbaTable.class);
            if (table != null) {
                var statistics = table.columnstoreStatistics();
                if (statistics.isPresent()) {
                    double average = statistics.get().averageValueBytes(origin.getOriginColumnOrdinal());
                    if (average >= 0) {
                        return average;
                    }
                }
            }
        }
        int declared = type.getPrecision();
        if (declared <= 0) {
            return MAX_GUESSED_STRING;
        }
        return Math.min(MAX_GUESSED_STRING, type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR
                ? declared : declared / 2.0);
    }
}
