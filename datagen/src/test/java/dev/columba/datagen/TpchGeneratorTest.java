package dev.columba.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.datagen.TpchGenerator.Table;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TPC-H through io.trino.tpch: the specification's row counts, dbgen's Q6 answer, ranges across
 * the library's partitions, and agreement with the library row for row.
 */
class TpchGeneratorTest extends TableGeneratorContractTest {
    private static final double SCALE_FACTOR = 0.01;
    /** Small blocks, so SF 0.01 has 15 blocks of orders and lineitem and 2 of part and partsupp. */
    private static final long SMALL_BLOCK = 1_000;

    @Override
    protected List<TableGenerator> newGenerators() {
        List<TableGenerator> generators = new ArrayList<>();
        for (Table table : Table.values()) {
            generators.add(TpchGenerator.withBlockParentRows(table, SCALE_FACTOR, SMALL_BLOCK));
        }
        return generators;
    }

    @Test
    void rowCountsAtScaleFactorOneHundredthFollowTheSpecification() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("region", 5L);
        expected.put("nation", 25L);
        expected.put("part", 2_000L);
        expected.put("supplier", 100L);
        expected.put("partsupp", 8_000L);
        expected.put("customer", 1_500L);
        expected.put("orders", 15_000L);
        expected.put("lineitem", 60_175L);
        Map<String, Long> actual = new LinkedHashMap<>();
        for (TpchGenerator generator : TpchGenerator.all(SCALE_FACTOR)) {
            actual.put(generator.tableName(), generator.rowCount());
        }
        assertEquals(expected, actual);
    }

    /** The line-count replay against dbgen's published lineitem cardinalities. */
    @Test
    void lineitemCountsMatchDbgenAtLargerScaleFactors() {
        assertEquals(600_572L, TpchGenerator.of(Table.LINEITEM, 0.1).rowCount());
        assertEquals(6_001_215L, TpchGenerator.of(Table.LINEITEM, 1).rowCount());
        assertEquals(59_986_052L, TpchGenerator.of(Table.LINEITEM, 10).rowCount());
    }

    /** Every row and every value as the library makes it when asked for the whole table at once. */
    @Test
    void lineitemRowsAreTheLibrarysRows() {
        Iterator<LineItem> library = new LineItemGenerator(SCALE_FACTOR, 1, 1).iterator();
        RowCursor cursor = TpchGenerator.withBlockParentRows(Table.LINEITEM, SCALE_FACTOR, SMALL_BLOCK).cursor();
        while (cursor.next()) {
            LineItem item = library.next();
            Object[] expected = {
                item.orderKey(), (int) item.partKey(), (int) item.supplierKey(), item.lineNumber(),
                BigDecimal.valueOf(item.quantity()).setScale(2), BigDecimal.valueOf(item.extendedPriceInCents(), 2),
                BigDecimal.valueOf(item.discountPercent(), 2), BigDecimal.valueOf(item.taxPercent(), 2),
                item.returnFlag(), item.status(), LocalDate.ofEpochDay(item.shipDate()),
                LocalDate.ofEpochDay(item.commitDate()), LocalDate.ofEpochDay(item.receiptDate()),
                item.shipInstructions(), item.shipMode(), item.comment(),
            };
            assertArrayEquals(expected, cursor.row(), "lineitem row " + cursor.rowIndex());
        }
        assertTrue(!library.hasNext(), "the library has more line items than the generator");
    }

    @Test
    void blockSizeDoesNotChangeTheRows() {
        for (Table table : List.of(Table.ORDERS, Table.PARTSUPP, Table.LINEITEM)) {
            TpchGenerator blocked = TpchGenerator.withBlockParentRows(table, SCALE_FACTOR, 777);
            TpchGenerator whole = TpchGenerator.of(table, SCALE_FACTOR);
            assertSameRows(collect(whole.cursor()), collect(blocked.cursor()), table.tableName());
        }
    }

    @Test
    void theFirstLineitemIsDbgens() {
        RowCursor cursor = TpchGenerator.of(Table.LINEITEM, SCALE_FACTOR).cursor(0, 1);
        assertTrue(cursor.next());
        Object[] row = cursor.row();
        assertEquals(1L, row[0]);
        assertEquals(1, row[3]);
        assertEquals(new BigDecimal("17.00"), row[4]);
        assertEquals(new BigDecimal("24710.35"), row[5]);
        assertEquals(new BigDecimal("0.04"), row[6]);
        assertEquals(new BigDecimal("0.02"), row[7]);
        assertEquals("N", row[8]);
        assertEquals("O", row[9]);
        assertEquals(LocalDate.of(1996, 3, 13), row[10]);
        assertEquals("DELIVER IN PERSON", row[13]);
        assertEquals("TRUCK", row[14]);
    }

    /**
     * TPC-H Q6: {@code sum(l_extendedprice * l_discount)} over 1994 shipments with discounts of
     * 0.05 to 0.07 and quantities under 24. 1193053.2253 is dbgen's answer at SF 0.01.
     */
    @Test
    void q6RevenueIsDbgensAnswerOnEveryRun() {
        BigDecimal first = q6Revenue(TpchGenerator.of(Table.LINEITEM, SCALE_FACTOR));
        BigDecimal second = q6Revenue(TpchGenerator.withBlockParentRows(Table.LINEITEM, SCALE_FACTOR, SMALL_BLOCK));
        assertTrue(first.signum() > 0);
        assertEquals(first, second);
        assertEquals(new BigDecimal("1193053.2253"), first);
    }

    private static BigDecimal q6Revenue(TpchGenerator lineitem) {
        LocalDate from = LocalDate.of(1994, 1, 1);
        LocalDate to = LocalDate.of(1995, 1, 1);
        BigDecimal lowDiscount = new BigDecimal("0.05");
        BigDecimal highDiscount = new BigDecimal("0.07");
        BigDecimal maxQuantity = new BigDecimal("24");
        BigDecimal revenue = BigDecimal.ZERO;
        RowCursor cursor = lineitem.cursor();
        while (cursor.next()) {
            Object[] row = cursor.row();
            LocalDate shipDate = (LocalDate) row[10];
            BigDecimal discount = (BigDecimal) row[6];
            if (!shipDate.isBefore(from) && shipDate.isBefore(to) && discount.compareTo(lowDiscount) >= 0
                    && discount.compareTo(highDiscount) <= 0 && ((BigDecimal) row[4]).compareTo(maxQuantity) < 0) {
                revenue = revenue.add(((BigDecimal) row[5]).multiply(discount));
            }
        }
        return revenue;
    }

    /** A library whose partitions disagree with the generator's row bookkeeping is an error, never shifted rows. */
    @Test
    void aLibraryThatDisagreesWithTheBlockCountsFailsLoudly() {
        TpchTableMapping<?> lineitem = TpchTables.mapping(Table.LINEITEM);
        RowCursor tooMany = new TpchBlockCursor<>(lineitem, SCALE_FACTOR, new long[] {0, 10, 60_175}, 2, 0, 60_175);
        ColumbaException error = assertThrows(ColumbaException.class, () -> collect(tooMany));
        assertEquals(ErrorCode.INTERNAL, error.errorCode());
        assertEquals("[INTERNAL] io.trino.tpch generated more rows than the 10 counted in partition 1 of 2 of lineitem"
                + " at scale factor 0.01: the library's random streams differ from the ones this generator replays",
                error.getMessage());

        RowCursor tooFew = new TpchBlockCursor<>(lineitem, SCALE_FACTOR, new long[] {0, 40_000, 60_175}, 2, 0, 60_175);
        error = assertThrows(ColumbaException.class, () -> collect(tooFew));
        assertTrue(error.getMessage().contains("fewer rows than the 40000 counted in partition 1 of 2"), error.getMessage());
    }

    @Test
    void tablesLoadInReferenceOrder() {
        List<String> names = new ArrayList<>();
        TpchGenerator.all(SCALE_FACTOR).forEach(generator -> names.add(generator.tableName()));
        assertEquals(List.of("region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"), names);
    }

    @Test
    void scaleFactorsOutsideTheSupportedRangeAreRejected() {
        for (double scaleFactor : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY, 20_000}) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> TpchGenerator.of(Table.ORDERS, scaleFactor));
            assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
            assertEquals("[INVALID_ARGUMENT] TPC-H scale factor " + scaleFactor
                    + " must be greater than 0 and at most 10000.0", error.getMessage());
        }
    }

    @Test
    void aTinyScaleFactorGivesEmptyTablesNotErrors() {
        TpchGenerator supplier = TpchGenerator.of(Table.SUPPLIER, 0.00001);
        assertEquals(0, supplier.rowCount());
        assertTrue(!supplier.cursor().next());
        assertEquals(25, TpchGenerator.of(Table.NATION, 0.00001).rowCount());
    }
}
