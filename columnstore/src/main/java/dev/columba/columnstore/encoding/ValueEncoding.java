package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;

/** {@link EncodingKind#VALUE}: frame of reference and bit-packing; body is a packed stream. */
record ValueEncoding() implements Encoding {

    @Override
    public EncodingKind kind() {
        return EncodingKind.VALUE;
    }

    @Override
    public boolean supports(ValueKind kind) {
        return kind.integral();
    }

    private static int width(SegmentAnalysis analysis) {
        return SegmentFormat.bitWidth(analysis.maxStored - analysis.minStored);
    }

    @Override
    public long estimate(SegmentAnalysis analysis) {
        if (!supports(analysis.kind)) {
            return NOT_APPLICABLE;
        }
        return prefixBytes(analysis) + SegmentFormat.PACKED_HEADER_BYTES
                + SegmentFormat.packedBytes(analysis.rowCount, width(analysis));
    }

    @Override
    public void writeBody(SegmentAnalysis analysis, ByteWriter out) {
        int width = width(analysis);
        long reference = analysis.minStored;
        out.putLong(reference);
        out.putByte(width);
        BitPacker packer = new BitPacker(out, width);
        VectorSource source = analysis.source;
        for (int row = 0; row < analysis.rowCount; row++) {
            // A NULL row holds the reference: delta 0.
            packer.add(analysis.isNull(row) ? 0 : source.storedLong(row) - reference);
        }
        packer.finish();
    }

    @Override
    public SegmentBody openBody(BodyContext context) {
        PackedLongs values = PackedLongs.read(context.payload(), context.offset(), context.limit(), context.rowCount(),
                context.origin());
        context.checkEnd(values.end());
        return new PackedBody(context.type(), context.kind(), values);
    }
}
