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
import java.nio.charset.StandardCharsets;
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
   * Marker indices by their first two chars (both ASCII), folded to 6 bits each ({@link #pair});
   * null where no marker starts so. Folding only adds candidates, which {@code startsWith} checks.
   */
  private final int[][] byFirstPair = new int[1 << 12][];

  /**
   * Marker indices not in {@link #byFirstPair} (shorter than 2 chars or non-ASCII start), looked up
   * with {@code contains}.
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
    List<Integer> wide = new ArrayList<>();
    for (int m = 0; m < markers.length; m++) {
      String marker = markers[m];
      if (marker.length() >= 2 && marker.charAt(0) < 128 && marker.charAt(1) < 128) {
        int key = pair(marker.charAt(0), marker.charAt(1));
        int[] old = byFirstPair[key];
        int[] grown = old == null ? new int[1] : Arrays.copyOf(old, old.length + 1);
        grown[grown.length - 1] = m;
        byFirstPair[key] = grown;
      } else {
        wide.add(m);
      }
    }
    this.wideMarkers = wide.stream().mapToInt(Integer::intValue).toArray();
  }

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

  /** Parses one line; never throws (a parser bug becomes a {@link ParseResult.Failed}). */
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
        return result;
      }
    }
    return ParseResult.NOT_METRIC;
  }

  /**
   * Bits of the markers that occur in line, in one pass over its chars: as ISO-8859-1 bytes (a
   * compact string's copy) when that keeps every char at its index, i.e. the line has no surrogate
   * pair (one {@code ?} for two chars); other chars become {@code ?}, which starts no ASCII marker.
   */
  long markersIn(String line) {
    long found = 0;
    byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
    int[][] table = byFirstPair;
    if (b.length == line.length()) {
      for (int i = 0, last = b.length - 1; i < last; i++) {
        int[] candidates = table[pair(b[i], b[i + 1])];
        if (candidates != null) {
          found |= matches(line, i, candidates);
        }
      }
    } else {
      for (int i = 0, last = line.length() - 1; i < last; i++) {
        char c = line.charAt(i);
        char d = line.charAt(i + 1);
        if (c < 128 && d < 128) {
          int[] candidates = table[pair(c, d)];
          if (candidates != null) {
            found |= matches(line, i, candidates);
          }
        }
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
