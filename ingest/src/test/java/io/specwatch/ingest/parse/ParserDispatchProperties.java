package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link ParserRegistry}'s marker dispatch gives the same {@link ParseResult} as trying every
 * parser in order (the registry before the dispatch): on every line of the committed logs (demo
 * logs, test resources), on every line the generator writes for each format family, and on
 * arbitrary lines built from markers, pieces of real lines and random text. Also: every parser
 * keeps its markers' promise (NotMetric on a line with none of them).
 */
public class ParserDispatchProperties {

  private static final ParserRegistry REGISTRY = ParserRegistry.defaults();
  private static final List<String> CORPUS = corpus();

  /**
   * The former registry: every parser in order, first non-NotMetric answer wins (a metric line
   * holding a line terminator is a failure, as in the registry).
   */
  static ParseResult ordered(List<LineParser> parsers, String line) {
    if (line == null || line.isBlank()) {
      return ParseResult.NOT_METRIC;
    }
    for (LineParser parser : parsers) {
      ParseResult result;
      try {
        result = parser.parse(line);
      } catch (RuntimeException e) {
        result = ParseResult.failed(parser.format(), "parser error: " + e);
      }
      if (!(result instanceof ParseResult.NotMetric)) {
        return ParserRegistry.withoutLineTerminator(result, line);
      }
    }
    return ParseResult.NOT_METRIC;
  }

  private static void assertSame(String line) {
    ParseResult fast = REGISTRY.parse(line);
    ParseResult slow = ordered(REGISTRY.parsers(), line);
    assertThat(fast).as("line: %s", line).usingRecursiveComparison().isEqualTo(slow);
    assertThat(fast.getClass()).as("line: %s", line).isEqualTo(slow.getClass());
  }

  @Example
  void committedAndGeneratedLinesParseAsBefore() {
    int parsed = 0;
    for (String line : CORPUS) {
      assertSame(line);
      if (REGISTRY.parse(line) instanceof ParseResult.Parsed) {
        parsed++;
      }
    }
    // the corpus reaches every parser: not a vacuous comparison of NotMetric answers
    assertThat(parsed).isGreaterThan(1000);
    for (LineParser p : REGISTRY.parsers()) {
      assertThat(CORPUS.stream().anyMatch(l -> !(p.parse(l) instanceof ParseResult.NotMetric)))
          .as("some corpus line is claimed by %s", p.format())
          .isTrue();
    }
  }

  /**
   * A line terminator (CR, NEL, U+2028, U+2029) put anywhere into a line some parser reads is never
   * an event, whatever the format: the registry dead-letters it with that format (or the line is no
   * longer a metric line at all).
   */
  @Property(tries = 3000)
  void aLineTerminatorInAnyClaimedLineIsNeverAnEvent(
      @ForAll("claimedLines") String line,
      @ForAll("terminators") String terminator,
      @ForAll("fractions") double at) {
    int i = (int) Math.round(at * line.length());
    String mutated = line.substring(0, i) + terminator + line.substring(i);
    ParseResult r = REGISTRY.parse(mutated);
    assertThat(r).as("line: %s", mutated).isNotInstanceOf(ParseResult.Parsed.class);
    if (r instanceof ParseResult.Failed f && f.reason().startsWith("line terminator")) {
      assertThat(f.format()).isEqualTo(((ParseResult.Parsed) REGISTRY.parse(line)).line().format());
    }
    assertSame(mutated);
  }

  @Provide
  Arbitrary<String> claimedLines() {
    return Arbitraries.of(
        CORPUS.stream().filter(l -> REGISTRY.parse(l) instanceof ParseResult.Parsed).toList());
  }

  @Provide
  Arbitrary<String> terminators() {
    return Arbitraries.of("\u0085", "\u2028", "\u2029", "\r", " \u2028 ");
  }

  @Provide
  Arbitrary<Double> fractions() {
    return Arbitraries.doubles().between(0, 1);
  }

  @Example
  void charsOutsideLatin1DoNotShiftTheScan() {
    // a surrogate pair is one '?' in ISO-8859-1: the byte scan would see the marker one index early
    for (String line :
        List.of(
            "\ud83d\ude00Decode batch",
            "\ud83d\ude00\ud83d\ude00 x Decode batch. #running-req: 1, #token: 2, token usage: 0.1, "
                + "gen throughput (token/s): 3.0, #queue-req: 0, ",
            "\u4e2d\ud83dDecode batch",
            "\u00e9\"iterLatencyMS\"\ud83d\ude00 {\"specwatch.cycle\"")) {
      assertSame(line);
      assertThat(REGISTRY.parse(line)).as(line).isNotEqualTo(ParseResult.NOT_METRIC);
    }
  }

  @Property(tries = 1500)
  void arbitraryLinesParseAsBefore(@ForAll("lines") String line) {
    assertSame(line);
    assertMarkersFound(line);
  }

