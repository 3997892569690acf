package dev.columba.storage.wal;

import java.nio.file.Path;

/**
 * What {@link WriteAheadLog#open} may rely on when it reads a log left by an earlier process, and
 * what it does about damage ({@code docs/format/wal.md}, "Torn tail or corruption").
 *
 * @param durableLsn every byte of the log below this LSN reached storage before the last process
 *     ended (the end of the checkpoint record the control file names), so damage below it is never
 *     a torn tail; 0 if nothing is known
 * @param redoLsn where recovery will start reading; {@link OnDamage#RECOVER_TO_LAST_CONSISTENT_POINT}
 *     never cuts the log before it
 * @param damagedDirectory where the original bytes of log files go before open cuts or repairs
 *     them, and when it refuses them
 * @param onDamage what to do when the log is damaged
 */
public record RecoveryOptions(long durableLsn, long redoLsn, Path damagedDirectory, OnDamage onDamage) {

    /** What opening does with a damaged log. A torn tail is not damage: it is always cut. */
    public enum OnDamage {
        /** Refuse: {@link dev.columba.core.error.ErrorCode#WAL_CORRUPT}, the log left as it is. */
        REFUSE,
        /**
         * Cut the log at the end of the last whole group before the first damage at or after the
         * redo point, and start a new segment there; what followed is discarded (after being
         * preserved), and {@link WriteAheadLog#repairAtOpen()} says what.
         */
        RECOVER_TO_LAST_CONSISTENT_POINT,
        /**
         * Open read-only with the log ending at the last consistent point before the first damage
         * at or after the redo point, changing no log file; appends and flushes fail with
         * {@link dev.columba.core.error.ErrorCode#DATABASE_READ_ONLY}.
         */
        OPEN_READ_ONLY_AT_LAST_CONSISTENT_POINT
    }

    public RecoveryOptions {
        if (durableLsn < 0 || redoLsn < 0 || damagedDirectory == null || onDamage == null) {
            throw new IllegalArgumentException("recovery options: durable LSN " + durableLsn + ", redo LSN " + redoLsn
                    + ", damaged directory " + damagedDirectory + ", on damage " + onDamage);
        }
    }

    /** Nothing known about durability, refuse damage, preserve into {@code damagedDirectory}. */
    public static RecoveryOptions refuse(Path damagedDirectory) {
        return new RecoveryOptions(0, 0, damagedDirectory, OnDamage.REFUSE);
    }
}
