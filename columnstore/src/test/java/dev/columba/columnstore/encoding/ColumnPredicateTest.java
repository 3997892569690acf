package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.EQUAL;
import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.GREATER;
import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.GREATER_OR_EQUAL;
import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.LESS;
import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.LESS_OR_EQUAL;
import static dev.columba.columnstore.encoding.ColumnPredicate.Operator.NOT_EQUAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rowgroup elimination on min/max and the reference semantics of predicates. */
class ColumnPredicateTest {

    private static boolean mayMatch(ColumnPredicate predicate) {
        // A segment of 100 rows, 10 NULL, values 10..20.
        return ColumnPredicate.mayMatch(SqlType.INT, 10, 20, 100, 10, predicate);
    }

    @Test
    void comparisonsEliminateOutsideMinAndMax() {
        assertFalse(mayMatch(ColumnPredicate.compare(EQUAL, 9)));
        assertTrue(mayMatch(ColumnPredicate.compare(EQUAL, 10)));
        assertTrue(mayMatch(ColumnPredicate.compare(EQUAL, 20)));
        assertFalse(mayMatch(ColumnPredicate.compare(EQUAL, 21)));
        assertFalse(mayMatch(ColumnPredicate.compare(LESS, 10)));
        assertTrue(mayMatch(ColumnPredicate.compare(LESS, 11)));
        assertTrue(mayMatch(ColumnPredicate.compare(LESS_OR_EQUAL, 10)));
        assertFalse(mayMatch(ColumnPredicate.compare(LESS_OR_EQUAL, 9)));
        assertFalse(mayMatch(ColumnPredicate.compare(GREATER, 20)));
        assertTrue(mayMatch(ColumnPredicate.compare(GREATER, 19)));
        assertTrue(mayMatch(ColumnPredicate.compare(GREATER_OR_EQUAL, 20)));
        assertFalse(mayMatch(ColumnPredicate.compare(GREATER_OR_EQUAL, 21)));
        assertTrue(mayMatch(ColumnPredicate.compare(NOT_EQUAL, 10)));
        assertFalse(ColumnPredicate.mayMatch(SqlType.INT, 7, 7, 5, 0, ColumnPredicate.compare(NOT_EQUAL, 7)));
        assertFalse(mayMatch(ColumnPredicate.compare(EQUAL, null)));
    }

    @Test
    void inListsAndNullTestsEliminate() {
        assertFalse(mayMatch(ColumnPredicate.in(1, 2, 30, null)));
        assertTrue(mayMatch(ColumnPredicate.in(1, 15)));
        assertFalse(mayMatch(ColumnPredicate.in()));
        assertTrue(mayMatch(ColumnPredicate.isNull()));
        assertTrue(mayMatch(ColumnPredicate.isNotNull()));
        assertFalse(ColumnPredicate.mayMatch(SqlType.INT, 10, 20, 100, 0, ColumnPredicate.isNull()));
        // Every row NULL: no min, no max, nothing but IS NULL can match.
        assertFalse(ColumnPredicate.mayMatch(SqlType.INT, null, null, 100, 100, ColumnPredicate.isNotNull()));
        assertFalse(ColumnPredicate.mayMatch(SqlType.INT, null, null, 100, 100, ColumnPredicate.compare(LESS, 5)));
        assertTrue(ColumnPredicate.mayMatch(SqlType.INT, null, null, 100, 100, ColumnPredicate.isNull()));
        assertFalse(ColumnPredicate.mayMatch(SqlType.INT, null, null, 0, 0, ColumnPredicate.isNull()));
    }

    @Test
    void eliminationUsesSegmentMetadata() {
        SegmentMetadata metadata = new SegmentMetadata(EncodingKind.DICTIONARY, false, 1000, 0, "apple", "melon", 300,
                0, -1, FallbackReason.NONE);
        SqlType type = SqlType.varchar(10);
        assertTrue(ColumnPredicate.mayMatch(type, metadata, ColumnPredicate.equal("kiwi")));
        assertFalse(ColumnPredicate.mayMatch(type, metadata, ColumnPredicate.equal("peach")));
        assertFalse(ColumnPredicate.mayMatch(type, metadata, ColumnPredicate.compare(LESS, "apple")));
    }

    @Test
    void decimalsCompareByValueWhateverTheScale() {
        SqlType type = SqlType.decimal(10, 2);
        assertTrue(ColumnPredicate.compare(LESS, new BigDecimal("1.005")).matches(type, new BigDecimal("1.00")));
        assertFalse(ColumnPredicate.compare(LESS, new BigDecimal("1.005")).matches(type, new BigDecimal("1.01")));
        assertTrue(ColumnPredicate.equal(new BigDecimal("1.5")).matches(type, new BigDecimal("1.50")));
        assertFalse(ColumnPredicate.mayMatch(type, new BigDecimal("1.01"), new BigDecimal("1.99"), 5, 0,
                ColumnPredicate.compare(LESS_OR_EQUAL, new BigDecimal("1.009"))));
    }

    @Test
    void charConstantsArePaddedAndStringsCompareByCodePoint() {
        assertTrue(ColumnPredicate.equal("ab").matches(SqlType.character(4), "ab  "));
        assertFalse(ColumnPredicate.equal("ab").matches(SqlType.varchar(4), "ab  "));
        // U+1F600 sorts after U+FFFF by code point, though its UTF-16 surrogates sort before.
        assertTrue(ColumnPredicate.compare(GREATER, "\uffff").matches(SqlType.varchar(4), "\ud83d\ude00"));
    }

    @Test
    void doublesFollowSqlEquality() {
        assertTrue(ColumnPredicate.equal(0.0).matches(SqlType.DOUBLE, -0.0));
        assertTrue(ColumnPredicate.equal(Double.NaN).matches(SqlType.DOUBLE, Double.NaN));
        assertTrue(ColumnPredicate.compare(GREATER, Double.POSITIVE_INFINITY).matches(SqlType.DOUBLE, Double.NaN));
        assertFalse(ColumnPredicate.compare(LESS, 0.0).matches(SqlType.DOUBLE, -0.0));
    }

    @Test
    void nullsMatchOnlyIsNull() {
        assertFalse(ColumnPredicate.compare(NOT_EQUAL, 5).matches(SqlType.INT, null));
        assertFalse(ColumnPredicate.in(5, null).matches(SqlType.INT, null));
        assertTrue(ColumnPredicate.isNull().matches(SqlType.INT, null));
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        assertFalse(new ColumnPredicate.In(withNull).matches(SqlType.INT, 5));
    }

    @Test
    void aConstantOfAnotherClassIsAWrongType() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> ColumnPredicate.equal(5L).matches(SqlType.INT, 5));
        assertEquals(ErrorCode.WRONG_TYPE, error.errorCode());
        assertEquals("[WRONG_TYPE] INT expects a Integer, got Long 5", error.getMessage());
    }
}
