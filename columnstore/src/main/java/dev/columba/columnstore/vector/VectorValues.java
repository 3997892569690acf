package dev.columba.columnstore.vector;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Moves values between their Java form (see {@link SqlType}) and the Arrow vector of their type:
 * row-at-a-time glue for delta rowgroups and tests. Batch paths decode straight into vectors.
 */
public final class VectorValues {
    private VectorValues() {
    }

    /** Writes {@code value} (null for NULL) at {@code index}, growing the vector if needed. */
    public static void set(SqlType type, FieldVector vector, int index, Object value) {
        if (value == null) {
            vector.setNull(index);
            if (vector.getValueCapacity() <= index) {
                vector.reAlloc();
            }
            return;
        }
        switch (type) {
            case SqlType.BooleanType ignored -> ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
            case SqlType.IntegerType ignored -> ((IntVector) vector).setSafe(index, (Integer) value);
            case SqlType.BigintType ignored -> ((BigIntVector) vector).setSafe(index, (Long) value);
            case SqlType.DoubleType ignored -> ((Float8Vector) vector).setSafe(index, (Double) value);
            case SqlType.DecimalType ignored -> ((DecimalVector) vector).setSafe(index, (BigDecimal) value);
            case SqlType.VarcharType ignored -> ((VarCharVector) vector).setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case SqlType.CharType ignored -> ((VarCharVector) vector).setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
            case SqlType.DateType ignored -> ((DateDayVector) vector).setSafe(index, Values.dateToDays((LocalDate) value));
            case SqlType.TimestampType ignored ->
                    ((TimeStampMicroVector) vector).setSafe(index, Values.timestampToMicros((LocalDateTime) value));
        }
    }

    /** The value at {@code index} in its Java form, or null. */
    public static Object get(SqlType type, FieldVector vector, int index) {
        if (vector.isNull(index)) {
            return null;
        }
        return switch (type) {
            case SqlType.BooleanType ignored -> ((BitVector) vector).get(index) != 0;
            case SqlType.IntegerType ignored -> ((IntVector) vector).get(index);
            case SqlType.BigintType ignored -> ((BigIntVector) vector).get(index);
            case SqlType.DoubleType ignored -> ((Float8Vector) vector).get(index);
            case SqlType.DecimalType ignored -> ((DecimalVector) vector).getObject(index);
            case SqlType.VarcharType ignored -> new String(((VarCharVector) vector).get(index), StandardCharsets.UTF_8);
            case SqlType.CharType ignored -> new String(((VarCharVector) vector).get(index), StandardCharsets.UTF_8);
            case SqlType.DateType ignored -> Values.daysToDate(((DateDayVector) vector).get(index));
            case SqlType.TimestampType ignored -> Values.microsToTimestamp(((TimeStampMicroVector) vector).get(index));
        };
    }
}
