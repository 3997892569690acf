package dev.columba.cli.inspect;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The classic hex dump: offset, sixteen bytes in hex, the same bytes as ASCII. A run of lines
 * equal to the one before is shown as a single {@code *}, as {@code hexdump} does, so that a
 * page's free space takes one line.
 */
final class HexDump {
    private HexDump() {
    }

    private static final int BYTES_PER_LINE = 16;

    static void print(MemorySegment bytes, PrintStream out, String indent) {
        byte[] previous = null;
        boolean skipping = false;
        long length = bytes.byteSize();
        for (long offset = 0; offset < length; offset += BYTES_PER_LINE) {
            byte[] line = bytes.asSlice(offset, Math.min(BYTES_PER_LINE, length - offset)).toArray(ValueLayout.JAVA_BYTE);
            if (previous != null && Arrays.equals(line, previous) && offset + BYTES_PER_LINE < length) {
                if (!skipping) {
                    out.println(indent + "*");
                    skipping = true;
                }
                continue;
            }
            skipping = false;
            previous = line;
            StringBuilder text = new StringBuilder(indent).append(String.format("%04x  ", offset));
            StringBuilder ascii = new StringBuilder();
            for (int index = 0; index < BYTES_PER_LINE; index++) {
                if (index < line.length) {
                    text.append(String.format("%02x ", line[index]));
                    char character = (char) (line[index] & 0xFF);
                    ascii.append(character >= 0x20 && character < 0x7f ? character : '.');
                } else {
                    text.append("   ");
                }
                if (index == 7) {
                    text.append(' ');
                }
            }
            out.println(text.append(" |").append(ascii).append('|'));
        }
    }
}
