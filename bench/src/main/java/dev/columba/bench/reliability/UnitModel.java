package dev.columba.bench.reliability;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the database of {@link KillWorkload} must hold: the units whose commits the child
 * acknowledged, applied in order, and the one unit in flight at the kill, which may be there whole
 * or not at all. {@link #check} compares a reopened database with it, unit by unit, and then takes
 * the in-flight unit's outcome into the model, so the next child starts from what is there.
 */
final class UnitModel {
    /** A live unit: its table, its row count, the value every one of its rows has in {@code v}. */
    record Unit(String table, long rows, long v) {
    }

    /** A unit of work as the child announced it: {@code B <unit> <op> <table> <argument>}. */
    record Step(long unit, String op, String table, long argument) {
        static Step parse(String line) {
            String[] parts = line.split(" ");
            if (parts.length != 5 || !parts[0].equals("B")) {
                throw new IllegalArgumentException("not a begin line: " + line);
            }
            return new Step(Long.parseLong(parts[1]), parts[2], parts[3], Long.parseLong(parts[4]));
        }

        /** The unit whose rows this step creates or changes, or -1 (checkpoint, reorganize). */
        long affected() {
            return switch (op) {
                case "INSERT" -> unit;
                case "UPDATE", "DELETE" -> argument;
                default -> -1;
            };
        }
    }

    /**
     * One comparison: acknowledged rows missing, units half there (some rows, or an update on some
     * rows only), rows that must not be there (a unit never acknowledged, a deleted one back, a row
     * twice, a lost or doubled update), each problem described.
     */
    record Check(long rowsLost, long halfVisible, long unexpected, List<String> problems) {
        boolean clean() {
            return rowsLost == 0 && halfVisible == 0 && unexpected == 0;
        }
    }

    private final Map<Long, Unit> units = new HashMap<>();
    private long nextUnit = 1;
    private long acknowledged;

    /** An independent copy, for checking a damaged copy of the database without changing this model. */
    UnitModel copy() {
        UnitModel copy = new UnitModel();
        copy.units.putAll(units);
        copy.nextUnit = nextUnit;
        copy.acknowledged = acknowledged;
        return copy;
    }

    /** The first unit number the next child may use: above every unit any child began. */
    long nextUnit() {
        return nextUnit;
    }

    /** Units acknowledged so far, over every child. */
    long acknowledged() {
        return acknowledged;
    }

    /** Applies a child's acknowledged units; returns the unit in flight at its end, or null. */
    Step apply(List<String> acknowledgementLines) {
        Step pending = null;
        for (String line : acknowledgementLines) {
            if (line.startsWith("B ")) {
                pending = Step.parse(line);
                nextUnit = Math.max(nextUnit, pending.unit() + 1);
            } else if (line.startsWith("A ")) {
                if (pending == null || pending.unit() != Long.parseLong(line.substring(2))) {
                    throw new IllegalStateException("acknowledgement without its begin line: " + line);
                }
                applyStep(pending, units);
                acknowledged++;
                pending = null;
            } else {
                throw new IllegalStateException("not an acknowledgement line: " + line);
            }
        }
        return pending;
    }

    private static void applyStep(Step step, Map<Long, Unit> target) {
        switch (step.op()) {
            case "INSERT" -> target.put(step.unit(), new Unit(step.table(), step.argument(), 0));
            case "UPDATE" -> target.computeIfPresent(step.argument(),
                    (unit, before) -> new Unit(before.table(), before.rows(), before.v() + 1));
            case "DELETE" -> target.remove(step.argument());
            case "CHECKPOINT", "REORGANIZE" -> {
            }
            default -> throw new IllegalStateException("unknown step " + step);
        }
    }

    /**
     * Compares the database on {@code connection} with the model, {@code inFlight} (or null)
     * allowed before or after; when the database shows {@code inFlight} done, the model takes it.
     */
    Check check(Connection connection, Step inFlight) throws SQLException {
        Map<Long, Unit> after = new HashMap<>(units);
        if (inFlight != null) {
            applyStep(inFlight, after);
        }
        long rowsLost = 0;
        long halfVisible = 0;
        long unexpected = 0;
        boolean inFlightDone = false;
        List<String> problems = new ArrayList<>();
        for (String table : List.of("r", "c", "h")) {
            Map<Long, long[]> observed = observe(connection, table);
            TreeSet<Long> all = new TreeSet<>(observed.keySet());
            units.forEach((unit, state) -> {
                if (state.table().equals(table)) {
                    all.add(unit);
                }
            });
            for (long unit : all) {
                Unit before = inTable(units.get(unit), table);
                Unit afterState = inFlight != null && inFlight.affected() == unit ? inTable(after.get(unit), table) : before;
                long[] seen = observed.get(unit);
                boolean asBefore = matches(seen, before);
                boolean asAfter = matches(seen, afterState);
                if (asBefore || asAfter) {
                    inFlightDone |= asAfter && !asBefore;
                    continue;
                }
                String context = table + " unit " + unit + ": expected " + describe(before)
                        + (afterState == before ? "" : " or " + describe(afterState)) + ", found "
                        + (seen == null ? "nothing" : seen[0] + " rows (" + seen[1] + " distinct ids), v " + seen[2]
                        + ".." + seen[3]);
                problems.add(context);
                if (seen == null) {
                    rowsLost += before.rows();
                } else if (seen[2] != seen[3]) {
                    halfVisible++;
                } else if (before != null && seen[0] < before.rows()
                        && (afterState == null || seen[0] < afterState.rows())) {
                    if (seen[0] == 0) {
                        rowsLost += before.rows();
                    } else {
                        halfVisible++;
                        rowsLost += before.rows() - seen[0];
                    }
                } else if (before == null && afterState != null && seen[0] < afterState.rows()) {
                    halfVisible++;
                } else {
                    unexpected++;
                }
            }
        }
        if (inFlightDone) {
            applyStep(inFlight, units);
        }
        return new Check(rowsLost, halfVisible, unexpected, problems);
    }

    /** {@code unit} if it lives in {@code table}, else null. */
    private static Unit inTable(Unit unit, String table) {
        return unit != null && unit.table().equals(table) ? unit : null;
    }

    private static boolean matches(long[] seen, Unit expected) {
        if (expected == null) {
            return seen == null;
        }
        return seen != null && seen[0] == expected.rows() && seen[1] == expected.rows() && seen[2] == expected.v()
                && seen[3] == expected.v();
    }

    private static String describe(Unit unit) {
        return unit == null ? "nothing" : unit.rows() + " rows with v " + unit.v();
    }

    /** Per unit: rows, distinct ids, least and greatest {@code v}. */
    private static Map<Long, long[]> observe(Connection connection, String table) throws SQLException {
        Map<Long, long[]> observed = new HashMap<>();
        try (Statement statement = connection.createStatement()) {
            if (!tableExists(statement, table)) {
                return observed;
            }
            try (ResultSet rows = statement.executeQuery("SELECT unit, COUNT(*), COUNT(DISTINCT id), MIN(v), MAX(v) FROM "
                    + table + " GROUP BY unit")) {
                while (rows.next()) {
                    observed.put(rows.getLong(1), new long[] {rows.getLong(2), rows.getLong(3), rows.getLong(4), rows.getLong(5)});
                }
            }
        }
        return observed;
    }

    private static boolean tableExists(Statement statement, String table) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM sys.tables WHERE table_name = '" + table + "'")) {
            rows.next();
            return rows.getLong(1) > 0;
        }
    }
}
