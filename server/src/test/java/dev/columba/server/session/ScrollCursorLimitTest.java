package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.server.protocol.BackendMessage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A SCROLL cursor keeps the rows it read in memory, up to a limit past which reading on is 54000. */
class ScrollCursorLimitTest {
    @Test
    void readingPastTheKeptRowLimitIsRefusedAndTheRowsKeptStayReadable() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:columba:mem:scroll-limit");
             Statement statement = connection.createStatement()) {
            ResultSet rows = statement.executeQuery("SELECT * FROM generate_series(1, 20)");
            Command.Declare declare = new Command.Declare("c", false, true, false, "SELECT ...");
            Cursor cursor = Cursor.ofResult(declare, Columns.fields(rows.getMetaData()), statement, rows, true, 10);
            List<BackendMessage> sent = new ArrayList<>();
            assertEquals(10, cursor.fetch(new Command.Fetch("c", false, Command.Fetch.Direction.FORWARD, 10),
                    cursor.fields(), sent::add));
            WireSqlException tooMany = assertThrows(WireSqlException.class, () -> cursor.fetch(
                    new Command.Fetch("c", false, Command.Fetch.Direction.FORWARD, 1), cursor.fields(), sent::add));
            assertEquals("54000", tooMany.sqlState());
            assertTrue(tooMany.getMessage().contains("more than 10 rows"), tooMany.getMessage());
            sent.clear();
            assertEquals(1, cursor.fetch(new Command.Fetch("c", false, Command.Fetch.Direction.ABSOLUTE, 3),
                    cursor.fields(), sent::add), "the kept rows are still there");
            assertEquals(1, sent.size());
            cursor.close();
        }
        // Exactly the limit is fine: the end is found without keeping another row.
        try (Connection connection = DriverManager.getConnection("jdbc:columba:mem:scroll-limit-2");
             Statement statement = connection.createStatement()) {
            ResultSet rows = statement.executeQuery("SELECT * FROM generate_series(1, 10)");
            Cursor cursor = Cursor.ofResult(new Command.Declare("d", false, true, false, "SELECT ..."),
                    Columns.fields(rows.getMetaData()), statement, rows, true, 10);
            assertEquals(10, cursor.fetch(new Command.Fetch("d", false, Command.Fetch.Direction.FORWARD, CursorStatements.ALL),
                    cursor.fields(), message -> { }));
            assertEquals(1, cursor.fetch(new Command.Fetch("d", false, Command.Fetch.Direction.ABSOLUTE, -1),
                    cursor.fields(), message -> { }));
            cursor.close();
        }
    }
}
