package dev.columba.server.session;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.PgTypes;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** Result rows as DataRow messages, each value in its field's format. */
final class Rows {
    private Rows() {
    }

    /** The row {@code rows} stands on. */
    static BackendMessage.DataRow dataRow(ResultSet rows, List<Field> fields) throws SQLException {
        List<byte[]> values = new ArrayList<>(fields.size());
        for (int column = 0; column < fields.size(); column++) {
            Field field = fields.get(column);
            Object value = value(rows, column, field);
            values.add(value == null ? null : Values.encode(value, field.typeOid(), field.format()));
        }
        return new BackendMessage.DataRow(values);
    }

    /** The values of the row {@code rows} stands on, as {@link #catalogRow} encodes them: kept to send again later. */
    static Object[] values(ResultSet rows, List<Field> fields) throws SQLException {
        Object[] values = new Object[fields.size()];
        for (int column = 0; column < fields.size(); column++) {
            values[column] = value(rows, column, fields.get(column));
        }
        return values;
    }

    private static Object value(ResultSet rows, int column, Field field) throws SQLException {
        return switch (field.typeOid()) {
            case PgTypes.DATE -> rows.getObject(column + 1, LocalDate.class);
            case PgTypes.TIMESTAMP -> rows.getObject(column + 1, LocalDateTime.class);
            default -> rows.getObject(column + 1);
        };
    }

    /** A row of a catalog answer, or one a scrollable cursor kept: the server's own values, in the formats of {@code fields}. */
    static BackendMessage.DataRow catalogRow(Object[] row, List<Field> fields) {
        List<byte[]> values = new ArrayList<>(fields.size());
        for (int column = 0; column < fields.size(); column++) {
            Field field = fields.get(column);
            values.add(row[column] == null ? null : Values.encode(row[column], field.typeOid(), field.format()));
        }
        return new BackendMessage.DataRow(values);
    }
}
