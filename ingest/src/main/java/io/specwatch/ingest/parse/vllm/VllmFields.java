package io.specwatch.ingest.parse.vllm;

import static io.specwatch.ingest.parse.vllm.VllmFieldScans.plainCount;
import static io.specwatch.ingest.parse.vllm.VllmFieldScans.plainList;
import static io.specwatch.ingest.parse.vllm.VllmFieldScans.plainNumber;
import static io.specwatch.ingest.parse.vllm.VllmFieldScans.skipWhitespace;
import static io.specwatch.ingest.parse.vllm.VllmFieldScans.trimWhitespace;
import static io.specwatch.ingest.parse.vllm.VllmFieldScans.valueEnd;
import static io.specwatch.ingest.parse.vllm.VllmKnownFields.KNOWN;
import static io.specwatch.ingest.parse.vllm.VllmKnownFields.PREFIX_CACHE;
import static io.specwatch.ingest.parse.vllm.VllmKnownFields.knownSlot;
import static io.specwatch.ingest.parse.vllm.VllmKnownFields.slot;

import io.specwatch.ingest.parse.RawFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads vLLM's {@code Name: value unit, Name: value unit} field lists. A comma-separated part
 * without a colon continues the previous field (the per-position acceptance list). Typed reads
 * remember the first error instead of throwing. The names read by slot are in {@link
 * VllmKnownFields}, the index scans and the plain-value reading in {@link VllmFieldScans}.
 */
final class VllmFields {

  private final Map<String, String> raw;
  private String error;

  /** The last name put in {@link #raw} (its last key in iteration order), or null. */
  private final String lastName;

  /**
   * The {@link VllmKnownFields#KNOWN} fields' texts by slot, each what {@link #raw} holds for that
   * name (null when absent), so the reads need no hash lookup; null for an {@link #equalsList}.
   */
  private final String[] known;

  private VllmFields(
      LinkedHashMap<String, String> raw, String error, String lastName, String[] known) {
    this.raw = RawFields.owning(raw); // read-only from here on: the line's raw fields as they are
    this.error = error;
    this.lastName = lastName;
    this.known = known;
  }

  /** The text of a field as {@link #raw} holds it, or null. */
  private String get(String name) {
    if (known != null) {
      int slot = slot(name);
      if (slot >= 0) {
        return known[slot];
      }
    }
    return raw.get(name);
  }

  /**
   * Splits {@code list} into fields; a duplicate field name is an error. Scans by index (no split
   * array, no copy of each part and of its stripped form): the same fields as splitting at commas
   * and stripping each part, its name and its value ({@code VllmFieldsProperties}).
   */
  static VllmFields colonList(String list) {
    return colonList(list, 0);
  }

