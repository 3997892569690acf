package dev.columba.core.settings;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/**
 * SQL Server's trace flags that the seeds use, as what they are in Columba: switches of settings.
 * {@code DBCC TRACEON(652)} is {@code SET read_ahead = OFF}, {@code DBCC TRACEON(8744)} is
 * {@code SET prefetch = OFF}, {@code DBCC TRACEON(8757)} is {@code SET trivial_plans = OFF}; TRACEOFF restores the setting's default behaviour (on).
 */
public final class TraceFlags {
    private TraceFlags() {
    }

    /** Disables sequential read-ahead for scans. */
    public static final int NO_READ_AHEAD = 652;
    /** Disables random prefetch for nested-loop joins. */
    public static final int NO_PREFETCH = 8744;
    /** Disables trivial plans: every statement goes through cost-based optimization. */
    public static final int NO_TRIVIAL_PLANS = 8757;

    /**
     * The settings with trace flag {@code flag} turned on or off.
     *
     * @throws ColumbaException INVALID_ARGUMENT for a flag Columba does not know
     */
    public static SettingValues apply(SettingValues settings, int flag, boolean on) {
        return switch (flag) {
            case NO_READ_AHEAD -> settings.with(StandardSettings.READ_AHEAD, !on);
            case NO_PREFETCH -> settings.with(StandardSettings.PREFETCH, !on);
            case NO_TRIVIAL_PLANS -> settings.with(StandardSettings.TRIVIAL_PLANS, !on);
            default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "trace flag " + flag
                    + " is not supported; Columba knows 652 (no read-ahead), 8744 (no nested-loop prefetch) and 8757 (no trivial plans)");
        };
    }
}
