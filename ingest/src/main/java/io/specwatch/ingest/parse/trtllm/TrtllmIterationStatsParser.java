package io.specwatch.ingest.parse.trtllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.PrefixParser;
import io.specwatch.ingest.parse.RawFields;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TensorRT-LLM iteration stats: one JSON object per line ({@code IterationStats} as {@code
 * trtllm-serve}'s {@code /metrics} or the executor's stats dump writes it), optionally after a
 * bracketed log prefix. Recognised when the object has {@code iterLatencyMS} or {@code
 * specDecodingStats}. Never throws.
 */
public final class TrtllmIterationStatsParser implements LineParser {

  public static final String FORMAT = "trtllm.iteration_stats";

  private static final int MAX_LINE = 64 * 1024;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  static final List<DateTimeFormatter> TIMES =
      List.of(
          time("MM-dd-yyyy HH:mm:ss"), time("yyyy-MM-dd HH:mm:ss"), time("yyyy-MM-dd'T'HH:mm:ss"));

  private static DateTimeFormatter time(String pattern) {
    return new DateTimeFormatterBuilder()
        .appendPattern(pattern)
        .optionalStart()
        .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
        .optionalEnd()
        .toFormatter();
  }

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of("\"iterLatencyMS\"", "\"specDecodingStats\"");
  }

  @Override
  public ParseResult parse(String line) {
    return parse(line, true);
  }

  /**
   * The parse without the fast path: Jackson's tree for every line (the reference the fast path is
   * tested against, the {@code TrtllmFastPath*Properties}).
   */
  ParseResult parseWithTree(String line) {
    return parse(line, false);
  }

  /**
   * With {@code fast}, a line of the common shape is read by {@link IterationStatsScan} (the same
   * result, several times cheaper); every other line, and every line without {@code fast}, by
   * Jackson's tree as before.
   */
  private ParseResult parse(String line, boolean fast) {
    if (line == null
        || !(line.contains("\"iterLatencyMS\"") || line.contains("\"specDecodingStats\""))) {
      return ParseResult.NOT_METRIC;
    }
    if (line.length() > MAX_LINE) {
      return ParseResult.failed(FORMAT, "line longer than " + MAX_LINE + " characters");
    }
    int brace = line.indexOf('{');
    if (brace < 0) {
      return ParseResult.failed(FORMAT, "no JSON object on the line");
    }
    LinePrefix prefix = LinePrefix.NONE;
    if (brace > 0) {
      PrefixParser.Split split = PrefixParser.split(line.substring(0, brace));
      prefix = split.error() == null ? split.prefix() : LinePrefix.NONE;
    }
    if (fast) {
      ParseResult scanned;
      try {
        scanned = IterationStatsScan.parse(line, brace, prefix);
      } catch (RuntimeException e) {
        scanned = null; // a scanner bug must not change the result: Jackson reads the line
      }
      if (scanned != null) {
        return scanned;
      }
    }
    JsonNode root;
    try {
      root = JSON.readTree(line.substring(brace));
    } catch (JsonProcessingException e) {
      return ParseResult.failed(FORMAT, "invalid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      return ParseResult.failed(FORMAT, "not a JSON object");
    }
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    flatten("", root, raw, 0);
    Reader r = new Reader(root);
    Double latency = r.number("iterLatencyMS", true);
    Long iter = r.count("iter");
    Long active = r.count("numActiveRequests");
    Long queued = r.count("numQueuedRequests");
    JsonNode spec = root.get("specDecodingStats");
    Long drafted = null;
    Long accepted = null;
    Long withDrafts = null;
    Double length = null;
    Double draftMs = null;
    Double overhead = null;
    if (spec != null && !spec.isNull()) {
      if (!spec.isObject()) {
        return ParseResult.failed(FORMAT, "specDecodingStats is not an object");
      }
      Reader s = new Reader(spec);
      drafted = s.requiredCount("numDraftTokens");
      accepted = s.requiredCount("numAcceptedTokens");
      withDrafts = s.count("numRequestsWithDraftTokens");
      length = s.number("acceptanceLength", false);
      draftMs = s.number("iterLatencyMS", false);
      overhead = s.number("draftOverhead", false);
      if (s.error != null) {
        return ParseResult.failed(FORMAT, "specDecodingStats." + s.error);
      }
      if (drafted != null && accepted != null && accepted > drafted) {
        return ParseResult.failed(
            FORMAT, "numAcceptedTokens " + accepted + " > numDraftTokens " + drafted);
      }
    }
    if (r.error != null) {
      return ParseResult.failed(FORMAT, r.error);
    }
    if (active != null && active > Integer.MAX_VALUE
        || queued != null && queued > Integer.MAX_VALUE) {
      return ParseResult.failed(FORMAT, "request count out of range");
    }
    LocalDateTime timestamp = prefix.timestamp();
    if (timestamp == null && root.path("timestamp").isTextual()) {
      timestamp = parseTime(root.get("timestamp").asText());
    }
    return parsed(
        prefix,
        timestamp,
        iter,
        latency,
        active,
        queued,
        drafted,
        accepted,
        withDrafts,
        length,
        draftMs,
        overhead,
        raw);
  }

  /** The parsed line of both paths (counts already checked to fit an int). */
  static ParseResult parsed(
      LinePrefix prefix,
      LocalDateTime timestamp,
      Long iter,
      Double latency,
      Long active,
      Long queued,
      Long drafted,
      Long accepted,
      Long withDrafts,
      Double length,
      Double draftMs,
      Double overhead,
      LinkedHashMap<String, String> raw) {
    return new ParseResult.Parsed(
        new TrtllmIterationStats(
            prefix,
            timestamp,
            iter,
            latency,
            active == null ? null : active.intValue(),
            queued == null ? null : queued.intValue(),
            drafted,
            accepted,
            withDrafts,
            length,
            draftMs,
            overhead,
            RawFields.owning(raw)));
  }

  /**
   * The {@code timestamp} field: TensorRT-LLM's own layout {@code MM-dd-yyyy HH:mm:ss[.ffffff]}
   * with every field in its plain range read by hand (the formatters were ~5 % of the shipper's
   * CPU), anything else by the formatters in order, as before (same results: {@code
   * TrtllmTimeProperties}).
   */
  static LocalDateTime parseTime(String text) {
    LocalDateTime fast = fastTime(text.strip());
    return fast != null ? fast : formatterTime(text);
  }

  /** {@code MM-dd-yyyy HH:mm:ss[.f{1,9}]} with plain ranges, else null. */
  private static LocalDateTime fastTime(String t) {
    int n = t.length();
    if (n < 19 || n == 20 || n > 29) {
      return null;
    }
    for (int i = 0; i < n; i++) {
      char c = t.charAt(i);
      boolean ok =
          switch (i) {
            case 2, 5 -> c == '-';
            case 10 -> c == ' ';
            case 13, 16 -> c == ':';
            case 19 -> c == '.';
            default -> c >= '0' && c <= '9';
          };
      if (!ok) {
        return null;
      }
    }
    int month = num(t, 0, 2);
    int day = num(t, 3, 5);
    int year = num(t, 6, 10);
    int hour = num(t, 11, 13);
    int minute = num(t, 14, 16);
    int second = num(t, 17, 19);
    if (year < 1
        || month < 1
        || month > 12
        || day < 1
        || day > 28
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    int nanos = 0;
    if (n > 20) {
      nanos = num(t, 20, n);
      for (int i = n - 20; i < 9; i++) {
        nanos *= 10;
      }
    }
    return LocalDateTime.of(year, month, day, hour, minute, second, nanos);
  }

  private static int num(String text, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      v = v * 10 + (text.charAt(i) - '0');
    }
    return v;
  }

  /** The layouts tried in order by the formatters (the former implementation). */
  static LocalDateTime formatterTime(String text) {
    for (DateTimeFormatter f : TIMES) {
      try {
        return LocalDateTime.parse(text.strip(), f);
      } catch (DateTimeParseException e) {
        // try the next layout; an unreadable timestamp stays in rawFields only
      }
    }
    return null;
  }

  private static void flatten(String path, JsonNode node, Map<String, String> raw, int depth) {
    if (depth > 4 || raw.size() > 200) {
      return;
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String name = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
      if (e.getValue().isObject()) {
        flatten(name, e.getValue(), raw, depth + 1);
      } else if (e.getValue().isValueNode()) {
        raw.put(name, e.getValue().asText());
      }
    }
  }

  /** Typed reads of one JSON object that remember the first error. */
  private static final class Reader {
    private final JsonNode node;
    private String error;

    Reader(JsonNode node) {
      this.node = node;
    }

    Long requiredCount(String name) {
      if (!node.hasNonNull(name)) {
        return fail("missing field '" + name + "'");
      }
      return count(name);
    }

    Long count(String name) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.canConvertToLong()
          || !v.isIntegralNumber() && v.asDouble() != Math.rint(v.asDouble())) {
        return fail(name + " is not an integer: '" + v + "'");
      }
      long value = v.asLong();
      return value < 0 ? fail(name + " is negative: " + value) : value;
    }

    Double number(String name, boolean required) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        return required ? fail("missing field '" + name + "'") : null;
      }
      if (!v.isNumber()) {
        return fail(name + " is not a number: '" + v + "'");
      }
      double value = v.asDouble();
      if (!Double.isFinite(value)) {
        return fail(name + " is not a finite number: '" + v + "'");
      }
      return value < 0 ? fail(name + " is negative: " + value) : value;
    }

    private <T> T fail(String message) {
      if (error == null) {
        error = message;
      }
      return null;
    }
  }
}
