package io.specwatch.ingest.parse.context;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextJson;
import io.specwatch.ingest.parse.JsonTimes;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.TaggedJsonLine;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code specwatch.run_context} lines: one {@code specwatch.run_context.v1} JSON object (after an
 * optional log prefix) per start or configuration change of an instrumented engine. Required:
 * schema, ts, model, spec_method, tp. Never throws.
 */
public final class RunContextJsonParser implements LineParser {

  public static final String FORMAT = "specwatch.run_context";

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of("specwatch.run_context");
  }

  @Override
  public ParseResult parse(String line) {
    TaggedJsonLine read = TaggedJsonLine.read(line, FORMAT, RunContextJson.SCHEMA);
    if (read.rejected() != null) {
      return read.rejected();
    }
    JsonNode o = read.object();
    try {
      Instant ts = JsonTimes.required(o, "ts");
      ContextFields fields = RunContextJson.read(o);
      if (fields.model() == null) {
        return ParseResult.failed(FORMAT, "model: required");
      }
      if (fields.specMethod() == null) {
        return ParseResult.failed(FORMAT, "spec_method: required");
      }
      if (fields.tp() == null) {
        return ParseResult.failed(FORMAT, "tp: required");
      }
      Map<String, String> raw = new LinkedHashMap<>();
      o.properties()
          .forEach(
              e ->
                  raw.put(
                      e.getKey(),
                      e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
      return new ParseResult.Parsed(
          new ContextLine(FORMAT, LinePrefix.NONE, ts, null, fields, raw));
    } catch (IllegalArgumentException e) {
      return ParseResult.failed(FORMAT, e.getMessage());
    }
  }
}
