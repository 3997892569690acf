package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Expr;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * Equi-join of two inputs that both arrive sorted on their join keys (a clustered rowstore scan in
 * key order, or a sort): both are streamed, and only the right rows that match the current left
 * batch are held. Keys compare as the B+tree and ORDER BY order them ({@link RowOrder}: numbers by
 * value, strings by their UTF-8 bytes, which is code-point order); a key column may be descending,
 * on both sides alike. A row with a NULL key never matches, wherever its input sorted it.
 *
 * <p>Per left batch, the left rows are walked in order; each new key advances the right input past
 * the smaller keys and copies the run of right rows with an equal key (crossing right batches as
 * needed) into {@link #buildRows}, so every left row knows its candidates as a range of buffered
 * rows. Left rows with the same key share the run: duplicates on both sides (many-to-many) pair up
 * without reading the right input again, as DuckDB's and Velox's merge joins do. The rest is
 * {@link JoinOperator}'s: INNER and LEFT pairs (the left batch itself, a view, where no left row
 * has more than one partner), SEMI and ANTI verdicts, a residual condition checked on the pairs.
 * The run of the last key seen is carried into the next left batch, whose first rows may share it.
 *
 * <p>Memory: the right rows matching one left batch (its runs), copied into Arrow vectors under the
 * query's limit; a run of duplicates too long for it is {@code OUT_OF_MEMORY} (53200), as a hash
 * join's build is. Neither input is read ahead of need. Disorder the join meets (a key smaller than
 * the one before it on either side) is an internal error: it guards against a plan promising an
 * order its input does not deliver; rows the join never reads (past the last left key) go unchecked.
 */
public final class MergeJoinOperator extends JoinOperator {
    private final RowOrder leftOrder;
    private final RowOrder rightOrder;
    /** The order over {@link #buildRows} (right columns), rebound whenever the buffer grows or is swapped. */
    private final RowOrder runOrder;
    /** The buffer the next left batch's runs go into while the current run is carried over (swapped with {@link #buildRows}). */
    private RowBuffer spare;
    private Batch rightBatch;
    private int[] rightPositions = new int[0];
    private int rightCount;
    private int rightIndex;
    /** The vector position of the last right row consumed in {@link #rightBatch} with a non-NULL key, or -1. */
    private int lastRight = -1;
    private boolean rightExhausted;
    /** The current run: rows {@code [runFirst, runLast)} of {@link #buildRows}, all with the key last looked up. */
    private int runFirst;
    private int runLast;
    /** Per probed left row (index into {@link #probeRows}), its run in {@link #buildRows}. */
    private int[] runStart = new int[0];
    private int[] runEnd = new int[0];
    private boolean atMostOne;
    /**
     * Positions in {@link #rightBatch} of run rows not yet copied: they are appended to
     * {@link #buildRows} together, before the right batch is replaced and once the left batch is
     * walked, so that a run of one or two rows (a unique key) costs no copy call of its own.
     */
    private int[] pending = new int[0];
    private int pendingCount;
    /** The current run's first row's position in {@link #rightBatch} while the run is pending, else -1. */
    private int runRightPosition = -1;

