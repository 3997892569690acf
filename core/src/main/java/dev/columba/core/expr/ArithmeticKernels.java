package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Arithmetic on INT, BIGINT, DOUBLE and DECIMAL vectors with SQL's errors: overflow is
 * {@code VALUE_OUT_OF_RANGE} (22003), division or modulo by zero {@code DIVISION_BY_ZERO} (22012).
 * NULL rows are skipped before computing, so garbage under a NULL never raises an error.
 */
final class ArithmeticKernels {
    private ArithmeticKernels() {
    }

    /**
     * Integer arithmetic computed in 64 bits: operands are both INT (4-byte) or both BIGINT
     * (the compiler widens), the result INT or BIGINT with a range check.
     */
    static final class IntegerKernel extends Kernel {
        private final ArithmeticOperator operator;
        private final boolean narrowOperands;
        private final boolean narrowResult;

        IntegerKernel(ArithmeticOperator operator, Kernel left, Kernel right, SqlType type, BufferAllocator allocator) {
            super(type, List.of(left, right), allocator);
            this.operator = operator;
            this.narrowOperands = left.type instanceof SqlType.IntegerType;
            this.narrowResult = type instanceof SqlType.IntegerType;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector left = children.get(0).evaluate(input, rows);
            FieldVector right = children.get(1).evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf leftValidity = left.getValidityBuffer();
            ArrowBuf rightValidity = right.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(leftValidity, row) || !Bits.get(rightValidity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                long a = narrowOperands ? leftData.getInt((long) row * 4) : leftData.getLong((long) row * 8);
                long b = narrowOperands ? rightData.getInt((long) row * 4) : rightData.getLong((long) row * 8);
                long result = compute(a, b);
                if (narrowResult) {
                    if (result != (int) result) {
                        throw Evaluator.overflow(a, operator, b, type);
                    }
                    outData.setInt((long) row * 4, (int) result);
                } else {
                    outData.setLong((long) row * 8, result);
                }
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        private long compute(long a, long b) {
            try {
                return switch (operator) {
                    case ADD -> Math.addExact(a, b);
                    case SUBTRACT -> Math.subtractExact(a, b);
                    case MULTIPLY -> Math.multiplyExact(a, b);
                    case DIVIDE -> {
                        if (b == 0) {
                            throw Evaluator.divisionByZero(a, operator, b);
                        }
                        yield Math.divideExact(a, b);
                    }
                    case MODULO -> {
                        if (b == 0) {
                            throw Evaluator.divisionByZero(a, operator, b);
                        }
                        yield a % b;
                    }
                };
            } catch (ArithmeticException e) {
                throw Evaluator.overflow(a, operator, b, type);
            }
        }
    }

    /** DOUBLE arithmetic; both operands are DOUBLE (the compiler converts). */
    static final class DoubleKernel extends Kernel {
        private final ArithmeticOperator operator;

        DoubleKernel(ArithmeticOperator operator, Kernel left, Kernel right, BufferAllocator allocator) {
            super(SqlType.DOUBLE, List.of(left, right), allocator);
            this.operator = operator;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            FieldVector left = children.get(0).evaluate(input, rows);
            FieldVector right = children.get(1).evaluate(input, rows);
            FieldVector out = output(input.rowCount());
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf leftValidity = left.getValidityBuffer();
            ArrowBuf rightValidity = right.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!Bits.get(leftValidity, row) || !Bits.get(rightValidity, row)) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                double result = Evaluator.doubleArithmetic(operator,
                        leftData.getDouble((long) row * 8), rightData.getDouble((long) row * 8));
                outData.setDouble((long) row * 8, result);
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }
    }

