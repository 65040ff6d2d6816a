package io.specwatch.serde;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Picks the client for a configuration: in-memory for {@code mock://}, else cached HTTP. */
public final class SchemaRegistryClients {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryClients.class);

  private SchemaRegistryClients() {}

  public static SchemaRegistryClient create(RegistryConfig config) {
    if (config.isMock()) {
      return InMemorySchemaRegistryClient.forScope(config.mockScope());
    }
    // RegistryConfig.toString masks credentials and store passwords
    LOG.debug("Schema registry client: {}", config);
    return new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config));
  }
}