  /**
   * Any set of markers, short ones (looked up with {@code contains}) and long ones (the scan's
   * table) mixed, some sharing their ends: the scan finds exactly those a line contains.
   */
  @Property(tries = 1000)
  void anyMarkerSetIsFoundExactly(
      @ForAll("markerSets") List<String> markers, @ForAll("markerLines") List<Integer> picks) {
    List<LineParser> parsers = new ArrayList<>();
    for (String marker : markers) {
      parsers.add(
          new LineParser() {
            @Override
            public String format() {
              return "test." + marker;
            }

            @Override
            public ParseResult parse(String line) {
              return ParseResult.NOT_METRIC;
            }

            @Override
            public List<String> markers() {
              return List.of(marker);
            }
          });
    }
    ParserRegistry registry = new ParserRegistry(parsers);
    List<String> distinct = markers.stream().distinct().toList();
    // a line of filler and the picked markers (an index past the list: a cut marker)
    StringBuilder b = new StringBuilder("INFO filler ");
    for (int pick : picks) {
      String m = distinct.get(pick % distinct.size());
      b.append(pick < 1000 ? m : m.substring(0, m.length() / 2)).append(pick % 3 == 0 ? "" : " x ");
    }
    String line = b.toString();
    long expected = 0;
    for (int m = 0; m < distinct.size(); m++) {
      if (line.contains(distinct.get(m))) {
        expected |= 1L << m;
      }
    }
    assertThat(registry.markersIn(line)).as("markers %s in %s", distinct, line).isEqualTo(expected);
  }

  @Provide
  Arbitrary<List<String>> markerSets() {
    Arbitrary<String> shortMarker =
        Arbitraries.strings().withChars("ab/c ").ofMinLength(1).ofMaxLength(11);
    Arbitrary<String> longMarker =
        Arbitraries.strings().withChars("ab/c \u00e9").ofMinLength(12).ofMaxLength(30);
    return Arbitraries.oneOf(shortMarker, longMarker).list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<List<Integer>> markerLines() {
    return Arbitraries.integers().between(0, 1999).list().ofMaxSize(6);
  }

  private static void assertMarkersFound(String line) {
    List<String> markers =
        REGISTRY.parsers().stream().flatMap(p -> p.markers().stream()).distinct().toList();
    long expected = 0;
    for (int m = 0; m < markers.size(); m++) {
      if (line.contains(markers.get(m))) {
        expected |= 1L << m;
      }
    }
    assertThat(REGISTRY.markersIn(line)).as("markers in %s", line).isEqualTo(expected);
  }

  @Property(tries = 1500)
  void everyParserKeepsItsMarkerPromise(@ForAll("lines") String line) {
    for (LineParser p : REGISTRY.parsers()) {
      if (p.markers().stream().noneMatch(line::contains)) {
        assertThat(p.parse(line))
            .as("%s on %s", p.format(), line)
            .isEqualTo(ParseResult.NOT_METRIC);
      }
    }
  }

  @Example
  void markerScanFindsExactlyTheMarkersContained() {
    for (String line : CORPUS) {
      assertMarkersFound(line);
    }
    // markers at the very start and end, overlapping, repeated, next to non-Latin-1 chars
    for (String line :
        List.of(
            "ms/cyc",
            "xms/cyc",
            "Decode batchms/cyc",
            "ms/cycDecode batch",
            "Decode bat",
            "LLM engineLLM engine",
            "\u4e2dms/cyc\u4e2d\"iterLatencyMS\"",
            "\ud83d\ude00ms/cyc")) {
      assertMarkersFound(line);
    }
  }

  /** A random substring [a, b) of each generated string (cut at either end or both). */
  private static Arbitrary<String> cut(Arbitrary<String> whole) {
    return whole.flatMap(
        s ->
            Arbitraries.integers()
                .between(0, s.length())
                .flatMap(
                    a ->
                        Arbitraries.integers().between(a, s.length()).map(b -> s.substring(a, b))));
  }

  @Provide
  Arbitrary<String> lines() {
    List<String> markers =
        REGISTRY.parsers().stream().flatMap(p -> p.markers().stream()).distinct().toList();
    Arbitrary<String> marker = Arbitraries.of(markers);
    Arbitrary<String> cutMarker = cut(marker);
    Arbitrary<String> real = Arbitraries.of(CORPUS);
    Arbitrary<String> cutReal = cut(real);
    Arbitrary<String> noise =
        Arbitraries.strings()
            .withChars("{}[]\":,. 0123456789-#abcDSsLn\u00e9\u4e2d\ud83d\ude00\t")
            .ofMaxLength(30);
    Arbitrary<String> piece =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, marker),
            net.jqwik.api.Tuple.of(2, cutMarker),
            net.jqwik.api.Tuple.of(2, real),
            net.jqwik.api.Tuple.of(3, cutReal),
            net.jqwik.api.Tuple.of(3, noise));
    return piece.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join("", l));
  }

  /** Every committed log line and the generator's lines of every format family. */
  public static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    for (Path p :
        List.of(
            Path.of("..", "demo", "logs", "kimi-eagle3.log"),
            Path.of("..", "demo", "logs", "kimi-baseline.log"),
            Path.of("src", "test", "resources", "mixed", "mixed-engines.log"),
            Path.of("src", "test", "resources", "requests", "requests.jsonl"))) {
      try (Stream<String> s = Files.lines(p, StandardCharsets.UTF_8)) {
        s.forEach(lines::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    long seed = 7;
    for (LogFormat f : LogFormat.values()) {
      for (SpecMethod m : List.of(SpecMethod.EAGLE3, SpecMethod.NONE)) {
        if (m == SpecMethod.NONE && f == LogFormat.SPECWATCH_CYCLE) {
          continue;
        }
        lines.addAll(GeneratedFormatsProperties.lines(f, m, seed++));
      }
    }
    return List.copyOf(lines);
  }
}
