package dev.columba.core.settings;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * The definition of one typed setting: its name, type, unit, bounds, default and scope. A value
 * outside the bounds is rejected with a message naming the setting and the value; it is never
 * silently clamped.
 *
 * @param <T> the Java type of the value
 */
public final class Setting<T> {

    /** Where a setting may be changed. */
    public enum Scope {
        /** Per session ({@code SET}) and globally ({@code ALTER SYSTEM SET}), at run time. */
        SESSION,
        /** Only globally, at run time. */
        GLOBAL,
        /** Only globally, taking effect when the database is next opened. */
        STARTUP
    }

    private final String name;
    private final String description;
    private final Class<T> valueClass;
    private final T defaultValue;
    private final Scope scope;
    private final String unit;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final Function<T, String> validator;

    private Setting(String name, String description, Class<T> valueClass, T defaultValue, Scope scope, String unit,
                    Function<String, T> parser, Function<T, String> formatter, Function<T, String> validator) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.valueClass = valueClass;
        this.scope = scope;
        this.unit = unit;
        this.parser = parser;
        this.formatter = formatter;
        this.validator = validator;
        if (!name.equals(name.toLowerCase(Locale.ROOT)) || !name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("setting names are snake_case: " + name);
        }
        String problem = validator.apply(defaultValue);
        if (problem != null) {
            throw new IllegalArgumentException("default of " + name + " is invalid: " + problem);
        }
        this.defaultValue = defaultValue;
    }

    /** A boolean; accepts ON/OFF, TRUE/FALSE, 1/0 in any case. */
    public static Setting<Boolean> bool(String name, String description, boolean defaultValue, Scope scope) {
        return new Setting<>(name, description, Boolean.class, defaultValue, scope, "", Setting::parseBoolean,
                value -> value ? "on" : "off", value -> null);
    }

    /** An integer in {@code [min, max]}. */
    public static Setting<Integer> integer(String name, String description, int defaultValue, int min, int max,
                                           String unit, Scope scope) {
        return new Setting<>(name, description, Integer.class, defaultValue, scope, unit,
                text -> Math.toIntExact(parseLong(text)), String::valueOf,
                value -> value < min || value > max ? "must be between " + min + " and " + max : null);
    }

    /** A size in bytes in {@code [min, max]}; accepts suffixes B, KB, MB, GB (powers of 1024). */
    public static Setting<Long> bytes(String name, String description, long defaultValue, long min, long max,
                                      Scope scope) {
        return new Setting<>(name, description, Long.class, defaultValue, scope, "bytes", Setting::parseBytes,
                Setting::formatBytes,
                value -> value < min || value > max
                        ? "must be between " + formatBytes(min) + " and " + formatBytes(max) : null);
    }

    /** One constant of an enum, by name in any case. */
    public static <E extends Enum<E>> Setting<E> enumeration(String name, String description, Class<E> enumClass,
                                                            E defaultValue, Scope scope) {
        return new Setting<>(name, description, enumClass, defaultValue, scope, "",
                text -> Enum.valueOf(enumClass, text.trim().toUpperCase(Locale.ROOT)),
                value -> value.name().toLowerCase(Locale.ROOT), value -> null);
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public Class<T> valueClass() {
        return valueClass;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public Scope scope() {
        return scope;
    }

    /** The unit of the value ("bytes", "pages", "rows", ...), or empty. */
    public String unit() {
        return unit;
    }

    /**
     * Parses and validates a value written as text.
     *
     * @throws ColumbaException {@link ErrorCode#INVALID_SETTING_VALUE} naming the setting and the text
     */
    public T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw new ColumbaException(ErrorCode.INVALID_SETTING_VALUE,
                    "invalid value '" + text + "' for setting " + name + ": " + describeExpected());
        }
        return validate(value);
    }

    /**
     * Checks a typed value against the bounds.
     *
     * @throws ColumbaException {@link ErrorCode#INVALID_SETTING_VALUE} naming the setting and the value
     */
    public T validate(T value) {
        Objects.requireNonNull(value, "value");
        String problem = validator.apply(value);
        if (problem != null) {
            throw new ColumbaException(ErrorCode.INVALID_SETTING_VALUE,
                    "invalid value " + format(value) + " for setting " + name + ": " + problem);
        }
        return value;
    }

    public String format(T value) {
        return formatter.apply(value);
    }

    /** Formats a value whose type is only known at run time. */
    public String formatObject(Object value) {
        return format(valueClass.cast(value));
    }

    private String describeExpected() {
        if (valueClass == Boolean.class) {
            return "expected ON or OFF";
        }
        if (valueClass == Long.class && unit.equals("bytes")) {
            return "expected a size such as 8MB";
        }
        if (valueClass.isEnum()) {
            StringBuilder names = new StringBuilder("expected one of");
            for (Object constant : valueClass.getEnumConstants()) {
                names.append(' ').append(((Enum<?>) constant).name().toLowerCase(Locale.ROOT));
            }
            return names.toString();
        }
        return "expected a number";
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "on", "true", "1", "yes" -> true;
            case "off", "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException(text);
        };
    }

    private static long parseLong(String text) {
        return Long.parseLong(text.replace("_", ""));
    }

    static long parseBytes(String text) {
        String upper = text.toUpperCase(Locale.ROOT).replace(" ", "").replace("_", "");
        long multiplier = 1;
        String digits = upper;
        for (String[] suffix : new String[][] {{"GB", "1073741824"}, {"MB", "1048576"}, {"KB", "1024"}, {"B", "1"}}) {
            if (upper.endsWith(suffix[0])) {
                multiplier = Long.parseLong(suffix[1]);
                digits = upper.substring(0, upper.length() - suffix[0].length());
                break;
            }
        }
        return Math.multiplyExact(Long.parseLong(digits), multiplier);
    }

    static String formatBytes(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + "GB";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + "MB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return bytes / (1L << 10) + "KB";
        }
        return bytes + "B";
    }

    @Override
    public String toString() {
        return name;
    }
}
