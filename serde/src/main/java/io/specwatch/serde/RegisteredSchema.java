package io.specwatch.serde;

import java.util.Objects;
import org.apache.avro.Schema;

/**
 * One registered version of a subject.
 *
 * @param subject subject name
 * @param id schema id written on the wire
 * @param version version number within the subject
 * @param schema the schema
 */
public record RegisteredSchema(String subject, int id, int version, Schema schema) {
  public RegisteredSchema {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(schema, "schema");
  }
}
