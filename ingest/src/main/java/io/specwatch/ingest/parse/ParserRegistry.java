package io.specwatch.ingest.parse;

import io.specwatch.ingest.parse.context.RunContextJsonParser;
import io.specwatch.ingest.parse.context.SglangServerArgsParser;
import io.specwatch.ingest.parse.instrumented.CycleJsonParser;
import io.specwatch.ingest.parse.instrumented.PhaseProfileParser;
import io.specwatch.ingest.parse.request.RequestJsonParser;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatchParser;
import io.specwatch.ingest.parse.trtllm.TrtllmIterationStatsParser;
import io.specwatch.ingest.parse.vllm.VllmConfigParser;
import io.specwatch.ingest.parse.vllm.VllmV0Parser;
import io.specwatch.ingest.parse.vllm.VllmV1Parser;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tries each known parser in order; the first that does not answer {@link ParseResult.NotMetric}
 * wins. New format families are added here.
 *
 * <p>Dispatch: one scan of the line finds which of the parsers' {@link LineParser#markers()} it
 * contains; a parser none of whose markers occurs is skipped (it promised NotMetric), the others
 * are tried in registry order as before. Most lines of a log are noise or one format, so a noise
 * line costs one scan instead of one {@code contains} per parser literal, and a metric line reaches
 * its parser without the gates of the parsers before it. Same results as trying every parser in
 * order ({@code ParserDispatchProperties}).
 */
public final class ParserRegistry {

  /** At most this many distinct markers (one bit each). */
  static final int MAX_MARKERS = 64;

  private final LineParser[] parsers;

  /** Per parser: the bits of its markers; 0 = no markers, always tried. */
  private final long[] parserMarkers;

  private final String[] markers;

  /**
   * The scan is Wu-Manber's multi-pattern search with blocks of two chars (ASCII, each folded to 6
   * bits by {@link #pair}): a window of {@link #window} chars (the shortest table marker) slides
   * along the line by {@link #shift} of the block at its end; where the shift is 0, the markers
   * whose window ends in that block are checked with {@code startsWith}. Folding only makes shifts
   * smaller and adds candidates, never misses a marker.
   */
  private final int window;

  private final int[] shift = new int[1 << 12];

  /** Marker indices by the block that ends their window; null where none. */
  private final int[][] candidates = new int[1 << 12][];

  /**
   * Marker indices not in the tables (shorter than {@link #window}, or a non-ASCII char in their
   * first {@link #window} chars), looked up with {@code contains}.
   */
  private final int[] wideMarkers;

