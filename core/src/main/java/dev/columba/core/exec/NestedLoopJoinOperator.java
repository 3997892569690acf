package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.expr.Expr;
import java.util.Arrays;

/**
 * Join on any condition (or none: a cross product): every left row is paired with every right
 * row, and the condition over the left columns followed by the right columns is evaluated
 * vectorized over a batch of pairs at a time. INNER and LEFT, SEMI and ANTI, RIGHT_SEMI and RIGHT_ANTI.
 *
 * <p>Memory: the whole right input is copied into Arrow vectors (charged to the query's limit,
 * {@code OUT_OF_MEMORY} when it does not fit); the left input is streamed. Each returned batch is
 * the operator's own or a view of the left input's batch, valid until the next {@code next()}.
 */
public final class NestedLoopJoinOperator extends JoinOperator {

    /** @param condition over the left columns followed by the right columns; null joins every pair */
    public NestedLoopJoinOperator(Operator left, Operator right, JoinType joinType, Expr condition) {
        super(left, right, joinType, condition);
    }

    @Override
    void build() {
        int[] positions = new int[0];
        for (Batch batch = right.next(); batch != null; batch = right.next()) {
            positions = Vectors.livePositions(batch, positions);
            buildRows.append(batch, positions, batch.selectedCount());
        }
    }

    @Override
    void prepareProbe(Batch batch) {
    }

    @Override
    int firstCandidate(int probeIndex) {
        return buildRows.size() > 0 ? 0 : -1;
    }

    @Override
    int nextCandidate(int probeIndex, int buildRow) {
        return buildRow + 1 < buildRows.size() ? buildRow + 1 : -1;
    }

    @Override
    boolean matchesWithoutCandidates(boolean[] matches) {
        boolean any = buildRows.size() > 0;
        for (int index = 0; index < probeCount; index++) {
            matches[index] = any;
        }
        return true;
    }

    @Override
    boolean markBuildMatchesWithoutCandidates(boolean[] buildMatched) {
        if (probeCount > 0) {
            Arrays.fill(buildMatched, true);
        }
        return true;
    }
}
