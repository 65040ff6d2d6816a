package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.PlainNumbers;
import java.util.ArrayList;
import java.util.List;

/**
 * The hand scans behind {@link VllmFields}, by index and without copies: whitespace as {@link
 * String#strip} sees it (for splitting a field list), and the plain values (an ASCII number with an
 * optional unit) that the typed reads take before falling back to their general reading.
 */
final class VllmFieldScans {

  private VllmFieldScans() {}

  /**
   * The first index in [from, to) that is not whitespace as {@link String#strip} sees it, or to. A
   * char test is enough: no supplementary code point is whitespace, nor is a lone surrogate.
   */
  static int skipWhitespace(String s, int from, int to) {
    while (from < to && whitespace(s.charAt(from))) {
      from++;
    }
    return from;
  }

  /** The end of [from, to) without its trailing whitespace (as {@link String#strip}). */
  static int trimWhitespace(String s, int from, int to) {
    while (to > from && whitespace(s.charAt(to - 1))) {
      to--;
    }
    return to;
  }

  /**
   * {@link Character#isWhitespace(char)}, answered at once for the printable ASCII chars after the
   * space (none is whitespace) that make up nearly every char of a field list.
   */
  private static boolean whitespace(char c) {
    return (c <= ' ' || c >= 0x7f) && Character.isWhitespace(c);
  }

  /**
   * The list when each of its comma-separated items, stripped, is a {@link #plainNumber} (then what
   * {@code VllmFields.anyNumberList} reads: no item is empty, so {@code split} drops none), else
   * null.
   */
  static List<Double> plainList(String text) {
    List<Double> out = new ArrayList<>();
    int n = text.length();
    for (int start = 0; ; ) {
      int comma = text.indexOf(',', start);
      int end = comma < 0 ? n : comma;
      int from = skipWhitespace(text, start, end);
      double v = plainNumber(text, from, trimWhitespace(text, from, end));
      if (v < 0) {
        return null;
      }
      out.add(v);
      if (comma < 0) {
        return out;
      }
      start = comma + 1;
    }
  }

  /**
   * Where the number of a field's text ends once {@code VllmFields.value} has removed a trailing
   * '.' and a unit, for a text that starts and ends with a char that is not whitespace (so {@code
   * strip} and {@code isBlank} change nothing); else -1. What remains before the returned end is
   * read only by {@link #plainNumber} or {@link #plainCount}, which take no whitespace: a text
   * whose number {@code stripUnit} would have stripped again is left to the general reading.
   */
  static int valueEnd(String text) {
    int e = text.length();
    if (e == 0
        || Character.isWhitespace(text.charAt(0))
        || Character.isWhitespace(text.charAt(e - 1))) {
      return -1;
    }
    if (text.charAt(e - 1) == '.') {
      e--;
    }
    if (endsWith(text, e, " tokens/s")) {
      return e - 9;
    }
    if (endsWith(text, e, " tokens")) {
      return e - 7;
    }
    if (endsWith(text, e, " reqs")) {
      return e - 5;
    }
    return endsWith(text, e, "%") ? e - 1 : e;
  }

  private static boolean endsWith(String text, int end, String suffix) {
    return end >= suffix.length() && text.startsWith(suffix, end - suffix.length());
  }

  /** {@link PlainNumbers#decimal}. */
  static double plainNumber(String text, int from, int to) {
    return PlainNumbers.decimal(text, from, to);
  }

  /** {@link PlainNumbers#count}. */
  static long plainCount(String text, int from, int to) {
    return PlainNumbers.count(text, from, to);
  }
}
