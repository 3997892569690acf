package dev.columba.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.server.catalog.PgCatalog.Attribute;
import dev.columba.server.catalog.PgCatalog.Index;
import dev.columba.server.catalog.PgCatalog.Relation;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.PgTypes;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Catalog queries answered from a hand-built catalog, without a server: recognition, filters and select lists. */
class CatalogQueriesTest {
    private static final Relation ORDERS = new Relation(16584, "orders", PgCatalog.PUBLIC_NAMESPACE, 'r',
            List.of(new Attribute(1, "id", PgTypes.INT4, -1, true, null, true),
                    new Attribute(2, "note", PgTypes.VARCHAR, 24, false, "'none'", false)),
            0, null, List.of(), "btree", null);
    private static final Relation ORDERS_KEY = new Relation(16585, "orders_pkey", PgCatalog.PUBLIC_NAMESPACE, 'i',
            List.of(new Attribute(1, "id", PgTypes.INT4, -1, false, null, false)), 16584,
            new Index(true, true, true, List.of(1), "orders_pkey", 'p'), List.of(), "btree", null);
    private static final Relation ORDER_NOTES = new Relation(16590, "order_notes", PgCatalog.PUBLIC_NAMESPACE, 'v',
            List.of(new Attribute(1, "note", PgTypes.VARCHAR, 24, false, null, false)), 0, null, List.of(), null,
            "SELECT note FROM orders");
    private static final Relation SYS_TABLES = new Relation(12001, "tables", PgCatalog.SYS_NAMESPACE, 'v',
            List.of(), 0, null, List.of(), null, null);
    private static final PgCatalog CATALOG = new PgCatalog("db", "tester",
            List.of(new PgCatalog.Namespace(PgCatalog.PG_CATALOG_NAMESPACE, "pg_catalog"),
                    new PgCatalog.Namespace(PgCatalog.PUBLIC_NAMESPACE, "public"),
                    new PgCatalog.Namespace(PgCatalog.SYS_NAMESPACE, "sys")),
            List.of(ORDERS, ORDERS_KEY, ORDER_NOTES, SYS_TABLES));

    /** The hand-built catalog as a session would give it. */
    private static final CatalogQueries.CatalogSource SOURCE = new CatalogQueries.CatalogSource() {
        @Override
        public String database() {
            return CATALOG.database();
        }

        @Override
        public String user() {
            return CATALOG.user();
        }

        @Override
        public PgCatalog read() {
            return CATALOG;
        }
    };

    private static List<String> rows(CatalogResult result) {
        return result.rows().stream().map(Arrays::toString).toList();
    }

    @Test
    void recognisesCatalogQueriesAndLeavesColumbasOwnAlone() {
        assertTrue(CatalogQueries.isCatalogQuery("SELECT c.oid FROM pg_catalog.pg_class c"));
        assertTrue(CatalogQueries.isCatalogQuery("select current_database()"));
        assertTrue(CatalogQueries.isCatalogQuery("SELECT current_catalog AS db;"));
        assertFalse(CatalogQueries.isCatalogQuery("SELECT * FROM sys.tables"));
        assertFalse(CatalogQueries.isCatalogQuery("SELECT current_database_name FROM t"));
        // Only queries, and only names outside string literals, count.
        assertFalse(CatalogQueries.isCatalogQuery("INSERT INTO notes VALUES ('see pg_catalog.pg_class')"));
        assertFalse(CatalogQueries.isCatalogQuery("SELECT * FROM notes WHERE text = 'pg_catalog.pg_class'"));
    }

    @Test
    void psqlsLookupFindsARelationByPatternIgnoringCaseOnTheSearchPath() {
        String lookup = """
                SELECT c.oid,
                  n.nspname,
                  c.relname
                FROM pg_catalog.pg_class c
                     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relname OPERATOR(pg_catalog.~) '^(ORDERS)$' COLLATE pg_catalog.default
                  AND pg_catalog.pg_table_is_visible(c.oid)
                ORDER BY 2, 3;""";
        CatalogResult result = CatalogQueries.answer(lookup, SOURCE);
        assertEquals(List.of("oid", "nspname", "relname"), result.fields().stream().map(Field::name).toList());
        assertEquals(List.of(PgTypes.OID, PgTypes.NAME, PgTypes.NAME), result.fields().stream().map(Field::typeOid).toList());
        assertEquals(List.of("[16584, public, orders]"), rows(result));
        // A system view is off the search path: found only when the pattern names its schema.
        assertEquals(List.of(), rows(CatalogQueries.answer(lookup.replace("ORDERS", "tables"), SOURCE)));
    }