    /**
     * DECIMAL arithmetic on 128-bit unscaled values. When both operands fit in a long, sums,
     * differences and quotients are computed in longs and products exactly in 128 bits; otherwise,
     * and when an intermediate would overflow, the row is computed with {@link BigDecimal} by the
     * reference code, which rounds the same way.
     *
     * <p>An operand of precision up to 18 is narrow: every value of its type fits in a long (a
     * DECIMAL vector never holds more digits than its precision; every writer checks). Sums,
     * differences and exact products of narrow operands get loops of their own that do no 128-bit
     * work unless an intermediate can pass 64 bits, which is decided once from the types, not per
     * row. They still test that each value is a sign-extended long (a branch that is never taken)
     * and leave a row that is not to the reference code, so a broken invariant elsewhere cannot
     * make a result silently wrong.
     */
    static final class DecimalKernel extends Kernel {
        private final ArithmeticOperator operator;
        private final SqlType.DecimalType leftType;
        private final SqlType.DecimalType rightType;
        private final SqlType.DecimalType resultType;
        private final Expr.Arithmetic node;
        private final EvaluationContext context;
        /** Whether every value of the operand's type fits in a long (precision at most 18). */
        private final boolean leftNarrow;
        private final boolean rightNarrow;
        /**
         * The unscaled value of an operand that is a literal ({@code 1 - discount}), or null: a
         * sum with a constant reads one vector, not two.
         */
        private final Long leftConstant;
        private final Long rightConstant;
        /**
         * An operand of a product that is itself a narrow literal plus or minus a narrow operand
         * ({@code 1 - l_discount}, {@code 1 + l_tax}; see {@link #inlineFactor}), or null. The
         * product computes it per row from its column instead of having it write a vector that
         * the product reads back.
         */
        private final DecimalKernel factor;
        /** Whether {@link #factor} is the right operand (else the left). */
        private final boolean factorOnRight;

        DecimalKernel(Expr.Arithmetic node, Kernel left, Kernel right, EvaluationContext context, BufferAllocator allocator) {
            super(node.type(), List.of(left, right), allocator);
            this.node = node;
            this.context = context;
            this.operator = node.operator();
            this.leftType = (SqlType.DecimalType) left.type;
            this.rightType = (SqlType.DecimalType) right.type;
            this.resultType = (SqlType.DecimalType) node.type();
            this.leftNarrow = leftType.precision() <= Decimal128.LONG_PRECISION;
            this.rightNarrow = rightType.precision() <= Decimal128.LONG_PRECISION;
            this.leftConstant = unscaledConstant(left, leftType);
            this.rightConstant = unscaledConstant(right, rightType);
            DecimalKernel rightFactor = operator == ArithmeticOperator.MULTIPLY ? inlineFactor(right) : null;
            this.factor = rightFactor != null ? rightFactor : operator == ArithmeticOperator.MULTIPLY ? inlineFactor(left) : null;
            this.factorOnRight = rightFactor != null;
        }

        /**
         * The operand as a kernel a product may compute inline, or null: a sum or difference of a
         * literal and a narrow operand whose aligned terms fit a long ({@link #addNarrowConstant}'s
         * shape), so that its value is {@code constantTerm + value * columnFactor} with one bound
         * check.
         */
        private static DecimalKernel inlineFactor(Kernel operand) {
            if (operand instanceof DecimalKernel kernel
                    && (kernel.operator == ArithmeticOperator.ADD || kernel.operator == ArithmeticOperator.SUBTRACT)
                    && (kernel.leftConstant == null) != (kernel.rightConstant == null)
                    && kernel.leftNarrow && kernel.rightNarrow && kernel.alignable() && kernel.alignedFitsLong()) {
                return kernel;
            }
            return null;
        }

