package dev.columba.storage.wal;

import java.nio.file.Path;

/**
 * What opening did to a damaged log because it was told to
 * ({@link RecoveryOptions.OnDamage#RECOVER_TO_LAST_CONSISTENT_POINT}): the log now ends at
 * {@code recoveredToLsn}, and the {@code discardedBytes} of log that followed are gone from it,
 * kept only in {@code preservedIn}.
 *
 * @param damage the first damage found in the log
 * @param recoveredToLsn where the log now ends: the last consistent point at or after the redo point
 * @param discardedBytes bytes of log past {@code recoveredToLsn} that were cut
 * @param preservedIn the incident folder under {@code damaged/} holding the original files
 */
public record LogRepair(LogDamage damage, long recoveredToLsn, long discardedBytes, Path preservedIn,
                        boolean readOnly) {

    /** One paragraph for the person who asked for the repair. */
    public String describe() {
        if (readOnly) {
            return "the write-ahead log is damaged: " + damage.describe() + ". It was opened read-only, ending at LSN "
                    + recoveredToLsn + ", the last consistent point; the " + discardedBytes + " bytes of log after it "
                    + "are not read, and no file of the log was changed. Copies are in " + preservedIn + ".";
        }
        return "the write-ahead log was damaged: " + damage.describe() + ". It was cut at LSN " + recoveredToLsn
                + ", the last consistent point; " + discardedBytes + " bytes of log after it were discarded"
                + (discardedBytes > 0 ? ", with every transaction they held" : "")
                + ". The original files are in " + preservedIn + ".";
    }
}
