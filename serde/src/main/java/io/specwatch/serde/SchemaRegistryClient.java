package io.specwatch.serde;

import org.apache.avro.Schema;

/**
 * The subset of the Confluent Schema Registry REST API that the serdes and tests need. Failures are
 * {@link SchemaRegistryException}s carrying the registry's error code.
 */
public interface SchemaRegistryClient extends AutoCloseable {

  /** Registers {@code schema} under {@code subject} (idempotent); returns its id. */
  int register(String subject, Schema schema);

  /** The schema with this id. */
  Schema getSchemaById(int id);

  /** The registered version of {@code schema} under {@code subject}; 404 when absent. */
  RegisteredSchema lookup(String subject, Schema schema);

  /** The latest version under {@code subject}. */
  RegisteredSchema getLatest(String subject);

  /** Whether {@code schema} may be registered next under {@code subject}. */
  boolean testCompatibility(String subject, Schema schema);

  /** Sets the compatibility level of one subject, e.g. {@code BACKWARD}. */
  void setCompatibility(String subject, String level);

  @Override
  default void close() {}
}
