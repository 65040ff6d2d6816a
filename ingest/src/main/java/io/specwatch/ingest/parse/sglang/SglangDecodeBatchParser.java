package io.specwatch.ingest.parse.sglang;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.PrefixParser;
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
  private static final String[] GRAPH_KEYS = {"cuda graph", "npu graph", "cpu graph"};

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
    Matcher marker = MARKER.matcher(split.body());
    if (!marker.find()) {
      return ParseResult.failed(FORMAT, "no field list after 'Decode batch'");
    }
    Map<String, String> raw = new LinkedHashMap<>();
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
    Boolean graph = r.graph(GRAPH_KEYS);
    Double throughput = r.nonNegativeDouble(GEN_THROUGHPUT, true);
    Integer queued = r.nonNegativeInt(QUEUE, true);
    Double preAllocated = r.nonNegativeDouble(PRE_ALLOCATED, false);
    Integer retracted = r.nonNegativeInt(RETRACTED, false);
    Long forwardCt = r.nonNegativeLong(FORWARD_CT, false);
    if (r.error() != null) {
      return ParseResult.failed(FORMAT, r.error());
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
            raw));
  }

  /** Splits {@code name: value, name: value, } into raw; returns an error or null. */
  static String readFields(String list, Map<String, String> raw) {
    for (String part : list.split(",")) {
      String field = part.strip();
      if (field.isEmpty()) {
        continue;
      }
      int colon = field.indexOf(':');
      int nameEnd = colon < 0 ? -1 : nameEnd(field, colon);
      if (nameEnd < 0 || !valueReadable(field, colon + 1)) {
        // free text such as an MFU suffix without a colon: kept, never interpreted
        raw.merge("_text", field, (a, b) -> a + ", " + b);
        continue;
      }
      String name = field.substring(0, nameEnd).strip();
      if (raw.putIfAbsent(name, field.substring(colon + 1).strip()) != null) {
        return "duplicate field '" + name + "'";
      }
    }
    return null;
  }

  /**
   * End of the name before the first colon, as the former {@code ([^:]{1,80}?)\\s*:} read it: the
   * text before the colon without trailing regex whitespace, at least one character and at most
   * {@link #MAX_NAME}; -1 when that does not hold.
   */
  private static int nameEnd(String field, int colon) {
    int end = colon;
    while (end > 0 && isRegexSpace(field.charAt(end - 1))) {
      end--;
    }
    end = Math.max(end, 1);
    return colon >= 1 && end <= MAX_NAME ? end : -1;
  }

  /**
   * Whether the text after the colon reads as the former {@code \\s*(.*)}: leading regex
   * whitespace, then no line terminator ({@code .} does not match one).
   */
  private static boolean valueReadable(String field, int from) {
    int i = from;
    while (i < field.length() && isRegexSpace(field.charAt(i))) {
      i++;
    }
    for (; i < field.length(); i++) {
      char c = field.charAt(i);
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
