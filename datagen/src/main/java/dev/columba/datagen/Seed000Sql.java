package dev.columba.datagen;

import java.util.List;
import java.util.Locale;

/**
 * Seed 000's statements as Columba runs them, shared by the demo, the seed 000 benchmark and the
 * integration tests so that all three run the same SQL. The DDL is the seed's, except that TestTable's ID is
 * its clustered primary key from the start (the seed adds {@code CI_TestTable_ID} after loading a
 * heap; loading in key order into the B+tree is the same table without the rebuild), and that
 * Testtable2 is created and then filled by INSERT ... SELECT where the seed writes
 * {@code SELECT * INTO}.
 *
 * <p>The seed fills intcolumn from {@code master.dbo.spt_values} numbers (0..2047), Age as that
 * number % 10 + 25, and Randomvalue as {@code RAND(CHECKSUM(NEWID())) * ID}. Here row n of
 * {@code generate_series} (which becomes ID n) gets intcolumn {@code (n - 1) % 2048}, the same Age
 * rule, and Randomvalue from a Lehmer (MINSTD) hash of n taken modulo n: as in the seed, a value
 * in [0, ID) with no order, and the same in every run.
 */
public final class Seed000Sql {
    public static final String TEST_TABLE = """
            CREATE TABLE dbo.TestTable (
               ID int IDENTITY (1, 1) NOT NULL PRIMARY KEY CLUSTERED,
               IDvarchar AS CAST(ID AS varchar(50)) PERSISTED NOT NULL,
               intcolumn int,
               NAME varchar(50) NOT NULL,
               Age int NOT NULL,
               Randomvalue bigint
            )""";

    public static final String TEST_TABLE_2 = """
            CREATE TABLE Testtable2 (
               ID int NOT NULL,
               IDvarchar varchar(50) NOT NULL,
               intcolumn int,
               NAME varchar(50) NOT NULL,
               Age int NOT NULL,
               Randomvalue bigint
            )""";

    public static final List<String> TEST_TABLE_2_INDEXES = List.of(
            "CREATE UNIQUE CLUSTERED INDEX ix_id_testtable2 ON testtable2 (IDvarchar)",
            "CREATE UNIQUE INDEX ix_IDVARCHAR ON testtable2 (IDvarchar)");

    public static final String SMALL_RANGE = "SELECT * FROM TestTable WHERE ID < 300";

    private Seed000Sql() {
    }

    /** TestTable's rows {@code first..last} (IDs equal to the row numbers when the table starts empty). */
    public static String fill(long first, long last) {
        return String.format(Locale.ROOT, """
                INSERT INTO TestTable (intcolumn, NAME, Age, Randomvalue)
                SELECT MOD(n - 1, 2048), 'Some Random Data..', MOD(MOD(n - 1, 2048), 10) + 25,
                       MOD(MOD(CAST(n AS BIGINT) * 48271, 2147483647), n)
                FROM generate_series(%d, %d) AS g(n)""", first, last);
    }

    /** TestTable's rows with IDs {@code first..last} copied into Testtable2. */
    public static String copy(long first, long last) {
        return String.format(Locale.ROOT, "INSERT INTO Testtable2 SELECT * FROM TestTable t1 WHERE ID BETWEEN %d AND %d",
                first, last);
    }

    /** The seed's sequential read-ahead query ({@code ID < 300000} in the seed). */
    public static String largeRange(long below) {
        return "SELECT * FROM TestTable WHERE ID < " + below;
    }

    /** The seed's loop join; {@code ID < 1000} in its prefetch test, 27 and 26 around the prefetch threshold. */
    public static String loopJoin(long below) {
        return """
                SELECT *
                FROM TestTable t1
                WHERE IDvarchar IN
                   (SELECT IDvarchar
                    FROM testtable2 t2)
                AND ID < %d
                OPTION (RECOMPILE, LOOP JOIN, MAXDOP 1)""".formatted(below);
    }
}
