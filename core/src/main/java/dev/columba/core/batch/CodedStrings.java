package dev.columba.core.batch;

import java.util.Arrays;

/**
 * The dictionary codes of a VARCHAR column of a batch: for each row, the id its value has in the
 * dictionaries of the columnstore segment it was decoded from. Equal codes in one code space are
 * equal strings, so a consumer grouping by the column can map codes to groups through a small
 * array and skip reading, hashing and comparing the strings (TPC-H Q1's flags and statuses).
 *
 * <p>The producer that decodes the column owns the codes, attaches them to its batch ({@link
 * Batch#attachCodes}), marks the rows it decoded ({@link #markCoded}) and {@linkplain #forget
 * forgets} them before it writes the vector again; operators that pass the vector through in a
 * view pass the codes on ({@link Batch#inheritCodes}). Codes are valid for rows {@code [0,
 * codedRows())} of the vector; a code space is any object whose identity stands for one mapping
 * of codes to strings (a segment's dictionaries), and codes lie in {@code [0, codeCount())}. A
 * NULL row's code means nothing: consumers test validity first.
 *
 * <p>A producer may hand on the codes alone and {@linkplain #defer defer} decoding the strings
 * when the planner has established that the column's only reader groups by it (TPC-H Q1's flags):
 * the vector then holds empty strings, with the right validity, until a consumer that needs the
 * values (a group not seen yet, a batch it cannot group by codes) asks for them ({@link
 * #materialize}).
 */
public final class CodedStrings {
    private int[] codes = new int[0];
    private int codedRows;
    private Object codeSpace;
    private int codeCount;
    /** Decodes the strings the codes stand for into the vector, or null when the vector holds them. */
    private Runnable deferred;

    /** Room for the codes of rows {@code [0, rows)}, to be written by the decoder, then {@linkplain #markCoded marked}. */
    public int[] codesFor(int rows) {
        if (codes.length < rows) {
            codes = Arrays.copyOf(codes, Math.max(rows, 2 * codes.length));
        }
        return codes;
    }

    /**
     * Records that rows {@code [from, from + count)} hold codes of {@code space}: they extend the
     * coded rows when they follow them in the same space, else only a range from row 0 counts.
     */
    public void markCoded(int from, int count, Object space, int spaceCodes) {
        if (from == 0) {
            codedRows = count;
            codeSpace = space;
            codeCount = spaceCodes;
        } else if (from == codedRows && space == codeSpace) {
            codedRows += count;
        } else {
            forget();
        }
    }

    /** No row has a code any more (the vector is about to be written otherwise). */
    public void forget() {
        codedRows = 0;
        codeSpace = null;
        deferred = null;
    }

    /**
     * Records that the vector holds empty strings in place of the coded rows' values, which
     * {@code decodeStrings} writes into it (and leaves these codes as they are) when run.
     */
    public void defer(Runnable decodeStrings) {
        deferred = decodeStrings;
    }

    /** Whether the vector's strings are still to be decoded ({@link #materialize}). */
    public boolean deferred() {
        return deferred != null;
    }

    /** Makes the vector hold its strings, decoding them now if their producer deferred them. */
    public void materialize() {
        Runnable decode = deferred;
        if (decode != null) {
            deferred = null;
            decode.run();
        }
    }

    /** Rows {@code [0, codedRows())} carry codes; 0 when the vector holds none. */
    public int codedRows() {
        return codedRows;
    }

    public int[] codes() {
        return codes;
    }

    public Object codeSpace() {
        return codeSpace;
    }

    public int codeCount() {
        return codeCount;
    }
}
