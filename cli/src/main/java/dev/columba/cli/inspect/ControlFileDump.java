package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.storage.db.ControlFile;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Dumps the control file (docs/format/control.md): every field, even when the checksum or the
 * magic is wrong, since the values are what a person debugging wants to see.
 * {@link ControlFile#read} would refuse such a file, so the fields are read here from the spec.
 */
final class ControlFileDump {
    /** Bytes covered by the CRC32C, which follows them (ControlFile keeps this package-private). */
    static final int BODY_SIZE = 56;
    static final int FILE_SIZE = BODY_SIZE + 4;

    /** The fields as found, or null fields when the file is too short to hold them. */
    record Fields(long magic, int version, UUID databaseId, long checkpointLsn, long redoLsn, long nextTransactionId,
                  int storedCrc, int computedCrc) {
    }

    private ControlFileDump() {
    }

    /** Prints the control file's fields and reports what is wrong; returns them, or null if unreadable. */
    static Fields dump(Path path, PrintStream out, Findings findings) {
        out.println("control file " + path);
        byte[] bytes;
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            bytes = file.bytes(0, FILE_SIZE + 1);
        }
        if (bytes.length < FILE_SIZE) {
            findings.report(INDENT, "control file " + path + " is " + bytes.length + " bytes long, expected " + FILE_SIZE);
            return null;
        }
        if (bytes.length > FILE_SIZE) {
            findings.report(INDENT, "control file " + path + " is longer than " + FILE_SIZE + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, BODY_SIZE);
        Fields fields = new Fields(buffer.getLong(0), buffer.getInt(8), new UUID(buffer.getLong(16), buffer.getLong(24)),
                buffer.getLong(32), buffer.getLong(40), buffer.getLong(48), buffer.getInt(BODY_SIZE), (int) crc.getValue());
        boolean magicOk = fields.magic() == ControlFile.MAGIC;
        out.println(INDENT + "magic                " + (magicOk ? "CLMBCTRL" : String.format("0x%016x (expected CLMBCTRL)", fields.magic())));
        out.println(INDENT + "format version       " + fields.version());
        out.println(INDENT + "database id          " + fields.databaseId());
        out.println(INDENT + "checkpoint LSN       " + fields.checkpointLsn());
        out.println(INDENT + "redo LSN             " + fields.redoLsn());
        out.println(INDENT + "next transaction id  " + fields.nextTransactionId());
        boolean crcOk = fields.storedCrc() == fields.computedCrc();
        out.println(INDENT + "checksum             " + ValueText.hex32(fields.storedCrc()) + (crcOk ? " OK"
                : " BAD, computed " + ValueText.hex32(fields.computedCrc())));
        if (!magicOk) {
            findings.report(INDENT, String.format("control file %s: magic at offset 0 is 0x%016x, expected 0x%016x", path,
                    fields.magic(), ControlFile.MAGIC));
        }
        if (fields.version() != ControlFile.VERSION) {
            findings.report(INDENT, "control file " + path + ": format version " + fields.version() + " at offset 8, this "
                    + "build reads " + ControlFile.VERSION);
        }
        if (!crcOk) {
            findings.report(INDENT, "control file " + path + ": checksum BAD at offset " + BODY_SIZE + ": stored "
                    + ValueText.hex32(fields.storedCrc()) + ", computed " + ValueText.hex32(fields.computedCrc()));
        }
        return fields;
    }
}
