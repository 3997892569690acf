package dev.columba.trino;

import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import java.util.List;

/** The plugin Trino finds through {@code META-INF/services}: one connector, named {@code columba}. */
public final class ColumbaPlugin implements Plugin {
    @Override
    public Iterable<ConnectorFactory> getConnectorFactories() {
        return List.of(new ColumbaConnectorFactory());
    }
}
