package dev.columba.trino;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.Ranges;
import io.trino.spi.predicate.TupleDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pushed-down {@link TupleDomain} as the columnstore scan's column filters. Each filter accepts
 * every row the domain accepts and maybe more (the domain's span for a union of ranges, nothing for
 * a domain that lets NULL through with other values): Trino enforces the constraint itself, the
 * filters only let the scan eliminate rowgroups by their min/max and skip rows on encoded data.
 */
final class ColumnFilters {
    /** Longest IN list handed to the scan; a longer discrete set is filtered by its span. */
    static final int MAX_IN_VALUES = 256;

    private ColumnFilters() {
    }

    /** The filters for {@code constraint} over a table of {@code schema}; none for ALL (or NONE: the caller reads nothing). */
    static List<ColumnFilter> of(TupleDomain<ColumnHandle> constraint, TableSchema schema) {
        List<ColumnFilter> filters = new ArrayList<>();
        if (constraint.getDomains().isEmpty()) {
            return filters;
        }
        for (Map.Entry<ColumnHandle, Domain> entry : constraint.getDomains().get().entrySet()) {
            ColumbaColumnHandle column = (ColumbaColumnHandle) entry.getKey();
            SqlType type = schema.column(column.ordinal()).type();
            Domain domain = entry.getValue();
            if (domain.isAll()) {
                continue;
            }
            if (domain.isOnlyNull()) {
                filters.add(new ColumnFilter(column.ordinal(), ColumnPredicate.isNull()));
                continue;
            }
            if (domain.isNullAllowed()) {
                // NULL or some values: no conjunction of the scan's predicates says that exactly or wider.
                continue;
            }
            if (domain.getValues().isAll()) {
                filters.add(new ColumnFilter(column.ordinal(), ColumnPredicate.isNotNull()));
                continue;
            }
            Ranges ranges = domain.getValues().getRanges();
            if (domain.getValues().isDiscreteSet() && ranges.getRangeCount() <= MAX_IN_VALUES) {
                List<Object> values = new ArrayList<>();
                for (Object value : domain.getValues().getDiscreteSet()) {
                    values.add(TypeMapping.columbaValue(type, value));
                }
                filters.add(new ColumnFilter(column.ordinal(), values.size() == 1
                        ? ColumnPredicate.equal(values.getFirst()) : new ColumnPredicate.In(values)));
                continue;
            }
            Range span = ranges.getSpan();
            if (!span.isLowUnbounded()) {
                filters.add(new ColumnFilter(column.ordinal(), ColumnPredicate.compare(
                        span.isLowInclusive() ? ColumnPredicate.Operator.GREATER_OR_EQUAL : ColumnPredicate.Operator.GREATER,
                        TypeMapping.columbaValue(type, span.getLowValue().orElseThrow()))));
            }
            if (!span.isHighUnbounded()) {
                filters.add(new ColumnFilter(column.ordinal(), ColumnPredicate.compare(
                        span.isHighInclusive() ? ColumnPredicate.Operator.LESS_OR_EQUAL : ColumnPredicate.Operator.LESS,
                        TypeMapping.columbaValue(type, span.getHighValue().orElseThrow()))));
            }
            if (span.isLowUnbounded() && span.isHighUnbounded()) {
                filters.add(new ColumnFilter(column.ordinal(), ColumnPredicate.isNotNull()));
            }
        }
        return filters;
    }
}
