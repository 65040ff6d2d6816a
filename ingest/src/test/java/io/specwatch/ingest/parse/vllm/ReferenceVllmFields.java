package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.RawFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

// Round 9 reference: VllmFields as it was before the round-9 hand-written scans (commit a0190fc),
// verbatim but for the class names; the VllmFastParse*Properties check the new code gives the same
// results. Not used by production code.
/**
 * Reads vLLM's {@code Name: value unit, Name: value unit} field lists. A comma-separated part
 * without a colon continues the previous field (the per-position acceptance list). Typed reads
 * remember the first error instead of throwing.
 */
final class ReferenceVllmFields {

  private final Map<String, String> raw;
  private String error;

  private ReferenceVllmFields(LinkedHashMap<String, String> raw, String error) {
    this.raw = RawFields.owning(raw); // read-only from here on: the line's raw fields as they are
    this.error = error;
  }

  /**
   * Splits {@code list} into fields; a duplicate field name is an error. Scans by index (no split
   * array, no copy of each part and of its stripped form): the same fields as splitting at commas
   * and stripping each part, its name and its value ({@code VllmFieldsProperties}).
   */
  static ReferenceVllmFields colonList(String list) {
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    String last = null;
    String error = null;
    int n = list.length();
    for (int start = 0; start <= n; ) {
      int comma = list.indexOf(',', start);
      int end = comma < 0 ? n : comma;
      int from = skipWhitespace(list, start, end);
      int to = trimWhitespace(list, from, end);
      if (from < to) {
        int colon = list.indexOf(':', from);
        if (colon < 0 || colon >= to) {
          String field = list.substring(from, to);
          if (last == null) {
            error = error == null ? "text before the first field: '" + field + "'" : error;
          } else {
            raw.put(last, raw.get(last) + ", " + field);
          }
        } else {
          String name = list.substring(from, trimWhitespace(list, from, colon)); // from: no space
          int valueFrom = skipWhitespace(list, colon + 1, to);
          String value = list.substring(valueFrom, trimWhitespace(list, valueFrom, to));
          if (raw.putIfAbsent(name, value) != null && error == null) {
            error = "duplicate field '" + name + "'";
          }
          last = name;
        }
      }
      if (comma < 0) {
        break;
      }
      start = comma + 1;
    }
    return new ReferenceVllmFields(raw, error);
  }

  /**
   * The first index in [from, to) that is not whitespace as {@link String#strip} sees it, or to. A
   * char test is enough: no supplementary code point is whitespace, nor is a lone surrogate.
   */
  private static int skipWhitespace(String s, int from, int to) {
    while (from < to && Character.isWhitespace(s.charAt(from))) {
      from++;
    }
    return from;
  }

  /** The end of [from, to) without its trailing whitespace (as {@link String#strip}). */
  private static int trimWhitespace(String s, int from, int to) {
    while (to > from && Character.isWhitespace(s.charAt(to - 1))) {
      to--;
    }
    return to;
  }

