package io.specwatch.ingest.parse.instrumented;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.ingest.parse.JsonTimes;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.RawFields;
import io.specwatch.ingest.parse.TaggedJsonLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code specwatch.cycle} lines: one {@code specwatch.cycle.v1} JSON object per verify cycle of one
 * rank's batch (the shared instrumented-engine contract, see ingest/README.md), optionally after a
 * log prefix. A claimed line that breaks the contract is a {@link ParseResult.Failed} naming the
 * field. Never throws.
 */
public final class CycleJsonParser implements LineParser {

  public static final String FORMAT = "specwatch.cycle";
  public static final String SCHEMA = "specwatch.cycle.v1";

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of("specwatch.cycle");
  }

  @Override
  public ParseResult parse(String line) {
    TaggedJsonLine read = TaggedJsonLine.read(line, FORMAT, SCHEMA);
    if (read.rejected() != null) {
      return read.rejected();
    }
    JsonNode o = read.object();
    try {
      return new ParseResult.Parsed(read(o));
    } catch (IllegalArgumentException e) {
      return ParseResult.failed(FORMAT, e.getMessage());
    }
  }

  private static CycleLine read(JsonNode o) {
    Instant ts = JsonTimes.required(o, "ts");
    long step = requiredLong(o, "step", 0, Long.MAX_VALUE);
    int batch = (int) requiredLong(o, "batch_size", 1, 1_000_000);
    int k = (int) requiredLong(o, "num_draft_tokens", 0, 10_000);
    double cycleMs = optionalMs(o, "cycle_ms");
    if (Double.isNaN(cycleMs)) {
      throw new IllegalArgumentException("cycle_ms: required");
    }
    if (cycleMs <= 0) {
      throw new IllegalArgumentException("cycle_ms: must be > 0, was " + cycleMs);
    }
    List<Integer> accepted = null;
    long acceptedTokens;
    long draftedTokens;
    JsonNode acc = o.get("accepted");
    if (acc != null && !acc.isNull()) {
      if (!acc.isArray()) {
        throw new IllegalArgumentException("accepted: expected an array of integers");
      }
      if (acc.size() != batch) {
        throw new IllegalArgumentException(
            "accepted: length " + acc.size() + " != batch_size " + batch);
      }
      accepted = new ArrayList<>();
      long sum = 0;
      for (JsonNode a : acc) {
        if (!a.isIntegralNumber() || !a.canConvertToInt() || a.asInt() < 0 || a.asInt() > k) {
          throw new IllegalArgumentException(
              "accepted: each must be an integer 0.."
                  + k
                  + " (num_draft_tokens), found '"
                  + a
                  + "'");
        }
        accepted.add(a.asInt());
        sum += a.asInt();
      }
      acceptedTokens = sum;
      draftedTokens = (long) batch * k;
    } else {
      if (!o.has("accepted_tokens") || !o.has("drafted_tokens")) {
        throw new IllegalArgumentException(
            "accepted: required (or the totals accepted_tokens and drafted_tokens)");
      }
      acceptedTokens = requiredLong(o, "accepted_tokens", 0, Long.MAX_VALUE);
      draftedTokens = requiredLong(o, "drafted_tokens", 0, Long.MAX_VALUE);
      if (acceptedTokens > draftedTokens) {
        throw new IllegalArgumentException(
            "accepted_tokens: " + acceptedTokens + " > drafted_tokens " + draftedTokens);
      }
    }
    Map<String, Double> phases = new LinkedHashMap<>();
    JsonNode ph = o.get("phases");
    if (ph != null && !ph.isNull()) {
      if (!ph.isObject()) {
        throw new IllegalArgumentException("phases: expected an object of phase name to ms");
      }
      for (Map.Entry<String, JsonNode> e : ph.properties()) {
        JsonNode v = e.getValue();
        if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
          throw new IllegalArgumentException(
              "phases." + e.getKey() + ": expected ms >= 0, was '" + v + "'");
        }
        phases.put(e.getKey(), v.asDouble());
      }
    }
    List<Long> perPosition = new ArrayList<>();
    JsonNode pp = o.get("per_position_accepted");
    if (pp != null && !pp.isNull()) {
      if (!pp.isArray() || pp.size() > Math.max(k, 0)) {
        throw new IllegalArgumentException(
            "per_position_accepted: expected an array of at most num_draft_tokens integers");
      }
      for (JsonNode v : pp) {
        if (!v.isIntegralNumber() || v.asLong() < 0 || v.asLong() > batch) {
          throw new IllegalArgumentException(
              "per_position_accepted: each must be an integer 0.." + batch + ", found '" + v + "'");
        }
        perPosition.add(v.asLong());
      }
    } else if (accepted != null) {
      for (int i = 0; i < k; i++) {
        long n = 0;
        for (int a : accepted) {
          if (a > i) {
            n++;
          }
        }
        perPosition.add(n);
      }
    }
    List<String> requestIds = new ArrayList<>();
    JsonNode ids = o.get("request_ids");
    if (ids != null && !ids.isNull()) {
      if (!ids.isArray()) {
        throw new IllegalArgumentException("request_ids: expected an array of strings");
      }
      for (JsonNode id : ids) {
        if (!id.isTextual() && !id.isNumber()) {
          throw new IllegalArgumentException("request_ids: expected strings, found '" + id + "'");
        }
        requestIds.add(id.asText());
      }
    }
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      JsonNode v = e.getValue();
      if (e.getKey().equals("phases") && v.isObject()) {
        v.properties().forEach(p -> raw.put("phases." + p.getKey(), p.getValue().toString()));
      } else {
        raw.put(e.getKey(), v.isTextual() ? v.asText() : v.toString());
      }
    }
    Long rank =
        o.has("rank") && !o.get("rank").isNull() ? requiredLong(o, "rank", 0, 1_000_000) : null;
    return new CycleLine(
        ts,
        optionalText(o, "deployment"),
        rank == null ? null : rank.intValue(),
        step,
        batch,
        k,
        accepted,
        acceptedTokens,
        draftedTokens,
        nanToNull(optionalMs(o, "draft_ms")),
        nanToNull(optionalMs(o, "verify_ms")),
        nanToNull(optionalMs(o, "overhead_ms")),
        cycleMs,
        phases,
        optionalText(o, "prompt_category"),
        requestIds,
        perPosition,
        RawFields.owning(raw));
  }

  private static Double nanToNull(double v) {
    return Double.isNaN(v) ? null : v;
  }

  /** ms >= 0, or NaN when absent. */
  private static double optionalMs(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return Double.NaN;
    }
    if (!n.isNumber() || !Double.isFinite(n.asDouble()) || n.asDouble() < 0) {
      throw new IllegalArgumentException(name + ": expected ms >= 0, was '" + n + "'");
    }
    return n.asDouble();
  }

  private static long requiredLong(JsonNode o, String name, long min, long max) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      throw new IllegalArgumentException(name + ": required");
    }
    if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < min || n.asLong() > max) {
      throw new IllegalArgumentException(
          name + ": expected an integer " + min + ".." + max + ", was '" + n + "'");
    }
    return n.asLong();
  }

  private static String optionalText(JsonNode o, String name) {
    JsonNode n = o.get(name);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isTextual() || n.asText().isBlank()) {
      throw new IllegalArgumentException(name + ": expected non-blank text, was '" + n + "'");
    }
    return n.asText();
  }
}
