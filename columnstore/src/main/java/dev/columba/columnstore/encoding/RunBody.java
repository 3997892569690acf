package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;

/**
 * A {@link EncodingKind#RUN_LENGTH} body: one run stream of the rows' stored values. Decoding
 * fills each run's rows with its value; a filter tests each run once.
 */
record RunBody(SqlType type, ValueKind kind, RunLongs runs) implements SegmentBody {
    /** Runs at least this long on average are written a run at a time ({@link VectorWriter#fillLong}). */
    private static final int LONG_RUN_ROWS = 16;
    /** Runs at least this long on average are tested once each by {@link #selectByValue}. */
    private static final int SHARED_TEST_ROWS = 2;

    @Override
    public void decode(int fromRow, int count, VectorWriter target, int targetIndex) {
        if (count == 0) {
            return;
        }
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(fromRow);
        if (runs.runCount() * (long) LONG_RUN_ROWS > runs.rowCount()) {
            // Short runs: expanded into an array a chunk at a time and copied in bulk.
            int chunk = Math.min(count, CHUNK);
            long[] scratch = target.scratch().longs(chunk + RunLongs.Cursor.SHORT_RUN);
            for (int done = 0; done < count; done += chunk) {
                int length = Math.min(chunk, count - done);
                cursor.expand(fromRow + done, length, scratch);
                target.putLongs(targetIndex + done, scratch, length);
            }
            return;
        }
        int row = fromRow;
        int end = fromRow + count;
        while (true) {
            int stop = Math.min(cursor.end, end);
            target.fillLong(targetIndex + row - fromRow, cursor.value(), stop - row);
            row = stop;
            if (row == end) {
                return;
            }
            cursor.next();
        }
    }

    /** The whole range's runs expanded into {@code out} (runs cost less to expand than to seek row by row). */
    @Override
    public boolean readLongs(int fromRow, int count, int[] selection, int selected, long[] out, DecodeScratch scratch) {
        if (!kind.integral()) {
            return false;
        }
        if (count == 0) {
            return true;
        }
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(fromRow);
        int chunk = Math.min(count, CHUNK);
        long[] expanded = scratch.longs(chunk + RunLongs.Cursor.SHORT_RUN);
        for (int done = 0; done < count; done += chunk) {
            int length = Math.min(chunk, count - done);
            cursor.expand(fromRow + done, length, expanded);
            System.arraycopy(expanded, 0, out, done, length);
        }
        return true;
    }

    /** A run adds its value times its rows in the range: one multiplication a run. */
    @Override
    public boolean sumValues(int fromRow, int count, ExactTotal total) {
        if (!kind.integral()) {
            return false;
        }
        if (count == 0) {
            return true;
        }
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(fromRow);
        int row = fromRow;
        int end = fromRow + count;
        while (true) {
            int stop = Math.min(cursor.end, end);
            total.addTimes(cursor.value(), stop - row);
            row = stop;
            if (row == end) {
                return true;
            }
            cursor.next();
        }
    }

    /**
     * One test per run, where runs average at least {@link #SHARED_TEST_ROWS} rows: a bitmap filter
     * on {@code partsupp}'s run-length {@code ps_partkey} (four rows a key) tests a quarter of the
     * values it would after expanding them, and writes only the kept runs' rows.
     */
    @Override
    public int selectByValue(int fromRow, int count, int[] selection, java.util.function.LongPredicate keep) {
        boolean wholeNumbers = kind == ValueKind.INT || kind == ValueKind.BIGINT || kind == ValueKind.DATE;
        if (!wholeNumbers || runs.runCount() * (long) SHARED_TEST_ROWS > runs.rowCount()) {
            return -1;
        }
        return selectRuns(runs, fromRow, count, selection, keep);
    }

    /** One cursor walks the ascending selection forward, searching only across long gaps. */
    @Override
    public void decodeSelected(int fromRow, int[] selection, int selected, VectorWriter target) {
        if (selected == 0) {
            return;
        }
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(fromRow + selection[0]);
        long[] scratch = new long[Math.min(selected, CHUNK)];
        for (int done = 0; done < selected; done += scratch.length) {
            int length = Math.min(scratch.length, selected - done);
            for (int index = 0; index < length; index++) {
                int row = fromRow + selection[done + index];
                cursor.moveTo(row);
                scratch[index] = cursor.value();
            }
            target.putLongsAt(selection, done, scratch, length);
        }
    }

    @Override
    public Object value(int row) {
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(row);
        return ValueKind.fromLong(type, cursor.value());
    }

    @Override
    public RowFilter filter(ColumnPredicate predicate) {
        LongCondition condition = LongCondition.bind(type, predicate);
        return switch (condition.shape) {
            case NONE -> RowFilter.NONE;
            case ALL -> RowFilter.ALL;
            case RANGE, NOT_EQUAL, ONE_OF -> new RowFilter() {
                @Override
                public int select(int fromRow, int count, int[] selection) {
                    return selectRuns(runs, fromRow, count, selection, value -> condition.test(kind.sqlKey(value)));
                }

                @Override
                public boolean matches(int row) {
                    RunLongs.Cursor cursor = runs.cursor();
                    cursor.seek(row);
                    return condition.test(kind.sqlKey(cursor.value()));
                }
            };
        };
    }

    /**
     * Selects the rows of {@code [fromRow, fromRow + count)} whose run's value passes {@code keep},
     * one test per run ({@link RunLongs.Cursor#select}).
     */
    static int selectRuns(RunLongs runs, int fromRow, int count, int[] selection, java.util.function.LongPredicate keep) {
        if (count == 0) {
            return 0;
        }
        RunLongs.Cursor cursor = runs.cursor();
        cursor.seek(fromRow);
        return cursor.select(fromRow, count, selection, fromRow, keep);
    }
}