        /**
         * The unscaled value of a non-NULL literal operand of a narrow type, when it is exact at the
         * type's scale and within its precision (as every value of a vector of the type is), else null.
         */
        private static Long unscaledConstant(Kernel operand, SqlType.DecimalType type) {
            if (!(operand instanceof LeafKernels.LiteralKernel literal) || !(literal.value() instanceof BigDecimal value)
                    || type.precision() > Decimal128.LONG_PRECISION) {
                return null;
            }
            try {
                long unscaled = value.setScale(type.scale()).unscaledValue().longValueExact();
                return Math.abs(unscaled) < Decimal128.POWERS_OF_TEN[type.precision()] ? unscaled : null;
            } catch (ArithmeticException e) {
                return null;
            }
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            if (factor != null && leftType.scale() + rightType.scale() == resultType.scale()) {
                FieldVector other = children.get(factorOnRight ? 0 : 1).evaluate(input, rows);
                FieldVector column = factor.children.get(factor.leftConstant != null ? 1 : 0).evaluate(input, rows);
                if (other.getNullCount() == 0 && column.getNullCount() == 0) {
                    FieldVector out = output(input.rowCount());
                    Bits.setAll(out.getValidityBuffer(), input.rowCount());
                    multiplyByFactor(other, column, out, rows);
                    return finish(out, input.rowCount());
                }
                // With NULLs the factor is computed into its vector as before; its column is
                // evaluated a second time, which for a column reference returns the batch's vector.
                FieldVector factorValues = factor.evaluate(input, rows);
                return evaluate(factorOnRight ? other : factorValues, factorOnRight ? factorValues : other, input, rows);
            }
            return evaluate(children.get(0).evaluate(input, rows), children.get(1).evaluate(input, rows), input, rows);
        }

        private FieldVector evaluate(FieldVector left, FieldVector right, Batch input, Rows rows) {
            FieldVector out = output(input.rowCount());
            boolean noNulls = left.getNullCount() == 0 && right.getNullCount() == 0;
            if (noNulls && operator == ArithmeticOperator.MULTIPLY && leftType.scale() + rightType.scale() == resultType.scale()) {
                Bits.setAll(out.getValidityBuffer(), input.rowCount());
                if (leftNarrow && rightNarrow) {
                    multiplyNarrow(left, right, out, rows);
                } else {
                    multiplyExactly(left, right, out, rows);
                }
                return finish(out, input.rowCount());
            }
            if (noNulls && (operator == ArithmeticOperator.ADD || operator == ArithmeticOperator.SUBTRACT) && alignable()) {
                Bits.setAll(out.getValidityBuffer(), input.rowCount());
                if (leftNarrow && rightNarrow && alignedFitsLong()) {
                    addNarrow(left, right, out, rows);
                } else {
                    addAligned(left, right, out, rows);
                }
                return finish(out, input.rowCount());
            }
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf leftValidity = left.getValidityBuffer();
            ArrowBuf rightValidity = right.getValidityBuffer();
            ArrowBuf outData = out.getDataBuffer();
            ArrowBuf outValidity = out.getValidityBuffer();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                if (!noNulls && (!Bits.get(leftValidity, row) || !Bits.get(rightValidity, row))) {
                    Bits.set(outValidity, row, false);
                    continue;
                }
                long leftHigh = Decimal128.high(leftData, row);
                long leftLow = Decimal128.low(leftData, row);
                long rightHigh = Decimal128.high(rightData, row);
                long rightLow = Decimal128.low(rightData, row);
                if (!(Decimal128.fitsLong(leftHigh, leftLow) && Decimal128.fitsLong(rightHigh, rightLow)
                        && computeFast(leftLow, rightLow, outData, row))) {
                    computeSlow(leftHigh, leftLow, rightHigh, rightLow, outData, row);
                }
                Bits.set(outValidity, row, true);
            }
            return finish(out, input.rowCount());
        }

        /** Whether both operands reach the result's scale by a multiplication with a power of ten that fits a long. */
        private boolean alignable() {
            int scale = resultType.scale();
            return scale >= leftType.scale() && scale >= rightType.scale()
                    && scale - leftType.scale() < Decimal128.POWERS_OF_TEN.length
                    && scale - rightType.scale() < Decimal128.POWERS_OF_TEN.length;
        }

        /**
         * Whether narrow operands brought to the result's scale stay below 10^18 in magnitude, so
         * that they, and their sum or difference (below 2 * 10^18 < 2^63), cannot overflow a long.
         */
        private boolean alignedFitsLong() {
            int scale = resultType.scale();
            return leftType.precision() + scale - leftType.scale() <= Decimal128.LONG_PRECISION
                    && rightType.precision() + scale - rightType.scale() <= Decimal128.LONG_PRECISION;
        }

