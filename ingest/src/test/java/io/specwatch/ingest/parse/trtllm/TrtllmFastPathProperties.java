package io.specwatch.ingest.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The fast path of {@link TrtllmIterationStatsParser} ({@link IterationStatsScan}) gives the same
 * {@link ParseResult} as the Jackson tree ({@link TrtllmIterationStatsParser#parseWithTree}, the
 * former implementation): equal records, rawFields with the same entries in the same order, the
 * same failures. On every committed and generated TensorRT-LLM line and every cut of some of them;
 * on random iteration-stats objects (fields in any order, missing, null, of the wrong type,
 * negative, big, with trailing zeros and exponents, nested objects and arrays, escapes, non-ASCII,
 * prefixes before the brace, odd whitespace); and on such lines mangled (cut, garbage inserted, a
 * key doubled, a character replaced). Coverage checks make sure a good share of the cases took the
 * fast path, so that equality cannot come from always falling back.
 */
class TrtllmFastPathProperties {

  private static final TrtllmIterationStatsParser PARSER = new TrtllmIterationStatsParser();
  private static final List<String> CORPUS = corpus();

  /** Whether the parser answers line from the fast path (the same gate as parse). */
  static boolean tookFastPath(String line) {
    if (!(line.contains("\"iterLatencyMS\"") || line.contains("\"specDecodingStats\""))
        || line.length() > 64 * 1024) {
      return false;
    }
    int brace = line.indexOf('{');
    return brace >= 0 && IterationStatsScan.parse(line, brace, LinePrefix.NONE) != null;
  }

  /** Asserts the same result both ways; returns whether the fast path answered. */
  static boolean assertSame(String line) {
    ParseResult fast = PARSER.parse(line);
    ParseResult tree = PARSER.parseWithTree(line);
    assertThat(fast).as("line: %s", line).isEqualTo(tree);
    if (fast instanceof ParseResult.Parsed p) {
      TrtllmIterationStats f = (TrtllmIterationStats) p.line();
      TrtllmIterationStats t = (TrtllmIterationStats) ((ParseResult.Parsed) tree).line();
      assertThat(f.rawFields()).as("line: %s", line).containsExactlyEntriesOf(t.rawFields());
      assertThat(List.copyOf(f.rawFields().keySet()))
          .as("order, line: %s", line)
          .isEqualTo(List.copyOf(t.rawFields().keySet()));
    }
    return tookFastPath(line);
  }

  @Example
  void committedAndGeneratedLinesParseAsBefore() {
    int parsed = 0;
    for (String line : CORPUS) {
      boolean fast = assertSame(line);
      if (PARSER.parseWithTree(line) instanceof ParseResult.Parsed) {
        parsed++;
        // every well-formed line the engine or the generator writes is read by the fast path
        assertThat(fast).as("fast path for %s", line).isTrue();
      }
    }
    assertThat(parsed).isGreaterThan(100);
  }

  @Example
  void everyCutOfCorpusLinesParsesAsBefore() {
    Random random = new Random(11);
    List<String> lines = new ArrayList<>(CORPUS);
    Collections.shuffle(lines, random);
    for (String line : lines.subList(0, Math.min(12, lines.size()))) {
      for (int i = 0; i <= line.length(); i++) {
        assertSame(line.substring(0, i));
        assertSame(line.substring(i));
      }
    }
  }

  /**
   * Every number of up to 4 significant digits written plainly (up to 3 trailing zeros, both signs,
   * integer and fraction parts of any length that JSON allows), as a typed and a raw field: the
   * printed text the fast path builds without {@link Double#toString} is that one's (on the JDK
   * running the tests).
   */
  @Example
  void plainNumbersPrintAsJackson() {
    int fast = 0;
    int all = 0;
    for (int m = 0; m < 10_000; m++) {
      String digits = Integer.toString(m);
      for (int scale = 0; scale <= digits.length() + 4; scale++) {
        String plain;
        if (scale == 0) {
          plain = digits;
        } else if (scale < digits.length()) {
          plain =
              digits.substring(0, digits.length() - scale)
                  + "."
                  + digits.substring(digits.length() - scale);
        } else {
          plain = "0." + "0".repeat(scale - digits.length()) + digits;
        }
        for (String zeros : List.of("", "0", "000")) {
          String text = plain + (zeros.isEmpty() || plain.contains(".") ? zeros : "." + zeros);
          String line =
              "{\"iterLatencyMS\": " + text + ", \"x\": -" + text + ", \"y\": " + text + "e0}";
          all++;
          if (assertSame(line)) {
            fast++;
          }
        }
      }
    }
    assertThat(fast).isGreaterThan(all / 2);
  }

  @Property(tries = 4000)
  void randomIterationStatsParseAsBefore(@ForAll("statsLines") String line) {
    boolean fast = assertSame(line);
    Statistics.label("fast path").collect(fast);
    Statistics.label("fast path").coverage(c -> c.check(true).percentage(p -> p > 25));
  }

  @Property(tries = 4000)
  void mangledLinesParseAsBefore(@ForAll("mangledLines") String line) {
    boolean fast = assertSame(line);
    Statistics.label("fast path").collect(fast);
    Statistics.label("fast path").coverage(c -> c.check(true).percentage(p -> p > 10));
  }

  @Property(tries = 1000)
  void arbitraryStringsAfterAMarkerParseAsBefore(@ForAll String text, @ForAll String other) {
    assertSame("{\"iterLatencyMS\": 1, " + text + other);
    assertSame(text + "{\"iterLatencyMS\":" + other + "}");
  }

  // ---------------------------------------------------------------------------------------------
  // generators

  /** A JSON number as text: mostly valid, sometimes not (leading zeros, a bare point...). */
  @Provide
  Arbitrary<String> numbers() {
    Arbitrary<String> sign = Arbitraries.frequency(Tuple.of(5, ""), Tuple.of(1, "-"));
    Arbitrary<String> intPart =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.integers().between(0, 2000).map(String::valueOf)),
            Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE).map(String::valueOf)),
            Tuple.of(
                1,
                Arbitraries.strings()
                    .numeric()
                    .ofMinLength(1)
                    .ofMaxLength(24)
                    .map(s -> s.replaceFirst("^0+(?=.)", ""))));
    Arbitrary<String> fraction =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(4)),
            Tuple.of(1, Arbitraries.strings().withChars("0").ofMinLength(1).ofMaxLength(5)),
            Tuple.of(1, Arbitraries.strings().numeric().ofMinLength(5).ofMaxLength(22)),
            Tuple.of(
                1,
                Combinators.combine(
                        Arbitraries.strings().withChars("0").ofMaxLength(5),
                        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(8),
                        Arbitraries.strings().withChars("0").ofMaxLength(4))
                    .as((a, b, c) -> a + b + c)));
    Arbitrary<String> exponent =
        Combinators.combine(
                Arbitraries.of("e", "E"),
                Arbitraries.of("", "+", "-"),
                Arbitraries.integers().between(0, 400).map(String::valueOf))
            .as((e, s, d) -> e + s + d);
    Arbitrary<String> decimal =
        Combinators.combine(sign, intPart, fraction).as((s, i, f) -> s + i + "." + f);
    Arbitrary<String> withExponent =
        Combinators.combine(sign, intPart, fraction.injectNull(0.5), exponent)
            .as((s, i, f, e) -> s + i + (f == null ? "" : "." + f) + e);
    Arbitrary<String> integer = Combinators.combine(sign, intPart).as((s, i) -> s + i);
    Arbitrary<String> printed =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.doubles().between(0, 1e9).ofScale(6).map(d -> d.toString())),
            Tuple.of(1, Arbitraries.doubles().map(d -> Double.toString(d))),
            Tuple.of(
                1,
                Arbitraries.doubles()
                    .between(-1, 5e7)
                    .map(d -> String.format(Locale.ROOT, "%.4f", d))),
            Tuple.of(1, Arbitraries.floats().map(f -> Double.toString(f))));
    Arbitrary<String> odd =
        Arbitraries.of(
            "-0",
            "-0.0",
            "0.000",
            "1e400",
            "-1e400",
            "1E-400",
            "0.001",
            "0.0009999",
            "0.00099",
            "9999999.0",
            "9999999.9",
            "10000000.0",
            "1234567.0",
            "1234567.8",
            "12345678.0",
            "9007199254740993",
            "123456789012345678",
            "1234567890123456789",
            "99999999999999999999",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "1e",
            "1e+",
            "0x10",
            "NaN",
            "Infinity",
            "-Infinity",
            "1.5.3",
            "2.5e3.1",
            "00",
            "-01.5",
            "1_000");
    return Arbitraries.frequencyOf(
        Tuple.of(4, integer),
        Tuple.of(5, decimal),
        Tuple.of(2, withExponent),
        Tuple.of(3, printed),
        Tuple.of(1, odd));
  }

  /** A JSON string token (quotes included): plain, with escapes, non-ASCII, or broken. */
  @Provide
  Arbitrary<String> strings() {
    Arbitrary<String> plain =
        Arbitraries.strings().alpha().numeric().withChars(" -:._").ofMaxLength(12);
    Arbitrary<String> escape =
        Arbitraries.of(
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\r",
            "\\t",
            "\\u0041",
            "\\u00e9",
            "\\u00E9",
            "\\ud83d\\ude00",
            "\\u0000",
            "\\u002E",
            "\\x",
            "\\u12",
            "\\u12g4",
            "\\",
            "\\U0041",
            "\\u\uff10\uff10\uff14\uff11");
    Arbitrary<String> raw =
        Arbitraries.of(
            "\u00e9",
            "\u4e2d",
            "\ud83d\ude00",
            "\ud83d",
            "\u007f",
            "\u0001",
            "\t",
            "\n",
            "\u0085",
            "\u2028",
            "\"",
            "'",
            "\u00a0");
    Arbitrary<String> piece =
        Arbitraries.frequencyOf(Tuple.of(20, plain), Tuple.of(2, escape), Tuple.of(1, raw));
    return piece.list().ofMaxSize(3).map(l -> "\"" + String.join("", l) + "\"");
  }

  @Provide
  Arbitrary<String> timestamps() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            6,
            Combinators.combine(
                    Arbitraries.integers().between(1, 12),
                    Arbitraries.integers().between(1, 28),
                    Arbitraries.integers().between(0, 86_399),
                    Arbitraries.integers().between(0, 999_999))
                .as(
                    (m, d, s, f) ->
                        String.format(
                            Locale.ROOT,
                            "\"%02d-%02d-2025 %02d:%02d:%02d.%06d\"",
                            m,
                            d,
                            s / 3600,
                            s / 60 % 60,
                            s % 60,
                            f))),
        Tuple.of(1, Arbitraries.of("\"2025-06-06 14:20:34\"", "\"2025-06-06T14:20:34.5\"")),
        Tuple.of(1, Arbitraries.of("\"06-06-2025 14:20\"", "\"13-45-2025 99:00:00\"", "null")),
        Tuple.of(1, anything()));
  }

  /** A value for a count field the parser reads: mostly a valid count, sometimes anything. */
  @Provide
  Arbitrary<String> counts() {
    return Arbitraries.frequencyOf(
        Tuple.of(24, Arbitraries.integers().between(0, 64).map(String::valueOf)),
        Tuple.of(3, Arbitraries.longs().between(0, Long.MAX_VALUE).map(String::valueOf)),
        Tuple.of(2, Arbitraries.of("0.0", "3.0", "-0", "-0.0", "12.000", "1e2", "2E+1", "4.5")),
        Tuple.of(1, anything()));
  }

  /** A value for a number field the parser reads: mostly a valid number, sometimes anything. */
  @Provide
  Arbitrary<String> floats() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.doubles().between(0, 2000).ofScale(3).map(d -> d.toString())),
        Tuple.of(
            6,
            Combinators.combine(
                    Arbitraries.of("%.3f", "%.4f", "%.1f", "%.6f"),
                    Arbitraries.doubles().between(0, 2000))
                .as((f, d) -> String.format(Locale.ROOT, f, d))),
        Tuple.of(2, Arbitraries.integers().between(0, 100).map(String::valueOf)),
        Tuple.of(2, Arbitraries.doubles().between(0, 1e9).map(d -> Double.toString(d))),
        Tuple.of(1, Arbitraries.floats().between(0, 100).map(f -> Double.toString(f))),
        Tuple.of(1, Arbitraries.of("2.5e1", "1E-2", "0.0", "0.000", "7e0", "1e-3", "9.9E-4")),
        Tuple.of(3, anything()));
  }

  /** Any value: numbers of every form (negative, big, broken), other types. */
  private Arbitrary<String> anything() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, numbers()),
        Tuple.of(1, Arbitraries.of("null", "true", "false", "[]", "{}", "[1, 2]", "{\"a\": 1}")),
        Tuple.of(1, strings()));
  }

  /** Any JSON value, nested objects and arrays up to a few levels (deeper than the fast path). */
  @Provide
  Arbitrary<String> anyValues() {
    return anyValue(5);
  }

  private Arbitrary<String> anyValue(int depth) {
    Arbitrary<String> scalar =
        Arbitraries.frequencyOf(
            Tuple.of(4, numbers()),
            Tuple.of(3, strings()),
            Tuple.of(1, Arbitraries.of("true", "false", "null")));
    if (depth == 0) {
      return scalar;
    }
    Arbitrary<String> member =
        Combinators.combine(keys(), Arbitraries.lazy(() -> anyValue(depth - 1)))
            .as((k, v) -> k + ": " + v);
    Arbitrary<String> object =
        member.list().ofMaxSize(4).map(l -> "{" + String.join(", ", l) + "}");
    Arbitrary<String> array =
        Arbitraries.lazy(() -> anyValue(depth - 1))
            .list()
            .ofMaxSize(4)
            .map(l -> "[" + String.join(",", l) + "]");
    return Arbitraries.frequencyOf(Tuple.of(6, scalar), Tuple.of(2, object), Tuple.of(1, array));
  }

  /** Key tokens: other engine fields, the ones read (so duplicates happen), odd names. */
  private Arbitrary<String> keys() {
    return Arbitraries.frequencyOf(Tuple.of(20, names()), Tuple.of(1, strings()));
  }

  private Arbitrary<String> names() {
    return Arbitraries.frequencyOf(
            Tuple.of(
                12,
                Arbitraries.of(
                    "cpuMemUsage",
                    "gpuMemUsage",
                    "maxNumActiveRequests",
                    "numCompletedRequests",
                    "kvCacheStats",
                    "inflightBatchingStats",
                    "staticBatchingStats",
                    "numScheduledRequests",
                    "a.b",
                    "",
                    "x")),
            Tuple.of(
                1,
                Arbitraries.of(
                    "iter",
                    "iterLatencyMS",
                    "timestamp",
                    "specDecodingStats",
                    "numDraftTokens",
                    "numActiveRequests")),
            Tuple.of(3, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8)))
        .map(k -> "\"" + k + "\"");
  }

  /** One member of the stats object or of specDecodingStats: {@code "key": value}. */
  private static Arbitrary<String> member(String key, Arbitrary<String> value) {
    return value.map(v -> "\"" + key + "\": " + v);
  }

  @Provide
  Arbitrary<String> specObjects() {
    Arbitrary<String> drafted = counts();
    Arbitrary<List<String>> members =
        Combinators.combine(
                List.of(
                    member("numDraftTokens", drafted).injectNull(0.05),
                    member("numAcceptedTokens", drafted).injectNull(0.05),
                    member("numRequestsWithDraftTokens", counts()).injectNull(0.2),
                    member("acceptanceLength", floats()).injectNull(0.2),
                    member("iterLatencyMS", floats()).injectNull(0.2),
                    member("draftOverhead", floats()).injectNull(0.2),
                    Combinators.combine(keys(), anyValues())
                        .as((k, v) -> k + ": " + v)
                        .injectNull(0.8)))
            .as(l -> l);
    Arbitrary<String> object =
        members
            .map(l -> l.stream().filter(m -> m != null).toList())
            .flatMap(l -> Arbitraries.shuffle(l).map(s -> "{" + String.join(", ", s) + "}"))
            .map(TrtllmFastPathProperties::acceptedAtMostDrafted);
    return Arbitraries.frequencyOf(
        Tuple.of(8, object),
        Tuple.of(1, Arbitraries.of("null", "5", "\"x\"", "[]", "true", "{}", "[{}]")));
  }

  /** Swaps numDraftTokens and numAcceptedTokens when accepted > drafted (a valid line, mostly). */
  private static String acceptedAtMostDrafted(String spec) {
    java.util.regex.Matcher d =
        java.util.regex.Pattern.compile("\"numDraftTokens\": (\\d{1,2})(?=[,}])").matcher(spec);
    java.util.regex.Matcher a =
        java.util.regex.Pattern.compile("\"numAcceptedTokens\": (\\d{1,2})(?=[,}])").matcher(spec);
    if (d.find() && a.find() && Integer.parseInt(a.group(1)) > Integer.parseInt(d.group(1))) {
      String dv = d.group(1);
      String av = a.group(1);
      return spec.replace("\"numDraftTokens\": " + dv, "\"numDraftTokens\": #")
          .replace("\"numAcceptedTokens\": " + av, "\"numAcceptedTokens\": " + dv)
          .replace("\"numDraftTokens\": #", "\"numDraftTokens\": " + av);
    }
    return spec;
  }

  @Provide
  Arbitrary<String> statsLines() {
    Arbitrary<String> latency = floats();
    Arbitrary<List<String>> members =
        Combinators.combine(
                List.of(
                    member("timestamp", timestamps()).injectNull(0.2),
                    member("iter", counts()).injectNull(0.1),
                    member("iterLatencyMS", latency).injectNull(0.03),
                    member("numActiveRequests", counts()).injectNull(0.1),
                    member("numQueuedRequests", counts()).injectNull(0.1),
                    member("maxNumActiveRequests", counts()).injectNull(0.3),
                    member("cpuMemUsage", counts()).injectNull(0.3),
                    member("gpuMemUsage", counts()).injectNull(0.3),
                    member("specDecodingStats", specObjects()).injectNull(0.3),
                    Combinators.combine(keys(), anyValues())
                        .as((k, v) -> k + ": " + v)
                        .injectNull(0.6),
                    Combinators.combine(keys(), anyValues())
                        .as((k, v) -> k + ": " + v)
                        .injectNull(0.8)))
            .as(l -> l);
    Arbitrary<String> object =
        members
            .map(l -> l.stream().filter(m -> m != null).toList())
            .flatMap(
                l ->
                    Combinators.combine(
                            Arbitraries.shuffle(l),
                            Arbitraries.of(", ", ",", " ,  ", ",\t", ",\n", " , \r\n"),
                            Arbitraries.of("", " ", "\t", "\n "))
                        .as((s, sep, pad) -> "{" + pad + String.join(sep, s) + pad + "}"));
    Arbitrary<String> prefix =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just("")),
            Tuple.of(2, Arbitraries.just("[2025-06-06 14:20:35] ")),
            Tuple.of(1, Arbitraries.just("[2025-06-06 14:20:35.5 TP1] ")),
            Tuple.of(1, Arbitraries.just("[TensorRT-LLM][INFO] ")),
            Tuple.of(1, Arbitraries.just("[2025-13-06 14:20:35] ")),
            Tuple.of(1, Arbitraries.just("stats: ")));
    Arbitrary<String> trailer =
        Arbitraries.frequency(
            Tuple.of(12, ""),
            Tuple.of(2, " "),
            Tuple.of(1, "\t \r\n"),
            Tuple.of(1, " x"),
            Tuple.of(1, ","),
            Tuple.of(1, "}"));
    // jqwik's edge cases (negative, huge) in every member would make almost every line invalid
    return Combinators.combine(prefix, object, trailer)
        .as((p, o, t) -> p + o + t)
        .withoutEdgeCases();
  }

  @Provide
  Arbitrary<String> mangledLines() {
    Arbitrary<String> base =
        Arbitraries.frequencyOf(Tuple.of(3, statsLines()), Tuple.of(2, Arbitraries.of(CORPUS)));
    Arbitrary<String> garbage =
        Arbitraries.frequencyOf(
            Tuple.of(
                3,
                Arbitraries.strings()
                    .withChars(
                        "{}[]\":,.\\ 0123456789-eE+tfnul\u00e9\u4e2d\ud83d\ude00\t\r\n\u0000")
                    .ofMinLength(1)
                    .ofMaxLength(4)),
            Tuple.of(
                2,
                Arbitraries.of(
                    "\"iter\": 3, ",
                    "\"iterLatencyMS\": 1.0, ",
                    "\"specDecodingStats\": null, ",
                    "\"specDecodingStats\": {\"numDraftTokens\": 1, \"numAcceptedTokens\": 0}, ",
                    "\"timestamp\": \"01-01-2025 00:00:00\", ",
                    "\"cpuMemUsage\": 0, ",
                    "\"numDraftTokens\": 9, ",
                    "\\u0041",
                    "\\n",
                    "\u00e9")));
    return Combinators.combine(
            base,
            Arbitraries.integers().between(0, 3),
            Arbitraries.doubles().between(0, 1),
            garbage)
        .as((line, op, at, g) -> mangle(line, op, at, g));
  }

  /** 0: cut at a fraction; 1: insert garbage; 2: double a key after a brace; 3: replace a char. */
  private static String mangle(String line, int op, double at, String garbage) {
    int i = (int) Math.round(at * line.length());
    switch (op) {
      case 0:
        return line.substring(0, i);
      case 1:
        return line.substring(0, i) + garbage + line.substring(i);
      case 2:
        int brace = line.indexOf('{', Math.min(i, line.length()));
        if (brace < 0) {
          brace = line.indexOf('{');
        }
        if (brace < 0) {
          return line + garbage;
        }
        int quote = line.indexOf('"', brace);
        int colon = quote < 0 ? -1 : line.indexOf("\": ", quote + 1);
        if (colon < 0) {
          return line;
        }
        int comma = line.indexOf(',', colon);
        int close = line.indexOf('}', colon);
        int end = comma < 0 ? close : close < 0 ? comma : Math.min(comma, close);
        if (end < 0) {
          return line;
        }
        // {"k": v, ...} -> {"k": v, "k": v, ...} (the member copied before itself)
        String first = line.substring(quote, end);
        return line.substring(0, quote) + first + ", " + line.substring(quote);
      default:
        if (line.isEmpty()) {
          return garbage;
        }
        int j = Math.min(i, line.length() - 1);
        return line.substring(0, j) + garbage.charAt(0) + line.substring(j + 1);
    }
  }

  private static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    Path mixed = Path.of("src", "test", "resources", "mixed", "mixed-engines.log");
    try {
      for (String line : Files.readAllLines(mixed, StandardCharsets.UTF_8)) {
        if (line.contains("\"iterLatencyMS\"") || line.contains("\"specDecodingStats\"")) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lines.add(TrtllmIterationStatsParserTest.SPEC);
    long seed = 21;
    for (SpecMethod m :
        List.of(SpecMethod.EAGLE3, SpecMethod.MTP, SpecMethod.NGRAM, SpecMethod.NONE)) {
      for (String line :
          GeneratedFormatsProperties.lines(LogFormat.TRTLLM_ITERATION_STATS, m, seed++)) {
        if (line.contains("\"iterLatencyMS\"")) {
          lines.add(line);
        }
      }
    }
    return List.copyOf(lines);
  }
}
