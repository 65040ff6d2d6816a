package io.specwatch.ingest.parse.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-request JSON lines (see ingest/README.md): the instrumented {@code request.v1} format and
 * SGLang's per-request {@code meta_info} object ({@code sglang.meta_info}), optionally after a log
 * prefix. A line is claimed when its JSON part carries the format's marker key ({@code
 * "verify_cycles"} or {@code "spec_verify_ct"}); a claimed line that cannot be read is a {@link
 * ParseResult.Failed}. Never throws.
 */
public final class RequestJsonParser implements LineParser {

  public static final String REQUEST_V1 = "request.v1";
  public static final String SGLANG_META_INFO = "sglang.meta_info";

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String format() {
    return REQUEST_V1;
  }

  @Override
  public List<String> markers() {
    return List.of("\"verify_cycles\"", "\"spec_verify_ct\"");
  }

  @Override
  public ParseResult parse(String line) {
    int brace = line.indexOf('{');
    if (brace < 0) {
      return ParseResult.NOT_METRIC;
    }
    String json = line.substring(brace);
    String format;
    if (json.contains("\"verify_cycles\"")) {
      format = REQUEST_V1;
    } else if (json.contains("\"spec_verify_ct\"")) {
      format = SGLANG_META_INFO;
    } else {
      return ParseResult.NOT_METRIC;
    }
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      return ParseResult.failed(format, "invalid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      return ParseResult.failed(format, "not a JSON object");
    }
    try {
      return format.equals(REQUEST_V1) ? requestV1(root) : metaInfo(root);
    } catch (FieldException e) {
      return ParseResult.failed(format, e.getMessage());
    }
  }

  private static ParseResult requestV1(JsonNode o) {
    Instant finishedAt = time(o, "ts");
    if (finishedAt == null) {
      finishedAt = time(o, "finished_at");
    }
    long output = requiredLong(o, "output_tokens");
    long cycles = requiredLong(o, "verify_cycles");
    checkCounts(output, cycles, "output_tokens", "verify_cycles");
    return new ParseResult.Parsed(
        new RequestLine(
            REQUEST_V1,
            finishedAt,
            requiredText(o, "request_id"),
            text(o, "prompt_hash"),
            text(o, "prompt_ref"),
            text(o, "prompt_category"),
            text(o, "model"),
            text(o, "draft_model_version"),
            optionalLong(o, "prompt_tokens"),
            output,
            cycles,
            optionalLong(o, "accepted_tokens"),
            optionalLong(o, "drafted_tokens"),
            null,
            histogram(o, "accept_histogram"),
            raw(o)));
  }

  private static ParseResult metaInfo(JsonNode root) {
    JsonNode m =
        root.has("meta_info") && root.get("meta_info").isObject() ? root.get("meta_info") : root;
    Instant finishedAt = time(root, "ts");
    if (finishedAt == null) {
      finishedAt = time(root, "finished_at");
    }
    String id = text(m, "id");
    if (id == null) {
      id = text(m, "rid");
    }
    if (id == null) {
      id = text(root, "request_id");
    }
    if (id == null) {
      id = text(root, "rid");
    }
    if (id == null || id.isBlank()) {
      throw new FieldException("request id: none of meta_info.id, rid, request_id");
    }
    long output = requiredLong(m, "completion_tokens");
    long cycles = requiredLong(m, "spec_verify_ct");
    if (cycles == 0) {
      // a request served without speculative cycles (speculation off for it): not poison
      return new ParseResult.Skipped(
          SGLANG_META_INFO, "spec_verify_ct = 0: non-speculative request");
    }
    checkCounts(output, cycles, "completion_tokens", "spec_verify_ct");
    List<Long> hist = histogram(m, "spec_accept_histogram");
    Long accepted = null;
    if (!hist.isEmpty()) {
      long sum = 0;
      for (int i = 0; i < hist.size(); i++) {
        sum += i * hist.get(i);
      }
      accepted = sum;
    }
    return new ParseResult.Parsed(
        new RequestLine(
            SGLANG_META_INFO,
            finishedAt,
            id,
            text(root, "prompt_hash"),
            text(root, "prompt_ref"),
            text(root, "prompt_category"),
            text(root, "model"),
            text(root, "draft_model_version"),
            optionalLong(m, "prompt_tokens"),
            output,
            cycles,
            accepted,
            null,
            optionalDouble(m, "spec_accept_rate"),
            hist,
            raw(m)));
  }

  private static void checkCounts(long output, long cycles, String outName, String cycName) {
    if (cycles <= 0) {
      throw new FieldException(cycName + ": must be > 0, was " + cycles);
    }
    if (output < 0) {
      throw new FieldException(outName + ": must be >= 0, was " + output);
    }
  }

  private static Instant time(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      return Instant.ofEpochMilli(n.asLong());
    }
    if (n.isTextual()) {
      try {
        return OffsetDateTime.parse(n.asText()).toInstant();
      } catch (DateTimeException e) {
        throw new FieldException(name + ": not ISO-8601 with offset: '" + n.asText() + "'");
      }
    }
    throw new FieldException(name + ": expected ISO-8601 text or epoch ms, was " + n.getNodeType());
  }

  private static String requiredText(JsonNode o, String name) {
    String s = text(o, name);
    if (s == null || s.isBlank()) {
      throw new FieldException(name + ": required");
    }
    return s;
  }

  private static String text(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isTextual() || n.isNumber()) {
      return n.asText();
    }
    throw new FieldException(name + ": expected text, was " + n.getNodeType());
  }

  private static long requiredLong(JsonNode o, String name) {
    Long v = optionalLong(o, name);
    if (v == null) {
      throw new FieldException(name + ": required");
    }
    return v;
  }

  private static Long optionalLong(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      return n.asLong();
    }
    throw new FieldException(name + ": expected an integer, was '" + n + "'");
  }

  private static Double optionalDouble(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isNumber()) {
      return n.asDouble();
    }
    throw new FieldException(name + ": expected a number, was '" + n + "'");
  }

  private static List<Long> histogram(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return List.of();
    }
    if (!n.isArray()) {
      throw new FieldException(name + ": expected an array of integers");
    }
    List<Long> out = new ArrayList<>();
    for (JsonNode item : n) {
      if (!item.isIntegralNumber() || !item.canConvertToLong() || item.asLong() < 0) {
        throw new FieldException(name + ": expected non-negative integers, found '" + item + "'");
      }
      out.add(item.asLong());
    }
    return out;
  }

  private static Map<String, String> raw(JsonNode o) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      out.put(e.getKey(), v.isTextual() ? v.asText() : v.toString());
    }
    return out;
  }

  /** A field that cannot be read; caught inside {@link #parse}. */
  private static final class FieldException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FieldException(String message) {
      super(message, null, false, false);
    }
  }
}
