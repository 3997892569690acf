package dev.columba.storage.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The catalog entries' bytes, pinned (docs/format/catalog.md): version 1's table and index, which
 * versions 2 to 4 still write, version 2's view, version 3's partition function and scheme, and
 * version 4's index with a descending key column, version 5's login, and version 7's table with
 * binary and UUID columns. A failure here means the format changed: bump the
 * version and add a History entry, or undo the change. The corrupt cases expect their exact error.
 */
class CatalogFormatGoldenTest {
    private static final HexFormat HEX = HexFormat.of();

    private static final String TABLE_V1 = "01" + "01" + "00000064" + "0001" + "74" + "00" + "01" + "0000000000000005"
            + "0000000000000006" + "0000000000000003" + "0001" + "0000" + "0002" + "0002" + "6964" + "00" + "02"
            + "0001" + "73" + "01" + "06" + "0000000a" + "0000";
    private static final CatalogEntry.Table TABLE = new CatalogEntry.Table(100, "t",
            TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("s", SqlType.varchar(10))),
            CatalogEntry.Organization.CLUSTERED, List.of(0), true, 5, 6, Map.of(), 3);

    private static final String INDEX_V1 = "01" + "02" + "00000065" + "0002" + "6978" + "00000064" + "00"
            + "0000000000000007" + "0000000000000008" + "0001" + "0001";
    private static final CatalogEntry.Index INDEX = new CatalogEntry.Index(101, "ix", 100, List.of(1), false, 7, 8);

    private static final String INDEX_V4 = "04" + "02" + "00000069" + "0002" + "6978" + "00000064" + "01"
            + "0000000000000007" + "0000000000000008" + "0002" + "0001" + "0000" + "01" + "00";
    private static final CatalogEntry.Index DESCENDING_INDEX = new CatalogEntry.Index(105, "ix", 100, List.of(1, 0),
            List.of(true, false), true, 7, 8);

    private static final String VIEW_V2 = "02" + "03" + "00000066" + "0001" + "76" + "00000008" + "53454c4543542031"
            + "0001" + "0001" + "78" + "00" + "02";
    private static final CatalogEntry.View VIEW = new CatalogEntry.View(102, "v", "SELECT 1",
            TableSchema.of(Column.notNull("x", SqlType.INT)));

    private static final String FUNCTION_V3 = "03" + "04" + "00000067" + "0002" + "7066" + "00000008" + "435245415445202e";
    private static final CatalogEntry.PartitionObject FUNCTION = new CatalogEntry.PartitionObject(103, "pf",
            CatalogEntry.PartitionObject.Kind.FUNCTION, "CREATE .");
    private static final String SCHEME_V3 = "03" + "05" + "00000068" + "0002" + "7073" + "00000001" + "78";
    private static final CatalogEntry.PartitionObject SCHEME = new CatalogEntry.PartitionObject(104, "ps",
            CatalogEntry.PartitionObject.Kind.SCHEME, "x");

    private static final String VERIFIER = "SCRAM-SHA-256$4096:AA==$AA==:AA==";
    private static final String LOGIN_V5 = "05" + "06" + "0000006a" + "0005" + "616c696365" + "0021"
            + "534352414d2d5348412d32353624343039363a41413d3d2441413d3d3a41413d3d";
    private static final CatalogEntry.Login LOGIN = new CatalogEntry.Login(106, "alice", VERIFIER, false);
    private static final String SYSADMIN_V6 = "06" + LOGIN_V5.substring(2) + "01";
    private static final CatalogEntry.Login SYSADMIN = new CatalogEntry.Login(106, "alice", VERIFIER, true);

    private static final String BINARY_TABLE_V7 = "07" + "01" + "0000006b" + "0001" + "74" + "01" + "00"
            + "0000000000000000" + "0000000000000006" + "0000000000000000" + "0000" + "0003"
            + "0001" + "62" + "01" + "0a" + "00000008"
            + "0001" + "66" + "01" + "0b" + "00000004"
            + "0001" + "75" + "00" + "0c" + "0000";
    private static final CatalogEntry.Table BINARY_TABLE = new CatalogEntry.Table(107, "t",
            TableSchema.of(Column.nullable("b", SqlType.varbinary(8)), Column.nullable("f", SqlType.binary(4)),
                    Column.notNull("u", SqlType.UUID)),
            CatalogEntry.Organization.HEAP, List.of(), false, 0, 6, Map.of(), 0);

    @Test
    void aTableWithBinaryOrUuidColumnsIsAVersionSevenEntry() {
        assertEquals(BINARY_TABLE_V7, HEX.formatHex(CatalogFormat.encode(BINARY_TABLE)));
        assertEquals(BINARY_TABLE, CatalogFormat.decode(HEX.parseHex(BINARY_TABLE_V7)));
        // Without those types a table keeps version 1's bytes (tablesAndIndexesKeepVersionOnesBytes).
        ColumbaException corrupt = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("01" + BINARY_TABLE_V7.substring(2))));
        assertEquals("[INDEX_CORRUPT] catalog entry of version 1 has type code 10, which needs version 7",
                corrupt.getMessage());
    }

    @Test
    void aLoginIsAVersionFiveEntry() {
        assertEquals(LOGIN_V5, HEX.formatHex(CatalogFormat.encode(LOGIN)));
        assertEquals(LOGIN, CatalogFormat.decode(HEX.parseHex(LOGIN_V5)));
        ColumbaException corrupt = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("04" + LOGIN_V5.substring(2))));
        assertEquals("[INDEX_CORRUPT] catalog entry of version 4 is a login, which needs version 5",
                corrupt.getMessage());
        assertTrue(!LOGIN.toString().contains("SCRAM"), "a login's text form hides its verifier");
    }

    @Test
    void aSysadminLoginIsAVersionSixEntryAndOthersStayVersionFive() {
        assertEquals(SYSADMIN_V6, HEX.formatHex(CatalogFormat.encode(SYSADMIN)));
        assertEquals(SYSADMIN, CatalogFormat.decode(HEX.parseHex(SYSADMIN_V6)));
        // A version-5 login (written before server roles) reads as no role's member; so does a version 6 with none.
        assertEquals(LOGIN, CatalogFormat.decode(HEX.parseHex(LOGIN_V5)));
        assertEquals(LOGIN, CatalogFormat.decode(HEX.parseHex("06" + LOGIN_V5.substring(2) + "00")));
        ColumbaException unknownRole = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("06" + LOGIN_V5.substring(2) + "03")));
        assertEquals("[INDEX_CORRUPT] catalog entry of login alice has server roles 3, of which only 1 (sysadmin)"
                + " is defined", unknownRole.getMessage());
        ColumbaException tooNew = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("08" + LOGIN_V5.substring(2) + "01")));
        assertEquals(ErrorCode.FORMAT_TOO_NEW, tooNew.errorCode());
    }

    @Test
    void partitionFunctionsAndSchemesAreVersionThreeEntries() {
        assertEquals(FUNCTION_V3, HEX.formatHex(CatalogFormat.encode(FUNCTION)));
        assertEquals(FUNCTION, CatalogFormat.decode(HEX.parseHex(FUNCTION_V3)));
        assertEquals(SCHEME_V3, HEX.formatHex(CatalogFormat.encode(SCHEME)));
        assertEquals(SCHEME, CatalogFormat.decode(HEX.parseHex(SCHEME_V3)));
        ColumbaException corrupt = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("02" + SCHEME_V3.substring(2))));
        assertEquals("[INDEX_CORRUPT] catalog entry of version 2 is a partition function or scheme, which needs version 3",
                corrupt.getMessage());
    }

    @Test
    void tablesAndIndexesKeepVersionOnesBytes() {
        assertEquals(TABLE_V1, HEX.formatHex(CatalogFormat.encode(TABLE)));
        assertEquals(TABLE, CatalogFormat.decode(HEX.parseHex(TABLE_V1)));
        assertEquals(INDEX_V1, HEX.formatHex(CatalogFormat.encode(INDEX)));
        assertEquals(INDEX, CatalogFormat.decode(HEX.parseHex(INDEX_V1)));
    }

    @Test
    void anIndexWithADescendingKeyColumnIsAVersionFourEntry() {
        assertEquals(INDEX_V4, HEX.formatHex(CatalogFormat.encode(DESCENDING_INDEX)));
        assertEquals(DESCENDING_INDEX, CatalogFormat.decode(HEX.parseHex(INDEX_V4)));
        // Version 1's index reads as all ascending.
        assertEquals(List.of(false), ((CatalogEntry.Index) CatalogFormat.decode(HEX.parseHex(INDEX_V1))).descending());
        ColumbaException badDirection = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex(INDEX_V4.substring(0, INDEX_V4.length() - 2) + "02")));
        assertEquals("[INDEX_CORRUPT] catalog entry of index ix has direction 2 for key column 1, not 0 or 1",
                badDirection.getMessage());
    }

    @Test
    void aViewIsAVersionTwoEntry() {
        assertEquals(VIEW_V2, HEX.formatHex(CatalogFormat.encode(VIEW)));
        assertEquals(VIEW, CatalogFormat.decode(HEX.parseHex(VIEW_V2)));
    }

    @Test
    void aLongDefinitionInUnicodeRoundTrips() {
        String definition = "SELECT 'ü日本' AS x FROM t WHERE " + "id > 0 AND ".repeat(10_000) + "TRUE";
        CatalogEntry.View view = new CatalogEntry.View(103, "wide", definition,
                TableSchema.of(Column.nullable("x", SqlType.varchar(3))));
        byte[] bytes = CatalogFormat.encode(view);
        assertTrue(bytes.length > 65_535, "beyond writeUTF's limit");
        assertEquals(view, CatalogFormat.decode(bytes));
    }

    @Test
    void aViewInAVersionOneEntryIsCorrupt() {
        ColumbaException corrupt = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("01" + VIEW_V2.substring(2))));
        assertEquals(ErrorCode.INDEX_CORRUPT, corrupt.errorCode());
        assertEquals("[INDEX_CORRUPT] catalog entry of version 1 is a view, which needs version 2", corrupt.getMessage());
    }

    @Test
    void aNewerVersionIsTooNew() {
        ColumbaException tooNew = assertThrows(ColumbaException.class,
                () -> CatalogFormat.decode(HEX.parseHex("08" + VIEW_V2.substring(2))));
        assertEquals(ErrorCode.FORMAT_TOO_NEW, tooNew.errorCode());
        assertEquals("[FORMAT_TOO_NEW] catalog entry has format version 8, newer than this build (7)", tooNew.getMessage());
    }

    @Test
    void aDefinitionLengthOutsideTheEntryIsCorrupt() {
        byte[] empty = HEX.parseHex(VIEW_V2.replace("0000000853454c4543542031", "00000000"));
        ColumbaException zero = assertThrows(ColumbaException.class, () -> CatalogFormat.decode(empty));
        assertEquals(ErrorCode.INDEX_CORRUPT, zero.errorCode());
        assertEquals("[INDEX_CORRUPT] catalog entry of view v has a definition of 0 bytes, with 7 left", zero.getMessage());
        byte[] overlong = HEX.parseHex(VIEW_V2.replace("00000008", "00000100"));
        ColumbaException past = assertThrows(ColumbaException.class, () -> CatalogFormat.decode(overlong));
        assertEquals(ErrorCode.INDEX_CORRUPT, past.errorCode());
        assertEquals("[INDEX_CORRUPT] catalog entry of view v has a definition of 256 bytes, with 15 left", past.getMessage());
    }

    @Test
    void aTruncatedEntryIsCorrupt() {
        byte[] truncated = HEX.parseHex(TABLE_V1.substring(0, TABLE_V1.length() - 8));
        ColumbaException corrupt = assertThrows(ColumbaException.class, () -> CatalogFormat.decode(truncated));
        assertEquals(ErrorCode.INDEX_CORRUPT, corrupt.errorCode());
    }
}
