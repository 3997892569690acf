package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.ColumnstoreLayout.FOOTER_ENTRY_FIXED;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_BLOBS;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_COLUMNS;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_CRC;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_FLAGS;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_ROWGROUP_ID;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_ROWS;
import static dev.columba.cli.inspect.ColumnstoreLayout.HEADER_VERSION;
import static dev.columba.cli.inspect.ColumnstoreLayout.TRAILER_FOOTER_CRC;
import static dev.columba.cli.inspect.ColumnstoreLayout.TRAILER_FOOTER_LENGTH;
import static dev.columba.cli.inspect.ColumnstoreLayout.TRAILER_MAGIC;
import static dev.columba.columnstore.file.RowgroupFileFormat.HEADER_SIZE;
import static dev.columba.columnstore.file.RowgroupFileFormat.MAGIC;
import static dev.columba.columnstore.file.RowgroupFileFormat.SEGMENT_ALIGNMENT;
import static dev.columba.columnstore.file.RowgroupFileFormat.TRAILER_SIZE;
import static dev.columba.columnstore.file.RowgroupFileFormat.VERSION;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a rowgroup file (docs/format/rowgroup-file.md) without trusting it: the header, the trailer
 * and the footer entries as found, every length checked against the file before use, so that a
 * truncated or overwritten file is a list of {@link #problems()} naming offsets and values, never an
 * exception. The columnstore's {@code RowgroupFile} refuses such a file at its first problem; a
 * person debugging it wants to see the rest. Owns the open file until {@link #close()}.
 */
final class RowgroupFileReader implements AutoCloseable {
    /** Bytes read at a time when computing a blob's checksum: the file is never held whole. */
    private static final int CHUNK = 1 << 20;

    /** The header's fields as found; {@code computedCrc} is the CRC32C of its first 60 bytes. */
    record Header(long magic, int version, int flags, int rowgroupId, int rows, int columns, int blobs, int storedCrc,
                  int computedCrc) {
        boolean checksumOk() {
            return storedCrc == computedCrc;
        }
    }

    /** Where the trailer says the footer is, and its checksum. */
    record Footer(long offset, int length, int storedCrc, int computedCrc) {
        boolean checksumOk() {
            return storedCrc == computedCrc;
        }
    }

    /**
     * One footer entry: a blob's place in the file, its stored CRC32C and its metadata.
     *
     * @param entryOffset where the footer entry itself starts in the file
     */
    record Blob(int index, long offset, long length, int storedCrc, byte[] metadata, long entryOffset) {
    }

    /** A segment or dictionary magic found at an 8 KB boundary, when the footer cannot say where blobs are. */
    record Found(long offset, boolean segment) {
    }

    private final ReadOnlyFile file;
    private final long size;
    private final Header header;
    private final Footer footer;
    private final List<Blob> blobs;
    private final List<String> problems;

    private RowgroupFileReader(ReadOnlyFile file, long size, Header header, Footer footer, List<Blob> blobs,
                               List<String> problems) {
        this.file = file;
        this.size = size;
        this.header = header;
        this.footer = footer;
        this.blobs = blobs;
        this.problems = problems;
    }

    /** Opens and reads the structure of the rowgroup file at {@code path}. */
    static RowgroupFileReader open(Path path) {
        ReadOnlyFile file = ReadOnlyFile.open(path);
        try {
            long size = file.size();
            List<String> problems = new ArrayList<>();
            String name = path.toString();
            Header header = readHeader(file, size, name, problems);
            Footer footer = readFooter(file, size, name, problems);
            List<Blob> blobs = footer == null ? List.of() : readEntries(file, footer, header, name, problems);
            return new RowgroupFileReader(file, size, header, footer, blobs, problems);
        } catch (RuntimeException failure) {
            file.close();
            throw failure;
        }
    }

    private static Header readHeader(ReadOnlyFile file, long size, String name, List<String> problems) {
        if (size < HEADER_SIZE) {
            problems.add(name + " is " + size + " bytes long, shorter than its " + HEADER_SIZE + "-byte header: the file is "
                    + "cut short");
            return null;
        }
        byte[] bytes = file.bytes(0, HEADER_SIZE);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, HEADER_CRC);
        Header header = new Header(buffer.getLong(0), buffer.getInt(HEADER_VERSION), buffer.getInt(HEADER_FLAGS),
                buffer.getInt(HEADER_ROWGROUP_ID), buffer.getInt(HEADER_ROWS), Short.toUnsignedInt(buffer.getShort(HEADER_COLUMNS)),
                Short.toUnsignedInt(buffer.getShort(HEADER_BLOBS)), buffer.getInt(HEADER_CRC), (int) crc.getValue());
        if (header.magic() != MAGIC) {
            problems.add(String.format("%s (offset 0): magic 0x%016x, expected 0x%016x (\"CLMBRGRP\")", name, header.magic(),
                    MAGIC));
        }
        if (header.version() > VERSION) {
            problems.add(name + " (offset " + HEADER_VERSION + "): format version " + header.version()
                    + " is newer than this build reads (" + VERSION + ")");
        } else if (header.version() < 1) {
            problems.add(name + " (offset " + HEADER_VERSION + "): format version " + header.version()
                    + ", expected 1 to " + VERSION);
        }
        if (!header.checksumOk()) {
            problems.add(name + " (offset " + HEADER_CRC + "): header checksum BAD: stored "
                    + ValueText.hex32(header.storedCrc()) + ", computed " + ValueText.hex32(header.computedCrc()));
        }
        if (header.blobs() < header.columns()) {
            problems.add(name + " (offset " + HEADER_BLOBS + "): " + header.blobs() + " blobs for " + header.columns()
                    + " columns (every column has a segment)");
        }
        return header;
    }

    private static Footer readFooter(ReadOnlyFile file, long size, String name, List<String> problems) {
        if (size < HEADER_SIZE + TRAILER_SIZE) {
            if (size >= HEADER_SIZE) {
                problems.add(name + " is " + size + " bytes long, shorter than a header and a trailer ("
                        + (HEADER_SIZE + TRAILER_SIZE) + " bytes): the file is cut short");
            }
            return null;
        }
        long trailer = size - TRAILER_SIZE;
        ByteBuffer buffer = ByteBuffer.wrap(file.bytes(trailer, TRAILER_SIZE)).order(ByteOrder.LITTLE_ENDIAN);
        long magic = buffer.getLong(TRAILER_MAGIC);
        if (magic != MAGIC) {
            problems.add(String.format("%s (offset %d): the file ends with 0x%016x instead of the trailer magic "
                    + "CLMBRGRP: it is cut short or overwritten, and the footer cannot be found", name,
                    trailer + TRAILER_MAGIC, magic));
            return null;
        }
        long footerOffset = buffer.getLong(0);
        int footerLength = buffer.getInt(TRAILER_FOOTER_LENGTH);
        if (footerOffset < HEADER_SIZE || footerLength < 0 || footerOffset + footerLength != trailer) {
            problems.add(name + " (offset " + trailer + "): the trailer names a footer at offset " + footerOffset + " of "
                    + footerLength + " bytes, which does not end at the trailer (" + trailer + ")");
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(file.bytes(footerOffset, footerLength));
        Footer footer = new Footer(footerOffset, footerLength, buffer.getInt(TRAILER_FOOTER_CRC), (int) crc.getValue());
        if (!footer.checksumOk()) {
            problems.add(name + " (offset " + footerOffset + "): footer checksum BAD: stored "
                    + ValueText.hex32(footer.storedCrc()) + ", computed " + ValueText.hex32(footer.computedCrc())
                    + "; its entries are shown as found");
        }
        return footer;
    }

    private static List<Blob> readEntries(ReadOnlyFile file, Footer footer, Header header, String name,
                                          List<String> problems) {
        byte[] bytes = file.bytes(footer.offset(), footer.length());
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Blob> blobs = new ArrayList<>();
        int at = 0;
        while (at < bytes.length) {
            long entryOffset = footer.offset() + at;
            int index = blobs.size();
            if (at + FOOTER_ENTRY_FIXED > bytes.length) {
                problems.add(name + " (offset " + entryOffset + "): footer entry " + index + " needs " + FOOTER_ENTRY_FIXED
                        + " bytes, the footer has " + (bytes.length - at) + " left");
                break;
            }
            long offset = buffer.getLong(at);
            long length = buffer.getLong(at + 8);
            int crc = buffer.getInt(at + 16);
            int metadataLength = buffer.getInt(at + 20);
            if (metadataLength < 0 || metadataLength > bytes.length - at - FOOTER_ENTRY_FIXED) {
                problems.add(name + " (offset " + (entryOffset + 20) + "): footer entry " + index + " has " + metadataLength
                        + " bytes of metadata, the footer has " + (bytes.length - at - FOOTER_ENTRY_FIXED) + " left");
                break;
            }
            if (offset < HEADER_SIZE || length < 0 || offset > footer.offset() - length) {
                problems.add(name + " (offset " + entryOffset + "): footer entry " + index + " places its blob at offset "
                        + offset + ", " + length + " bytes long, outside the blobs' area [" + HEADER_SIZE + ", "
                        + footer.offset() + ")");
                break;
            }
            if (offset % SEGMENT_ALIGNMENT != 0) {
                problems.add(name + " (offset " + entryOffset + "): blob " + index + " starts at offset " + offset
                        + ", not on an " + SEGMENT_ALIGNMENT + "-byte boundary");
            }
            byte[] metadata = new byte[metadataLength];
            System.arraycopy(bytes, at + FOOTER_ENTRY_FIXED, metadata, 0, metadataLength);
            blobs.add(new Blob(index, offset, length, crc, metadata, entryOffset));
            at += FOOTER_ENTRY_FIXED + metadataLength;
        }
        if (header != null && header.checksumOk() && at == bytes.length && blobs.size() != header.blobs()) {
            problems.add(name + " (offset " + footer.offset() + "): the footer has " + blobs.size()
                    + " entries, the header says " + header.blobs() + " blobs");
        }
        return blobs;
    }

    Path path() {
        return file.path();
    }

    long size() {
        return size;
    }

    /** The header, or null when the file is shorter than one. */
    Header header() {
        return header;
    }

    /** The footer, or null when the trailer cannot be trusted to find it. */
    Footer footer() {
        return footer;
    }

    /** The footer's entries that could be read, in order. */
    List<Blob> blobs() {
        return blobs;
    }

    /** What is wrong with the header, trailer and footer, each naming the file and an offset. */
    List<String> problems() {
        return problems;
    }

    /** The CRC32C of the blob's bytes, read in chunks. */
    int checksum(Blob blob) {
        CRC32C crc = new CRC32C();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(CHUNK);
            for (long done = 0; done < blob.length(); ) {
                long length = Math.min(CHUNK, blob.length() - done);
                long read = file.read(blob.offset() + done, buffer.asSlice(0, length));
                if (read <= 0) {
                    break;
                }
                crc.update(buffer.asSlice(0, read).asByteBuffer());
                done += read;
            }
        }
        return (int) crc.getValue();
    }

    /**
     * The blob's bytes, on the heap. Segments and dictionaries are at most a few megabytes (a
     * rowgroup's column); a length that does not fit an array is refused by the caller's check.
     */
    byte[] bytes(Blob blob) {
        return file.bytes(blob.offset(), Math.toIntExact(blob.length()));
    }

    /** Up to {@code length} bytes from {@code offset}. */
    byte[] bytes(long offset, int length) {
        return file.bytes(offset, length);
    }

    /**
     * The segment and dictionary magics at 8 KB boundaries: where blobs start when the footer is
     * lost, since every blob starts on one.
     */
    List<Found> findBlobs() {
        List<Found> found = new ArrayList<>();
        for (long offset = SEGMENT_ALIGNMENT; offset + 4 <= size; offset += SEGMENT_ALIGNMENT) {
            int magic = ByteBuffer.wrap(file.bytes(offset, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if (magic == ColumnstoreLayout.SEGMENT_MAGIC || magic == ColumnstoreLayout.DICTIONARY_MAGIC) {
                found.add(new Found(offset, magic == ColumnstoreLayout.SEGMENT_MAGIC));
            }
        }
        return found;
    }

    @Override
    public void close() {
        file.close();
    }
}
