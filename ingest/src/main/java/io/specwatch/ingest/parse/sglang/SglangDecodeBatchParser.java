package io.specwatch.ingest.parse.sglang;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.LineTerminators;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.PrefixParser;
import io.specwatch.ingest.parse.RawFields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads SGLang's {@code Decode batch} line, every generation seen in 2025-2026: early 2025, mid
 * 2025 ({@code cuda graph}, PD decode {@code pre-allocated usage} and {@code #retracted-req}), ~Oct
 * 2025 ({@code accept rate}), 2026 ({@code Decode batch,} with an optional {@code [forward_ct]},
 * {@code npu graph}/{@code cpu graph}, extra token fields kept raw). Never throws.
 *
 * <p>A claimed line that holds a line terminator inside it (CR, U+0085 NEL, U+2028, U+2029: the
 * file splitter breaks lines at LF only, so UTF-8 bytes {@code C2 85} or {@code E2 80 A8} of a
 * corrupted or binary line stay in it) is a failure, reported after any other error of the line: a
 * field holding one is unreadable (its name or value no longer reads as printed), and without this
 * check such a field was kept as free text and an optional field such as {@code accept len} read as
 * absent, so the line became an event without acceptance instead of a dead letter.
 */
public final class SglangDecodeBatchParser implements LineParser {

  /** Format id of this family. */
  public static final String FORMAT = "sglang.decode_batch";

  static final String RUNNING = "#running-req";
  static final String TOKEN = "#token";
  static final String TOKEN_USAGE = "token usage";
  static final String ACCEPT_LEN = "accept len";
  static final String ACCEPT_RATE = "accept rate";
  static final String GEN_THROUGHPUT = "gen throughput (token/s)";
  static final String QUEUE = "#queue-req";
  static final String PRE_ALLOCATED = "pre-allocated usage";
  static final String RETRACTED = "#retracted-req";
  static final String FORWARD_CT = "forward_ct";

  private static final Pattern MARKER =
      Pattern.compile("Decode batch\\s*(?:\\[(\\d{1,18})\\])?\\s*[.,]\\s*");
  private static final int MAX_NAME = 80;
  private static final int MAX_LINE = 64 * 1024;

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public List<String> markers() {
    return List.of("Decode batch");
  }

  @Override
  public ParseResult parse(String line) {
    return parse(line, true);
  }

  /** The general path alone, without {@link SglangFastPath} (its reference in tests). */
  ParseResult parseWithoutFastPath(String line) {
    return parse(line, false);
  }

  private ParseResult parse(String line, boolean fastPath) {
    if (line == null || !line.contains("Decode batch")) {
      return ParseResult.NOT_METRIC;
    }
    if (line.length() > MAX_LINE) {
      return ParseResult.failed(FORMAT, "line longer than " + MAX_LINE + " characters");
    }
    PrefixParser.Split split = PrefixParser.split(line);
    if (split.error() != null) {
      return ParseResult.failed(FORMAT, split.error());
    }
    if (fastPath) {
      SglangDecodeBatch fast = SglangFastPath.read(split.prefix(), split.body());
      if (fast != null) {
        String terminator = LineTerminators.reason(line);
        return terminator != null
            ? ParseResult.failed(FORMAT, terminator)
            : new ParseResult.Parsed(fast);
      }
    }
    Matcher marker = MARKER.matcher(split.body());
    if (!marker.find()) {
      return ParseResult.failed(FORMAT, "no field list after 'Decode batch'");
    }
    LinkedHashMap<String, String> raw = new LinkedHashMap<>();
    if (marker.group(1) != null) {
      raw.put(FORWARD_CT, marker.group(1));
    }
    String error = readFields(split.body().substring(marker.end()), raw);
    if (error != null) {
      return ParseResult.failed(FORMAT, error);
    }
    FieldReader r = new FieldReader(raw);
    Integer running = r.nonNegativeInt(RUNNING, true);
    Long tokens = r.nonNegativeLong(TOKEN, true);
    Double usage = r.nonNegativeDouble(TOKEN_USAGE, true);
    Double acceptLen = r.nonNegativeDouble(ACCEPT_LEN, false);
    Double acceptRate = r.nonNegativeDouble(ACCEPT_RATE, false);
    Boolean graph = r.graph(SglangDecodeBatch.GRAPH_KEYS);
    Double throughput = r.nonNegativeDouble(GEN_THROUGHPUT, true);
    Integer queued = r.nonNegativeInt(QUEUE, true);
    Double preAllocated = r.nonNegativeDouble(PRE_ALLOCATED, false);
    Integer retracted = r.nonNegativeInt(RETRACTED, false);
    Long forwardCt = r.nonNegativeLong(FORWARD_CT, false);
    if (r.error() != null) {
      return ParseResult.failed(FORMAT, r.error());
    }
    String terminator = LineTerminators.reason(line);
    if (terminator != null) {
      return ParseResult.failed(FORMAT, terminator);
    }
    return new ParseResult.Parsed(
        new SglangDecodeBatch(
            split.prefix(),
            running,
            tokens,
            usage,
            acceptLen,
            acceptRate,
            graph,
            throughput,
            queued,
            preAllocated,
            retracted,
            forwardCt,
            RawFields.owning(raw)));
  }

  /**
   * Splits {@code name: value, name: value, } into raw; returns an error or null. Reads the list in
   * place (index ranges, one substring per name and value) with the results of the former {@code
   * split(",")}, {@code strip()} and {@code ([^:]{1,80}?)\\s*:\\s*(.*)} ({@code
   * FieldSplitProperties}).
   */
  static String readFields(String list, Map<String, String> raw) {
    int n = list.length();
    for (int from = 0; from <= n; ) {
      int comma = list.indexOf(',', from);
      int to = comma < 0 ? n : comma;
      // part.strip(): no supplementary code point is whitespace, so chars will do
      int start = from;
      while (start < to && Character.isWhitespace(list.charAt(start))) {
        start++;
      }
      int end = to;
      while (end > start && Character.isWhitespace(list.charAt(end - 1))) {
        end--;
      }
      from = to + 1;
      if (start == end) {
        continue;
      }
      int colon = list.indexOf(':', start);
      if (colon >= end) {
        colon = -1;
      }
      int nameEnd = colon < 0 ? -1 : nameEnd(list, start, colon);
      if (nameEnd < 0 || !valueReadable(list, colon + 1, end)) {
        // free text such as an MFU suffix without a colon: kept, never interpreted
        raw.merge("_text", list.substring(start, end), (x, y) -> x + ", " + y);
        continue;
      }
      String name = stripped(list, start, nameEnd);
      if (raw.putIfAbsent(name, stripped(list, colon + 1, end)) != null) {
        return "duplicate field '" + name + "'";
      }
    }
    return null;
  }

  /** {@code s.substring(from, to).strip()}. */
  private static String stripped(String s, int from, int to) {
    while (from < to && Character.isWhitespace(s.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(s.charAt(to - 1))) {
      to--;
    }
    return s.substring(from, to);
  }

  /**
   * End of the name before the first colon of the field starting at start, as the former {@code
   * ([^:]{1,80}?)\\s*:} read it: the text before the colon without trailing regex whitespace, at
   * least one character and at most {@link #MAX_NAME}; -1 when that does not hold.
   */
  private static int nameEnd(String s, int start, int colon) {
    int end = colon;
    while (end > start && isRegexSpace(s.charAt(end - 1))) {
      end--;
    }
    end = Math.max(end, start + 1);
    return colon >= start + 1 && end - start <= MAX_NAME ? end : -1;
  }

  /**
   * Whether the text from {@code from} to the field's end reads as the former {@code \\s*(.*)}:
   * leading regex whitespace, then no line terminator ({@code .} does not match one).
   */
  private static boolean valueReadable(String s, int from, int to) {
    int i = from;
    while (i < to && isRegexSpace(s.charAt(i))) {
      i++;
    }
    for (; i < to; i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        return false;
      }
    }
    return true;
  }

  /** {@code \\s} of java.util.regex without UNICODE_CHARACTER_CLASS. */
  private static boolean isRegexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }
}
