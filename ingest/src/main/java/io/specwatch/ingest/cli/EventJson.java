package io.specwatch.ingest.cli;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** A DecodeEvent as a plain map for JSON output: every schema field, times as ISO-8601. */
final class EventJson {

  private EventJson() {}

  static Map<String, Object> toMap(DecodeEvent event) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("line", event.getLineNumber());
    putFields(out, event);
    return out;
  }

  /** A RequestAcceptance, tagged {@code "record": "RequestAcceptance"} and its line number. */
  static Map<String, Object> toMap(RequestAcceptance request, long lineNumber) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("line", lineNumber);
    out.put("record", "RequestAcceptance");
    putFields(out, request);
    return out;
  }

  /**
   * A RunContext, tagged {@code "record": "RunContext"} and the line that revealed it (0: none).
   */
  static Map<String, Object> toMap(io.specwatch.schemas.RunContext context, long lineNumber) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("line", lineNumber);
    out.put("record", "RunContext");
    putFields(out, context);
    return out;
  }

  private static void putFields(Map<String, Object> out, SpecificRecordBase record) {
    for (Schema.Field field : record.getSchema().getFields()) {
      Object value = record.get(field.pos());
      if (value instanceof Instant instant) {
        value = instant.toString();
      } else if (value instanceof Enum<?> e) {
        value = e.name();
      } else if (value instanceof CharSequence cs) {
        value = cs.toString();
      }
      out.put(field.name(), value);
    }
  }
}
