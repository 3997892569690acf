package dev.columba.datagen;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** A SHA-256 over the printed rows of a range, to pin generated data in a test. */
final class RowDigest {
    private RowDigest() {
    }

    static String of(TableGenerator generator, long fromRow, long toRow) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
        RowCursor cursor = generator.cursor(fromRow, toRow);
        while (cursor.next()) {
            digest.update(Arrays.toString(cursor.row()).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
