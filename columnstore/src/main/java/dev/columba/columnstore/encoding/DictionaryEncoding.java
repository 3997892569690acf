package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;

/**
 * {@link EncodingKind#DICTIONARY} ({@code runLengthIds} false: ids as a packed stream, frame of
 * reference on the smallest id) and {@link EncodingKind#DICTIONARY_RUN_LENGTH} (true: ids as a run
 * stream). Applies to any kind whose segment comes with dictionaries holding all its values. The
 * header's dictionary references name each dictionary by id and entry count; a reader given other
 * dictionaries refuses the segment.
 */
record DictionaryEncoding(boolean runLengthIds) implements Encoding {

    @Override
    public EncodingKind kind() {
        return runLengthIds ? EncodingKind.DICTIONARY_RUN_LENGTH : EncodingKind.DICTIONARY;
    }

    @Override
    public boolean supports(ValueKind kind) {
        return true;
    }

    private static int idWidth(SegmentAnalysis analysis) {
        return SegmentFormat.bitWidth(analysis.maxId - analysis.minId);
    }

    @Override
    public long estimate(SegmentAnalysis analysis) {
        if (analysis.ids == null) {
            return NOT_APPLICABLE;
        }
        if (runLengthIds) {
            return prefixBytes(analysis) + RunLongs.bytes(analysis.idRunCount, idWidth(analysis),
                    RunLengthEncoding.lengthWidth(analysis.idRunCount, analysis.idMaxRunLength));
        }
        return prefixBytes(analysis) + SegmentFormat.PACKED_HEADER_BYTES
                + SegmentFormat.packedBytes(analysis.rowCount, idWidth(analysis));
    }

    @Override
    public long storedBytes(SegmentAnalysis analysis) {
        long segment = estimate(analysis);
        return segment == NOT_APPLICABLE || !analysis.usesSecondary ? segment : segment + analysis.secondary.sizeBytes();
    }

    @Override
    public void writeBody(SegmentAnalysis analysis, ByteWriter out) {
        int[] ids = analysis.ids;
        if (runLengthIds) {
            long[] values = new long[analysis.idRunCount];
            int[] lengths = new int[analysis.idRunCount];
            RunCounter runs = new RunCounter(values, lengths);
            for (int row = 0; row < analysis.rowCount; row++) {
                if (ids[row] < 0) {
                    runs.addNull();
                } else {
                    runs.add(ids[row]);
                }
            }
            runs.finish();
            RunLongs.write(out, values, lengths, analysis.idRunCount, analysis.minId, idWidth(analysis),
                    RunLengthEncoding.lengthWidth(analysis.idRunCount, analysis.idMaxRunLength));
            return;
        }
        out.putLong(analysis.minId);
        out.putByte(idWidth(analysis));
        BitPacker packer = new BitPacker(out, idWidth(analysis));
        for (int row = 0; row < analysis.rowCount; row++) {
            // A NULL row holds the smallest id: delta 0.
            packer.add(ids[row] < 0 ? 0 : ids[row] - analysis.minId);
        }
        packer.finish();
    }

    @Override
    public SegmentBody openBody(BodyContext context) {
        SegmentHeader header = context.header();
        Dictionary primary = referenced(context, "primary", header.primaryDictionaryId(), header.primaryEntryCount(),
                context.primary());
        Dictionary secondary = referenced(context, "secondary", header.secondaryDictionaryId(),
                header.secondaryEntryCount(), context.secondary());
        int idCount = header.primaryEntryCount() + header.secondaryEntryCount();
        if (runLengthIds) {
            RunLongs ids = RunLongs.read(context.payload(), context.offset(), context.limit(), context.rowCount(),
                    context.origin(), context.checked());
            context.checkEnd(ids.end());
            return new DictionaryBody(context.type(), context.kind(), null, ids, primary, header.primaryEntryCount(),
                    secondary, idCount, context.origin());
        }
        PackedLongs ids = PackedLongs.read(context.payload(), context.offset(), context.limit(), context.rowCount(),
                context.origin());
        context.checkEnd(ids.end());
        return new DictionaryBody(context.type(), context.kind(), ids, null, primary, header.primaryEntryCount(),
                secondary, idCount, context.origin());
    }

    /** The dictionary the header references, checked against the one given; null when none is referenced. */
    private static Dictionary referenced(BodyContext context, String role, int id, int entryCount, Dictionary given) {
        if (id == SegmentMetadata.NO_DICTIONARY) {
            return null;
        }
        if (given == null || given.id() != id || given.entryCount() != entryCount || !given.type().equals(context.type())) {
            throw SegmentFormat.corrupt(context.origin(), "segment refers to " + role + " dictionary " + id + " of "
                    + entryCount + " entries, given " + given);
        }
        return given;
    }
}
