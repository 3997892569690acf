package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryFormat;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.columnstore.file.ColumnstoreChecksum;
import dev.columba.columnstore.file.ColumnstoreFiles;
import dev.columba.columnstore.file.DictionaryFile;
import dev.columba.columnstore.file.DictionaryFileFormat;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Dumps a primary dictionary file ({@code dict-<column>.cdict}, docs/format/dictionary-file.md,
 * holding a dictionary of segment.md): the file's header and checksum, the dictionary's header
 * fields as found, its size against the table's {@code dictionary_cap}, the verdict of the
 * columnstore's own reader ({@link DictionaryFile#read}, what a scan would say), and its first
 * entries. A file that fails its checksum still has its entries listed when they decode, marked as
 * possibly not the ones written: they are what a person debugging it wants to see.
 */
final class DictionaryFileDump {
    /** A reader of longer dictionaries would need them whole on the heap; the cap is at most 1 GB. */
    private static final long MAX_READ_BYTES = Integer.MAX_VALUE - 8;

    /** The dictionary header's fields as found (segment.md, "Dictionaries"). */
    record Header(int magic, int version, int kindCode, int flags, int id, long entryCount, long dataLength) {
        /** The header at the start of {@code bytes}, or null when they are too few. */
        static Header of(byte[] bytes) {
            if (bytes.length < DictionaryFormat.HEADER_BYTES) {
                return null;
            }
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            return new Header(buffer.getInt(DictionaryFormat.MAGIC_OFFSET),
                    Byte.toUnsignedInt(buffer.get(DictionaryFormat.VERSION_OFFSET)),
                    Byte.toUnsignedInt(buffer.get(DictionaryFormat.KIND_OFFSET)),
                    Byte.toUnsignedInt(buffer.get(DictionaryFormat.FLAGS_OFFSET)),
                    buffer.getInt(DictionaryFormat.ID_OFFSET),
                    Integer.toUnsignedLong(buffer.getInt(DictionaryFormat.COUNT_OFFSET)),
                    buffer.getLong(DictionaryFormat.DATA_LENGTH_OFFSET));
        }

        boolean secondary() {
            return (flags & DictionaryFormat.FLAG_SECONDARY) != 0;
        }

        /** The value kind, or null for an unknown code. */
        ValueKind kind() {
            return ValueKind.ofCode(kindCode);
        }
    }

    /**
     * A dictionary file's header fields as found (dictionary-file.md), with the checksum of the
     * bytes it covers as computed.
     *
     * @param legacy whether the file is a version-1 file: a bare dictionary, without this header
     */
    record FileHeader(long magic, int version, int storedCrc, int computedCrc, long dictionaryLength, boolean legacy) {
        /** The header of a dictionary file whose bytes are {@code bytes}, or null when they are too few. */
        static FileHeader of(byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            if (bytes.length >= Integer.BYTES && buffer.getInt(0) == DictionaryFormat.MAGIC) {
                return new FileHeader(0, 1, 0, 0, bytes.length, true);
            }
            if (bytes.length < DictionaryFileFormat.HEADER_SIZE) {
                return null;
            }
            int from = DictionaryFileFormat.HEADER_CHECKED_FROM;
            return new FileHeader(buffer.getLong(DictionaryFileFormat.HEADER_MAGIC),
                    buffer.getInt(DictionaryFileFormat.HEADER_VERSION), buffer.getInt(DictionaryFileFormat.HEADER_CRC),
                    ColumnstoreChecksum.of(bytes, from, bytes.length - from),
                    buffer.getLong(DictionaryFileFormat.HEADER_DICTIONARY_LENGTH), false);
        }

        /** Where the dictionary starts in the file. */
        int dictionaryOffset() {
            return legacy ? 0 : DictionaryFileFormat.HEADER_SIZE;
        }

        /** The dictionary's bytes in {@code file}: as many as the header gives, within the file. */
        byte[] dictionary(byte[] file) {
            long end = dictionaryLength < 0 ? file.length : Math.min(file.length, dictionaryOffset() + dictionaryLength);
            return Arrays.copyOfRange(file, dictionaryOffset(), (int) Math.max(dictionaryOffset(), end));
        }
    }

    private DictionaryFileDump() {
    }

    /** How the columnstore names the dictionary inside a dictionary file in its messages. */
    private static String origin(Path path, FileHeader header) {
        return path + " (dictionary at offset " + header.dictionaryOffset() + ")";
    }

