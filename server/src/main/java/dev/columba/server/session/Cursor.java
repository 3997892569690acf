package dev.columba.server.session;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.protocol.BackendMessage.Field;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A server-side cursor ({@code DECLARE ... CURSOR}): an open result that FETCH and MOVE read forward.
 *
 * <p>Rows come from the open JDBC result one FETCH at a time, so a cursor over a large table costs what the
 * client has fetched, not the whole result. The embedded driver keeps that promise as long as the connection runs
 * nothing else: a statement, a commit or a rollback on the same connection moves the unread rows of its open
 * results to the heap first (the driver's "open results" rule), which is also how a WITH HOLD cursor survives
 * its transaction's commit, as PostgreSQL materializes one at commit. A catalog query's rows are the server's own
 * list.
 *
 * <p>A cursor's position is the number of the row it stands on (0 before the first, one past the last after the
 * end), as PostgreSQL counts it. A NO SCROLL cursor (the default) only goes forward: anything that would go back or
 * re-read the current row is refused with 55000, as PostgreSQL refuses it. A SCROLL cursor goes anywhere (PRIOR,
 * FIRST, LAST, ABSOLUTE, RELATIVE, BACKWARD): it keeps every row it has read from the result, in the server's
 * memory (PostgreSQL keeps them in a tuplestore that spills to disk; Columba does not spill them yet), and reads
 * on only as far as a FETCH needs (LAST and negative ABSOLUTE read to the end).
 *
 * <p>Lifetime: a cursor without HOLD ends with its transaction block; one WITH HOLD outlives the commit of the
 * block that declared it and ends at CLOSE or when the session ends. Not thread-safe: its session's thread only.
 */
final class Cursor {
    /**
     * The most rows a SCROLL cursor keeps in the server's memory: reading past them is 54000 (PostgreSQL's
     * program_limit_exceeded) rather than running the server out of memory, since kept rows do not spill.
     */
    static final int MAX_KEPT_ROWS = 1_000_000;

    private final String name;
    private final String query;
    private final boolean holdable;
    private final boolean binary;
    /** The fields in the formats the DECLARE asked for (BINARY or text); FETCH over Bind may ask otherwise. */
    private final List<Field> fields;
    /** The statement that owns {@link #rows}; null for a catalog answer. */
    private final Statement statement;
    private final ResultSet rows;
    private final List<Object[]> listed;
    private final boolean scrollable;
    private final int maxKeptRows;
    /** A scrollable cursor's rows read so far (all of them for a catalog answer); null for a NO SCROLL one. */
    private final List<Object[]> kept;
    /** Declared in the transaction block open now: a rollback of the block removes it even WITH HOLD. */
    private boolean inOpenBlock;
    private long position;
    private boolean pastEnd;

    private Cursor(Command.Declare declare, List<Field> fields, Statement statement, ResultSet rows,
                   List<Object[]> listed, boolean inOpenBlock, int maxKeptRows) {
        this.maxKeptRows = maxKeptRows;
        this.name = declare.name();
        this.query = declare.query();
        this.holdable = declare.hold();
        this.binary = declare.binary();
        this.scrollable = declare.scroll();
        this.fields = List.copyOf(fields);
        this.statement = statement;
        this.rows = rows;
        this.listed = listed;
        this.kept = !scrollable ? null : listed != null ? listed : new ArrayList<>();
        this.inOpenBlock = inOpenBlock;
    }

    /** A cursor over a Columba result; the cursor owns and closes {@code statement}. */
    static Cursor ofResult(Command.Declare declare, List<Field> fields, Statement statement, ResultSet rows,
                           boolean inOpenBlock) {
        return ofResult(declare, fields, statement, rows, inOpenBlock, MAX_KEPT_ROWS);
    }

    /** {@link #ofResult(Command.Declare, List, Statement, ResultSet, boolean)} keeping at most {@code maxKeptRows} if SCROLL. */
    static Cursor ofResult(Command.Declare declare, List<Field> fields, Statement statement, ResultSet rows,
                           boolean inOpenBlock, int maxKeptRows) {
        return new Cursor(declare, fields, statement, rows, null, inOpenBlock, maxKeptRows);
    }

    /** A cursor over rows the server computed (a catalog query). */
    static Cursor ofRows(Command.Declare declare, List<Field> fields, List<Object[]> rows, boolean inOpenBlock) {
        return new Cursor(declare, fields, null, null, List.copyOf(rows), inOpenBlock, Integer.MAX_VALUE);
    }

    String name() {
        return name;
    }

    String query() {
        return query;
    }

    boolean holdable() {
        return holdable;
    }

    boolean binary() {
        return binary;
    }

    /** Declared SCROLL: it may go backward. */
    boolean scrollable() {
        return scrollable;
    }

    List<Field> fields() {
        return fields;
    }

    /** The statement a CancelRequest should stop while this cursor reads rows, or null. */
    Statement statement() {
        return statement;
    }

    boolean inOpenBlock() {
        return inOpenBlock;
    }

    /** The block that declared the cursor committed: from now on only CLOSE or the session's end removes it. */
    void blockCommitted() {
        inOpenBlock = false;
    }