  /** Splits {@code key=value key=value}; a duplicate key is an error. */
  static ReferenceVllmFields equalsList(String list) {
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    String error = null;
    for (String part : list.strip().split("\\s+")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        error = error == null ? "not a key=value pair: '" + part + "'" : error;
        continue;
      }
      if (raw.putIfAbsent(part.substring(0, eq), part.substring(eq + 1)) != null && error == null) {
        error = "duplicate field '" + part.substring(0, eq) + "'";
      }
    }
    return new ReferenceVllmFields(raw, error);
  }

  /** Units vLLM V1 always prints after these fields' values. */
  private static final Map<String, String> V1_UNITS =
      Map.ofEntries(
          Map.entry(ReferenceVllmReads.ACCEPTED, "tokens"),
          Map.entry(ReferenceVllmReads.DRAFTED, "tokens"),
          Map.entry(ReferenceVllmReads.ACCEPTED_THROUGHPUT, "tokens/s"),
          Map.entry(ReferenceVllmReads.DRAFTED_THROUGHPUT, "tokens/s"),
          Map.entry(ReferenceVllmReads.PROMPT_THROUGHPUT, "tokens/s"),
          Map.entry(ReferenceVllmReads.GEN_THROUGHPUT, "tokens/s"),
          Map.entry(ReferenceVllmReads.RUNNING, "reqs"),
          Map.entry(ReferenceVllmReads.WAITING, "reqs"),
          Map.entry(ReferenceVllmReads.GPU_KV, "%"),
          Map.entry("Prefix cache hit rate", "%"),
          Map.entry(ReferenceVllmReads.AVG_DRAFT_ACCEPTANCE_RATE, "%"),
          Map.entry(ReferenceVllmReads.DRAFT_ACCEPTANCE_RATE, "%"));

  /**
   * Why a vLLM V1 {@code SpecDecoding metrics} or {@code Engine} field list was cut at its end (a
   * terminal-width cut: {@code Accepted: 12} where the line said {@code Accepted: 1234 tokens}), or
   * null: the last field is one V1 always prints with a unit and its value lacks that unit. Such a
   * line would parse into a shortened number, so it is dead-lettered instead.
   */
  String cutTail() {
    String last = null;
    for (String name : raw.keySet()) {
      last = name;
    }
    if (last == null) {
      return null;
    }
    String unit = V1_UNITS.get(last);
    String value = raw.get(last);
    if (unit == null || value.endsWith(unit)) {
      return null;
    }
    return "line cut at its end (truncated): last field '"
        + last
        + "' is '"
        + value
        + "' without its unit '"
        + unit
        + "'";
  }

  Map<String, String> raw() {
    return raw;
  }

  boolean has(String name) {
    return raw.containsKey(name);
  }

  String error() {
    return error;
  }

  /** A non-negative integer count, optional unit suffix ({@code tokens}, {@code reqs}). */
  Long count(String name, boolean required) {
    String text = value(name, required);
    if (text == null) {
      return null;
    }
    try {
      long v = Long.parseLong(text);
      return v < 0 ? fail(name + " is negative: " + text) : v;
    } catch (NumberFormatException e) {
      return fail(name + " is not an integer: '" + text + "'");
    }
  }

  Integer smallCount(String name, boolean required) {
    Long v = count(name, required);
    if (v != null && v > Integer.MAX_VALUE) {
      return fail(name + " out of range: " + v);
    }
    return v == null ? null : v.intValue();
  }

  /**
   * A non-negative finite number, optional unit suffix; {@code nan} (vLLM's idle value) reads as
   * null without error.
   */
  Double number(String name, boolean required) {
    String text = value(name, required);
    if (text == null) {
      return null;
    }
    return parseNumber(name, text);
  }

  /** The comma-separated per-position list; empty when absent, null (with error) when invalid. */
  List<Double> numberList(String name) {
    String text = raw.get(name);
    List<Double> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String item : text.split(",")) {
      Double v = parseNumber(name, item.strip());
      if (v == null) {
        return error == null ? List.of() : null;
      }
      out.add(v);
    }
    return out;
  }

  private Double parseNumber(String name, String text) {
    if (text.isEmpty() || !plainDecimal(text)) {
      // the common case (digits, '.', '+', '-' only) can be neither nan nor hold a letter
      String lower = text.toLowerCase(Locale.ROOT);
      if (lower.equals("nan") || lower.equals("-nan")) {
        return null;
      }
      if (text.isEmpty() || text.chars().anyMatch(Character::isLetter)) {
        return fail(name + " is not a finite number: '" + text + "'");
      }
    }
    try {
      double v = Double.parseDouble(text);
      if (!Double.isFinite(v)) {
        return fail(name + " is not a finite number: '" + text + "'");
      }
      return v < 0 ? fail(name + " is negative: " + text) : v;
    } catch (NumberFormatException e) {
      return fail(name + " is not a number: '" + text + "'");
    }
  }

  /** Whether text holds only ASCII digits, '.', '+' and '-'. */
  private static boolean plainDecimal(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < '0' || c > '9') && c != '.' && c != '-' && c != '+') {
        return false;
      }
    }
    return true;
  }

  private String value(String name, boolean required) {
    String text = raw.get(name);
    if (text == null || text.isBlank()) {
      return required ? fail("missing field '" + name + "'") : null;
    }
    return stripUnit(text.strip());
  }

  static String stripUnit(String text) {
    String t = text;
    if (t.endsWith(".")) {
      t = t.substring(0, t.length() - 1);
    }
    for (String unit : new String[] {" tokens/s", " tokens", " reqs", "%"}) {
      if (t.endsWith(unit)) {
        return t.substring(0, t.length() - unit.length()).strip();
      }
    }
    return t;
  }

  private <T> T fail(String message) {
    if (error == null) {
      error = message;
    }
    return null;
  }
}