  public ParserRegistry(List<LineParser> parsers) {
    List<LineParser> list = List.copyOf(Objects.requireNonNull(parsers, "parsers"));
    this.parsers = list.toArray(new LineParser[0]);
    this.parserMarkers = new long[this.parsers.length];
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int p = 0; p < this.parsers.length; p++) {
      for (String marker : Objects.requireNonNull(this.parsers[p].markers(), "markers")) {
        if (marker == null || marker.isEmpty()) {
          throw new IllegalArgumentException(
              this.parsers[p].format() + ": markers must be non-empty literals");
        }
        Integer bit = index.computeIfAbsent(marker, m -> index.size());
        if (bit >= MAX_MARKERS) {
          throw new IllegalArgumentException("more than " + MAX_MARKERS + " parser markers");
        }
        parserMarkers[p] |= 1L << bit;
      }
    }
    this.markers = index.keySet().toArray(new String[0]);
    this.window = window(markers);
    Arrays.fill(shift, window - 1);
    List<Integer> wide = new ArrayList<>();
    for (int m = 0; m < markers.length; m++) {
      String marker = markers[m];
      if (marker.length() < window || !marker.substring(0, window).chars().allMatch(c -> c < 128)) {
        wide.add(m);
        continue;
      }
      for (int q = 2; q <= window; q++) {
        int key = pair(marker.charAt(q - 2), marker.charAt(q - 1));
        shift[key] = Math.min(shift[key], window - q);
      }
      int key = pair(marker.charAt(window - 2), marker.charAt(window - 1));
      int[] old = candidates[key];
      int[] grown = old == null ? new int[1] : Arrays.copyOf(old, old.length + 1);
      grown[grown.length - 1] = m;
      candidates[key] = grown;
    }
    this.wideMarkers = wide.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The table's window: the shortest marker of at least {@link #LONG_MARKER} chars (the scan
   * advances up to window - 1 chars a step), else the shortest of at least 2. Shorter markers are
   * looked up with {@code contains} instead: with "ms/cyc" in the table (window 6) the scan cost
   * ~220 ns a line of the benchmark's log; with window 12 plus two {@code contains}, ~160 (a
   * harness over the whole log, where touching each line from memory is ~40 of either).
   */
  private static int window(String[] markers) {
    int shortestLong = Integer.MAX_VALUE;
    int shortest = Integer.MAX_VALUE;
    for (String marker : markers) {
      int n = marker.length();
      if (n >= LONG_MARKER) {
        shortestLong = Math.min(shortestLong, n);
      }
      if (n >= 2) {
        shortest = Math.min(shortest, n);
      }
    }
    if (shortestLong != Integer.MAX_VALUE) {
      return shortestLong;
    }
    return shortest == Integer.MAX_VALUE ? 2 : shortest;
  }

  /** Markers at least this long make up the scan's table; see {@link #window}. */
  static final int LONG_MARKER = 12;

  /** The parsers of every supported format family. */
  public static ParserRegistry defaults() {
    return new ParserRegistry(
        List.of(
            new SglangDecodeBatchParser(),
            new VllmV1Parser(),
            new VllmV0Parser(),
            new TrtllmIterationStatsParser(),
            new CycleJsonParser(),
            new RunContextJsonParser(),
            new PhaseProfileParser(),
            new SglangServerArgsParser(),
            new VllmConfigParser(),
            new RequestJsonParser()));
  }

  /** The parsers, in the order they are tried. */
  public List<LineParser> parsers() {
    return List.of(parsers);
  }

  /**
   * Parses one line; never throws (a parser bug becomes a {@link ParseResult.Failed}, so does a
   * metric line holding a line terminator: {@link #withoutLineTerminator}).
   */
  public ParseResult parse(String line) {
    if (line == null || line.isBlank()) {
      return ParseResult.NOT_METRIC;
    }
    long present = markersIn(line);
    for (int p = 0; p < parsers.length; p++) {
      long wanted = parserMarkers[p];
      if (wanted != 0 && (wanted & present) == 0) {
        continue; // none of its markers: the parser would answer NotMetric
      }
      LineParser parser = parsers[p];
      ParseResult result;
      try {
        result = parser.parse(line);
      } catch (RuntimeException e) {
        result = ParseResult.failed(parser.format(), "parser error: " + e);
      }
      if (!(result instanceof ParseResult.NotMetric)) {
        return withoutLineTerminator(result, line);
      }
    }
    return ParseResult.NOT_METRIC;
  }

  /**
   * A line read as a metric line of any format that holds a line terminator inside it (CR, NEL,
   * U+2028/9; {@link LineTerminators}) is a failure of that format: dead-lettered, never an event
   * whose field was dropped or misread. Other results are returned as they are.
   */
  public static ParseResult withoutLineTerminator(ParseResult result, String line) {
    if (result instanceof ParseResult.Parsed parsed) {
      String terminator = LineTerminators.reason(line);
      if (terminator != null) {
        return ParseResult.failed(parsed.line().format(), terminator);
      }
    }
    return result;
  }

  /**
   * Bits of the markers that occur in line, in one pass over its chars (a skip table over pairs of
   * chars; a char outside ASCII is in no table marker's window, so its hash only shortens a skip).
   * Reads the chars in place: copying the line to bytes first was ~200 bytes of garbage per line.
   */
  long markersIn(String line) {
    long found = 0;
    int[] shifts = shift;
    int w = window;
    for (int pos = w - 1, n = line.length(); pos < n; ) {
      int key = pair(line.charAt(pos - 1), line.charAt(pos));
      int s = shifts[key];
      if (s > 0) {
        pos += s;
      } else {
        found |= matches(line, pos - w + 1, candidates[key]);
        pos++;
      }
    }
    for (int m : wideMarkers) {
      if (line.contains(markers[m])) {
        found |= 1L << m;
      }
    }
    return found;
  }

  private long matches(String line, int at, int[] candidates) {
    long found = 0;
    for (int m : candidates) {
      if (line.startsWith(markers[m], at)) {
        found |= 1L << m;
      }
    }
    return found;
  }

  private static int pair(int first, int second) {
    return (first & 63) << 6 | (second & 63);
  }
}
