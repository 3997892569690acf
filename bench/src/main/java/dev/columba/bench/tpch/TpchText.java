package dev.columba.bench.tpch;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The texts the tpch suite runs: the 22 TPC-H queries verbatim as DuckDB's tpch extension ships
 * them (resources {@code qNN.sql}, see the README beside them), and adapted variants of those
 * Columba does not accept verbatim, each made of named replacements of the verbatim text so that
 * the report can say exactly what was changed. An adapted text is measured only when its verbatim
 * text is rejected, and is always reported as adapted.
 *
 * <p>The statement terminator {@code ;} that ends each file is not sent: it separates statements
 * in a script, and JDBC's {@code executeQuery} takes one statement.
 */
public enum TpchText {
    Q1(1), Q2(2), Q3(3), Q4(4), Q5(5), Q6(6), Q7(7), Q8(8), Q9(9), Q10(10), Q11(11),
    Q12(12), Q13(13), Q14(14), Q15(15), Q16(16), Q17(17), Q18(18), Q19(19), Q20(20), Q21(21), Q22(22);
    // No adapted texts: Columba runs all 22 verbatim (Q11's alias value and Q15's GROUP BY of an
    // alias needed adapting until issue 14). An adaptation, if one is ever needed again, is a
    // constant such as Q11_ADAPTED(11, new Replacement("AS value", "AS [value]")) and a value of
    // TpchQueryBenchmark's query parameter.

    /** A literal replacement of {@code from} (which occurs exactly once in the verbatim text) by {@code to}. */
    public record Replacement(String from, String to) {
    }

    private final int number;
    private final List<Replacement> replacements;

    TpchText(int number, Replacement... replacements) {
        this.number = number;
        this.replacements = List.of(replacements);
    }

    /** The TPC-H query number, 1 to 22. */
    public int number() {
        return number;
    }

    /** Whether this is DuckDB's text unchanged. */
    public boolean verbatim() {
        return replacements.isEmpty();
    }

    /** The replacements that make this text from the verbatim one; none for a verbatim text. */
    public List<Replacement> replacements() {
        return replacements;
    }

    /** The verbatim text this one adapts, or itself. */
    public TpchText original() {
        return values()[number - 1];
    }

    /** The adapted texts of query {@code number}. */
    public static List<TpchText> adaptationsOf(int number) {
        List<TpchText> adapted = new ArrayList<>();
        for (TpchText text : values()) {
            if (text.number == number && !text.verbatim()) {
                adapted.add(text);
            }
        }
        return adapted;
    }

    /** {@code Q7}, or {@code Q11 (adapted)}. */
    public String title() {
        return "Q" + number + (verbatim() ? "" : " (adapted)");
    }

    /**
     * The SQL sent to an engine, without the terminating {@code ;}.
     *
     * @throws ColumbaException INTERNAL if the resource is missing or a replacement does not occur
     *         exactly once in it
     */
    public String sql() {
        String text = resource(String.format(Locale.ROOT, "q%02d.sql", number)).strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1);
        }
        for (Replacement replacement : replacements) {
            int first = text.indexOf(replacement.from());
            if (first < 0 || text.indexOf(replacement.from(), first + 1) >= 0) {
                throw new ColumbaException(ErrorCode.INTERNAL, title() + ": '" + replacement.from()
                        + "' must occur exactly once in the verbatim text of Q" + number);
            }
            text = text.replace(replacement.from(), replacement.to());
        }
        return text;
    }

    private static String resource(String name) {
        try (InputStream in = TpchText.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new ColumbaException(ErrorCode.INTERNAL, "the TPC-H text " + name + " is missing beside "
                        + TpchText.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "cannot read the TPC-H text " + name + ": " + e.getMessage(), e);
        }
    }
}