        /**
         * A product one of whose operands is {@link #factor}, computed per row from the factor's
         * column ({@code column}) and the other operand ({@code other}): the factor's value and
         * its bound check as {@link #addNarrowConstant} computes them, then the product as {@link
         * #multiplyNarrow} (or, when the other operand's type is wider than a long, {@link
         * #multiplyExactly}) does. Both inputs are without NULLs; the caller has set the output's
         * validity. A value that is not a sign-extended long goes to the reference code, as in
         * the loops this one replaces.
         */
        private void multiplyByFactor(FieldVector other, FieldVector column, FieldVector out, Rows rows) {
            ArrowBuf otherData = other.getDataBuffer();
            ArrowBuf columnData = column.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            DecimalKernel factor = this.factor;
            boolean constantLeft = factor.leftConstant != null;
            long factorScale = Decimal128.POWERS_OF_TEN[factor.resultType.scale() - factor.leftType.scale()];
            long rightScale = Decimal128.POWERS_OF_TEN[factor.resultType.scale() - factor.rightType.scale()];
            long sign = factor.operator == ArithmeticOperator.ADD ? 1 : -1;
            long constant = constantLeft ? factor.leftConstant : factor.rightConstant;
            long constantTerm = constantLeft ? constant * factorScale : sign * constant * rightScale;
            long columnFactor = constantLeft ? sign * rightScale : factorScale;
            int factorPrecision = factor.resultType.precision();
            long bound = factorPrecision <= Decimal128.LONG_PRECISION ? Decimal128.POWERS_OF_TEN[factorPrecision] : Long.MAX_VALUE;
            int precision = resultType.precision();
            boolean otherNarrow = factorOnRight ? leftNarrow : rightNarrow;
            // As multiplyNarrow: no check when the operands' precisions cannot pass the result's.
            boolean check = !otherNarrow || leftType.precision() + rightType.precision() > precision;
            int[] positions = rows.positions;
            for (int index = 0; index < rows.count; index++) {
                int row = positions[index];
                long value = Decimal128.low(columnData, row);
                long valueHigh = Decimal128.high(columnData, row);
                long operand = Decimal128.low(otherData, row);
                long operandHigh = Decimal128.high(otherData, row);
                if (!Decimal128.fitsLong(valueHigh, value) || !Decimal128.fitsLong(operandHigh, operand)) {
                    multiplyByFactorSlow(constant, valueHigh, value, operandHigh, operand, outData, row);
                    continue;
                }
                long factorValue = constantTerm + value * columnFactor;
                if (factorValue >= bound || factorValue <= -bound) {
                    throw constantLeft ? factor.overflowError(constant, value) : factor.overflowError(value, constant);
                }
                long a = factorOnRight ? operand : factorValue;
                long b = factorOnRight ? factorValue : operand;
                long high = Math.multiplyHigh(a, b);
                long low = a * b;
                if (check && Decimal128.exceedsPrecision(high, low, precision)) {
                    throw overflowError(a, b);
                }
                Decimal128.write(outData, row, high, low);
            }
        }

        /** One row of {@link #multiplyByFactor} by the reference code: the factor, then the product. */
        private void multiplyByFactorSlow(long constant, long valueHigh, long value, long operandHigh, long operand,
                                          ArrowBuf outData, int row) {
            BigDecimal factorValue = factor.leftConstant != null
                    ? factor.reference(constant >> 63, constant, valueHigh, value)
                    : factor.reference(valueHigh, value, constant >> 63, constant);
            BigInteger unscaled = factorValue.setScale(factor.resultType.scale()).unscaledValue();
            long factorHigh = unscaled.shiftRight(64).longValue();
            long factorLow = unscaled.longValue();
            if (factorOnRight) {
                computeSlow(operandHigh, operand, factorHigh, factorLow, outData, row);
            } else {
                computeSlow(factorHigh, factorLow, operandHigh, operand, outData, row);
            }
        }

