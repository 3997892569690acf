package dev.columba.columnstore.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** The order the scan's own MIN and MAX merge footer extremes of rowgroups in ({@link ColumnstoreScan#compareExtremes}). */
class CompareExtremesTest {
    @Test
    void stringsOrderByCodePointAsTheirUtf8BytesDo() {
        // U+FF61 is EF BD A1 in UTF-8, U+1F600 is F0 9F 98 80: byte (code point) order puts U+1F600
        // last, String.compareTo (UTF-16 units, a surrogate pair starting at D83D) first.
        String halfwidth = "\uFF61";
        String emoji = "\uD83D\uDE00";
        assertTrue(halfwidth.compareTo(emoji) > 0, "the case this test is about");
        assertTrue(ColumnstoreScan.compareExtremes(halfwidth, emoji) < 0);
        assertTrue(ColumnstoreScan.compareExtremes(emoji, halfwidth) > 0);
        assertTrue(ColumnstoreScan.compareExtremes("ab", "abc") < 0, "a prefix first");
        assertTrue(ColumnstoreScan.compareExtremes("Z", "a") < 0);
        assertTrue(ColumnstoreScan.compareExtremes("\u00E9", "z") > 0, "unsigned bytes: C3 A9 after 7A");
        assertTrue(ColumnstoreScan.compareExtremes("ab ", "ab") > 0, "a CHAR's padding counts");
        assertEquals(0, ColumnstoreScan.compareExtremes(emoji, "\uD83D\uDE00"));
    }

    @Test
    void otherValuesInTheirNaturalOrder() {
        assertTrue(ColumnstoreScan.compareExtremes(-5L, 3L) < 0);
        assertTrue(ColumnstoreScan.compareExtremes(new BigDecimal("1.50"), new BigDecimal("1.4")) > 0);
        assertTrue(ColumnstoreScan.compareExtremes(LocalDate.of(1992, 1, 2), LocalDate.of(1998, 12, 1)) < 0);
    }
}
