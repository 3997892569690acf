package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text is Unicode end to end: literals ({@code '...'} and {@code N'...'}), parameters, COPY files
 * (UTF-8), identifiers and comments, through both storage kinds, characters outside the Basic
 * Multilingual Plane (emoji, four bytes in UTF-8, two UTF-16 units) included. A length counts
 * characters (code points): VARCHAR(5) holds five emoji and not six. Issue 15: a literal outside
 * Latin-1 failed with XX000 ("Failed to encode ... in character set 'ISO-8859-1'").
 */
class UnicodeTest {
    private static final String FIVE_EMOJI = "😀🎉🚀🐘🌍";
    private static final List<String> TEXTS = List.of("one日本語", "Größe", "Ελλάς", FIVE_EMOJI, "a😀b", "中文");

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getString(1));
            }
        }
        return values;
    }

    @Test
    void literalsOutsideLatin1AreValues() throws SQLException {
        assertEquals(List.of("one日本語"), strings("VALUES ('one日本語')"));
        assertEquals(List.of("日本語"), strings("SELECT N'日本語'"));
        assertEquals(List.of(FIVE_EMOJI), strings("SELECT '" + FIVE_EMOJI + "' /* コメント */ -- 注释"));
        assertEquals(List.of("a😀b|"), strings("SELECT 'a😀b' || '|'"), "a literal is as long as its characters");
        try (ResultSet result = statement.executeQuery(
                "SELECT CHAR_LENGTH('a😀b'), CHAR_LENGTH(N'日本語'), CHAR_LENGTH('a😀b' || ''), CHAR_LENGTH('')")) {
            result.next();
            assertEquals(3, result.getInt(1));
            assertEquals(3, result.getInt(2));
            assertEquals(3, result.getInt(3));
            assertEquals(0, result.getInt(4), "the empty literal is not a space");
        }
        assertEquals(List.of("abc|"), strings("SELECT 'abc' || '' || '|'"));
    }

    /**
     * Every storage kind: a rowstore heap, a rowstore with a clustered key, one with a nonclustered
     * index on the text (its keys are the text), a columnstore's delta store, and its compressed
     * rowgroups after REORGANIZE.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "clustered", "indexed", "columnstore", "compressed"})
    void textRoundTripsThroughLiteralsParametersAndCopy(String storage) throws Exception {
        String columns = "id BIGINT NOT NULL, \"名前\" VARCHAR(8), code CHAR(3)";
        statement.execute(switch (storage) {
            case "rowstore" -> "CREATE TABLE \"テキスト\" (" + columns + ")";
            case "clustered", "indexed" -> "CREATE TABLE \"テキスト\" (" + columns + ", PRIMARY KEY (id))";
            case "columnstore", "compressed" -> "CREATE TABLE \"テキスト\" (" + columns + ") WITH (storage = columnstore)";
            default -> throw new IllegalArgumentException(storage);
        });
        if (storage.equals("indexed")) {
            statement.execute("CREATE INDEX \"索引\" ON \"テキスト\" (\"名前\")");
        }
        for (int index = 0; index < TEXTS.size(); index++) {
            statement.execute("INSERT INTO \"テキスト\" VALUES (" + index + ", '" + TEXTS.get(index) + "', 'é😀')");
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO \"テキスト\" VALUES (?, ?, ?)")) {
            for (int index = 0; index < TEXTS.size(); index++) {
                insert.setLong(1, 100 + index);
                insert.setString(2, TEXTS.get(index));
                insert.setString(3, "é😀");
                insert.executeUpdate();
            }
        }
        Path file = directory.resolve("texts.csv");
        StringBuilder csv = new StringBuilder("id,名前,code\n");
        for (int index = 0; index < TEXTS.size(); index++) {
            csv.append(200 + index).append(",\"").append(TEXTS.get(index)).append("\",é😀\n");
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
        statement.execute("COPY \"テキスト\" FROM '" + file + "' WITH (HEADER)");
        if (storage.equals("compressed")) {
            statement.execute("ALTER INDEX ALL ON \"テキスト\" REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)");
            assertEquals(List.of("COMPRESSED"), strings("SELECT DISTINCT state FROM sys.column_store_row_groups"
                    + " WHERE table_name = 'テキスト'"), "every row in a compressed rowgroup");
        }

        for (int offset : new int[] {0, 100, 200}) {
            assertEquals(TEXTS, strings("SELECT \"名前\" FROM \"テキスト\" WHERE id BETWEEN " + offset + " AND "
                    + (offset + 99) + " ORDER BY id"), "rows from " + offset);
        }
        assertEquals(List.of("é😀 "), strings("SELECT DISTINCT code FROM \"テキスト\""), "CHAR(3) pads to 3 characters");
        assertEquals(List.of("3"), strings("SELECT COUNT(*) FROM \"テキスト\" WHERE \"名前\" = '" + FIVE_EMOJI + "'"));
        assertEquals(List.of("3"), strings("SELECT COUNT(*) FROM \"テキスト\" WHERE \"名前\" LIKE 'one日%'"));
        assertEquals(List.of("5"), strings("SELECT CHAR_LENGTH(\"名前\") FROM \"テキスト\" WHERE id = 3"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aLengthCountsCharactersNotUtf16UnitsOrBytes(String storage) throws Exception {
        String options = storage.equals("columnstore") ? " WITH (storage = columnstore)" : "";
        statement.execute("CREATE TABLE e (id BIGINT NOT NULL, s VARCHAR(5))" + options);
        assertEquals(1, statement.executeUpdate("INSERT INTO e VALUES (1, '" + FIVE_EMOJI + "')"),
                "five emoji are ten UTF-16 units and twenty bytes, and five characters");
        SQLException literal = assertThrows(SQLException.class,
                () -> statement.execute("INSERT INTO e VALUES (2, '" + FIVE_EMOJI + "x')"));
        assertEquals("22001", literal.getSQLState(), literal::getMessage);
        assertTrue(literal.getMessage().contains("6 characters"), literal.getMessage());
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
            insert.setLong(1, 3);
            insert.setString(2, FIVE_EMOJI + "😀");
            SQLException parameter = assertThrows(SQLException.class, insert::executeUpdate);
            assertEquals("22001", parameter.getSQLState(), parameter::getMessage);
        }
        Path file = Files.writeString(directory.resolve("long.csv"), "4," + FIVE_EMOJI + "日\n", StandardCharsets.UTF_8);
        SQLException copy = assertThrows(SQLException.class, () -> statement.execute("COPY e FROM '" + file + "'"));
        assertEquals("22001", copy.getSQLState(), copy::getMessage);
        assertTrue(copy.getMessage().contains("line 1, column s"), copy.getMessage());
        assertEquals(List.of(FIVE_EMOJI), strings("SELECT s FROM e"));
    }
}
