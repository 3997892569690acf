package dev.columba.cli.diag;

import dev.columba.columnstore.diag.DictionaryDiagnostics;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The diagnostics as JSON for programs: plain objects of numbers and strings. */
final class Json {
    private Json() {
    }

    static String report(DictionaryDiagnostics.Report report, Map<String, String> whatIf,
                         DictionaryDiagnostics.Layout simulated) {
        List<String> fields = new ArrayList<>();
        fields.add(field("table", string(report.table())));
        fields.add(field("rowgroupMaxRows", String.valueOf(report.options().rowgroupMaxRows())));
        fields.add(field("dictionaryCapBytes", String.valueOf(report.options().dictionaryCapBytes())));
        fields.add(field("dictionaryOverflow", string(report.options().overflow().name().toLowerCase(Locale.ROOT))));
        fields.add(field("current", layout(report.current())));
        fields.add(field("fullRowgroups", layout(report.fullRowgroups())));
        List<String> trims = new ArrayList<>();
        report.trimReasons().forEach((reason, count) -> trims.add(field(reason.name(), String.valueOf(count))));
        fields.add(field("trimReasons", "{" + String.join(",", trims) + "}"));
        fields.add(field("culprits", "[" + String.join(",", report.culprits().stream().map(Json::string).toList()) + "]"));
        List<String> columns = new ArrayList<>();
        for (DictionaryDiagnostics.ColumnPressure column : report.columns()) {
            columns.add("{" + String.join(",", field("name", string(column.name())),
                    field("rowgroupsAtCap", String.valueOf(column.rowgroupsAtCap())),
                    field("maxDictionaryBytes", String.valueOf(column.maxDictionaryBytes())),
                    field("averageDictionaryBytes", number(column.averageDictionaryBytes())),
                    field("primaryBytes", String.valueOf(column.primaryBytes())),
                    field("fallbacks", String.valueOf(column.fallbacks())),
                    field("segmentBytes", String.valueOf(column.segmentBytes()))) + "}");
        }
        fields.add(field("columns", "[" + String.join(",", columns) + "]"));
        List<String> recommendations = new ArrayList<>();
        for (DictionaryDiagnostics.Recommendation recommendation : report.recommendations()) {
            recommendations.add("{" + String.join(",", field("action", string(recommendation.action())),
                    field("reason", string(recommendation.reason())), field("expected", layout(recommendation.expected())),
                    field("estimatedSpeedup", number(recommendation.estimatedSpeedup()))) + "}");
        }
        fields.add(field("recommendations", "[" + String.join(",", recommendations) + "]"));
        if (simulated != null) {
            List<String> settings = new ArrayList<>();
            whatIf.forEach((name, value) -> settings.add(field(name, string(value))));
            fields.add(field("whatIf", "{" + String.join(",", field("settings", "{" + String.join(",", settings) + "}"),
                    field("layout", layout(simulated))) + "}"));
        }
        return "{" + String.join(",", fields) + "}";
    }

    private static String layout(DictionaryDiagnostics.Layout layout) {
        return "{" + String.join(",", field("rowgroups", String.valueOf(layout.rowgroups())),
                field("rows", String.valueOf(layout.rows())), field("bytes", String.valueOf(layout.bytes())),
                field("averageRows", number(layout.averageRows())), field("averageBytes", number(layout.averageBytes())),
                field("averageRequestBytes", number(layout.averageRequestBytes())),
                field("estimatedColdScanSeconds", number(layout.estimatedColdScanSeconds()))) + "}";
    }

    private static String field(String name, String value) {
        return string(name) + ":" + value;
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6g", value) : "null";
    }

    static String string(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char character : value.toCharArray()) {
            switch (character) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (character < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) character));
                    } else {
                        out.append(character);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
