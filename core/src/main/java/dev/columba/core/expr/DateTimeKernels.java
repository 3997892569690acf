package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * EXTRACT and date arithmetic on days since the epoch (DATE) and microseconds since the epoch
 * (TIMESTAMP), with the proleptic Gregorian calendar done in integer arithmetic (Howard Hinnant's
 * civil-date algorithms) so the loops allocate nothing.
 */
final class DateTimeKernels {
    static final long MICROS_PER_DAY = 86_400_000_000L;
    /** 0001-01-01 and 9999-12-31 as days since the epoch: the range of dates SQL allows. */
    static final long MIN_DAY = Values.dateToDays(Casts.MIN_DATE);
    static final long MAX_DAY = Values.dateToDays(Casts.MAX_DATE);
    /** More months than separate any two dates SQL allows. */
    private static final long MONTHS_IN_RANGE = 12L * 10_000;
    private static final int[] DAYS_BEFORE_MONTH = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};

    private DateTimeKernels() {
    }

    /** The year of a day since the epoch. */
    static long year(long days) {
        long shifted = days + 719_468;
        long era = Math.floorDiv(shifted, 146_097);
        long dayOfEra = shifted - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0);
    }

    /** The month, 1 to 12, of a day since the epoch. */
    static int month(long days) {
        long dayOfEra = dayOfEra(days);
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        return (int) (monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    }

    /** The day of the month, 1 to 31, of a day since the epoch. */
    static int dayOfMonth(long days) {
        long dayOfEra = dayOfEra(days);
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        return (int) (dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    }

    private static long dayOfEra(long days) {
        long shifted = days + 719_468;
        return shifted - Math.floorDiv(shifted, 146_097) * 146_097;
    }

    /** Days since the epoch of a year, month (1 to 12) and day of the month. */
    static long daysOf(long year, int month, int day) {
        long shiftedYear = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(shiftedYear, 400);
        long yearOfEra = shiftedYear - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    static boolean isLeapYear(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    static int daysInMonth(long year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** EXTRACT(field FROM date-or-timestamp) as BIGINT. */
    static final class ExtractKernel extends Kernel {
        private final DateTimeField field;
        private final boolean fromTimestamp;

        ExtractKernel(DateTimeField field, Kernel operand, BufferAllocator allocator) {
            super(SqlType.BIGINT, List.of(operand), allocator);
            this.field = field;
            this.fromTimestamp = operand.type instanceof SqlType.TimestampType;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                long days;
                long microOfDay;
                if (fromTimestamp) {
                    long micros = data.getLong((long) row * 8);
                    days = Math.floorDiv(micros, MICROS_PER_DAY);
                    microOfDay = Math.floorMod(micros, MICROS_PER_DAY);
                } else {
                    days = data.getInt((long) row * 4);
                    microOfDay = 0;
                }
                outData.setLong((long) row * 8, extract(days, microOfDay));
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        private long extract(long days, long microOfDay) {
            return switch (field) {
                case YEAR -> year(days);
                case QUARTER -> (month(days) - 1) / 3 + 1;
                case MONTH -> month(days);
                case DAY -> dayOfMonth(days);
                case DOW -> Math.floorMod(days + 4, 7) + 1;
                case DOY -> {
                    int month = month(days);
                    int leapDay = month > 2 && isLeapYear(year(days)) ? 1 : 0;
                    yield DAYS_BEFORE_MONTH[month - 1] + leapDay + dayOfMonth(days);
                }
                case HOUR -> microOfDay / 3_600_000_000L;
                case MINUTE -> microOfDay / 60_000_000L % 60;
                case SECOND -> microOfDay / 1_000_000L % 60;
            };
        }
    }

    /** DATE or TIMESTAMP plus an amount of a unit (the amount widened to BIGINT by the compiler). */
    static final class DateAddKernel extends Kernel {
        private final IntervalUnit unit;
        private final boolean isTimestamp;

        DateAddKernel(Kernel operand, Kernel amount, IntervalUnit unit, BufferAllocator allocator) {
            super(operand.type, List.of(operand, amount), allocator);
            this.unit = unit;
            this.isTimestamp = operand.type instanceof SqlType.TimestampType;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.get(0).evaluate(input, rows);
            FieldVector amounts = children.get(1).evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf amountData = amounts.getDataBuffer();
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf amountValidity = amounts.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row) || !Bits.get(amountValidity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                long amount = amountData.getLong((long) row * 8);
                if (isTimestamp) {
                    long micros = data.getLong((long) row * 8);
                    outData.setLong((long) row * 8, addToTimestamp(micros, amount));
                } else {
                    int days = data.getInt((long) row * 4);
                    outData.setInt((long) row * 4, (int) addToDate(days, amount));
                }
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        private long addToDate(int days, long amount) {
            long result;
            if (unit.monthBased()) {
                result = addMonths(days, amount, days, amount);
            } else {
                long perUnit = unit.micros() / MICROS_PER_DAY;
                long limit = (MAX_DAY - MIN_DAY) / perUnit + 1;
                if (amount > limit || amount < -limit) {
                    throw BuiltinFunctions.dateOverflow(Values.daysToDate(days), amount, unit);
                }
                result = days + amount * perUnit;
            }
            if (result < MIN_DAY || result > MAX_DAY) {
                throw BuiltinFunctions.dateOverflow(Values.daysToDate(days), amount, unit);
            }
            return result;
        }

        private long addToTimestamp(long micros, long amount) {
            long days = Math.floorDiv(micros, MICROS_PER_DAY);
            long result;
            if (unit.monthBased()) {
                long microOfDay = Math.floorMod(micros, MICROS_PER_DAY);
                result = addMonths(days, amount, micros, amount) * MICROS_PER_DAY + microOfDay;
            } else {
                long delta;
                try {
                    delta = Math.multiplyExact(amount, unit.micros());
                    result = Math.addExact(micros, delta);
                } catch (ArithmeticException e) {
                    throw BuiltinFunctions.dateOverflow(Values.microsToTimestamp(micros), amount, unit);
                }
            }
            long resultDay = Math.floorDiv(result, MICROS_PER_DAY);
            if (resultDay < MIN_DAY || resultDay > MAX_DAY) {
                throw BuiltinFunctions.dateOverflow(Values.microsToTimestamp(micros), amount, unit);
            }
            return result;
        }

        /** The day {@code amount} units of months after {@code days}, the day of the month clamped to the month's end. */
        private long addMonths(long days, long amount, long originalValue, long originalAmount) {
            long monthsToAdd;
            long year = year(days);
            try {
                monthsToAdd = Math.multiplyExact(amount, unit.months());
            } catch (ArithmeticException e) {
                throw overflow(originalValue, originalAmount);
            }
            if (monthsToAdd > MONTHS_IN_RANGE || monthsToAdd < -MONTHS_IN_RANGE) {
                throw overflow(originalValue, originalAmount);
            }
            long monthIndex = year * 12 + (month(days) - 1) + monthsToAdd;
            long newYear = Math.floorDiv(monthIndex, 12);
            int newMonth = Math.floorMod(monthIndex, 12) + 1;
            int day = Math.min(dayOfMonth(days), daysInMonth(newYear, newMonth));
            return daysOf(newYear, newMonth, day);
        }

        private RuntimeException overflow(long originalValue, long amount) {
            Object shown = isTimestamp
                    ? Values.microsToTimestamp(originalValue)
                    : Values.daysToDate((int) originalValue);
            return BuiltinFunctions.dateOverflow(shown, amount, unit);
        }
    }
}