        /**
         * {@link #addAligned} for narrow operands whose aligned values cannot overflow a long
         * ({@link #alignedFitsLong}): one multiplication per operand, one addition and a precision
         * check per row. The caller has set the output's validity.
         */
        private void addNarrow(FieldVector left, FieldVector right, FieldVector out, Rows rows) {
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            long leftFactor = Decimal128.POWERS_OF_TEN[resultType.scale() - leftType.scale()];
            long rightFactor = Decimal128.POWERS_OF_TEN[resultType.scale() - rightType.scale()];
            long sign = operator == ArithmeticOperator.ADD ? 1 : -1;
            // |result| < 2 * 10^18 by alignedFitsLong; a result precision of 19 or more admits all of them.
            long bound = resultType.precision() <= Decimal128.LONG_PRECISION ? Decimal128.POWERS_OF_TEN[resultType.precision()] : Long.MAX_VALUE;
            if (leftConstant != null || rightConstant != null) {
                addNarrowConstant(leftConstant != null ? right : left, leftConstant != null,
                        leftFactor, sign * rightFactor, bound, out, rows);
                return;
            }
            int[] positions = rows.positions;
            for (int index = 0; index < rows.count; index++) {
                int row = positions[index];
                long a = Decimal128.low(leftData, row);
                long b = Decimal128.low(rightData, row);
                if (!Decimal128.fitsLong(Decimal128.high(leftData, row), a) || !Decimal128.fitsLong(Decimal128.high(rightData, row), b)) {
                    computeSlow(Decimal128.high(leftData, row), a, Decimal128.high(rightData, row), b, outData, row);
                    continue;
                }
                long result = a * leftFactor + sign * (b * rightFactor);
                if (result >= bound || result <= -bound) {
                    throw overflowError(a, b);
                }
                Decimal128.writeLong(outData, row, result);
            }
        }

        /**
         * {@link #addNarrow} with one operand a literal: {@code constant * leftFactor + column *
         * rightFactor} (factors signed) computed per row from the column's vector alone. The
         * literal's aligned term fits a long as the column's does ({@link #alignedFitsLong}).
         */
        private void addNarrowConstant(FieldVector column, boolean constantLeft, long leftFactor, long rightFactor,
                                       long bound, FieldVector out, Rows rows) {
            ArrowBuf data = column.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            long constant = constantLeft ? leftConstant : rightConstant;
            long constantTerm = constant * (constantLeft ? leftFactor : rightFactor);
            long columnFactor = constantLeft ? rightFactor : leftFactor;
            int[] positions = rows.positions;
            for (int index = 0; index < rows.count; index++) {
                int row = positions[index];
                long value = Decimal128.low(data, row);
                long high = Decimal128.high(data, row);
                if (!Decimal128.fitsLong(high, value)) {
                    if (constantLeft) {
                        computeSlow(constant >> 63, constant, high, value, outData, row);
                    } else {
                        computeSlow(high, value, constant >> 63, constant, outData, row);
                    }
                    continue;
                }
                long result = constantTerm + value * columnFactor;
                if (result >= bound || result <= -bound) {
                    throw constantLeft ? overflowError(constant, value) : overflowError(value, constant);
                }
                Decimal128.writeLong(outData, row, result);
            }
        }

        /**
         * {@link #multiplyExactly} for narrow operands: the 128-bit product of two longs, checked
         * against the result's precision only when the operands' precisions add up to more.
         * The caller has set the output's validity.
         */
        private void multiplyNarrow(FieldVector left, FieldVector right, FieldVector out, Rows rows) {
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            int precision = resultType.precision();
            // |a| < 10^p1 and |b| < 10^p2, so |a * b| < 10^(p1 + p2): no check when the result admits that many digits.
            boolean check = leftType.precision() + rightType.precision() > precision;
            int[] positions = rows.positions;
            for (int index = 0; index < rows.count; index++) {
                int row = positions[index];
                long a = Decimal128.low(leftData, row);
                long b = Decimal128.low(rightData, row);
                if (!Decimal128.fitsLong(Decimal128.high(leftData, row), a) || !Decimal128.fitsLong(Decimal128.high(rightData, row), b)) {
                    computeSlow(Decimal128.high(leftData, row), a, Decimal128.high(rightData, row), b, outData, row);
                    continue;
                }
                long high = Math.multiplyHigh(a, b);
                long low = a * b;
                if (check && Decimal128.exceedsPrecision(high, low, precision)) {
                    throw overflowError(a, b);
                }
                Decimal128.write(outData, row, high, low);
            }
        }

