package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.CompiledExpression;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExpressionCompiler;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * What hash and nested-loop joins share: the right input is materialized (the build side), each
 * left batch is probed against it, and candidate pairs are produced a batch at a time. Where
 * there is a condition (the whole condition of a nested-loop join, the non-equi rest of a hash
 * join's), candidates are gathered into a batch of left and right columns and the condition is
 * evaluated over it vectorized; a pair counts only where it is TRUE.
 *
 * <p>Per left batch: first the candidates (INNER and LEFT return the passing pairs; SEMI and ANTI
 * only note which left rows matched), then the left rows' verdict: LEFT returns the unmatched
 * rows with NULL right columns, SEMI a view of the matched rows, ANTI of the unmatched ones.
 *
 * <p>RIGHT_SEMI and RIGHT_ANTI note which right (build) rows matched instead, one flag per build
 * row, and return nothing per left batch; once the left input is exhausted they return the marked
 * build rows (RIGHT_SEMI) or the unmarked ones (RIGHT_ANTI), copied out of the build a batch at a
 * time. Where workers of a parallel plan share one build, they share its flags too
 * ({@link #buildMatchFlags}), and only the last worker to finish probing returns the build rows
 * ({@link #lastToFinishProbing}): its finishing is ordered after every other worker's, so it sees
 * all their marks. FULL does both: it returns pairs and unmatched left rows as LEFT does, marks the
 * build rows of the pairs, and once probing is done returns the unmarked build rows with NULL left
 * columns. RIGHT is FULL without the unmatched left rows: a LEFT join whose preserved side is
 * built, probed with the other side's rows.
 *
 * <p>INNER and LEFT without a condition, where each left row has at most one candidate (a hash
 * join's build with no key twice, {@link #atMostOneCandidate}), return the left batch itself
 * instead of copying it: a view of its vectors with the matched rows selected (every live row for
 * LEFT) beside the right columns gathered to the left rows' positions. Only the build side's
 * columns are copied, as DuckDB and Velox do; where fewer than a quarter of the left batch's rows
 * would be selected, the pairs are copied as usual, so that sparse batches are compacted.
 */
abstract class JoinOperator extends BaseOperator {
    private enum Phase { VIEW, CANDIDATES, VERDICT, BUILD_ROWS }

    final Operator left;
    final Operator right;
    final JoinType joinType;
    private final Expr condition;
    private final TableSchema pairSchema;
    private final int leftColumns;
    RowBuffer buildRows;
    private final boolean ownsBuildRows;
    private boolean built;
    private CompiledExpression compiledCondition;
    private Batch pairs;
    private Batch probeBatch;
    int[] probeRows = new int[0];
    int probeCount;
    private boolean[] matched = new boolean[0];
    /** RIGHT_SEMI, RIGHT_ANTI: per build row, whether some left row matched it (possibly shared with other workers). */
    private boolean[] buildMatched;
    /** RIGHT_SEMI, RIGHT_ANTI: the next build row to consider for the output once probing is done. */
    private int buildCursor;
    private Batch buildOutput;
    private int probeIndex;
    private int cursor;
    private int verdictIndex;
    private Phase phase;
    private int[] pairProbe = new int[0];
    private int[] pairBuild = new int[0];
    /** The left input's vector positions of the pairs being gathered. */
    private int[] pairLeftRows = new int[0];
    private int[] passing = new int[0];
    /** {@link Phase#VIEW}: the right columns, at the left batch's positions. */
    private Batch viewRight;
    /** {@link Phase#VIEW}: per position of the left batch, its build row, or -1. */
    private int[] viewBuild = new int[0];

    JoinOperator(Operator left, Operator right, JoinType joinType, Expr condition) {
        this(left, right, joinType, condition, true);
    }

    /**
     * @param opensRight whether opening (and closing) this join opens (and closes) the right input;
     *                   if not, the subclass does, when and if it reads it, and {@link #buildRows}
     *                   is the subclass's to release when it replaces it
     */
    JoinOperator(Operator left, Operator right, JoinType joinType, Expr condition, boolean opensRight) {
        super(outputSchema(left.schema(), right.schema(), joinType), opensRight ? List.of(left, right) : List.of(left));
        this.ownsBuildRows = opensRight;
        this.left = left;
        this.right = right;
        this.joinType = joinType;
        this.condition = condition;
        this.pairSchema = outputSchema(left.schema(), right.schema(), JoinType.LEFT);
        this.leftColumns = left.schema().size();
        if (condition != null && !(condition.type() instanceof SqlType.BooleanType)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a join condition must be BOOLEAN, got " + condition.type().sqlName());
        }
    }

    /**
     * Left columns then right columns (nullable for LEFT joins), right names made unique by a
     * numeric suffix as Calcite does ({@code id} and {@code id} become {@code id}, {@code id0});
     * SEMI and ANTI joins return the left columns only, RIGHT_SEMI and RIGHT_ANTI the right ones.
     */
    static TableSchema outputSchema(TableSchema left, TableSchema right, JoinType joinType) {
        if (joinType.keepsLeft()) {
            return left;
        }
        if (joinType.keepsRight()) {
            return right;
        }
        List<Column> columns = new ArrayList<>();
        for (Column column : left.columns()) {
            columns.add(joinType.keepsUnmatchedRight() ? new Column(column.name(), column.type(), true) : column);
        }
        Set<String> names = new HashSet<>();
        for (Column column : left.columns()) {
            names.add(column.name().toLowerCase(Locale.ROOT));
        }
        for (Column column : right.columns()) {
            String name = column.name();
            for (int suffix = 0; names.contains(name.toLowerCase(Locale.ROOT)); suffix++) {
                name = column.name() + suffix;
            }
            names.add(name.toLowerCase(Locale.ROOT));
            columns.add(new Column(name, column.type(), column.nullable() || joinType.keepsUnmatchedLeft()));
        }
        return new TableSchema(columns);
    }

    @Override
    public ExecutionMode mode() {
        return condition == null ? ExecutionMode.BATCH : ExpressionCompiler.mode(condition);
    }

    @Override
    void opened() {
        if (ownsBuildRows) {
            buildRows = new RowBuffer(right.schema(), allocator);
        }
        if (condition != null) {
            compiledCondition = ExpressionCompiler.compile(condition, pairSchema, context.evaluation(), allocator);
        }
    }

    /** Reads the whole right input into {@link #buildRows} (and whatever index the join keeps). */
    abstract void build();

    /** Prepares to find candidates for the left rows {@link #probeRows}{@code [0, probeCount)} of {@code batch}. */
    abstract void prepareProbe(Batch batch);

    /** The first build row that may pair with left row {@code probeIndex}, or -1. */
    abstract int firstCandidate(int probeIndex);

    /** The build row after {@code buildRow} that may pair with left row {@code probeIndex}, or -1. */
    abstract int nextCandidate(int probeIndex, int buildRow);

    /**
     * Whether every candidate found is a match without a condition to check; a hash join
     * without residual condition then settles SEMI and ANTI from its lookups alone.
     */
    abstract boolean matchesWithoutCandidates(boolean[] matches);

    /**
     * RIGHT_SEMI, RIGHT_ANTI: marks in {@code buildMatched} the build rows that the probed left
     * rows match, if every candidate is a match without a condition to check; returns whether it
     * did (else the candidates are checked one by one).
     */
    abstract boolean markBuildMatchesWithoutCandidates(boolean[] buildMatched);

    /**
     * Whether no left row still to come can have a candidate, so that a join returning only pairs
     * or matched rows is done: a hash join's build is empty (a merge join's right input is exhausted).
     */
    boolean noMoreMatches() {
        return buildRows.size() == 0;
    }

    /** Whether no left row can have more than one candidate (a hash join's build without duplicate keys). */
    boolean atMostOneCandidate() {
        return false;
    }

    /** RIGHT_SEMI, RIGHT_ANTI: the per-build-row match flags, all false; those of the shared build in a parallel plan. */
    boolean[] buildMatchFlags() {
        return new boolean[buildRows.size()];
    }

    /**
     * RIGHT_SEMI, RIGHT_ANTI: called once, when this operator's left input is exhausted; whether it
     * is the one to return the build rows (the last of the workers sharing the build to finish).
     */
    boolean lastToFinishProbing() {
        return true;
    }

    @Override
    Batch produce() {
        if (!built) {
            build();
            built = true;
            if (joinType.marksBuild()) {
                buildMatched = buildMatchFlags();
            }
        }
        while (true) {
            if (phase == Phase.BUILD_ROWS) {
                return buildRowsOutput();
            }
            if (probeBatch == null && !nextProbeBatch()) {
                if (joinType.marksBuild() && lastToFinishProbing()) {
                    phase = Phase.BUILD_ROWS;
                    continue;
                }
                return null;
            }
            Batch result = switch (phase) {
                case VIEW -> probeView();
                case CANDIDATES -> candidates();
                default -> verdict();
            };
            if (result != null) {
                return result;
            }
        }
    }

    private boolean nextProbeBatch() {
        if (noMoreMatches() && !joinType.keepsUnmatchedLeft() && joinType != JoinType.ANTI) {
            return false;
        }
        Batch batch = left.next();
        if (batch == null) {
            return false;
        }
        probeBatch = batch;
        probeCount = batch.selectedCount();
        probeRows = Vectors.livePositions(batch, probeRows);
        if (matched.length < probeCount) {
            matched = new boolean[Math.max(probeCount, matched.length * 2)];
        }
        Arrays.fill(matched, 0, probeCount, false);
        prepareProbe(batch);
        verdictIndex = 0;
        probeIndex = 0;
        cursor = probeCount > 0 ? firstCandidate(0) : -1;
        boolean settled = condition == null && (joinType.keepsLeft() && matchesWithoutCandidates(matched)
                || joinType.keepsRight() && markBuildMatchesWithoutCandidates(buildMatched));
        boolean viewable = condition == null && (joinType == JoinType.INNER || joinType == JoinType.LEFT) && atMostOneCandidate();
        phase = settled ? Phase.VERDICT : viewable ? Phase.VIEW : Phase.CANDIDATES;
        return true;
    }

    /**
     * {@link Phase#VIEW}: the left batch with its matched rows selected (all its live rows for
     * LEFT), beside the right columns gathered to their left rows' positions (NULL elsewhere); null
     * when no row is selected (INNER), the batch then being done. Where fewer than a quarter of the
     * batch's rows would be selected it leaves the batch to {@link #candidates}, untouched.
     */
    private Batch probeView() {
        int rows = probeBatch.rowCount();
        if (viewBuild.length < rows) {
            viewBuild = new int[Math.max(rows, viewBuild.length * 2)];
        }
        if (passing.length < probeCount) {
            passing = new int[Math.max(probeCount, passing.length * 2)];
        }
        int[] buildOf = viewBuild;
        Arrays.fill(buildOf, 0, rows, -1);
        boolean keepAll = joinType == JoinType.LEFT;
        int selected = 0;
        for (int index = 0; index < probeCount; index++) {
            int candidate = firstCandidate(index);
            int row = probeRows[index];
            buildOf[row] = candidate;
            passing[selected] = row;
            selected += candidate >= 0 || keepAll ? 1 : 0;
        }
        if (selected == 0) {
            probeBatch = null;
            return null;
        }
        if (!keepAll && selected * 4L < rows) {
            phase = Phase.CANDIDATES;
            return null;
        }
        if (viewRight == null) {
            viewRight = Batch.create(new TableSchema(pairSchema.columns().subList(leftColumns, pairSchema.size())), allocator);
        }
        Vectors.rewind(viewRight);
        for (int column = 0; column < buildRows.columnCount(); column++) {
            VectorCopy.gather(buildRows.column(column), buildOf, rows, viewRight.column(column), 0);
        }
        viewRight.setRowCount(rows);
        List<FieldVector> vectors = new ArrayList<>(leftColumns + buildRows.columnCount());
        for (int column = 0; column < leftColumns; column++) {
            vectors.add(probeBatch.column(column));
        }
        for (int column = 0; column < buildRows.columnCount(); column++) {
            vectors.add(viewRight.column(column));
        }
        Batch view = Batch.view(vectors, rows);
        for (int column = 0; column < leftColumns; column++) {
            CodedStrings codes = probeBatch.codes(column);
            if (codes != null) {
                view.attachCodes(column, codes);
            }
        }
        view.select(passing, selected);
        probeBatch = null;
        return view;
    }

    /** The next chunk of passing pairs (INNER, LEFT), or null once this left batch has no more candidates. */
    private Batch candidates() {
        while (true) {
            int count = collectPairs();
            if (count == 0) {
                phase = Phase.VERDICT;
                return null;
            }
            gather(count);
            if (compiledCondition == null) {
                for (int index = 0; index < count; index++) {
                    markMatch(index);
                }
                if (joinType.returnsPairs()) {
                    return pairs;
                }
                continue;
            }
            FieldVector result = compiledCondition.evaluate(pairs);
            ArrowBuf values = result.getDataBuffer();
            ArrowBuf validity = result.getValidityBuffer();
            if (passing.length < count) {
                passing = new int[Math.max(count, passing.length * 2)];
            }
            int passed = 0;
            for (int index = 0; index < count; index++) {
                if (BitVectorHelper.get(validity, index) != 0 && BitVectorHelper.get(values, index) != 0) {
                    passing[passed++] = index;
                    markMatch(index);
                }
            }
            if (passed > 0 && (joinType.returnsPairs())) {
                pairs.select(passing, passed);
                return pairs;
            }
        }
    }

    /** Notes that pair {@code pair} of {@link #pairProbe}/{@link #pairBuild} matched. */
    private void markMatch(int pair) {
        if (buildMatched != null) {
            buildMatched[pairBuild[pair]] = true;
        }
        if (buildMatched == null || joinType.keepsUnmatchedLeft()) {
            matched[pairProbe[pair]] = true;
        }
    }

    /** Fills {@link #pairProbe} and {@link #pairBuild} with up to a batch of candidate pairs; returns how many. */
    private int collectPairs() {
        int limit = context.batchSize();
        if (pairProbe.length < limit) {
            pairProbe = new int[limit];
            pairBuild = new int[limit];
        }
        boolean existence = joinType.keepsLeft();
        boolean buildExistence = joinType.keepsRight();
        int count = 0;
        while (probeIndex < probeCount && count < limit) {
            if (cursor < 0 || (existence && matched[probeIndex])) {
                probeIndex++;
                cursor = probeIndex < probeCount ? firstCandidate(probeIndex) : -1;
                continue;
            }
            if (buildExistence && buildMatched[cursor]) {
                // Already known to match (a racy read when shared: a stale false only costs a check).
                cursor = nextCandidate(probeIndex, cursor);
                continue;
            }
            pairProbe[count] = probeIndex;
            pairBuild[count] = cursor;
            count++;
            cursor = nextCandidate(probeIndex, cursor);
        }
        return count;
    }

    /** Copies the pairs' left and right values into {@link #pairs} (a build row of -1 gives NULLs). */
    private void gather(int count) {
        if (pairs == null) {
            pairs = Batch.create(pairSchema, allocator);
        }
        Vectors.rewind(pairs);
        if (pairLeftRows.length < count) {
            pairLeftRows = new int[Math.max(count, pairLeftRows.length * 2)];
        }
        for (int index = 0; index < count; index++) {
            pairLeftRows[index] = probeRows[pairProbe[index]];
        }
        for (int columnIndex = 0; columnIndex < leftColumns; columnIndex++) {
            VectorCopy.gather(probeBatch.column(columnIndex), pairLeftRows, count, pairs.column(columnIndex), 0);
        }
        for (int columnIndex = 0; columnIndex < buildRows.columnCount(); columnIndex++) {
            VectorCopy.gather(buildRows.column(columnIndex), pairBuild, count, pairs.column(leftColumns + columnIndex), 0);
        }
        pairs.setRowCount(count);
    }

    /** What this left batch yields once its candidates are done; null when it is finished. */
    private Batch verdict() {
        return switch (joinType) {
            case INNER, RIGHT, RIGHT_SEMI, RIGHT_ANTI -> {
                probeBatch = null;
                yield null;
            }
            case LEFT, FULL -> {
                int count = 0;
                int limit = context.batchSize();
                while (verdictIndex < probeCount && count < limit) {
                    if (!matched[verdictIndex]) {
                        pairProbe[count] = verdictIndex;
                        pairBuild[count] = -1;
                        count++;
                    }
                    verdictIndex++;
                }
                if (count == 0) {
                    probeBatch = null;
                    yield null;
                }
                gather(count);
                yield pairs;
            }
            case SEMI, ANTI -> {
                boolean wanted = joinType == JoinType.SEMI;
                int count = 0;
                if (passing.length < probeCount) {
                    passing = new int[Math.max(probeCount, passing.length * 2)];
                }
                for (int index = 0; index < probeCount; index++) {
                    if (matched[index] == wanted) {
                        passing[count++] = probeRows[index];
                    }
                }
                Batch view = Batch.viewOf(probeBatch);
                view.select(passing, count);
                probeBatch = null;
                yield view;
            }
        };
    }

    /**
     * RIGHT_SEMI, RIGHT_ANTI, FULL, RIGHT after probing: the next batch of build rows whose flag says
     * they matched (RIGHT_SEMI) or did not (RIGHT_ANTI; FULL and RIGHT with NULL left columns), or null after the
     * last build row.
     */
    private Batch buildRowsOutput() {
        boolean wanted = joinType == JoinType.RIGHT_SEMI;
        int firstBuildColumn = joinType.keepsUnmatchedRight() ? leftColumns : 0;
        int limit = context.batchSize();
        if (passing.length < limit) {
            passing = new int[limit];
        }
        int size = buildRows.size();
        int count = 0;
        while (buildCursor < size && count < limit) {
            if (buildMatched[buildCursor] == wanted) {
                passing[count++] = buildCursor;
            }
            buildCursor++;
        }
        if (count == 0) {
            return null;
        }
        if (buildOutput == null) {
            buildOutput = Batch.create(schema(), allocator);
        }
        Vectors.rewind(buildOutput);
        for (int columnIndex = 0; columnIndex < firstBuildColumn; columnIndex++) {
            for (int row = 0; row < count; row++) {
                Vectors.setNull(buildOutput.column(columnIndex), row);
            }
        }
        for (int columnIndex = 0; columnIndex < buildRows.columnCount(); columnIndex++) {
            VectorCopy.gather(buildRows.column(columnIndex), passing, count, buildOutput.column(firstBuildColumn + columnIndex), 0);
        }
        buildOutput.setRowCount(count);
        return buildOutput;
    }

    @Override
    void release() {
        if (buildOutput != null) {
            buildOutput.close();
        }
        if (viewRight != null) {
            viewRight.close();
        }
        if (compiledCondition != null) {
            compiledCondition.close();
        }
        if (pairs != null) {
            pairs.close();
        }
        if (buildRows != null && ownsBuildRows) {
            buildRows.close();
        }
    }
}