  /**
   * {@link #colonList(String)} of {@code list.substring(from)}, without that copy; throws what that
   * {@code substring} throws for a {@code from} out of range (as the parsers did when a marker
   * occurred only in the prefix, which the registry reports as a parser error).
   */
  static VllmFields colonList(String list, int from0) {
    if (from0 < 0 || from0 > list.length()) {
      list.substring(from0); // throws StringIndexOutOfBoundsException
    }
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    String[] known = new String[KNOWN.length];
    int lastSlot = -1;
    String last = null;
    String lastNew = null;
    String error = null;
    int n = list.length();
    for (int start = from0; start <= n; ) {
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
            String joined = raw.get(last) + ", " + field;
            raw.put(last, joined);
            if (lastSlot >= 0) {
              known[lastSlot] = joined;
            }
          }
        } else {
          int nameTo = trimWhitespace(list, from, colon); // from: no space
          int slot = knownSlot(list, from, nameTo);
          String name = slot >= 0 ? KNOWN[slot] : list.substring(from, nameTo);
          int valueFrom = skipWhitespace(list, colon + 1, to);
          String value = list.substring(valueFrom, trimWhitespace(list, valueFrom, to));
          if (raw.putIfAbsent(name, value) != null) {
            if (error == null) {
              error = "duplicate field '" + name + "'";
            }
          } else {
            lastNew = name;
            if (slot >= 0) {
              known[slot] = value;
            }
          }
          last = name;
          lastSlot = slot;
        }
      }
      if (comma < 0) {
        break;
      }
      start = comma + 1;
    }
    return new VllmFields(raw, error, lastNew, known);
  }

  /** Splits {@code key=value key=value}; a duplicate key is an error. */
  static VllmFields equalsList(String list) {
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    String error = null;
    String lastNew = null;
    for (String part : list.strip().split("\\s+")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        error = error == null ? "not a key=value pair: '" + part + "'" : error;
        continue;
      }
      String key = part.substring(0, eq);
      if (raw.putIfAbsent(key, part.substring(eq + 1)) != null) {
        if (error == null) {
          error = "duplicate field '" + key + "'";
        }
      } else {
        lastNew = key;
      }
    }
    return new VllmFields(raw, error, lastNew, null);
  }

  /** Units vLLM V1 always prints after these fields' values. */
  private static final Map<String, String> V1_UNITS =
      Map.ofEntries(
          Map.entry(VllmReads.ACCEPTED, "tokens"),
          Map.entry(VllmReads.DRAFTED, "tokens"),
          Map.entry(VllmReads.ACCEPTED_THROUGHPUT, "tokens/s"),
          Map.entry(VllmReads.DRAFTED_THROUGHPUT, "tokens/s"),
          Map.entry(VllmReads.PROMPT_THROUGHPUT, "tokens/s"),
          Map.entry(VllmReads.GEN_THROUGHPUT, "tokens/s"),
          Map.entry(VllmReads.RUNNING, "reqs"),
          Map.entry(VllmReads.WAITING, "reqs"),
          Map.entry(VllmReads.GPU_KV, "%"),
          Map.entry(PREFIX_CACHE, "%"),
          Map.entry(VllmReads.AVG_DRAFT_ACCEPTANCE_RATE, "%"),
          Map.entry(VllmReads.DRAFT_ACCEPTANCE_RATE, "%"));

  /**
   * Why a vLLM V1 {@code SpecDecoding metrics} or {@code Engine} field list was cut at its end (a
   * terminal-width cut: {@code Accepted: 12} where the line said {@code Accepted: 1234 tokens}), or
   * null: the last field is one V1 always prints with a unit and its value lacks that unit. Such a
   * line would parse into a shortened number, so it is dead-lettered instead.
   */
  String cutTail() {
    String last = lastName; // a LinkedHashMap keeps a key where it was first put
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
    return get(name) != null; // a field's text is never null
  }

  String error() {
    return error;
  }

  /** A non-negative integer count, optional unit suffix ({@code tokens}, {@code reqs}). */
  Long count(String name, boolean required) {
    String text = get(name);
    if (text != null) {
      long v = plainCount(text, 0, valueEnd(text));
      if (v >= 0) {
        return v; // what the general reading below returns for these texts
      }
    }
    return anyCount(name, required);
  }

  /** {@link #count} of any text: strip, unit, {@link Long#parseLong}. */
  private Long anyCount(String name, boolean required) {
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
    String text = get(name);
    if (text != null) {
      double v = plainNumber(text, 0, valueEnd(text));
      if (v >= 0) {
        return v; // what the general reading below returns for these texts
      }
    }
    return anyNumber(name, required);
  }

  /** {@link #number} of any text: strip, unit, nan, {@link Double#parseDouble}. */
  private Double anyNumber(String name, boolean required) {
    String text = value(name, required);
    if (text == null) {
      return null;
    }
    return parseNumber(name, text);
  }

  /** The comma-separated per-position list; empty when absent, null (with error) when invalid. */
  List<Double> numberList(String name) {
    String text = get(name);
    if (text != null) {
      List<Double> plain = plainList(text);
      if (plain != null) {
        return plain;
      }
    }
    return anyNumberList(name);
  }

  /** {@link #numberList} of any text: split, strip, {@link #parseNumber}. */
  private List<Double> anyNumberList(String name) {
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
