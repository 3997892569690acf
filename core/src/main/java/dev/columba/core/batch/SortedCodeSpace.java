package dev.columba.core.batch;

/**
 * A code space of {@link CodedStrings} whose codes order as their strings do, in two runs: codes
 * {@code [0, split())} ascend strictly with their strings in unsigned order of the UTF-8 bytes
 * (code point order), and so do codes {@code [split(), codeCount)}, the two runs interleaving in
 * any way (a columnstore segment's primary and secondary dictionaries). MIN and MAX of a column
 * over any rows then need only the smallest or largest code of each run and the strings of those
 * two, not a string per row.
 */
public interface SortedCodeSpace {
    /** The first code of the second run ({@code codeCount} when there is none). */
    int split();

    /** The UTF-8 bytes of the string of {@code code} (a new array). */
    byte[] utf8(int code);
}
