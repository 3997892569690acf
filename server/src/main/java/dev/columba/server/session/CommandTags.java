package dev.columba.server.session;

import java.util.List;
import java.util.Set;

/** CommandComplete tags as PostgreSQL writes them; clients read update counts from them. */
final class CommandTags {
    private static final Set<String> OBJECT_KINDS = Set.of("TABLE", "INDEX", "VIEW", "SCHEMA", "SEQUENCE",
            "FUNCTION", "DATABASE", "USER", "ROLE", "STATISTICS");

    private CommandTags() {
    }

    /** The tag of a query that returned rows. */
    static String rows(long count) {
        return "SELECT " + count;
    }

    /**
     * The tag of statement {@code sql} that returned {@code count} rows: an INSERT, UPDATE, DELETE
     * or MERGE with RETURNING (or OUTPUT) is tagged as the change it is ({@code INSERT 0 2}), as
     * PostgreSQL tags it, whose clients read the count from it; any other statement as a query.
     */
    static String rows(String sql, long count) {
        List<String> words = SqlText.words(sql, 1);
        return !words.isEmpty() && CHANGES.contains(words.getFirst()) ? update(sql, count) : rows(count);
    }

    private static final Set<String> CHANGES = Set.of("INSERT", "UPDATE", "DELETE", "MERGE");

    /** The tag of a statement that returned an update count (0 for DDL and commands). */
    static String update(String sql, long count) {
        List<String> words = SqlText.words(sql, 6);
        if (words.isEmpty()) {
            return "UPDATE " + count;
        }
        String verb = words.getFirst();
        return switch (verb) {
            // The 0 is the OID of the inserted row in PostgreSQL: always 0 now, and clients expect it.
            case "INSERT" -> "INSERT 0 " + count;
            case "UPDATE", "DELETE", "MERGE", "COPY" -> verb + " " + count;
            case "TRUNCATE" -> "TRUNCATE TABLE";
            case "CREATE", "DROP", "ALTER" -> {
                for (String word : words.subList(1, words.size())) {
                    if (OBJECT_KINDS.contains(word)) {
                        yield verb + " " + word;
                    }
                }
                yield verb;
            }
            default -> verb;
        };
    }
}
