package io.specwatch.ingest.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Event times of the instrumented JSON formats: ISO-8601 with a zone, or epoch milliseconds. */
public final class JsonTimes {

  private JsonTimes() {}

  /**
   * The time in field {@code name}.
   *
   * @throws IllegalArgumentException naming the field when absent or unreadable
   */
  public static Instant required(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      throw new IllegalArgumentException(name + ": required");
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      long ms = n.asLong();
      if (ms < 0 || ms > 253_402_300_799_999L) {
        throw new IllegalArgumentException(name + ": epoch ms out of range: " + ms);
      }
      return Instant.ofEpochMilli(ms);
    }
    if (n.isTextual()) {
      try {
        return OffsetDateTime.parse(n.asText()).toInstant();
      } catch (DateTimeException e) {
        throw new IllegalArgumentException(
            name + ": not ISO-8601 with a zone: '" + n.asText() + "'");
      }
    }
    throw new IllegalArgumentException(
        name + ": expected ISO-8601 text or epoch ms, was " + n.getNodeType());
  }
}
