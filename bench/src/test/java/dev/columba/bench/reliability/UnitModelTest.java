package dev.columba.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kill campaign's judge on databases built by hand: what the child acknowledged and the unit in
 * flight are accepted, and a lost, half-visible or unexpected unit is counted as one.
 */
class UnitModelTest {
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:unit-model-" + System.nanoTime());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE r (id BIGINT PRIMARY KEY, unit BIGINT NOT NULL, v BIGINT NOT NULL, s VARCHAR(40))");
        statement.execute("CREATE TABLE c (id BIGINT, unit BIGINT, v BIGINT, s VARCHAR(40)) WITH (storage = columnstore)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void insert(String table, long unit, int rows, long v) throws SQLException {
        statement.execute("INSERT INTO " + table + " SELECT " + unit * 10_000 + " + generate_series, " + unit + ", " + v
                + ", 'x' FROM generate_series(1, " + rows + ")");
    }

    @Test
    void acknowledgedUnitsAndTheUnitInFlightEitherWayAreClean() throws SQLException {
        UnitModel model = new UnitModel();
        UnitModel.Step inFlight = model.apply(List.of("B 1 INSERT r 3", "A 1", "B 2 INSERT c 5", "A 2", "B 3 UPDATE r 1",
                "A 3", "B 4 CHECKPOINT - 0", "A 4", "B 5 INSERT r 2"));
        assertEquals(new UnitModel.Step(5, "INSERT", "r", 2), inFlight);
        assertEquals(4, model.acknowledged());
        assertEquals(6, model.nextUnit());
        insert("r", 1, 3, 1);
        insert("c", 2, 5, 0);
        UnitModel without = model.copy();
        assertTrue(without.check(connection, inFlight).clean(), "the unit in flight absent");
        insert("r", 5, 2, 0);
        UnitModel.Check with = model.check(connection, inFlight);
        assertTrue(with.clean(), with.problems()::toString);
        // The model took the unit in flight: it is now required.
        statement.execute("DELETE FROM r WHERE unit = 5");
        UnitModel.Check lost = model.check(connection, null);
        assertEquals(2, lost.rowsLost(), lost.problems()::toString);
    }

    @Test
    void aLostUnitAHalfUnitAndAnUnexpectedUnitAreEachCounted() throws SQLException {
        UnitModel model = new UnitModel();
        assertNull(model.apply(List.of("B 1 INSERT r 4", "A 1", "B 2 INSERT c 6", "A 2", "B 3 INSERT r 2", "A 3",
                "B 4 DELETE r 3", "A 4")));
        insert("r", 1, 3, 0); // one of four rows lost: half there
        // unit 2 (6 rows) missing: lost
        insert("r", 3, 2, 0); // deleted, and back
        UnitModel.Check check = model.check(connection, null);
        assertEquals(6 + 1, check.rowsLost(), check.problems()::toString);
        assertEquals(1, check.halfVisible(), check.problems()::toString);
        assertEquals(1, check.unexpected(), check.problems()::toString);
        assertEquals(3, check.problems().size());
    }

    @Test
    void anUpdateOnSomeRowsOnlyIsHalfVisible() throws SQLException {
        UnitModel model = new UnitModel();
        UnitModel.Step inFlight = model.apply(List.of("B 1 INSERT c 4", "A 1", "B 2 UPDATE c 1"));
        insert("c", 1, 4, 0);
        statement.execute("UPDATE c SET v = 1 WHERE id = 10001");
        UnitModel.Check check = model.check(connection, inFlight);
        assertEquals(1, check.halfVisible(), check.problems()::toString);
    }
}
