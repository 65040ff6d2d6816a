package io.specwatch.serde;

import java.util.List;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/** Avro compatibility levels as the Confluent registry defines them. */
enum Compatibility {
  NONE,
  BACKWARD,
  BACKWARD_TRANSITIVE,
  FORWARD,
  FORWARD_TRANSITIVE,
  FULL,
  FULL_TRANSITIVE;

  static Compatibility parse(String level) {
    try {
      return valueOf(level.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SchemaRegistryException(422, 42203, "Invalid compatibility level " + level, e);
    }
  }

  /** Whether {@code candidate} may follow {@code history} (oldest first). */
  boolean allows(Schema candidate, List<Schema> history) {
    if (this == NONE || history.isEmpty()) {
      return true;
    }
    List<Schema> checked =
        name().endsWith("_TRANSITIVE") ? history : List.of(history.get(history.size() - 1));
    for (Schema previous : checked) {
      boolean backward = canRead(candidate, previous);
      boolean forward = canRead(previous, candidate);
      boolean ok =
          switch (this) {
            case BACKWARD, BACKWARD_TRANSITIVE -> backward;
            case FORWARD, FORWARD_TRANSITIVE -> forward;
            case FULL, FULL_TRANSITIVE -> backward && forward;
            case NONE -> true;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean canRead(Schema reader, Schema writer) {
    return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
        == SchemaCompatibilityType.COMPATIBLE;
  }
}
