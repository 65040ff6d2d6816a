package io.specwatch.serde;

/** Picks the client for a configuration: in-memory for {@code mock://}, else cached HTTP. */
public final class SchemaRegistryClients {
  private SchemaRegistryClients() {}

  public static SchemaRegistryClient create(RegistryConfig config) {
    if (config.isMock()) {
      return InMemorySchemaRegistryClient.forScope(config.mockScope());
    }
    return new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config));
  }
}
