package dev.columba.storage.wal;

import java.nio.file.Path;

/**
 * Damage that opening the log found: bytes that are not a torn tail (see {@code docs/format/wal.md},
 * "Torn tail or corruption"), so the log cannot be trusted past them.
 *
 * @param file the segment file holding the damage
 * @param offset the byte offset in {@code file} of the first frame that is not valid
 * @param lsn the LSN of that offset
 * @param problem what is wrong there, and why it is not a torn tail
 * @param consistentLsn the end of the last whole group before the damage: the last consistent point
 */
public record LogDamage(Path file, long offset, long lsn, String problem, long consistentLsn) {
    public LogDamage {
        if (offset < 0 || lsn < 0 || consistentLsn < 0 || consistentLsn > lsn) {
            throw new IllegalArgumentException("damage at offset " + offset + ", LSN " + lsn
                    + " with consistent point " + consistentLsn);
        }
    }

    /** Names file, offset and LSN, then the problem. */
    public String describe() {
        return "write-ahead log segment " + file + " at offset " + offset + " (LSN " + lsn + "): " + problem;
    }
}
