package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;

/**
 * {@link EncodingKind#PLAIN}: every row's stored value (NULL rows zero, or an empty string);
 * strings as end offsets then bytes. Applies to every kind, so the chooser always has a candidate.
 */
record PlainEncoding() implements Encoding {

    @Override
    public EncodingKind kind() {
        return EncodingKind.PLAIN;
    }

    @Override
    public boolean supports(ValueKind kind) {
        return true;
    }

    @Override
    public long estimate(SegmentAnalysis analysis) {
        long values = analysis.kind == ValueKind.STRING
                ? (long) SegmentFormat.STRING_OFFSET_BYTES * analysis.rowCount + analysis.stringBytes
                : (long) analysis.kind.width() * analysis.rowCount;
        return prefixBytes(analysis) + values;
    }

    @Override
    public void writeBody(SegmentAnalysis analysis, ByteWriter out) {
        VectorSource source = analysis.source;
        ValueKind kind = analysis.kind;
        switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP -> {
                // As ValueKind.writeLong writes them (a NULL row's bytes zero), one width chosen per segment.
                int width = kind.width();
                for (int row = 0; row < analysis.rowCount; row++) {
                    long stored = analysis.isNull(row) ? 0 : source.storedLong(row);
                    switch (width) {
                        case Byte.BYTES -> out.putByte((int) stored);
                        case Integer.BYTES -> out.putInt((int) stored);
                        default -> out.putLong(stored);
                    }
                }
            }
            case DECIMAL128 -> {
                for (int row = 0; row < analysis.rowCount; row++) {
                    boolean isNull = analysis.isNull(row);
                    out.putLong(isNull ? 0 : source.decimalLow(row));
                    out.putLong(isNull ? 0 : source.decimalHigh(row));
                }
            }
            case STRING -> {
                long end = 0;
                for (int row = 0; row < analysis.rowCount; row++) {
                    end += analysis.isNull(row) ? 0 : source.stringLength(row);
                    out.putInt((int) end);
                }
                // The values' bytes, one copy per run of values that lie back to back in the vector
                // (all of them, as builders fill vectors): the same bytes as a copy per value.
                long runStart = 0;
                long runEnd = 0;
                for (int row = 0; row < analysis.rowCount; row++) {
                    if (analysis.isNull(row)) {
                        continue;
                    }
                    int start = source.stringStart(row);
                    int length = source.stringLength(row);
                    if (start != runEnd) {
                        out.putBytes(source.stringData(), runStart, runEnd - runStart);
                        runStart = start;
                        runEnd = start;
                    }
                    runEnd += length;
                }
                out.putBytes(source.stringData(), runStart, runEnd - runStart);
            }
        }
    }

    @Override
    public SegmentBody openBody(BodyContext context) {
        return PlainBody.read(context.type(), context.payload(), context.offset(), context.limit(), context.rowCount(),
                context.origin());
    }
}
