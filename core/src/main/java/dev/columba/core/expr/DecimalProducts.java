package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.NativeLongs;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * A DECIMAL product computed at native width for a consumer that only adds the values up: a
 * column times one or more factors, each a column or a literal plus or minus a column, every
 * operand of precision at most 18 (TPC-H Q1's {@code l_extendedprice * (1 - l_discount) * (1 +
 * l_tax)}, Q6's {@code l_extendedprice * l_discount}). The kernels write each product into a
 * 16-byte vector that the sum then reads back; here the values go into a {@code long[]} of the
 * batch's rows, one tight pass per factor, with no intermediate vectors and no high words.
 *
 * <p>Exactness: a row whose factor passes its type's precision, or whose product passes a long or
 * its type's precision, makes {@link #evaluate} return false, and the caller evaluates the
 * expression by its kernels instead ({@link ExpressionCompiler}), which compute those values in
 * 128 bits and raise 22003 exactly as without this path. The products' types (precision 31 and 38
 * in Q1) admit values beyond a long; real values rarely are. Immutable and thread-safe.
 */
public final class DecimalProducts {
    /** The column the first factor multiplies. */
    private final int base;
    /** Per factor: its column, the literal's term at the factor's scale (0 for a plain column), the column's multiplier (±10^k, 1 for a plain column). */
    private final int[] factorColumns;
    private final long[] constantTerms;
    private final long[] columnMultipliers;
    /** Per factor: the bound its value stays below in magnitude (10^precision, or none at 19 digits and more). */
    private final long[] factorBounds;
    /** Per factor: the bound of the product it completes, by the product's type. */
    private final long[] productBounds;
    private final int[] columns;
    /**
     * Whether some factor or product can pass its type's precision before it passes a long, so
     * that every bound is tested per row (or there are more than two factors); else only the 64
     * bits of each product are, in one pass over the rows.
     */
    private final boolean checked;

    private DecimalProducts(int base, List<long[]> factors) {
        this.base = base;
        int count = factors.size();
        factorColumns = new int[count];
        constantTerms = new long[count];
        columnMultipliers = new long[count];
        factorBounds = new long[count];
        productBounds = new long[count];
        List<Integer> read = new ArrayList<>(List.of(base));
        for (int factor = 0; factor < count; factor++) {
            long[] parts = factors.get(factor);
            factorColumns[factor] = (int) parts[0];
            constantTerms[factor] = parts[1];
            columnMultipliers[factor] = parts[2];
            factorBounds[factor] = parts[3];
            productBounds[factor] = parts[4];
            if (!read.contains((int) parts[0])) {
                read.add((int) parts[0]);
            }
        }
        columns = read.stream().mapToInt(Integer::intValue).toArray();
        boolean anyBound = false;
        for (int factor = 0; factor < count; factor++) {
            anyBound |= factorBounds[factor] != Long.MAX_VALUE || productBounds[factor] != Long.MAX_VALUE;
        }
        checked = anyBound || count > 2;
    }

    /** The product's plan when {@code expression} has the shape (see the class comment), else null. */
    public static DecimalProducts of(Expr expression) {
        List<long[]> factors = new ArrayList<>();
        int base = chain(expression, factors);
        return base >= 0 && !factors.isEmpty() ? new DecimalProducts(base, factors) : null;
    }

    /** The columns the product reads (a batch with a NULL in any of them goes to the kernels). */
    public int[] columns() {
        return columns.clone();
    }

    /**
     * Adds the factors of {@code expression} to {@code factors}, innermost first, and returns its
     * base column; -1 when it is not a chain of products.
     */
    private static int chain(Expr expression, List<long[]> factors) {
        if (expression instanceof Expr.ColumnReference column) {
            return narrow(column.type()) ? column.index() : -1;
        }
        if (!(expression instanceof Expr.Arithmetic product) || product.operator() != ArithmeticOperator.MULTIPLY
                || !(product.type() instanceof SqlType.DecimalType type)
                || !(product.left().type() instanceof SqlType.DecimalType leftType)
                || !(product.right().type() instanceof SqlType.DecimalType rightType)
                || leftType.scale() + rightType.scale() != type.scale()) {
            return -1;
        }
        // The column or chain on the left and the factor on the right, or the other way round.
        for (int side = 0; side < 2; side++) {
            Expr chained = side == 0 ? product.left() : product.right();
            long[] factor = factor(side == 0 ? product.right() : product.left());
            if (factor == null) {
                continue;
            }
            List<long[]> inner = new ArrayList<>();
            int base = chain(chained, inner);
            if (base >= 0) {
                factor[4] = bound(type.precision());
                factors.addAll(inner);
                factors.add(factor);
                return base;
            }
        }
        return -1;
    }

