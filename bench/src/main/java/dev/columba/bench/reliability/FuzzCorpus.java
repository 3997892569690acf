package dev.columba.bench.reliability;

import java.util.List;

/**
 * What the fuzzer starts from: a schema of a rowstore and a columnstore table with a column of each
 * common type, a few rows, and statements over them that run. Mutations take their replacement
 * names, literals, operators and sub-expressions from here, so that half-broken statements still
 * reach the planner and the executor.
 */
final class FuzzCorpus {
    private FuzzCorpus() {
    }

    /** Creates and fills the tables; run once on an empty database. */
    static final List<String> SETUP = List.of(
            "CREATE TABLE r (id BIGINT PRIMARY KEY, i INT, s VARCHAR(20), d DECIMAL(10, 2), f DOUBLE, dt DATE,"
                    + " b BIT, c CHAR(3))",
            "CREATE TABLE c (id INT, i INT, s VARCHAR(50), d DECIMAL(15, 2), f DOUBLE, dt DATE)"
                    + " WITH (storage = columnstore)",
            "INSERT INTO r VALUES (1, 10, 'one', 1.50, 0.5, DATE '2024-01-01', 1, 'abc')",
            "INSERT INTO r VALUES (2, NULL, 'two', -2.25, NULL, DATE '2023-12-31', 0, 'x')",
            "INSERT INTO r VALUES (3, 30, NULL, NULL, 1e10, NULL, NULL, NULL)",
            "INSERT INTO r VALUES (4, -4, 'one日本語', 0, -0.0, DATE '2000-02-29', 1, 'z')",
            "INSERT INTO c SELECT id, i, s, d, f, dt FROM r",
            "INSERT INTO c VALUES (5, 50, 'five', 5.55, 5.5, DATE '2025-05-05'), (6, 6, '', 6, 6, DATE '1999-12-31')");

    /** Statements that run on the schema above: the material mutations start from. */
    static final List<String> STATEMENTS = List.of(
            "SELECT id, i, s FROM r WHERE i > 5 ORDER BY id",
            "SELECT COUNT(*), SUM(d), AVG(f), MIN(s), MAX(dt) FROM c",
            "SELECT i, COUNT(*) FROM c GROUP BY i HAVING COUNT(*) > 0 ORDER BY i",
            "SELECT r.id, c.s FROM r JOIN c ON r.id = c.id WHERE c.d > 1.5",
            "SELECT r.id, c.s FROM r LEFT JOIN c ON r.i = c.i AND c.s LIKE 'o%' ORDER BY 1, 2",
            "SELECT id FROM r WHERE EXISTS (SELECT 1 FROM c WHERE c.id = r.id)",
            "SELECT id FROM r WHERE i IN (SELECT i FROM c WHERE d < 10) OR s IS NULL",
            "SELECT CASE WHEN i > 5 THEN 'big' WHEN i IS NULL THEN 'none' ELSE 'small' END, id FROM r",
            "SELECT CAST(d AS VARCHAR(20)), CAST(s AS CHAR(5)), CAST(i AS BIGINT) * 2 FROM r",
            "SELECT s || 'x', UPPER(s), SUBSTRING(s, 1, 2), LENGTH(s), TRIM(c) FROM r",
            "SELECT id, i / 2, i % 3, -i, ABS(d), ROUND(f, 1), FLOOR(d) FROM r",
            "SELECT id FROM r UNION SELECT id FROM c ORDER BY 1 LIMIT 3",
            "SELECT id FROM r EXCEPT SELECT id FROM c WHERE i > 0",
            "SELECT DISTINCT s FROM c WHERE s <> 'two' AND NOT (i BETWEEN 1 AND 9)",
            "SELECT id, ROW_NUMBER() OVER (PARTITION BY b ORDER BY id) FROM r",
            "SELECT id, SUM(i) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM c",
            "SELECT COALESCE(i, 0), NULLIF(s, 'one'), dt + 1 FROM r",
            "SELECT YEAR(dt), MONTH(dt), DATEADD(day, 3, dt), DATEDIFF(day, dt, DATE '2024-06-01') FROM r",
            "SELECT TOP 2 id, s FROM c ORDER BY d DESC",
            "SELECT id FROM c ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY",
            "SELECT (SELECT MAX(i) FROM c WHERE c.id = r.id) FROM r",
            "SELECT x.s, x.n FROM (SELECT s, COUNT(*) AS n FROM c GROUP BY s) AS x WHERE x.n >= 1",
            "WITH w AS (SELECT id, d FROM r WHERE d IS NOT NULL) SELECT SUM(d) FROM w",
            "VALUES (1, 'a'), (2, 'b')",
            "SELECT 1 + 2 * 3, 'a' LIKE 'a%', 10 / 4.0, 7 % 2",
            "SELECT id FROM r WHERE s LIKE '%e' ESCAPE '!' AND dt > DATE '2000-01-01'",
            "SELECT i, SUM(d) FROM r GROUP BY ROLLUP (i)",
            "SELECT id, f FROM r WHERE f IS NULL OR f > 0.25 ORDER BY f DESC NULLS LAST",
            "INSERT INTO r VALUES (100, 1, 'new', 1.25, 2.5, DATE '2024-02-02', 0, 'n')",
            "INSERT INTO c SELECT id + 100, i, s, d, f, dt FROM c WHERE i IS NOT NULL",
            "UPDATE r SET s = 'upd', i = i + 1 WHERE id = 2",
            "UPDATE c SET d = d * 2 WHERE i > 10",
            "DELETE FROM r WHERE id > 3",
            "DELETE FROM c WHERE s IS NULL",
            "EXPLAIN SELECT id FROM r WHERE id = 1",
            "SELECT COUNT(DISTINCT s), STRING_AGG(s, ',') FROM c",
            "SELECT id FROM r WHERE id = 1 AND i = 10 OR d = 1.50",
            "SELECT CAST('2024-01-01' AS DATE), CAST('12.5' AS DECIMAL(5, 1)), CAST(1 AS DOUBLE)");

