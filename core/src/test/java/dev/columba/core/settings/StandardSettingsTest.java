package dev.columba.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Pins the name and default of every setting: changing one must be a visible decision. */
class StandardSettingsTest {

    @Test
    void everyNameAndDefaultIsPinned() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("read_ahead", "on");
        expected.put("read_ahead_max_pages_per_io", "64");
        expected.put("read_ahead_depth_pages", "500");
        expected.put("prefetch", "on");
        expected.put("prefetch_threshold_rows", "25");
        expected.put("prefetch_depth", "64");
        expected.put("trivial_plans", "on");
        expected.put("direct_lookups", "on");
        expected.put("buffer_pool_size", "256MB");
        expected.put("direct_io", "off");
        expected.put("io_threads", "32");
        expected.put("wal_segment_size", "64MB");
        expected.put("checkpoint_wal_size", "256MB");
        expected.put("wal_recovery_mode", "fail");
        expected.put("delayed_durability", "off");
        expected.put("minimal_logging", "on");
        expected.put("transaction_max_buffer_percent", "50");
        expected.put("columnstore_read_ahead_max_bytes", "8MB");
        expected.put("columnstore_read_ahead_depth", "128MB");
        expected.put("batch_size", "4096");
        expected.put("query_memory_limit", "2GB");
        expected.put("max_dop", "0");
        expected.put("parallelism_threshold_rows", "100000");
        expected.put("bitmap_filters", "on");

        Map<String, String> actual = new LinkedHashMap<>();
        for (Setting<?> setting : StandardSettings.ALL) {
            actual.put(setting.name(), setting.formatObject(setting.defaultValue()));
        }
        assertEquals(expected, actual);
    }

    @Test
    void valuesOutOfBoundsAreRejectedNotClamped() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> StandardSettings.READ_AHEAD_MAX_PAGES_PER_IO.parse("5000"));
        assertEquals(ErrorCode.INVALID_SETTING_VALUE, error.errorCode());
        assertEquals("[INVALID_SETTING_VALUE] invalid value 5000 for setting read_ahead_max_pages_per_io: "
                + "must be between 1 and 1024", error.getMessage());
    }

    @Test
    void malformedValuesNameTheSettingAndWhatWasExpected() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> StandardSettings.BUFFER_POOL_SIZE.parse("lots"));
        assertEquals("[INVALID_SETTING_VALUE] invalid value 'lots' for setting buffer_pool_size: "
                + "expected a size such as 8MB", error.getMessage());
        assertEquals(64L << 20, StandardSettings.BUFFER_POOL_SIZE.parse("64 MB"));
        assertEquals(false, StandardSettings.READ_AHEAD.parse("OFF"));
    }

    @Test
    void unknownSettingsAreReportedByName() {
        ColumbaException error = assertThrows(ColumbaException.class, () -> StandardSettings.byName("readahead"));
        assertEquals(ErrorCode.UNKNOWN_SETTING, error.errorCode());
        assertEquals(StandardSettings.READ_AHEAD, StandardSettings.byName("READ_AHEAD"));
    }

    @Test
    void sessionValuesOverrideGlobalValuesWhichOverrideDefaults() {
        Properties properties = new Properties();
        properties.setProperty("read_ahead_depth_pages", "100");
        properties.setProperty("not_a_setting", "ignored");
        SettingValues global = SettingValues.fromProperties(properties);
        SettingValues session = global.child().withSessionValue(StandardSettings.READ_AHEAD, "off");

        assertEquals(100, session.get(StandardSettings.READ_AHEAD_DEPTH_PAGES));
        assertEquals(false, session.get(StandardSettings.READ_AHEAD));
        assertEquals(true, global.get(StandardSettings.READ_AHEAD));
        assertEquals(64, session.get(StandardSettings.READ_AHEAD_MAX_PAGES_PER_IO));
        assertEquals("100", global.toProperties().getProperty("read_ahead_depth_pages"));
    }

    @Test
    void startupSettingsCannotBeChangedPerSession() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> SettingValues.defaults().child().withSessionValue(StandardSettings.BUFFER_POOL_SIZE, "1GB"));
        assertEquals(ErrorCode.SETTING_NOT_SESSION_SCOPED, error.errorCode());
    }

    @Test
    void traceFlagsSwitchTheSettingsTheyStandFor() {
        SettingValues session = SettingValues.defaults().child();
        SettingValues noReadAhead = TraceFlags.apply(session, TraceFlags.NO_READ_AHEAD, true);
        assertEquals(false, noReadAhead.get(StandardSettings.READ_AHEAD));
        assertEquals(true, noReadAhead.get(StandardSettings.PREFETCH));
        assertEquals(true, TraceFlags.apply(noReadAhead, TraceFlags.NO_READ_AHEAD, false).get(StandardSettings.READ_AHEAD));
        assertEquals(false, TraceFlags.apply(session, TraceFlags.NO_PREFETCH, true).get(StandardSettings.PREFETCH));
        assertEquals(false, TraceFlags.apply(session, TraceFlags.NO_TRIVIAL_PLANS, true).get(StandardSettings.TRIVIAL_PLANS));
        ColumbaException error = assertThrows(ColumbaException.class, () -> TraceFlags.apply(session, 1117, true));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
    }
}