    /**
     * A factor's column, constant term, column multiplier and bound (and a slot for its product's
     * bound), or null: a narrow column, or a narrow literal plus or minus a narrow column whose
     * terms at the sum's scale stay below 10^18, so that the sum cannot overflow a long (as
     * {@code DecimalKernel} requires for computing it at native width).
     */
    private static long[] factor(Expr expression) {
        if (expression instanceof Expr.ColumnReference column) {
            return narrow(column.type()) ? new long[] {column.index(), 0, 1, Long.MAX_VALUE, 0} : null;
        }
        if (!(expression instanceof Expr.Arithmetic sum)
                || (sum.operator() != ArithmeticOperator.ADD && sum.operator() != ArithmeticOperator.SUBTRACT)
                || !(sum.type() instanceof SqlType.DecimalType type)) {
            return null;
        }
        boolean constantLeft = sum.left() instanceof Expr.Literal;
        Expr constantSide = constantLeft ? sum.left() : sum.right();
        Expr columnSide = constantLeft ? sum.right() : sum.left();
        // An INT or BIGINT literal takes part as the DECIMAL of scale 0 the compiler converts it to.
        if (!(constantSide instanceof Expr.Literal literal) || !(literal.value() instanceof Number number)
                || !(literal.type() instanceof SqlType.IntegerType || literal.type() instanceof SqlType.BigintType
                        || literal.type() instanceof SqlType.DecimalType)
                || !(TypeRules.asDecimal(literal.type()) instanceof SqlType.DecimalType constantType) || !narrow(constantType)
                || !(columnSide instanceof Expr.ColumnReference column) || !(column.type() instanceof SqlType.DecimalType columnType)
                || !narrow(columnType)) {
            return null;
        }
        int scale = type.scale();
        if (scale < constantType.scale() || scale < columnType.scale()
                || constantType.precision() + scale - constantType.scale() > Decimal128.LONG_PRECISION
                || columnType.precision() + scale - columnType.scale() > Decimal128.LONG_PRECISION) {
            return null;
        }
        long constant;
        try {
            BigDecimal value = number instanceof BigDecimal decimal ? decimal : BigDecimal.valueOf(number.longValue());
            constant = value.setScale(constantType.scale()).unscaledValue().longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
        if (Math.abs(constant) >= Decimal128.POWERS_OF_TEN[constantType.precision()]) {
            return null;
        }
        long sign = sum.operator() == ArithmeticOperator.ADD ? 1 : -1;
        long constantScale = Decimal128.POWERS_OF_TEN[scale - constantType.scale()];
        long columnScale = Decimal128.POWERS_OF_TEN[scale - columnType.scale()];
        // constant ± column, or column ± constant.
        long constantTerm = constantLeft ? constant * constantScale : sign * constant * constantScale;
        long columnMultiplier = constantLeft ? sign * columnScale : columnScale;
        // No test per row when no value of the column can take the sum to its bound.
        long largest = Math.abs(constantTerm) + (Decimal128.POWERS_OF_TEN[columnType.precision()] - 1) * Math.abs(columnMultiplier);
        long factorBound = bound(type.precision());
        return new long[] {column.index(), constantTerm, columnMultiplier, largest < factorBound ? Long.MAX_VALUE : factorBound, 0};
    }

    private static boolean narrow(SqlType type) {
        return type instanceof SqlType.DecimalType decimal && decimal.precision() <= Decimal128.LONG_PRECISION;
    }

    private static long bound(int precision) {
        return precision <= Decimal128.LONG_PRECISION ? Decimal128.POWERS_OF_TEN[precision] : Long.MAX_VALUE;
    }

    /**
     * The unscaled products at rows {@code positions[0, count)} of {@code input} into
     * {@code out[0, count)}; false, with {@code out} undefined, when a row's factor or product
     * does not fit as the class comment says, or a column read has NULLs in the batch. Values of a
     * narrow column are longs by their type (below 10^18), so only the low word is read.
     */
    public boolean evaluate(Batch input, int[] positions, int count, long[] out) {
        return evaluate(input, positions, count, out, null);
    }

    /**
     * Whether this product is {@code shorter} times one more factor (Q1's charge is its discounted
     * price times {@code 1 + l_tax}), so that one {@link #evaluate} computes both.
     */
    public boolean extendsBy(DecimalProducts shorter) {
        int length = shorter.factorColumns.length;
        if (base != shorter.base || factorColumns.length != length + 1) {
            return false;
        }
        for (int factor = 0; factor < length; factor++) {
            if (factorColumns[factor] != shorter.factorColumns[factor] || constantTerms[factor] != shorter.constantTerms[factor]
                    || columnMultipliers[factor] != shorter.columnMultipliers[factor]
                    || factorBounds[factor] != shorter.factorBounds[factor] || productBounds[factor] != shorter.productBounds[factor]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #evaluate(Batch, int[], int, long[])}, also writing into {@code prefixOut} (unless
     * null) the product without the last factor: the values of a product this one {@linkplain
     * #extendsBy extends}, defined when this returns true.
     */
    public boolean evaluate(Batch input, int[] positions, int count, long[] out, long[] prefixOut) {
        boolean allStored = true;
        for (int column : columns) {
            NativeLongs stored = input.longs(column);
            allStored &= stored != null && stored.defined();
        }
        if (allStored) {
            return evaluateStored(input, positions, count, out, prefixOut);
        }
        NativeLongs.materialize(input, columns);
        for (int column : columns) {
            if (input.column(column).getNullCount() != 0) {
                return false;
            }
        }
        if (checked) {
            return multiplyAll(input, positions, count, out, prefixOut);
        }
        ArrowBuf baseData = input.column(base).getDataBuffer();
        ArrowBuf first = input.column(factorColumns[0]).getDataBuffer();
        long constant = constantTerms[0];
        long multiplier = columnMultipliers[0];
        long outside = 0;
        // A product of one factor extends none (every product has a factor), so it has no prefix to write.
        if (factorColumns.length == 1) {
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long operand = Decimal128.low(baseData, row);
                long value = constant + Decimal128.low(first, row) * multiplier;
                long low = operand * value;
                outside |= Math.multiplyHigh(operand, value) ^ (low >> 63);
                out[index] = low;
            }
            return outside == 0;
        }
        if (factorColumns.length == 2) {
            ArrowBuf second = input.column(factorColumns[1]).getDataBuffer();
            long secondConstant = constantTerms[1];
            long secondMultiplier = columnMultipliers[1];
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long operand = Decimal128.low(baseData, row);
                long value = constant + Decimal128.low(first, row) * multiplier;
                long low = operand * value;
                outside |= Math.multiplyHigh(operand, value) ^ (low >> 63);
                long secondValue = secondConstant + Decimal128.low(second, row) * secondMultiplier;
                long product = low * secondValue;
                if (prefixOut != null) {
                    prefixOut[index] = low;
                }
                outside |= Math.multiplyHigh(low, secondValue) ^ (product >> 63);
                out[index] = product;
            }
            return outside == 0;
        }
        return multiplyAll(input, positions, count, out, prefixOut);
    }

    /**
     * {@link #evaluate(Batch, int[], int, long[], long[])} over columns that all carry their values as
     * stored longs ({@link NativeLongs}, no NULLs): the same loops, reading the longs by row instead of
     * the low words of the vectors (which their producer then need not write).
     */
    private boolean evaluateStored(Batch input, int[] positions, int count, long[] out, long[] prefixOut) {
        long[] baseValues = input.longs(base).values();
        long[] first = input.longs(factorColumns[0]).values();
        long constant = constantTerms[0];
        long multiplier = columnMultipliers[0];
        long outside = 0;
        if (!checked && factorColumns.length <= 2 && magnitude(input, true) < Long.MAX_VALUE
                && magnitude(input, false) < Long.MAX_VALUE) {
            // The bounds of the stored values rule out 64-bit overflow (Q1's prices, discounts and
            // taxes by their packed segments' widths): no 128-bit products to test.
            if (factorColumns.length == 1) {
                for (int index = 0; index < count; index++) {
                    int row = positions[index];
                    out[index] = baseValues[row] * (constant + first[row] * multiplier);
                }
                return true;
            }
            long[] second = input.longs(factorColumns[1]).values();
            long secondConstant = constantTerms[1];
            long secondMultiplier = columnMultipliers[1];
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long low = baseValues[row] * (constant + first[row] * multiplier);
                if (prefixOut != null) {
                    prefixOut[index] = low;
                }
                out[index] = low * (secondConstant + second[row] * secondMultiplier);
            }
            return true;
        }
        if (!checked && factorColumns.length == 1) {
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long operand = baseValues[row];
                long value = constant + first[row] * multiplier;
                long low = operand * value;
                outside |= Math.multiplyHigh(operand, value) ^ (low >> 63);
                out[index] = low;
            }
            return outside == 0;
        }
        if (!checked && factorColumns.length == 2) {
            long[] second = input.longs(factorColumns[1]).values();
            long secondConstant = constantTerms[1];
            long secondMultiplier = columnMultipliers[1];
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long operand = baseValues[row];
                long value = constant + first[row] * multiplier;
                long low = operand * value;
                outside |= Math.multiplyHigh(operand, value) ^ (low >> 63);
                long secondValue = secondConstant + second[row] * secondMultiplier;
                long product = low * secondValue;
                if (prefixOut != null) {
                    prefixOut[index] = low;
                }
                outside |= Math.multiplyHigh(low, secondValue) ^ (product >> 63);
                out[index] = product;
            }
            return outside == 0;
        }
        for (int index = 0; index < count; index++) {
            out[index] = baseValues[positions[index]];
        }
        for (int factor = 0; factor < factorColumns.length; factor++) {
            if (prefixOut != null && factor == factorColumns.length - 1) {
                System.arraycopy(out, 0, prefixOut, 0, count);
            }
            long[] values = input.longs(factorColumns[factor]).values();
            long constantTerm = constantTerms[factor];
            long factorMultiplier = columnMultipliers[factor];
            long factorBound = factorBounds[factor];
            long productBound = productBounds[factor];
            for (int index = 0; index < count; index++) {
                long value = constantTerm + values[positions[index]] * factorMultiplier;
                long operand = out[index];
                long low = operand * value;
                long high = Math.multiplyHigh(operand, value);
                outside |= (high ^ (low >> 63)) | ((factorBound - 1 - Math.abs(value)) | (productBound - 1 - Math.abs(low))) >>> 63;
                out[index] = low;
            }
            if (outside != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A bound on the magnitude of this product's values at the live rows of {@code input}, or of
     * the product without its last factor (the one this product {@linkplain #extendsBy extends})
     * when {@code withoutLast}: from the bounds of the stored longs its columns carry ({@link
     * NativeLongs#magnitude}); {@code Long.MAX_VALUE} when a column carries none or the bound
     * passes a long. A sum of the products can then rule out overflow for a whole batch.
     */
    public long magnitude(Batch input, boolean withoutLast) {
        NativeLongs baseLongs = input.longs(base);
        if (baseLongs == null || !baseLongs.defined()) {
            return Long.MAX_VALUE;
        }
        long bound = baseLongs.magnitude();
        int factors = factorColumns.length - (withoutLast ? 1 : 0);
        for (int factor = 0; factor < factors && bound < Long.MAX_VALUE; factor++) {
            NativeLongs longs = input.longs(factorColumns[factor]);
            if (longs == null || !longs.defined()) {
                return Long.MAX_VALUE;
            }
            long factorBound = boundedSum(Math.abs(constantTerms[factor]),
                    boundedProduct(longs.magnitude(), Math.abs(columnMultipliers[factor])));
            bound = boundedProduct(bound, factorBound);
        }
        return bound;
    }

    /** {@code a * b} of non-negative {@code a} and {@code b}, or {@code Long.MAX_VALUE} when it is not below that. */
    private static long boundedProduct(long a, long b) {
        return a != 0 && b >= Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    /** {@code a + b} of non-negative {@code a} and {@code b}, or {@code Long.MAX_VALUE} when it is not below that. */
    private static long boundedSum(long a, long b) {
        return a >= Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }

    /** The products factor by factor, every bound tested ({@link #multiplyChecked}), from the base column's values. */
    private boolean multiplyAll(Batch input, int[] positions, int count, long[] out, long[] prefixOut) {
        ArrowBuf baseData = input.column(base).getDataBuffer();
        for (int index = 0; index < count; index++) {
            out[index] = Decimal128.low(baseData, positions[index]);
        }
        for (int factor = 0; factor < factorColumns.length; factor++) {
            if (prefixOut != null && factor == factorColumns.length - 1) {
                System.arraycopy(out, 0, prefixOut, 0, count);
            }
            if (!multiplyChecked(input.column(factorColumns[factor]), factor, positions, count, out)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code out[i] *= factor(row i)} with every bound tested; false when a factor or product
     * leaves its bound. Branch-free: the rows' excesses are ORed together and tested once after
     * the loop.
     */
    private boolean multiplyChecked(FieldVector vector, int factor, int[] positions, int count, long[] out) {
        ArrowBuf data = vector.getDataBuffer();
        long constantTerm = constantTerms[factor];
        long multiplier = columnMultipliers[factor];
        long factorBound = factorBounds[factor];
        long productBound = productBounds[factor];
        long outside = 0;
        for (int index = 0; index < count; index++) {
            long value = constantTerm + Decimal128.low(data, positions[index]) * multiplier;
            long operand = out[index];
            long low = operand * value;
            long high = Math.multiplyHigh(operand, value);
            // Negative when |value| >= factorBound or |low| >= productBound, nonzero when the product passes 64 bits.
            outside |= (high ^ (low >> 63)) | ((factorBound - 1 - Math.abs(value)) | (productBound - 1 - Math.abs(low))) >>> 63;
            out[index] = low;
        }
        return outside == 0;
    }
}
