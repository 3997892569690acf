package dev.columba.storage.btree;

import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;

/** How a scan reads ahead: on or off, how far ahead, how large each I/O. */
public record ReadAheadOptions(boolean enabled, int depthPages, int maxPagesPerIo) {
    public static final ReadAheadOptions OFF = new ReadAheadOptions(false, 1, 1);

    public ReadAheadOptions {
        if (depthPages < 1 || maxPagesPerIo < 1) {
            throw new IllegalArgumentException("read-ahead depth and I/O size must be positive");
        }
    }

    /** The options the settings ask for ({@code read_ahead}, its depth and I/O size). */
    public static ReadAheadOptions from(SettingValues settings) {
        return new ReadAheadOptions(settings.get(StandardSettings.READ_AHEAD),
                settings.get(StandardSettings.READ_AHEAD_DEPTH_PAGES),
                settings.get(StandardSettings.READ_AHEAD_MAX_PAGES_PER_IO));
    }
}