    /** Literals mutations put where a literal was: edges of every type, and values of the wrong type. */
    static final List<String> LITERALS = List.of(
            "NULL", "0", "-1", "1", "2147483647", "2147483648", "-2147483649", "9223372036854775807",
            "9223372036854775808", "99999999999999999999999999999999999999999", "1e308", "1e-39", "-1e308", "0.0",
            "1.5", "123456789012345678901234567890.123456789", "''", "'x'", "'one日本語'", "'%'", "'_'", "'\\'",
            "'" + "w".repeat(9000) + "'", "DATE '2024-02-30'", "DATE '0001-01-01'", "DATE '9999-12-31'", "TRUE",
            "FALSE", "?", "X'FF'", "CAST(NULL AS INT)", "'2024-01-01'", "N'n'");

    /** Names mutations swap in: every column, the tables, a name that does not exist. */
    static final List<String> NAMES = List.of(
            "id", "i", "s", "d", "f", "dt", "b", "c", "r", "r.id", "c.i", "x", "nothing", "[id]", "\"s\"");

    static final List<String> OPERATORS = List.of(
            "+", "-", "*", "/", "%", "=", "<>", "!=", "<", "<=", ">", ">=", "||", "AND", "OR", "LIKE", "NOT LIKE",
            "IN", "IS", "BETWEEN", "NOT", ",");

    /** Keywords mutations insert or swap in, so that clauses appear where they do not belong. */
    static final List<String> KEYWORDS = List.of(
            "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET", "UNION", "EXISTS",
            "DISTINCT", "ALL", "NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "AS", "JOIN", "ON", "INTO", "VALUES",
            "OVER", "PARTITION BY", "ASC", "DESC", "NOT", "IS NULL", "TOP", "WITH");

    /** Whole expressions a mutation may put in place of a parenthesised one or wrap around a token. */
    static final List<String> EXPRESSIONS = List.of(
            "(SELECT MAX(i) FROM c)", "(SELECT 1 FROM r)", "CAST(%s AS DECIMAL(38, 0))", "CAST(%s AS VARCHAR(1))",
            "CAST(%s AS INT)", "CAST(%s AS DATE)", "ABS(%s)", "SUM(%s)", "COUNT(%s)", "(%s)", "-%s", "NOT %s",
            "COALESCE(%s, NULL)", "CASE WHEN %s THEN 1 END", "%s IS NULL", "EXISTS (SELECT %s)", "(%s, %s)",
            "%s * NULL", "SUBSTRING(%s, 0, -1)", "%s LIKE NULL", "ROW_NUMBER() OVER (ORDER BY %s)");
}
