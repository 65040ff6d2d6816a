package io.specwatch.ingest.cli;

import io.specwatch.schemas.DecodeEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;

/** A DecodeEvent as a plain map for JSON output: every schema field, times as ISO-8601. */
final class EventJson {

  private EventJson() {}

  static Map<String, Object> toMap(DecodeEvent event) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("line", event.getLineNumber());
    for (Schema.Field field : event.getSchema().getFields()) {
      Object value = event.get(field.pos());
      if (value instanceof Instant instant) {
        value = instant.toString();
      } else if (value instanceof Enum<?> e) {
        value = e.name();
      } else if (value instanceof CharSequence cs) {
        value = cs.toString();
      }
      out.put(field.name(), value);
    }
    return out;
  }
}
