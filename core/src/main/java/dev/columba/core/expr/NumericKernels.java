package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Numeric functions: unary minus, ABS, FLOOR, CEIL and one-argument ROUND, SQRT and POWER. */
final class NumericKernels {
    /** Doubles this large are integers already. */
    private static final double INTEGRAL_DOUBLES = 0x1p52;

    private NumericKernels() {
    }

    /**
     * Unary minus ({@link Sign#NEGATE}) or ABS ({@link Sign#ABSOLUTE}) on INT, BIGINT, DOUBLE or
     * DECIMAL: both negate, ABS only the negative values; both overflow on the integer types'
     * minimum, which has no positive counterpart.
     */
    static final class SignKernel extends Kernel {
        enum Sign {
            NEGATE, ABSOLUTE
        }

        private final Sign sign;
        private final Physical physical;

        SignKernel(Sign sign, Kernel operand, BufferAllocator allocator) {
            super(operand.type, List.of(operand), allocator);
            this.sign = sign;
            this.physical = Physical.of(operand.type);
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            boolean absolute = sign == Sign.ABSOLUTE;
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                switch (physical) {
                    case INT32 -> {
                        int value = data.getInt((long) row * 4);
                        if (value == Integer.MIN_VALUE) {
                            throw Casts.outOfRange(describe(value), type);
                        }
                        outData.setInt((long) row * 4, absolute ? Math.abs(value) : -value);
                    }
                    case INT64 -> {
                        long value = data.getLong((long) row * 8);
                        if (value == Long.MIN_VALUE) {
                            throw Casts.outOfRange(describe(value), type);
                        }
                        outData.setLong((long) row * 8, absolute ? Math.abs(value) : -value);
                    }
                    case FLOAT64 -> {
                        double value = data.getDouble((long) row * 8);
                        outData.setDouble((long) row * 8, absolute ? Math.abs(value) : -value);
                    }
                    case DECIMAL128 -> {
                        long high = Decimal128.high(data, row);
                        long low = Decimal128.low(data, row);
                        if (absolute && high >= 0) {
                            Decimal128.write(outData, row, high, low);
                        } else {
                            Decimal128.write(outData, row, low == 0 ? -high : ~high, -low);
                        }
                    }
                    case BIT, UTF8 -> throw new IllegalStateException(describe(type.sqlName()));
                }
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        private String describe(Object operand) {
            return switch (sign) {
                case NEGATE -> "-(" + operand + ")";
                case ABSOLUTE -> "ABS(" + operand + ")";
            };
        }
    }

    /** FLOOR, CEIL or ROUND to an integer of a DOUBLE or DECIMAL (integers need no kernel: they are their own result). */
    static final class RoundingKernel extends Kernel {
        private final ScalarFunction function;
        private final Expr.Call node;
        private final EvaluationContext context;
        private final int sourceScale;

        RoundingKernel(Expr.Call node, Kernel operand, EvaluationContext context, BufferAllocator allocator) {
            super(node.type(), List.of(operand), allocator);
            this.function = node.function();
            this.node = node;
            this.context = context;
            this.sourceScale = operand.type instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector values = children.getFirst().evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf data = values.getDataBuffer();
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            boolean isDouble = type instanceof SqlType.DoubleType;
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(validity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                if (isDouble) {
                    outData.setDouble((long) row * 8, roundDouble(data.getDouble((long) row * 8)));
                } else {
                    roundDecimal(data, outData, row);
                }
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        private double roundDouble(double value) {
            return switch (function) {
                case FLOOR -> Math.floor(value);
                case CEIL -> Math.ceil(value);
                default -> {
                    if (!(Math.abs(value) < INTEGRAL_DOUBLES)) {
                        yield value;
                    }
                    long magnitude = Math.round(Math.abs(value));
                    yield (double) (value < 0 ? -magnitude : magnitude);
                }
            };
        }

        private void roundDecimal(ArrowBuf data, ArrowBuf outData, int row) {
            SqlType.DecimalType result = (SqlType.DecimalType) type;
            long high = Decimal128.high(data, row);
            long low = Decimal128.low(data, row);
            if (Decimal128.fitsLong(high, low) && sourceScale < Decimal128.POWERS_OF_TEN.length) {
                long unit = Decimal128.POWERS_OF_TEN[sourceScale];
                long rounded = switch (function) {
                    case FLOOR -> Math.floorDiv(low, unit);
                    case CEIL -> -Math.floorDiv(-low, unit);
                    default -> Decimal128.divideRoundHalfUp(low, unit);
                };
                int shift = result.scale();
                if (Decimal128.scaleFits(rounded, shift) && !Decimal128.exceedsPrecision(Decimal128.scale(rounded, shift), result.precision())) {
                    Decimal128.writeLong(outData, row, Decimal128.scale(rounded, shift));
                    return;
                }
            }
            Object[] arguments = {Decimal128.toBigDecimal(high, low, sourceScale)};
            BigDecimal value = (BigDecimal) Evaluator.apply(node, arguments, context);
            Decimal128.write(outData, row, value.unscaledValue());
        }
    }

    /** SQRT(x) or POWER(x, y) on DOUBLE operands (the compiler converts). */
    static final class DoubleFunctionKernel extends Kernel {
        private final boolean isPower;

        DoubleFunctionKernel(boolean isPower, List<Kernel> operands, BufferAllocator allocator) {
            super(SqlType.DOUBLE, operands, allocator);
            this.isPower = isPower;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector base = children.get(0).evaluate(input, rows);
            FieldVector exponent = isPower ? children.get(1).evaluate(input, rows) : base;
            FieldVector out = output(input.rowCount());
            ArrowBuf baseData = base.getDataBuffer();
            ArrowBuf exponentData = exponent.getDataBuffer();
            ArrowBuf baseValidity = base.getValidityBuffer();
            ArrowBuf exponentValidity = exponent.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(baseValidity, row) || !Bits.get(exponentValidity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                double x = baseData.getDouble((long) row * 8);
                double result = isPower
                        ? BuiltinFunctions.power(x, exponentData.getDouble((long) row * 8))
                        : BuiltinFunctions.squareRoot(x);
                outData.setDouble((long) row * 8, result);
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }
    }
}
