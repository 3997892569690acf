package dev.columba.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.server.catalog.PgCatalog.Attribute;
import dev.columba.server.catalog.PgCatalog.Relation;
import dev.columba.server.protocol.PgTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rewrite of {@code information_schema} views into derived tables, on a hand-built catalog. */
class InformationSchemaTest {
    private static final Relation ORDERS = new Relation(16584, "orders", PgCatalog.PUBLIC_NAMESPACE, 'r',
            List.of(new Attribute(1, "id", PgTypes.INT4, -1, true, null, true),
                    new Attribute(2, "note", PgTypes.VARCHAR, 24, false, "'it''s'", false),
                    new Attribute(3, "price", PgTypes.NUMERIC, ((12 << 16) | 2) + 4, false, null, false)),
            0, null, List.of(), "btree", null);
    private static final PgCatalog CATALOG = new PgCatalog("db", "tester",
            List.of(new PgCatalog.Namespace(PgCatalog.PG_CATALOG_NAMESPACE, "pg_catalog"),
                    new PgCatalog.Namespace(PgCatalog.PUBLIC_NAMESPACE, "public")),
            List.of(ORDERS));

    @Test
    void recognisesReferencesOutsideStringsOnly() {
        assertTrue(InformationSchema.references("SELECT * FROM information_schema.tables"));
        assertTrue(InformationSchema.references("select * from INFORMATION_SCHEMA . \"columns\" c"));
        assertTrue(InformationSchema.references("SELECT * FROM \"information_schema\".schemata"));
        assertFalse(InformationSchema.references("SELECT 'information_schema.tables'"));
        assertFalse(InformationSchema.references("SELECT * FROM my_information_schema.tables"));
        assertFalse(InformationSchema.references("INSERT INTO t VALUES (1, 'x')"));
    }

    @Test
    void aViewBecomesADerivedTableUnderItsAliasOrItsName() {
        String aliased = InformationSchema.rewrite("SELECT c.column_name FROM information_schema.columns c WHERE c.table_name = 'orders'", CATALOG);
        assertTrue(aliased.startsWith("SELECT c.column_name FROM (SELECT * FROM (VALUES (CAST(NULL AS VARCHAR(128)), "), aliased);
        assertTrue(aliased.endsWith(" WHERE table_catalog IS NOT NULL) c WHERE c.table_name = 'orders'"), aliased);
        String named = InformationSchema.rewrite("SELECT table_name FROM information_schema.tables WHERE table_schema = ?", CATALOG);
        assertTrue(named.endsWith(" IS NOT NULL) AS tables WHERE table_schema = ?"), named);
        assertTrue(named.contains("('db', 'public', 'orders', 'BASE TABLE', NULL, NULL, NULL, NULL, NULL, 'YES', 'NO', NULL)"), named);
        String explicit = InformationSchema.rewrite("SELECT 1 FROM information_schema.schemata AS s", CATALOG);
        assertTrue(explicit.endsWith(" IS NOT NULL) AS s"), explicit);
    }

    @Test
    void columnsCarryPostgresTypeNamesSizesAndQuotedDefaults() {
        String columns = InformationSchema.rewrite("SELECT * FROM information_schema.columns", CATALOG);
        assertTrue(columns.contains("('db', 'public', 'orders', 'id', 1, NULL, 'NO', 'integer', NULL, NULL, 32, 2, 0, NULL,"),
                columns);
        assertTrue(columns.contains("'pg_catalog', 'int4', '1', 'NO', 'YES', 'ALWAYS', 'NEVER', NULL, 'YES')"), columns);
        assertTrue(columns.contains("('db', 'public', 'orders', 'note', 2, '''it''''s''', 'YES', 'character varying', 20, 80, NULL, NULL, NULL, NULL,"),
                columns);
        assertTrue(columns.contains("('db', 'public', 'orders', 'price', 3, NULL, 'YES', 'numeric', NULL, NULL, 12, 10, 2, NULL,"),
                columns);
    }

    @Test
    void stringsAndCommentsAreLeftAlone() {
        String sql = "SELECT 'information_schema.tables' /* information_schema.views */ FROM information_schema.views -- information_schema.columns";
        String rewritten = InformationSchema.rewrite(sql, CATALOG);
        assertTrue(rewritten.startsWith("SELECT 'information_schema.tables' /* information_schema.views */ FROM (SELECT"), rewritten);
        assertTrue(rewritten.endsWith(") AS views -- information_schema.columns"), rewritten);
    }

    @Test
    void otherViewsAreRefusedByName() {
        CatalogQueryException refused = assertThrows(CatalogQueryException.class,
                () -> InformationSchema.rewrite("SELECT * FROM information_schema.key_column_usage", CATALOG));
        assertEquals("0A000", refused.sqlState());
        assertTrue(refused.getMessage().contains("information_schema.key_column_usage"), refused.getMessage());
    }
}
