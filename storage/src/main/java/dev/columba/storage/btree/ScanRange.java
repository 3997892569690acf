package dev.columba.storage.btree;

/**
 * A range of memcomparable keys; a null bound is open. Keys may be prefixes of full keys: a full
 * key k is above an inclusive low bound b when k >= b bytewise, so a prefix bound selects every
 * key that starts with it or sorts after it.
 */
public record ScanRange(byte[] low, boolean lowInclusive, byte[] high, boolean highInclusive) {
    public static final ScanRange ALL = new ScanRange(null, true, null, true);

    public static ScanRange from(byte[] low, boolean inclusive) {
        return new ScanRange(low, inclusive, null, true);
    }

    public static ScanRange below(byte[] high, boolean inclusive) {
        return new ScanRange(null, true, high, inclusive);
    }
}
