package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * CASE and COALESCE: each row takes its value from one of several operands, and an operand is
 * evaluated only for the rows that need it (a THEN branch only where its WHEN holds, a later
 * COALESCE operand only where the earlier ones were NULL). The chosen values are then copied in
 * one ascending pass, which variable-width output vectors require.
 */
final class ChoiceKernels {
    /** Marks a row whose result is NULL in {@link #copyChosen}. */
    private static final int NO_SOURCE = -1;

    private ChoiceKernels() {
    }

    /** Copies, for each of {@code rows}, the value of {@code sources[source[row]]} at that row into {@code out}. */
    private static void copyChosen(Rows rows, int[] source, FieldVector[] sources, FieldVector out) {
        for (int index = 0; index < rows.count; index++) {
            int row = rows.positions[index];
            int chosen = source[row];
            if (chosen == NO_SOURCE) {
                out.setNull(row);
            } else {
                out.copyFromSafe(row, row, sources[chosen]);
            }
        }
    }

    private static int[] grow(int[] array, int size) {
        return array.length >= size ? array : new int[Math.max(size, array.length * 2)];
    }

    /** Searched CASE; the operands are [condition, result]* otherwise, results already of the CASE's type. */
    static final class CaseKernel extends Kernel {
        private final int whenCount;
        private final Rows[] pending = {new Rows(0), new Rows(0)};
        private final List<Rows> taken = new ArrayList<>();
        private final FieldVector[] sources;
        private int[] source = new int[0];

        CaseKernel(List<Kernel> conditions, List<Kernel> results, Kernel otherwise, SqlType type, BufferAllocator allocator) {
            super(type, interleave(conditions, results, otherwise), allocator);
            this.whenCount = conditions.size();
            this.sources = new FieldVector[whenCount + 1];
            for (int when = 0; when < whenCount; when++) {
                taken.add(new Rows(0));
            }
        }

        private static List<Kernel> interleave(List<Kernel> conditions, List<Kernel> results, Kernel otherwise) {
            List<Kernel> all = new ArrayList<>();
            for (int when = 0; when < conditions.size(); when++) {
                all.add(conditions.get(when));
                all.add(results.get(when));
            }
            all.add(otherwise);
            return all;
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            source = grow(source, input.rowCount());
            Rows remaining = rows;
            for (int when = 0; when < whenCount && remaining.count > 0; when++) {
                FieldVector condition = children.get(2 * when).evaluate(input, remaining);
                ArrowBuf values = condition.getDataBuffer();
                ArrowBuf validity = condition.getValidityBuffer();
                Rows takenHere = taken.get(when);
                Rows notTaken = pending[when & 1];
                takenHere.clear(remaining.count);
                notTaken.clear(remaining.count);
                for (int index = 0; index < remaining.count; index++) {
                    int row = remaining.positions[index];
                    if (Bits.get(validity, row) && Bits.get(values, row)) {
                        takenHere.add(row);
                        source[row] = when;
                    } else {
                        notTaken.add(row);
                    }
                }
                if (takenHere.count > 0) {
                    sources[when] = children.get(2 * when + 1).evaluate(input, takenHere);
                }
                remaining = notTaken;
            }
            if (remaining.count > 0) {
                sources[whenCount] = children.get(2 * whenCount).evaluate(input, remaining);
                for (int index = 0; index < remaining.count; index++) {
                    source[remaining.positions[index]] = whenCount;
                }
            }
            FieldVector out = output(input.rowCount());
            copyChosen(rows, source, sources, out);
            return finish(out, input.rowCount());
        }
    }

    /** COALESCE; operands already of the expression's type. */
    static final class CoalesceKernel extends Kernel {
        private final Rows[] pending = {new Rows(0), new Rows(0)};
        private final FieldVector[] sources;
        private int[] source = new int[0];

        CoalesceKernel(List<Kernel> operands, SqlType type, BufferAllocator allocator) {
            super(type, operands, allocator);
            this.sources = new FieldVector[operands.size()];
        }

        @Override
        FieldVector evaluate(Batch input, Rows rows) {
            source = grow(source, input.rowCount());
            Rows remaining = rows;
            for (int operand = 0; operand < children.size() && remaining.count > 0; operand++) {
                FieldVector values = children.get(operand).evaluate(input, remaining);
                sources[operand] = values;
                ArrowBuf validity = values.getValidityBuffer();
                Rows stillNull = pending[operand & 1];
                stillNull.clear(remaining.count);
                for (int index = 0; index < remaining.count; index++) {
                    int row = remaining.positions[index];
                    if (Bits.get(validity, row)) {
                        source[row] = operand;
                    } else {
                        stillNull.add(row);
                    }
                }
                remaining = stillNull;
            }
            for (int index = 0; index < remaining.count; index++) {
                source[remaining.positions[index]] = NO_SOURCE;
            }
            FieldVector out = output(input.rowCount());
            copyChosen(rows, source, sources, out);
            return finish(out, input.rowCount());
        }
    }
}