    /**
     * Reads a primary dictionary file as a scan would, checksum included.
     *
     * @throws RuntimeException the columnstore's error, which names the file
     */
    static Dictionary read(Path path, SqlType type) {
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            if (file.size() > MAX_READ_BYTES) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, path + " is " + file.size()
                        + " bytes long, more than a dictionary can be");
            }
            return DictionaryFile.read(MemorySegment.ofArray(file.bytes(0, (int) file.size())), path, type);
        }
    }

    /** The dictionary header inside the dictionary file {@code file}, or null when it is cut short. */
    static Header header(ReadOnlyFile file) {
        FileHeader fileHeader = FileHeader.of(file.bytes(0, DictionaryFileFormat.HEADER_SIZE));
        return fileHeader == null ? null
                : Header.of(file.bytes(fileHeader.dictionaryOffset(), DictionaryFormat.HEADER_BYTES));
    }

    /** The bytes of the dictionary a dictionary file holds: its size less the file's header. */
    static long dictionaryBytes(ReadOnlyFile file) {
        FileHeader fileHeader = FileHeader.of(file.bytes(0, DictionaryFileFormat.HEADER_SIZE));
        return Math.max(0, file.size() - (fileHeader == null ? 0 : fileHeader.dictionaryOffset()));
    }

    /** Dumps the dictionary file at {@code path} with its first {@code rows} entries. */
    static void dump(Path path, int rows, PrintStream out, Findings findings) {
        out.println("dictionary file " + path);
        ColumnstoreFileContext context = ColumnstoreFileContext.of(path);
        int column = ColumnstoreFiles.columnOfDictionaryName(path.getFileName().toString());
        SqlType catalogType = column < 0 ? null : context.type(column);
        field(out, "table", context.description());
        if (column >= 0) {
            field(out, "column", context.columnLabel(column) + (catalogType == null ? "" : " " + catalogType.sqlName()));
        }
        byte[] bytes;
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            long size = file.size();
            field(out, "size", size + " bytes");
            if (size > MAX_READ_BYTES) {
                findings.report(INDENT, path + " is " + size + " bytes long, more than a dictionary can be");
                return;
            }
            bytes = file.bytes(0, (int) size);
        }
        FileHeader fileHeader = FileHeader.of(bytes);
        if (fileHeader == null) {
            findings.report(INDENT, path + " is " + bytes.length + " bytes long, shorter than the "
                    + DictionaryFileFormat.HEADER_SIZE + "-byte dictionary file header: the file is cut short");
            return;
        }
        printFileHeader(fileHeader, out);
        // The columnstore's own verdict first: what a scan of the table would report.
        Dictionary dictionary = null;
        String failure = null;
        SqlType type = catalogType;
        byte[] dictionaryBytes = fileHeader.dictionary(bytes);
        Header header = Header.of(dictionaryBytes);
        if (type == null && header != null && header.kind() != null) {
            type = ColumnstoreFileContext.typeOf(header.kind());
        }
        if (type != null) {
            try {
                dictionary = DictionaryFile.read(MemorySegment.ofArray(bytes), path, type);
            } catch (RuntimeException unreadable) {
                failure = DataFileDump.reason(unreadable);
                findings.report(INDENT, DataFileDump.reason(unreadable, null));
            }
        }
        out.println();
        out.println("dictionary at offset " + fileHeader.dictionaryOffset());
        if (header == null) {
            findings.report(INDENT, origin(path, fileHeader) + " has " + dictionaryBytes.length + " bytes, fewer than the "
                    + DictionaryFormat.HEADER_BYTES + "-byte dictionary header: the file is cut short");
            return;
        }
        printHeader(header, out);
        ColumnstoreOptions options = context.options();
        if (options != null) {
            field(out, "cap", options.dictionaryCapBytes() + " bytes (the table's dictionary_cap): this dictionary is "
                    + percent(dictionaryBytes.length, options.dictionaryCapBytes()) + "% of it");
        }
        checkHeader(path, fileHeader, header, findings);
        if (type == null) {
            if (!fileHeader.legacy() && fileHeader.storedCrc() != fileHeader.computedCrc()) {
                findings.report(INDENT, path + " (offset " + DictionaryFileFormat.HEADER_CRC + "): checksum BAD: stored "
                        + ValueText.hex32(fileHeader.storedCrc()) + ", computed " + ValueText.hex32(fileHeader.computedCrc()));
            }
            findings.report(INDENT, path + " (offset " + (fileHeader.dictionaryOffset() + DictionaryFormat.KIND_OFFSET)
                    + "): unknown value kind " + header.kindCode() + ", and the catalog does not give the column's type:"
                    + " the entries cannot be read");
            return;
        }
        if (dictionary == null) {
            // The file does not check; list the entries anyway if the dictionary itself reads.
            try {
                dictionary = Dictionary.read(MemorySegment.ofArray(dictionaryBytes), type, origin(path, fileHeader));
                out.println(INDENT + "(the file does not check: the entries below may not be the ones written)");
            } catch (RuntimeException unreadable) {
                if (!Objects.equals(failure, DataFileDump.reason(unreadable))) {
                    findings.report(INDENT, DataFileDump.reason(unreadable, null));
                }
                out.println(INDENT + "(the entries are not listed: the dictionary does not read)");
                return;
            }
        } else {
            field(out, "check", "OK: checksum, header, sizes, offsets and the order of the entries");
        }
        printEntries(dictionary, fileHeader.dictionaryOffset(), rows, catalogType == null, out);
    }

    /** What the columnstore's reader does not judge: that this file holds a primary dictionary. */
    private static void checkHeader(Path path, FileHeader fileHeader, Header header, Findings findings) {
        int base = fileHeader.dictionaryOffset();
        if (header.magic() != DictionaryFormat.MAGIC) {
            findings.report(INDENT, String.format("%s (offset %d): dictionary magic 0x%08x, expected 0x%08x (\"CDIC\")", path,
                    base + DictionaryFormat.MAGIC_OFFSET, header.magic(), DictionaryFormat.MAGIC));
        }
        if (header.secondary()) {
            findings.report(INDENT, path + " (offset " + (base + DictionaryFormat.FLAGS_OFFSET) + "): flags 0x"
                    + Integer.toHexString(header.flags()) + " mark a secondary dictionary; a dictionary file holds the"
                    + " primary one");
        } else if (header.id() != PrimaryDictionaries.PRIMARY_ID) {
            findings.report(INDENT, path + " (offset " + (base + DictionaryFormat.ID_OFFSET) + "): dictionary id "
                    + header.id() + ", a primary dictionary has id " + PrimaryDictionaries.PRIMARY_ID);
        }
    }

    private static void field(PrintStream out, String name, Object value) {
        out.println(INDENT + String.format("%-16s%s", name, value));
    }

    private static void printFileHeader(FileHeader header, PrintStream out) {
        if (header.legacy()) {
            field(out, "file format", "version 1: a bare dictionary, without a header or a checksum");
            return;
        }
        field(out, "magic", header.magic() == DictionaryFileFormat.MAGIC ? "CLMBDICT"
                : String.format("0x%016x (expected CLMBDICT)", header.magic()));
        field(out, "format version", Integer.toUnsignedString(header.version()));
        field(out, "checksum", ValueText.hex32(header.storedCrc()) + (header.storedCrc() == header.computedCrc() ? " OK"
                : " BAD, computed " + ValueText.hex32(header.computedCrc())));
        field(out, "dictionary", Long.toUnsignedString(header.dictionaryLength()) + " bytes at offset "
                + header.dictionaryOffset());
    }

    private static void printHeader(Header header, PrintStream out) {
        field(out, "magic", header.magic() == DictionaryFormat.MAGIC ? "CDIC"
                : String.format("0x%08x (expected CDIC)", header.magic()));
        field(out, "format version", header.version());
        field(out, "value kind", (header.kind() == null ? "UNKNOWN" : header.kind().name()) + " (" + header.kindCode() + ")");
        field(out, "flags", String.format("0x%02x (%s)", header.flags(), header.secondary() ? "secondary" : "primary"));
        field(out, "dictionary id", header.id());
        field(out, "entries", header.entryCount());
        field(out, "data bytes", header.dataLength());
    }

    /** {@code size} as a whole percentage of {@code cap}, rounded down. */
    static long percent(long size, long cap) {
        return cap <= 0 ? 0 : size * 100 / cap;
    }

    /** The first {@code rows} entries, at their offsets in the file (the dictionary starts at {@code base}). */
    private static void printEntries(Dictionary dictionary, int base, int rows, boolean kindType, PrintStream out) {
        int shown = Math.min(rows, dictionary.entryCount());
        out.println();
        out.println((shown == 0 ? "no entries shown" : "entries 0 to " + (shown - 1)) + " of " + dictionary.entryCount()
                + (kindType ? " (type from the value kind, the catalog being unknown: DECIMAL values unscaled)" : ""));
        TextTable table = new TextTable(INDENT, "id", "offset", "length", "value");
        for (int index = 0; index < shown; index++) {
            table.row(index, base + dictionary.entryOffset(index), dictionary.entryLength(index),
                    ValueText.value(dictionary.value(index)));
        }
        table.print(out);
    }
}