    @Test
    void psqlsListKeepsTheRelkindsAskedFor() {
        String list = """
                SELECT n.nspname as "Schema",
                  c.relname as "Name",
                  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' END as "Type",
                  pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
                FROM pg_catalog.pg_class c
                     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relkind IN ('v','')
                      AND n.nspname <> 'pg_catalog'
                      AND n.nspname !~ '^pg_toast'
                      AND n.nspname OPERATOR(pg_catalog.~) '^(sys|public)$' COLLATE pg_catalog.default
                ORDER BY 1,2;""";
        assertEquals(List.of("[public, order_notes, view, tester]", "[sys, tables, view, tester]"),
                rows(CatalogQueries.answer(list, SOURCE)));
    }

    @Test
    void columnsAndIndexesOfOneRelationByOid() {
        String columns = """
                SELECT a.attname,
                  pg_catalog.format_type(a.atttypid, a.atttypmod),
                  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)
                   FROM pg_catalog.pg_attrdef d
                   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),
                  a.attnotnull,
                  a.attidentity
                FROM pg_catalog.pg_attribute a
                WHERE a.attrelid = '16584' AND a.attnum > 0 AND NOT a.attisdropped
                ORDER BY a.attnum;""";
        assertEquals(List.of("[id, integer, null, true, a]", "[note, character varying(20), 'none', false, ]"),
                rows(CatalogQueries.answer(columns, SOURCE)));
        String indexes = "SELECT c2.relname, i.indisprimary, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true),"
                + " pg_catalog.pg_get_constraintdef(con.oid, true), contype"
                + " FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i"
                + " LEFT JOIN pg_catalog.pg_constraint con ON (conrelid = i.indrelid AND conindid = i.indexrelid)"
                + " WHERE c.oid = '16584' AND c.oid = i.indrelid AND i.indexrelid = c2.oid";
        assertEquals(List.of("[orders_pkey, true, CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (id),"
                + " PRIMARY KEY (id), p]"), rows(CatalogQueries.answer(indexes, SOURCE)));
    }

    @Test
    void catalogsColumbaHasNothingInAnswerNoRowsWithTheirColumns() {
        CatalogResult triggers = CatalogQueries.answer("SELECT t.tgname, pg_catalog.pg_get_triggerdef(t.oid, true)"
                + " FROM pg_catalog.pg_trigger t WHERE t.tgrelid = '16584'", SOURCE);
        assertEquals(List.of("tgname", "pg_get_triggerdef"), triggers.fields().stream().map(Field::name).toList());
        assertEquals(0, triggers.rows().size());
    }

    @Test
    void anItemOfARecognisedQueryThatIsNotKnownIsRefusedNotGuessed() {
        CatalogQueryException refused = assertThrows(CatalogQueryException.class, () -> CatalogQueries.answer(
                "SELECT pg_catalog.quote_ident(c.relname) FROM pg_catalog.pg_class c WHERE c.relkind IN ('r')",
                SOURCE));
        assertEquals("0A000", refused.sqlState());
        assertTrue(refused.getMessage().contains("quote_ident"), refused.getMessage());
    }

    @Test
    void anUnknownCatalogQueryIsRefusedWithFeatureNotSupported() {
        CatalogQueryException refused = assertThrows(CatalogQueryException.class,
                () -> CatalogQueries.answer("SELECT oprname FROM pg_catalog.pg_operator", SOURCE));
        assertEquals("0A000", refused.sqlState());
        assertTrue(refused.getMessage().contains("pg_operator"), refused.getMessage());
    }

    @Test
    void selectListsSplitAtTopLevelCommasAndNameTheirItems() {
        SelectList select = SelectList.of("SELECT result.PK_NAME AS \"PK_NAME\",  CASE WHEN a IN (1, 2) THEN 'x,y' END"
                + " AS kind, pg_catalog.format_type(a.atttypid, a.atttypmod), n.nspname FROM t");
        assertEquals(List.of("PK_NAME", "kind", "format_type", "nspname"),
                select.items().stream().map(SelectList.Item::name).toList());
        assertEquals("case when a in (1, 2) then 'x,y' end", select.items().get(1).expression());
        SelectList glued = SelectList.of("SELECT x.a AS \"A\"FROM (SELECT 1) x");
        assertEquals(List.of("A"), glued.items().stream().map(SelectList.Item::name).toList());
    }

    @Test
    void literalsAndLikePatternsReadAsPostgreSqlWritesThem() {
        assertEquals("it's", Literals.value("", "it''s"));
        assertEquals("a\nb'c", Literals.value("E", "a\\nb\\'c"));
        assertTrue(JdbcMetadata.like("AND c.relname LIKE E'order\\\\_notes'", "c\\.relname").orElseThrow()
                .matcher("ORDER_notes").matches());
        assertFalse(JdbcMetadata.like("AND c.relname LIKE 'order\\_notes'", "c\\.relname").orElseThrow()
                .matcher("orderXnotes").matches());
        assertEquals("orders", JdbcMetadata.equalTo("WHERE ct.relname = 'orders'", "ct\\.relname").orElseThrow());
    }
}