    /**
     * Runs a FETCH ({@code sink} takes each row, encoded with {@code rowFields}) or a MOVE ({@code sink} null), and
     * returns the count its command tag carries: the rows fetched or moved over, or for ABSOLUTE and RELATIVE
     * whether it stands on a row (1) or not (0).
     */
    long fetch(Command.Fetch fetch, List<Field> rowFields, Consumer<BackendMessage> sink) throws SQLException {
        if (scrollable) {
            return scroll(fetch, rowFields, sink);
        }
        long count = fetch.count();
        boolean staysPut = fetch.direction() == Command.Fetch.Direction.ABSOLUTE ? count == position && count > 0 : count == 0;
        if (sink == null && staysPut) {
            // MOVE 0 (psycopg's scroll(0)) goes nowhere; only FETCH 0 would re-read the row, which needs a way back.
            return position > 0 && !pastEnd ? 1 : 0;
        }
        return switch (fetch.direction()) {
            case FORWARD -> {
                if (count <= 0) {
                    throw backwards(count == 0 ? "re-reading the current row" : "going backward");
                }
                long taken = 0;
                while (taken < count && advance()) {
                    if (sink != null) {
                        sink.accept(currentRow(rowFields));
                    }
                    taken++;
                }
                yield taken;
            }
            case ABSOLUTE -> {
                if (count <= position) {
                    throw backwards(count < 0 ? "counting rows from the end" : "returning to row " + count
                            + " from row " + position);
                }
                yield fetchOneAhead(count - position, rowFields, sink);
            }
            case RELATIVE -> {
                if (count <= 0) {
                    throw backwards(count == 0 ? "re-reading the current row" : "going backward");
                }
                yield fetchOneAhead(count, rowFields, sink);
            }
        };
    }

    /** Moves {@code ahead} rows on and sends the row it lands on; 1 if there is one. */
    private long fetchOneAhead(long ahead, List<Field> rowFields, Consumer<BackendMessage> sink) throws SQLException {
        for (long skipped = 1; skipped < ahead; skipped++) {
            if (!advance()) {
                return 0;
            }
        }
        if (!advance()) {
            return 0;
        }
        if (sink != null) {
            sink.accept(currentRow(rowFields));
        }
        return 1;
    }

    private boolean advance() throws SQLException {
        if (pastEnd) {
            return false;
        }
        position++;
        boolean hasRow = rows != null ? rows.next() : position <= listed.size();
        if (!hasRow) {
            pastEnd = true;
        }
        return hasRow;
    }

    private BackendMessage.DataRow currentRow(List<Field> rowFields) throws SQLException {
        return rows != null ? Rows.dataRow(rows, rowFields) : Rows.catalogRow(listed.get((int) position - 1), rowFields);
    }

    /**
     * A FETCH or MOVE of a SCROLL cursor, as PostgreSQL moves one: FORWARD n and BACKWARD n step row by row and
     * send each row they reach (BACKWARD in reverse order) until they leave the rows; ABSOLUTE and RELATIVE jump to
     * one position and send its row if it has one; FETCH 0 (RELATIVE 0) sends the current row again.
     */
    private long scroll(Command.Fetch fetch, List<Field> rowFields, Consumer<BackendMessage> sink) throws SQLException {
        long count = fetch.count();
        switch (fetch.direction()) {
            case FORWARD -> {
                if (count == 0) {
                    return land(position, rowFields, sink);
                }
                long step = count > 0 ? 1 : -1;
                long wanted = count == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(count);
                long taken = 0;
                while (taken < wanted) {
                    long next = position + step;
                    if (next <= 0) {
                        position = 0;
                        break;
                    }
                    if (!rowAt(next)) {
                        position = kept.size() + 1;
                        break;
                    }
                    position = next;
                    send(rowFields, sink);
                    taken++;
                }
                return taken;
            }
            case ABSOLUTE -> {
                // ABSOLUTE -n counts from the end: the last row is -1.
                long target = count >= 0 ? count : Math.max(0, rowCount() + 1 + count);
                return land(target, rowFields, sink);
            }
            case RELATIVE -> {
                long target = count >= 0 ? (position > Long.MAX_VALUE - count ? Long.MAX_VALUE : position + count)
                        : Math.max(0, position + count);
                return land(target, rowFields, sink);
            }
            default -> throw new IllegalStateException("no such direction: " + fetch.direction());
        }
    }

    /** Moves to {@code target} and sends its row if it has one (1), else stands before the first or after the last (0). */
    private long land(long target, List<Field> rowFields, Consumer<BackendMessage> sink) throws SQLException {
        if (target <= 0) {
            position = 0;
            return 0;
        }
        if (!rowAt(target)) {
            position = kept.size() + 1;
            return 0;
        }
        position = target;
        send(rowFields, sink);
        return 1;
    }

    /** Whether row {@code number} (from 1) exists, reading the result on as far as it. */
    private boolean rowAt(long number) throws SQLException {
        while (kept.size() < number && readOne()) {
            // reading on
        }
        return number >= 1 && number <= kept.size();
    }

    /** Every row, read to the end. */
    private long rowCount() throws SQLException {
        while (readOne()) {
            // reading to the end
        }
        return kept.size();
    }

    private boolean readOne() throws SQLException {
        if (rows == null || pastEnd) {
            return false;
        }
        if (!rows.next()) {
            pastEnd = true;
            return false;
        }
        if (kept.size() >= maxKeptRows) {
            throw new WireSqlException("54000", "SCROLL cursor \"" + name + "\" would keep more than " + maxKeptRows
                    + " rows in the server's memory: declare it NO SCROLL, or narrow its query");
        }
        kept.add(Rows.values(rows, fields));
        return true;
    }

    private void send(List<Field> rowFields, Consumer<BackendMessage> sink) {
        if (sink != null) {
            sink.accept(Rows.catalogRow(kept.get((int) (position - 1)), rowFields));
        }
    }

    private WireSqlException backwards(String what) {
        return new WireSqlException("55000", "cursor \"" + name + "\" can only scan forward (" + what
                + "): Columba's cursors are NO SCROLL");
    }

    /** Frees the result. Closing twice does nothing. */
    void close() {
        if (statement != null) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // Closing a statement of an open connection does not fail in the embedded driver; a closed one is gone.
            }
        }
    }
}