        /**
         * Sums and differences of operands brought to the result's scale: {@code 1 - discount},
         * {@code price + tax}. The caller has set the output's validity.
         */
        private void addAligned(FieldVector left, FieldVector right, FieldVector out, Rows rows) {
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            long leftFactor = Decimal128.POWERS_OF_TEN[resultType.scale() - leftType.scale()];
            long rightFactor = Decimal128.POWERS_OF_TEN[resultType.scale() - rightType.scale()];
            boolean add = operator == ArithmeticOperator.ADD;
            int precision = resultType.precision();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                long leftHigh = Decimal128.high(leftData, row);
                long leftLow = Decimal128.low(leftData, row);
                long rightHigh = Decimal128.high(rightData, row);
                long rightLow = Decimal128.low(rightData, row);
                boolean done = false;
                if (Decimal128.fitsLong(leftHigh, leftLow) && Decimal128.fitsLong(rightHigh, rightLow)) {
                    long x = leftLow * leftFactor;
                    long y = rightLow * rightFactor;
                    long result = add ? x + y : x - y;
                    boolean overflowed = Math.multiplyHigh(leftLow, leftFactor) != (x >> 63)
                            || Math.multiplyHigh(rightLow, rightFactor) != (y >> 63)
                            || (add ? ((x ^ result) & (y ^ result)) < 0 : ((x ^ y) & (x ^ result)) < 0);
                    if (!overflowed) {
                        if (Decimal128.exceedsPrecision(result, precision)) {
                            throw overflowError(leftLow, rightLow);
                        }
                        Decimal128.writeLong(outData, row, result);
                        done = true;
                    }
                }
                if (!done) {
                    computeSlow(leftHigh, leftLow, rightHigh, rightLow, outData, row);
                }
            }
        }

        /**
         * The common shape of price times factor: a product whose scale is the sum of the operands'
         * scales needs no rounding, and two longs multiply exactly into 128 bits. The caller has
         * set the output's validity.
         */
        private void multiplyExactly(FieldVector left, FieldVector right, FieldVector out, Rows rows) {
            ArrowBuf leftData = left.getDataBuffer();
            ArrowBuf rightData = right.getDataBuffer();
            ArrowBuf outData = out.getDataBuffer();
            int precision = resultType.precision();
            for (int index = 0; index < rows.count; index++) {
                int row = rows.positions[index];
                long leftHigh = Decimal128.high(leftData, row);
                long leftLow = Decimal128.low(leftData, row);
                long rightHigh = Decimal128.high(rightData, row);
                long rightLow = Decimal128.low(rightData, row);
                if (Decimal128.fitsLong(leftHigh, leftLow) && Decimal128.fitsLong(rightHigh, rightLow)) {
                    long high = Math.multiplyHigh(leftLow, rightLow);
                    long low = leftLow * rightLow;
                    if (Decimal128.exceedsPrecision(high, low, precision)) {
                        throw overflowError(leftLow, rightLow);
                    }
                    Decimal128.write(outData, row, high, low);
                } else {
                    computeSlow(leftHigh, leftLow, rightHigh, rightLow, outData, row);
                }
            }
        }

