package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Dumps a primary dictionary file ({@code dict-<column>.cdict}, the dictionary layout of
 * docs/format/segment.md): its header fields as found, its size against the table's
 * {@code dictionary_cap}, the checks of the columnstore's own reader, and its first entries. A
 * dictionary has no checksum of its own (a rowgroup file checksums the secondary ones it holds; a
 * primary file has none), so structure is all that can be checked.
 */
final class DictionaryFileDump {
    /** A reader of longer dictionaries would need them whole on the heap; the cap is at most 1 GB. */
    private static final long MAX_READ_BYTES = Integer.MAX_VALUE - 8;

    /** The dictionary header's fields as found (segment.md, "Dictionaries"). */
    record Header(int magic, int version, int kindCode, int flags, int id, long entryCount, long dataLength) {
        /** The header at the start of {@code bytes}, or null when they are too few. */
        static Header of(byte[] bytes) {
            if (bytes.length < ColumnstoreLayout.DICTIONARY_HEADER_BYTES) {
                return null;
            }
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            return new Header(buffer.getInt(0), Byte.toUnsignedInt(buffer.get(ColumnstoreLayout.DICTIONARY_VERSION_OFFSET)),
                    Byte.toUnsignedInt(buffer.get(ColumnstoreLayout.DICTIONARY_KIND_OFFSET)),
                    Byte.toUnsignedInt(buffer.get(ColumnstoreLayout.DICTIONARY_FLAGS_OFFSET)),
                    buffer.getInt(ColumnstoreLayout.DICTIONARY_ID_OFFSET),
                    Integer.toUnsignedLong(buffer.getInt(ColumnstoreLayout.DICTIONARY_COUNT_OFFSET)),
                    buffer.getLong(ColumnstoreLayout.DICTIONARY_DATA_LENGTH_OFFSET));
        }

        boolean secondary() {
            return (flags & ColumnstoreLayout.DICTIONARY_FLAG_SECONDARY) != 0;
        }

        /** The value kind, or null for an unknown code. */
        ValueKind kind() {
            return ValueKind.ofCode(kindCode);
        }
    }

    private DictionaryFileDump() {
    }

    /** Dumps the dictionary file at {@code path} with its first {@code rows} entries. */
    static void dump(Path path, int rows, PrintStream out, Findings findings) {
        out.println("dictionary file " + path);
        ColumnstoreFileContext context = ColumnstoreFileContext.of(path);
        int column = ColumnstoreLayout.columnOfDictionaryName(path.getFileName().toString());
        SqlType catalogType = column < 0 ? null : context.type(column);
        field(out, "table", context.description());
        if (column >= 0) {
            field(out, "column", context.columnLabel(column) + (catalogType == null ? "" : " " + catalogType.sqlName()));
        }
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            long size = file.size();
            field(out, "size", size + " bytes");
            Header header = Header.of(file.bytes(0, ColumnstoreLayout.DICTIONARY_HEADER_BYTES));
            if (header == null) {
                findings.report(INDENT, path + " is " + size + " bytes long, shorter than the "
                        + ColumnstoreLayout.DICTIONARY_HEADER_BYTES + "-byte dictionary header: the file is cut short");
                return;
            }
            printHeader(header, out);
            ColumnstoreOptions options = context.options();
            if (options != null) {
                field(out, "cap", options.dictionaryCapBytes() + " bytes (the table's dictionary_cap): this dictionary is "
                        + percent(size, options.dictionaryCapBytes()) + "% of it");
            }
            if (header.magic() != ColumnstoreLayout.DICTIONARY_MAGIC) {
                findings.report(INDENT, String.format("%s (offset 0): magic 0x%08x, expected 0x%08x (\"CDIC\")", path,
                        header.magic(), ColumnstoreLayout.DICTIONARY_MAGIC));
            }
            if (header.secondary()) {
                findings.report(INDENT, path + " (offset " + ColumnstoreLayout.DICTIONARY_FLAGS_OFFSET + "): flags 0x"
                        + Integer.toHexString(header.flags()) + " mark a secondary dictionary; a dictionary file holds the"
                        + " primary one");
            } else if (header.id() != PrimaryDictionaries.PRIMARY_ID) {
                findings.report(INDENT, path + " (offset " + ColumnstoreLayout.DICTIONARY_ID_OFFSET + "): dictionary id "
                        + header.id() + ", a primary dictionary has id " + PrimaryDictionaries.PRIMARY_ID);
            }
            SqlType type = catalogType != null ? catalogType
                    : header.kind() == null ? null : ColumnstoreFileContext.typeOf(header.kind());
            if (type == null) {
                findings.report(INDENT, path + " (offset " + ColumnstoreLayout.DICTIONARY_KIND_OFFSET + "): unknown value kind "
                        + header.kindCode() + ", and the catalog does not give the column's type: the entries cannot be read");
                return;
            }
            if (size > MAX_READ_BYTES) {
                findings.report(INDENT, path + " is " + size + " bytes long, more than a dictionary can be");
                return;
            }
            Dictionary dictionary;
            try {
                dictionary = Dictionary.read(MemorySegment.ofArray(file.bytes(0, (int) size)), type, path.toString());
            } catch (RuntimeException unreadable) {
                findings.report(INDENT, path + ": " + DataFileDump.reason(unreadable, path.toString()));
                out.println(INDENT + "(the entries are not listed: the dictionary does not read)");
                return;
            }
            field(out, "check", "OK: header, sizes, offsets and the order of the entries");
            printEntries(dictionary, rows, catalogType == null, out);
        }
    }

    private static void field(PrintStream out, String name, Object value) {
        out.println(INDENT + String.format("%-16s%s", name, value));
    }

    private static void printHeader(Header header, PrintStream out) {
        field(out, "magic", header.magic() == ColumnstoreLayout.DICTIONARY_MAGIC ? "CDIC"
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

    private static void printEntries(Dictionary dictionary, int rows, boolean kindType, PrintStream out) {
        int shown = Math.min(rows, dictionary.entryCount());
        out.println();
        out.println((shown == 0 ? "no entries shown" : "entries 0 to " + (shown - 1)) + " of " + dictionary.entryCount()
                + (kindType ? " (type from the value kind, the catalog being unknown: DECIMAL values unscaled)" : ""));
        TextTable table = new TextTable(INDENT, "id", "offset", "length", "value");
        for (int index = 0; index < shown; index++) {
            table.row(index, dictionary.entryOffset(index), dictionary.entryLength(index), ValueText.value(dictionary.value(index)));
        }
        table.print(out);
    }
}
