package io.specwatch.ingest.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON object of a line in one of specwatch's own JSON-lines formats, tagged by its {@code
 * schema} field ({@code "schema": "<format>.v1"}), after any prefix the logger put before the first
 * brace. Shared by the parsers of those formats so that each one rejects alike: no brace or no
 * mention of the format is not a metric line; invalid JSON or a non-object fails; a {@code schema}
 * that does not start with the format (another schema merely mentioning the name) is not a metric
 * line; another version of the format fails naming it.
 *
 * @param object the line's JSON object, or null when {@code rejected} says why not
 * @param rejected {@link ParseResult#NOT_METRIC} or a failure of {@code format}, or null
 */
public record TaggedJsonLine(JsonNode object, ParseResult rejected) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Reads {@code line} as a {@code format} line of schema version {@code schema}. */
  public static TaggedJsonLine read(String line, String format, String schema) {
    int brace = line.indexOf('{');
    if (brace < 0 || !line.contains(format)) {
      return new TaggedJsonLine(null, ParseResult.NOT_METRIC);
    }
    JsonNode o;
    try {
      o = JSON.readTree(line.substring(brace));
    } catch (JsonProcessingException e) {
      return failed(format, "invalid JSON: " + e.getOriginalMessage());
    }
    if (o == null || !o.isObject()) {
      return failed(format, "not a JSON object");
    }
    JsonNode tag = o.get("schema");
    if (tag == null || !tag.isTextual() || !tag.asText().startsWith(format)) {
      return new TaggedJsonLine(null, ParseResult.NOT_METRIC);
    }
    if (!tag.asText().equals(schema)) {
      return failed(format, "schema: unsupported '" + tag.asText() + "'");
    }
    return new TaggedJsonLine(o, null);
  }

  private static TaggedJsonLine failed(String format, String reason) {
    return new TaggedJsonLine(null, ParseResult.failed(format, reason));
  }
}