        /** Computes in longs and writes the result; false when it cannot, leaving the row to {@link #computeSlow}. */
        private boolean computeFast(long a, long b, ArrowBuf outData, int row) {
            int s1 = leftType.scale();
            int s2 = rightType.scale();
            int scale = resultType.scale();
            switch (operator) {
                case ADD, SUBTRACT -> {
                    if (scale < s1 || scale < s2 || !Decimal128.scaleFits(a, scale - s1) || !Decimal128.scaleFits(b, scale - s2)) {
                        return false;
                    }
                    long x = Decimal128.scale(a, scale - s1);
                    long y = Decimal128.scale(b, scale - s2);
                    long result = operator == ArithmeticOperator.ADD ? x + y : x - y;
                    boolean overflowed = operator == ArithmeticOperator.ADD
                            ? ((x ^ result) & (y ^ result)) < 0
                            : ((x ^ y) & (x ^ result)) < 0;
                    return !overflowed && writeChecked(outData, row, result, a, b);
                }
                case MULTIPLY -> {
                    long high = Math.multiplyHigh(a, b);
                    long low = a * b;
                    int productScale = s1 + s2;
                    if (productScale == scale) {
                        if (Decimal128.exceedsPrecision(high, low, resultType.precision())) {
                            throw overflowError(a, b);
                        }
                        Decimal128.write(outData, row, high, low);
                        return true;
                    }
                    if (!Decimal128.fitsLong(high, low)) {
                        return false;
                    }
                    if (productScale > scale) {
                        int drop = productScale - scale;
                        if (drop >= Decimal128.POWERS_OF_TEN.length) {
                            return false;
                        }
                        return writeChecked(outData, row, Decimal128.divideRoundHalfUp(low, Decimal128.POWERS_OF_TEN[drop]), a, b);
                    }
                    if (!Decimal128.scaleFits(low, scale - productScale)) {
                        return false;
                    }
                    return writeChecked(outData, row, Decimal128.scale(low, scale - productScale), a, b);
                }
                case DIVIDE -> {
                    if (b == 0) {
                        throw Evaluator.divisionByZero(decimalText(a, s1), operator, decimalText(b, s2));
                    }
                    int shift = scale + s2 - s1;
                    if (shift < 0 || b == Long.MIN_VALUE || !Decimal128.scaleFits(a, shift)) {
                        return false;
                    }
                    long dividend = Decimal128.scale(a, shift);
                    if (dividend == Long.MIN_VALUE && b == -1) {
                        return false;
                    }
                    return writeChecked(outData, row, Decimal128.divideRoundHalfUp(dividend, b), a, b);
                }
                case MODULO -> {
                    if (b == 0) {
                        throw Evaluator.divisionByZero(decimalText(a, s1), operator, decimalText(b, s2));
                    }
                    int common = Math.max(s1, s2);
                    if (common != scale || !Decimal128.scaleFits(a, common - s1) || !Decimal128.scaleFits(b, common - s2)) {
                        return false;
                    }
                    return writeChecked(outData, row, Decimal128.scale(a, common - s1) % Decimal128.scale(b, common - s2), a, b);
                }
            }
            return false;
        }

        private boolean writeChecked(ArrowBuf outData, int row, long result, long a, long b) {
            if (Decimal128.exceedsPrecision(result, resultType.precision())) {
                throw overflowError(a, b);
            }
            Decimal128.writeLong(outData, row, result);
            return true;
        }

        private RuntimeException overflowError(long a, long b) {
            return Evaluator.overflow(decimalText(a, leftType.scale()), operator, decimalText(b, rightType.scale()), resultType);
        }

        private static String decimalText(long unscaled, int scale) {
            return BigDecimal.valueOf(unscaled, scale).toPlainString();
        }

        private void computeSlow(long leftHigh, long leftLow, long rightHigh, long rightLow, ArrowBuf outData, int row) {
            Decimal128.write(outData, row, reference(leftHigh, leftLow, rightHigh, rightLow).unscaledValue());
        }

        /** This node's value by the reference code, for operands given as 128-bit unscaled values at their types' scales. */
        private BigDecimal reference(long leftHigh, long leftLow, long rightHigh, long rightLow) {
            Object[] arguments = {
                Decimal128.toBigDecimal(leftHigh, leftLow, leftType.scale()),
                Decimal128.toBigDecimal(rightHigh, rightLow, rightType.scale())
            };
            return (BigDecimal) Evaluator.apply(node, arguments, context);
        }
    }
}
