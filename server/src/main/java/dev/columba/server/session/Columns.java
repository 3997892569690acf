package dev.columba.server.session;

import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A result's columns as RowDescription fields: PostgreSQL type OIDs and type modifiers for Columba's types. */
final class Columns {
    private Columns() {
    }

    /** The fields of a result, all in text format. */
    static List<Field> fields(ResultSetMetaData metadata) throws SQLException {
        List<Field> fields = new ArrayList<>(metadata.getColumnCount());
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            int oid = PgTypes.ofColumn(metadata.getColumnType(column), metadata.getColumnTypeName(column));
            fields.add(new Field(metadata.getColumnLabel(column), oid, PgTypes.length(oid),
                    PgTypes.typeModifier(oid, metadata.getPrecision(column), metadata.getScale(column)), Format.TEXT));
        }
        return fields;
    }

    /** The fields with the formats Bind asked for (none: text; one: all; else one per column). */
    static List<Field> withFormats(List<Field> fields, List<Format> formats) {
        if (formats.isEmpty()) {
            return fields;
        }
        if (formats.size() != 1 && formats.size() != fields.size()) {
            throw new WireSqlException("08P01", "Bind gave " + formats.size() + " result formats for "
                    + fields.size() + " columns");
        }
        List<Field> formatted = new ArrayList<>(fields.size());
        for (int column = 0; column < fields.size(); column++) {
            Format format = formats.size() == 1 ? formats.getFirst() : formats.get(column);
            Field field = fields.get(column);
            if (format == Format.BINARY && !Values.hasBinaryForm(field.typeOid())) {
                throw new WireSqlException("0A000", "binary results of type OID " + field.typeOid()
                        + " (column " + field.name() + ") are not supported; ask for text");
            }
            formatted.add(field.withFormat(format));
        }
        return formatted;
    }
}
