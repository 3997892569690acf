package dev.columba.trino;

import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import java.util.Map;

/** Makes a {@link ColumbaConnector} per catalog (and per node: every node of a cluster makes its own). */
final class ColumbaConnectorFactory implements ConnectorFactory {
    @Override
    public String getName() {
        return "columba";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context) {
        ColumbaConfig parsed = ColumbaConfig.parse(config);
        return new ColumbaConnector(parsed);
    }
}
