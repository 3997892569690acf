package dev.columba.planner.plan;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;

/**
 * Calcite's type factory over {@link ColumbaTypeSystem}, with UTF-8 as the character set of string
 * literals and types. Calcite's default is ISO-8859-1 (its {@code calcite.default.charset}
 * system property), which cannot hold {@code 'one日本語'}: every string literal and character type
 * a statement gets takes its character set from here, so Columba sets it on the factory each
 * planning creates rather than in the JVM's global properties. Columba's strings are Java
 * strings throughout; the character set only tells Calcite which characters a literal may hold.
 */
final class ColumbaTypeFactory extends JavaTypeFactoryImpl {
    ColumbaTypeFactory() {
        super(ColumbaTypeSystem.INSTANCE);
    }

    @Override
    public Charset getDefaultCharset() {
        return StandardCharsets.UTF_8;
    }
}