    /**
     * @param leftKeys   left key columns, the order the left input is sorted in
     * @param rightKeys  right key columns, pairwise of the same type as the left ones, the right input's order
     * @param descending per key pair, whether both inputs sort it descending (null: all ascending)
     * @param residual   a condition over the left columns followed by the right columns, or null
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} when paired keys differ in type (cast them
     *                          first); {@link ErrorCode#INVALID_ARGUMENT} for a join type other than
     *                          INNER, LEFT, SEMI or ANTI
     */
    public MergeJoinOperator(Operator left, Operator right, JoinType joinType, List<Integer> leftKeys,
                             List<Integer> rightKeys, List<Boolean> descending, Expr residual) {
        super(left, right, joinType, residual);
        if (!supports(joinType)) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a merge join is INNER, LEFT, SEMI or ANTI, not " + joinType);
        }
        if (leftKeys.isEmpty() || leftKeys.size() != rightKeys.size()
                || (descending != null && descending.size() != leftKeys.size())) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a merge join needs pairs of keys, got "
                    + leftKeys + " and " + rightKeys + (descending == null ? "" : " in directions " + descending));
        }
        List<SortKey> leftSort = new ArrayList<>();
        List<SortKey> rightSort = new ArrayList<>();
        for (int key = 0; key < leftKeys.size(); key++) {
            SqlType leftType = left.schema().column(leftKeys.get(key)).type();
            SqlType rightType = right.schema().column(rightKeys.get(key)).type();
            if (!leftType.arrowType().equals(rightType.arrowType())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "join key " + (key + 1) + " pairs " + leftType.sqlName()
                        + " with " + rightType.sqlName() + "; cast one side first");
            }
            boolean down = descending != null && descending.get(key);
            // NULLs are skipped before any comparison, so where they sort does not matter here.
            leftSort.add(new SortKey(leftKeys.get(key), down, false));
            rightSort.add(new SortKey(rightKeys.get(key), down, false));
        }
        this.leftOrder = new RowOrder(leftSort, left.schema());
        this.rightOrder = new RowOrder(rightSort, right.schema());
        this.runOrder = new RowOrder(rightSort, right.schema());
    }

    /** Whether a merge join of core's {@code joinType} exists. */
    public static boolean supports(JoinType joinType) {
        return joinType == JoinType.INNER || joinType == JoinType.LEFT || joinType == JoinType.SEMI
                || joinType == JoinType.ANTI;
    }

    @Override
    void opened() {
        super.opened();
        spare = new RowBuffer(right.schema(), allocator);
    }

    @Override
    void build() {
        // Nothing ahead: the right input is read as the left rows ask for its keys.
    }

    @Override
    void prepareProbe(Batch batch) {
        carryRun();
        leftOrder.bind(batch);
        if (runStart.length < probeCount) {
            runStart = new int[Math.max(probeCount, runStart.length * 2)];
            runEnd = new int[runStart.length];
        }
        boolean single = true;
        int previous = -1;
        for (int index = 0; index < probeCount; index++) {
            int row = probeRows[index];
            if (leftOrder.anyNull(row)) {
                runStart[index] = 0;
                runEnd[index] = 0;
                continue;
            }
            if (previous >= 0 && leftOrder.compare(previous, leftOrder, row) > 0) {
                throw unsorted("left");
            }
            previous = row;
            int sameRun = runLast == runFirst ? 1 : runRightPosition >= 0
                    ? leftOrder.compare(row, rightOrder, runRightPosition) : leftOrder.compare(row, runOrder, runFirst);
            if (sameRun < 0) {
                throw unsorted("left");
            }
            if (sameRun > 0) {
                findRun(row);
            }
            runStart[index] = runFirst;
            runEnd[index] = runLast;
            single &= runLast - runFirst <= 1;
        }
        flushPending();
        atMostOne = single;
    }

    /** Copies the pending run rows of {@link #rightBatch} to the end of {@link #buildRows}. */
    private void flushPending() {
        if (pendingCount > 0) {
            buildRows.append(rightBatch, pending, 0, pendingCount);
            pendingCount = 0;
            runOrder.bind(buildRows);
        }
        runRightPosition = -1;
    }

    /**
     * Starts the buffer of a new left batch: the current run (which the batch's first rows may
     * share) is copied to the front of the spare buffer, which becomes {@link #buildRows}.
     */
    private void carryRun() {
        int carried = runLast - runFirst;
        if (carried == 0) {
            buildRows.clear();
        } else {
            spare.clear();
            spare.appendRange(buildRows.asBatch(), runFirst, carried);
            RowBuffer previous = buildRows;
            buildRows = spare;
            spare = previous;
        }
        runFirst = 0;
        runLast = carried;
        runOrder.bind(buildRows);
    }

    /**
     * Makes the current run the right rows with left row {@code leftRow}'s key: skips the right
     * rows with smaller keys (and NULL keys), then copies those with an equal key to the end of
     * {@link #buildRows}; an empty run when the next right key is larger or the right input ends.
     */
    private void findRun(int leftRow) {
        runFirst = buildRows.size() + pendingCount;
        runLast = runFirst;
        while (true) {
            if (!rightRowAvailable()) {
                return;
            }
            int rightRow = rightPositions[rightIndex];
            if (rightOrder.anyNull(rightRow)) {
                rightIndex++;
                continue;
            }
            int comparison = leftOrder.compare(leftRow, rightOrder, rightRow);
            if (comparison < 0) {
                return;
            }
            consumeRight(rightRow);
            if (comparison == 0) {
                break;
            }
        }
        // rightIndex is one past the run's first row, which is still in rightBatch (pending flushed
        // before any batch change, so runFirst still counts the rows ahead of it).
        runFirst = buildRows.size() + pendingCount;
        runRightPosition = rightPositions[rightIndex - 1];
        pending[pendingCount++] = runRightPosition;
        while (true) {
            while (rightIndex < rightCount) {
                int rightRow = rightPositions[rightIndex];
                if (rightOrder.anyNull(rightRow)) {
                    break;
                }
                int comparison = leftOrder.compare(leftRow, rightOrder, rightRow);
                if (comparison > 0) {
                    throw unsorted("right");
                }
                if (comparison < 0) {
                    break;
                }
                consumeRight(rightRow);
                pending[pendingCount++] = rightRow;
            }
            if (rightIndex < rightCount || !rightRowAvailable()) {
                break;
            }
            // The run goes on in the next right batch (or ends at its first row); its rows so far were copied.
        }
        runLast = buildRows.size() + pendingCount;
    }

    /** Steps past right row {@code rightRow} (a non-NULL key), checking that the right input is in order. */
    private void consumeRight(int rightRow) {
        if (lastRight >= 0 && rightOrder.compare(lastRight, rightOrder, rightRow) > 0) {
            throw unsorted("right");
        }
        lastRight = rightRow;
        rightIndex++;
    }

    /** Whether there is a right row at {@link #rightIndex}, reading the next right batch as needed. */
    private boolean rightRowAvailable() {
        while (rightIndex >= rightCount) {
            if (rightExhausted) {
                return false;
            }
            flushPending();
            Batch next = right.next();
            if (next == null) {
                rightExhausted = true;
                rightBatch = null;
                rightCount = 0;
                rightIndex = 0;
                return false;
            }
            rightBatch = next;
            rightCount = next.selectedCount();
            rightPositions = Vectors.livePositions(next, rightPositions);
            if (pending.length < rightCount) {
                pending = new int[Math.max(rightCount, pending.length * 2)];
            }
            rightIndex = 0;
            lastRight = -1;
            rightOrder.bind(next);
        }
        return true;
    }

    private ColumbaException unsorted(String side) {
        return new ColumbaException(ErrorCode.INTERNAL, name() + ": the " + side
                + " input is not in the order of the join keys a merge join needs");
    }

    @Override
    boolean noMoreMatches() {
        return rightExhausted && runLast == runFirst;
    }

    @Override
    int firstCandidate(int probeIndex) {
        return runStart[probeIndex] < runEnd[probeIndex] ? runStart[probeIndex] : -1;
    }

    @Override
    int nextCandidate(int probeIndex, int buildRow) {
        return buildRow + 1 < runEnd[probeIndex] ? buildRow + 1 : -1;
    }

    @Override
    boolean matchesWithoutCandidates(boolean[] matches) {
        for (int index = 0; index < probeCount; index++) {
            matches[index] = runStart[index] < runEnd[index];
        }
        return true;
    }

    @Override
    boolean markBuildMatchesWithoutCandidates(boolean[] buildMatched) {
        return false;
    }

    @Override
    boolean atMostOneCandidate() {
        return atMostOne;
    }

    @Override
    void release() {
        if (spare != null) {
            spare.close();
        }
        super.release();
    }
}
