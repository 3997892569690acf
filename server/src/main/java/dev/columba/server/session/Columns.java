package dev.columba.server.session;

import dev.columba.core.type.SqlType;
import dev.columba.server.protocol.BackendMessage.Field;
import dev.columba.server.protocol.FrontendMessage.Format;
import dev.columba.server.protocol.PgTypes;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
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
            int oid = typeOid(metadata.getColumnType(column));
            fields.add(new Field(metadata.getColumnLabel(column), oid, PgTypes.length(oid),
                    typeModifier(oid, metadata.getPrecision(column), metadata.getScale(column)), Format.TEXT));
        }
        return fields;
    }

    static int typeOid(int jdbcType) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> PgTypes.BOOL;
            case Types.SMALLINT, Types.TINYINT -> PgTypes.INT2;
            case Types.INTEGER -> PgTypes.INT4;
            case Types.BIGINT -> PgTypes.INT8;
            case Types.REAL -> PgTypes.FLOAT4;
            case Types.DOUBLE, Types.FLOAT -> PgTypes.FLOAT8;
            case Types.DECIMAL, Types.NUMERIC -> PgTypes.NUMERIC;
            case Types.CHAR, Types.NCHAR -> PgTypes.BPCHAR;
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR -> PgTypes.VARCHAR;
            case Types.DATE -> PgTypes.DATE;
            case Types.TIMESTAMP -> PgTypes.TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> PgTypes.TIMESTAMPTZ;
            case Types.TIME -> PgTypes.TIME;
            default -> PgTypes.TEXT;
        };
    }

    /** PostgreSQL's {@code atttypmod}: {@code ((precision << 16) | scale) + 4} for numeric, length + 4 for strings. */
    static int typeModifier(int typeOid, int precision, int scale) {
        return switch (typeOid) {
            case PgTypes.NUMERIC -> precision > 0 ? ((precision << 16) | scale) + 4 : -1;
            case PgTypes.VARCHAR, PgTypes.BPCHAR -> precision > 0 && precision < SqlType.VarcharType.MAX_LENGTH - 4
                    ? precision + 4 : -1; // Columba's widest VARCHAR is PostgreSQL's unbounded varchar
            default -> -1;
        };
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
