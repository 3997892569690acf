package dev.columba.core.settings;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * An immutable set of setting values over a parent: session values over global values over
 * defaults. Reading a setting that this level does not set asks the parent; the root answers
 * with the default.
 */
public final class SettingValues {
    private static final SettingValues DEFAULTS = new SettingValues(null, Map.of());

    private final SettingValues parent;
    private final Map<Setting<?>, Object> values;

    private SettingValues(SettingValues parent, Map<Setting<?>, Object> values) {
        this.parent = parent;
        this.values = Map.copyOf(values);
    }

    /** Every setting at its default. */
    public static SettingValues defaults() {
        return DEFAULTS;
    }

    /**
     * Global values read from properties (e.g. {@code columba.properties}); keys that are not
     * settings are ignored so the file can hold other entries.
     *
     * @throws ColumbaException if a setting's value is invalid
     */
    public static SettingValues fromProperties(Properties properties) {
        SettingValues result = DEFAULTS;
        for (Setting<?> setting : StandardSettings.ALL) {
            String text = properties.getProperty(setting.name());
            if (text != null) {
                result = result.withParsed(setting, text);
            }
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        for (SettingValues level = this; level != null; level = level.parent) {
            Object value = level.values.get(setting);
            if (value != null) {
                return (T) value;
            }
        }
        return setting.defaultValue();
    }

    /** A copy with {@code setting} set to {@code value} at this level. */
    public <T> SettingValues with(Setting<T> setting, T value) {
        setting.validate(value);
        Map<Setting<?>, Object> copy = new LinkedHashMap<>(values);
        copy.put(setting, value);
        return new SettingValues(parent, copy);
    }

    /** A copy with {@code setting} set from text. */
    public SettingValues withParsed(Setting<?> setting, String text) {
        Map<Setting<?>, Object> copy = new LinkedHashMap<>(values);
        copy.put(setting, setting.parse(text));
        return new SettingValues(parent, copy);
    }

    /**
     * A new, empty session level over this one. Values set on the child override this level's.
     */
    public SettingValues child() {
        return new SettingValues(this, Map.of());
    }

    /**
     * Sets a value in a session, which only session-scoped settings accept.
     *
     * @throws ColumbaException {@link ErrorCode#SETTING_NOT_SESSION_SCOPED} otherwise
     */
    public SettingValues withSessionValue(Setting<?> setting, String text) {
        if (setting.scope() != Setting.Scope.SESSION) {
            throw new ColumbaException(ErrorCode.SETTING_NOT_SESSION_SCOPED, "setting " + setting.name()
                    + " can only be changed with ALTER SYSTEM SET (scope " + setting.scope() + ")");
        }
        return withParsed(setting, text);
    }

    /** The values set at this level (not inherited), formatted, for persisting. */
    public Properties toProperties() {
        Properties properties = new Properties();
        values.forEach((setting, value) -> properties.setProperty(setting.name(), setting.formatObject(value)));
        return properties;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SettingValues that && Objects.equals(parent, that.parent) && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(parent, values);
    }
}
