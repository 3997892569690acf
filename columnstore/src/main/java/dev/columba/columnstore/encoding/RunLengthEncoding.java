package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;

/**
 * {@link EncodingKind#RUN_LENGTH}: runs of equal stored values ({@link RunCounter} decides where
 * runs break); body is a run stream ({@link RunLongs}).
 */
record RunLengthEncoding() implements Encoding {

    @Override
    public EncodingKind kind() {
        return EncodingKind.RUN_LENGTH;
    }

    @Override
    public boolean supports(ValueKind kind) {
        return kind.fitsLong();
    }

    static int lengthWidth(int runCount, int maxRunLength) {
        return runCount == 0 ? 0 : SegmentFormat.bitWidth(maxRunLength - 1);
    }

    @Override
    public long estimate(SegmentAnalysis analysis) {
        if (!supports(analysis.kind)) {
            return NOT_APPLICABLE;
        }
        return prefixBytes(analysis) + RunLongs.bytes(analysis.runCount,
                SegmentFormat.bitWidth(analysis.maxStored - analysis.minStored),
                lengthWidth(analysis.runCount, analysis.maxRunLength));
    }

    @Override
    public void writeBody(SegmentAnalysis analysis, ByteWriter out) {
        long[] values = new long[analysis.runCount];
        int[] lengths = new int[analysis.runCount];
        RunCounter runs = new RunCounter(values, lengths);
        for (int row = 0; row < analysis.rowCount; row++) {
            if (analysis.isNull(row)) {
                runs.addNull();
            } else {
                runs.add(analysis.source.storedLong(row));
            }
        }
        runs.finish();
        // An all-NULL segment is one run of 0, and its reference is 0 too.
        RunLongs.write(out, values, lengths, analysis.runCount, analysis.minStored,
                SegmentFormat.bitWidth(analysis.maxStored - analysis.minStored),
                lengthWidth(analysis.runCount, analysis.maxRunLength));
    }

    @Override
    public SegmentBody openBody(BodyContext context) {
        RunLongs runs = RunLongs.read(context.payload(), context.offset(), context.limit(), context.rowCount(),
                context.origin(), context.checked());
        context.checkEnd(runs.end());
        return new RunBody(context.type(), context.kind(), runs);
    }
}
