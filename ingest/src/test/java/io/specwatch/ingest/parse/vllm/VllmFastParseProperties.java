package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The vLLM parsers after round 9 (hand-read prefix and engine tag, field names shared with the
 * reads, numbers read by hand when plain) give the same results as the implementation before it,
 * kept verbatim as {@code Reference*} in this package: the same {@link ParseResult} (records equal,
 * raw fields equal and in the same order, same failure reason, or the same exception), on the
 * generator's lines of every vLLM generation, the committed samples, random well-formed lines with
 * random numbers and optional fields, and those lines mangled.
 */
class VllmFastParseProperties {

  private static final LineParser V1 = new VllmV1Parser();
  private static final LineParser V0 = new VllmV0Parser();
  private static final LineParser REF_V1 = new ReferenceVllmV1Parser();
  private static final LineParser REF_V0 = new ReferenceVllmV0Parser();

  /** The generator's engine-log lines of every vLLM generation, and the committed samples. */
  private static final List<String> CORPUS = corpus();

  private static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    for (LogFormat format : LogFormat.values()) {
      if (format.name().startsWith("VLLM")) {
        for (SpecMethod method : List.of(SpecMethod.EAGLE, SpecMethod.NONE)) {
          for (String line : GeneratedFormatsProperties.lines(format, method, 7)) {
            if (!V1.parse(line).equals(ParseResult.NOT_METRIC)
                || !V0.parse(line).equals(ParseResult.NOT_METRIC)) {
              lines.add(line);
            }
          }
        }
      }
    }
    lines.addAll(
        List.of(
            VllmParsersTest.ENGINE,
            VllmParsersTest.SPEC_V1,
            VllmParsersTest.SPEC_V2,
            VllmParsersTest.SPEC_V3,
            VllmParsersTest.SPEC_V4,
            VllmParsersTest.SPEC_IDLE,
            VllmParsersTest.V0_THROUGHPUT,
            VllmParsersTest.V0_SPEC,
            VllmParsersTest.V0_STAGE));
    try (var in = VllmFastParseProperties.class.getResourceAsStream("/mixed/mixed-engines.log")) {
      String text = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
      lines.addAll(text.lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(lines);
  }

  @Example
  void corpusLinesParseAsBefore() {
    int parsed = 0;
    for (String line : CORPUS) {
      assertSameAsReference(line);
      if (V1.parse(line) instanceof ParseResult.Parsed
          || V0.parse(line) instanceof ParseResult.Parsed) {
        parsed++;
      }
    }
    // every generation: engine, four SpecDecoding formats, v0 throughput and spec metrics
    assertThat(CORPUS).hasSizeGreaterThan(100);
    assertThat(parsed).isGreaterThan(100);
    for (String format :
        List.of(
            VllmV1Parser.ENGINE,
            VllmV1Parser.SPEC_V1,
            VllmV1Parser.SPEC_V2,
            VllmV1Parser.SPEC_V3,
            VllmV1Parser.SPEC_V4,
            VllmV0Parser.THROUGHPUT,
            VllmV0Parser.SPEC_METRICS)) {
      assertThat(CORPUS)
          .as(format)
          .anyMatch(
              l ->
                  V1.parse(l) instanceof ParseResult.Parsed p && p.line().format().equals(format)
                      || V0.parse(l) instanceof ParseResult.Parsed q
                          && q.line().format().equals(format));
    }
  }

  @Property(tries = 4000)
  void wellFormedLinesParseAsBefore(@ForAll("wellFormedLines") String line) {
    assertSameAsReference(line);
    ParseResult r = V1.parse(line);
    if (r instanceof ParseResult.NotMetric) {
      r = V0.parse(line);
    }
    Statistics.label("result").collect(r.getClass().getSimpleName());
    Statistics.label("plain numbers").collect(r instanceof ParseResult.Parsed p && allPlain(p));
    Statistics.label("result")
        .coverage(
            c -> {
              c.check("Parsed").percentage(p -> p > 40);
              c.check("Failed").percentage(p -> p > 5);
            });
    Statistics.label("plain numbers")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 25); // the hand-read numbers, no fallback
              c.check(false).percentage(p -> p > 25); // some field read the general way
            });
  }

  @Property(tries = 6000)
  void mangledLinesParseAsBefore(@ForAll("mangledLines") String line) {
    assertSameAsReference(line);
  }

  @Property(tries = 3000)
  void prefixSplitsAsTheRegex(@ForAll("prefixes") String prefix, @ForAll("cut") int cut) {
    String line =
        (prefix + "Avg prompt throughput: 1.0 tokens/s")
            .substring(0, Math.min(cut, prefix.length() + 34));
    VllmPrefix.Split split = VllmPrefix.split(line);
    ReferenceVllmPrefix.Split ref = ReferenceVllmPrefix.split(line);
    assertThat(
            List.of(
                Objects.toString(split.stamp()),
                Objects.toString(split.processTag()),
                split.body(),
                Objects.toString(split.error())))
        .as(line)
        .isEqualTo(
            List.of(
                Objects.toString(ref.stamp()),
                Objects.toString(ref.processTag()),
                ref.body(),
                Objects.toString(ref.error())));
    Statistics.label("prefix").collect(split.stamp() != null);
    Statistics.label("prefix")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 15);
              c.check(false).percentage(p -> p > 15);
            });
  }

  private static final Pattern ENGINE_TAG = Pattern.compile("Engine (\\d{1,6}):\\s*");

  @Property(tries = 3000)
  void engineTagFoundAsTheRegex(@ForAll("engineTexts") String text) {
    Matcher m = ENGINE_TAG.matcher(text);
    int at = VllmV1Parser.engineTag(text);
    if (!m.find()) {
      assertThat(at).as(text).isEqualTo(-1);
      return;
    }
    assertThat(at).as(text).isEqualTo(m.start());
    assertThat(VllmV1Parser.engineTagEnd(text, at)).isEqualTo(m.end());
    assertThat(VllmV1Parser.engineIndex(text, at)).isEqualTo(Integer.valueOf(m.group(1)));
  }

  @Property(tries = 5000)
  void fieldReadsAsBefore(@ForAll("numbers") String value, @ForAll("units") String unit) {
    String list =
        "Accepted: " + value + unit + ", Per-position acceptance rate: " + value + ", " + value;
    VllmFields f = VllmFields.colonList(list);
    ReferenceVllmFields g = ReferenceVllmFields.colonList(list);
    assertThat(
            List.of(
                String.valueOf(f.number("Accepted", true)),
                String.valueOf(f.count("Accepted", true)),
                String.valueOf(f.smallCount("Accepted", false)),
                String.valueOf(f.numberList("Per-position acceptance rate")),
                String.valueOf(f.error())))
        .as(list)
        .isEqualTo(
            List.of(
                String.valueOf(g.number("Accepted", true)),
                String.valueOf(g.count("Accepted", true)),
                String.valueOf(g.smallCount("Accepted", false)),
                String.valueOf(g.numberList("Per-position acceptance rate")),
                String.valueOf(g.error())));
    // doubles compared by bits too (String.valueOf would not tell every difference)
    Double a = VllmFields.colonList(list).number("Accepted", false);
    Double b = ReferenceVllmFields.colonList(list).number("Accepted", false);
    assertThat(a == null ? null : Double.doubleToRawLongBits(a))
        .isEqualTo(b == null ? null : Double.doubleToRawLongBits(b));
    String text = value + unit;
    Statistics.label("plain")
        .collect(VllmFields.plainNumber(text, 0, VllmFields.valueEnd(text)) >= 0);
    Statistics.label("plain")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 20);
              c.check(false).percentage(p -> p > 20);
            });
  }

  @Example
  void knownSlotsAgreeWithTheirNames() {
    for (int slot = 0; slot < VllmFields.KNOWN.length; slot++) {
      assertThat(VllmFields.slot(VllmFields.KNOWN[slot])).isEqualTo(slot);
      assertThat(VllmFields.slot(new String(VllmFields.KNOWN[slot]))).isEqualTo(slot);
    }
    assertThat(VllmFields.slot("Accepted ")).isEqualTo(-1);
  }

  @Example
  void plainNumbersEqualParseDouble() {
    java.util.Random random = new java.util.Random(42);
    for (int i = 0; i < 200_000; i++) {
      int intDigits = 1 + random.nextInt(15);
      int fracDigits = random.nextInt(16 - intDigits);
      StringBuilder sb = new StringBuilder();
      for (int d = 0; d < intDigits; d++) {
        sb.append((char) ('0' + random.nextInt(10)));
      }
      if (fracDigits > 0) {
        sb.append('.');
        for (int d = 0; d < fracDigits; d++) {
          sb.append((char) ('0' + random.nextInt(10)));
        }
      }
      String text = sb.toString();
      double v = VllmFields.plainNumber(text, 0, text.length());
      assertThat(Double.doubleToRawLongBits(v))
          .as(text)
          .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
    }
  }

  // --- comparison

  /** Both parsers give the reference's result: equal records, field order, reason or exception. */
  static void assertSameAsReference(String line) {
    assertThat(outcome(V1, line)).as("V1: %s", line).isEqualTo(outcome(REF_V1, line));
    assertThat(outcome(V0, line)).as("v0: %s", line).isEqualTo(outcome(REF_V0, line));
  }

  /** The result, its raw fields in order and each double's bits, or the exception thrown. */
  private static List<Object> outcome(LineParser parser, String line) {
    ParseResult r;
    try {
      r = parser.parse(line);
    } catch (RuntimeException e) {
      return List.of("threw", e.toString());
    }
    List<Object> out = new ArrayList<>();
    out.add(r);
    if (r instanceof ParseResult.Parsed p) {
      out.add(new ArrayList<>(p.line().rawFields().entrySet()));
      out.add(p.line().toString()); // Double.toString of every number: bits of each value
    }
    return out;
  }

  /** Whether every number and count of the parsed line is one the hand reading accepts. */
  private static boolean allPlain(ParseResult.Parsed p) {
    for (Map.Entry<String, String> e : p.line().rawFields().entrySet()) {
      String name = e.getKey();
      if (name.equals(VllmReads.PER_POSITION)
          || name.startsWith("Prefix")
          || name.startsWith("CPU")) {
        continue;
      }
      String text = e.getValue();
      if (VllmFields.plainNumber(text, 0, VllmFields.valueEnd(text)) < 0) {
        return false;
      }
    }
    return true;
  }

  // --- generators

  @Provide
  Arbitrary<String> numbers() {
    return numbers(4, 3, 2);
  }

  /** Numbers as vLLM prints them, long decimals, and odd texts, in the given proportions. */
  private static Arbitrary<String> numbers(int smallShare, int decimalShare, int oddShare) {
    Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(20);
    Arbitrary<String> decimal =
        Combinators.combine(
                digits,
                Arbitraries.strings().numeric().ofMaxLength(20),
                Arbitraries.of(".", ",", ""))
            .as((i, f, dot) -> f.isEmpty() ? i : i + "." + f);
    Arbitrary<String> small =
        Combinators.combine(
                Arbitraries.integers().between(0, 99999), Arbitraries.integers().between(0, 3))
            .as(
                (v, scale) ->
                    scale == 0
                        ? String.valueOf(v)
                        : String.format(java.util.Locale.ROOT, "%." + scale + "f", v / 997.0));
    Arbitrary<String> odd =
        Arbitraries.of(
            "nan",
            "-nan",
            "NaN",
            "inf",
            "-inf",
            "Infinity",
            "-1.5",
            "-0",
            "-0.0",
            "+3",
            "1e308",
            "1e400",
            "1E5",
            "0x10",
            "1.",
            ".5",
            "5..",
            "1.2.3",
            "",
            " ",
            "00",
            "000.000",
            "12345678901234567890",
            "999999999999999",
            "9999999999999999",
            "0.1234567890123456",
            "4.35",
            "0.3",
            "\u0661\u0662",
            "1\u00a0",
            "7 ",
            " 7",
            "1_000",
            "1,5",
            "2147483648",
            "9223372036854775807",
            "9223372036854775808",
            "1.0d",
            "1f",
            "\u0000");
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(smallShare, small),
        net.jqwik.api.Tuple.of(decimalShare, decimal),
        net.jqwik.api.Tuple.of(oddShare, odd));
  }

  @Provide
  Arbitrary<String> units() {
    return Arbitraries.of(
        "",
        " tokens/s",
        " tokens",
        " reqs",
        "%",
        ".",
        "%.",
        " tokens.",
        " reqs ",
        "  tokens",
        " tokens/s.",
        "tokens",
        " %");
  }

  @Provide
  Arbitrary<String> prefixes() {
    Arbitrary<String> tag =
        Arbitraries.of(
            "",
            "",
            "(APIServer pid=1) ",
            "(EngineCore_0 pid=77)  ",
            "() ",
            "(x)",
            "(" + "a".repeat(80) + ") ",
            "(" + "a".repeat(81) + ") ",
            "(a)b) ");
    Arbitrary<String> level =
        Arbitraries.of("INFO", "DEBUG", "WARNING", "ERROR", "CRITICAL", "INF", "info", "WARN");
    Arbitrary<String> space = Arbitraries.of(" ", " ", "  ", "\t", "", "\u2003", "\n");
    Arbitrary<String> two = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(3);
    Arbitrary<String> date =
        Combinators.combine(
                two, Arbitraries.of("-", "/"), two, Arbitraries.of(" ", "  ", "T"), two, two, two)
            .as((mo, sep, d, s, h, mi, se) -> mo + sep + d + s + h + ":" + mi + ":" + se);
    Arbitrary<String> frac =
        Arbitraries.of("", "", ".", ",5", ".123", ".123456789", ".1234567890", ".12x");
    Arbitrary<String> file =
        Arbitraries.of(
            "[loggers.py:116]",
            "metrics.py:345]",
            "[core.py:75]",
            "[a/b-c_d.py:1234567]",
            "[x.py:12345678]",
            "[x.py:]",
            "[:1]",
            "[x y.py:1]",
            "[[x.py:1]",
            "[" + "f".repeat(120) + ":1]",
            "[" + "f".repeat(121) + ":1]",
            "x.py:1");
    Arbitrary<String> after = Arbitraries.of(" ", "", "  ", "\t", "\r");
    Arbitrary<String> good =
        Combinators.combine(tag, level, space, date, frac, space, file, after)
            .as((t, l, s1, d, f, s2, fi, a) -> t + l + s1 + d + f + s2 + fi + a);
    Arbitrary<String> plain =
        Combinators.combine(
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(6, Arbitraries.of("", "(APIServer pid=1) ")),
                    net.jqwik.api.Tuple.of(1, tag)),
                Arbitraries.integers().between(1, 12),
                Arbitraries.integers().between(1, 31),
                Arbitraries.integers().between(0, 24),
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(6, Arbitraries.of("", ".123", ",123456789")),
                    net.jqwik.api.Tuple.of(1, frac)),
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(
                        6, Arbitraries.of("[loggers.py:116]", "metrics.py:345]")),
                    net.jqwik.api.Tuple.of(1, file)))
            .as(
                (t, mo, d, h, f, fi) ->
                    String.format(
                        java.util.Locale.ROOT,
                        "%sINFO %02d-%02d %02d:59:%02d%s %s ",
                        t,
                        mo,
                        d,
                        h,
                        d,
                        f,
                        fi));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(1, good), net.jqwik.api.Tuple.of(3, plain));
  }

  @Provide
  Arbitrary<Integer> cut() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.just(Integer.MAX_VALUE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 120)));
  }

  @Provide
  Arbitrary<String> engineTexts() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "Engine ",
            "Engine",
            "engine ",
            "0",
            "12",
            "1234567",
            "123456",
            ":",
            " ",
            "\t",
            "\u2003",
            "x",
            "Engine 1:",
            "Engine 000: ",
            "Engine 9999999:",
            ",");
    return piece.list().ofMaxSize(8).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<String> wellFormedLines() {
    Arbitrary<String> prefix =
        Arbitraries.of(
            "",
            "INFO 06-06 09:00:00 [loggers.py:116] ",
            "(APIServer pid=1) INFO 05-07 04:56:17 [metrics.py:101] ",
            "INFO 08-01 09:00:00 metrics.py:345] ",
            "INFO 08-01 09:00:00 metrics.py:367] ",
            "DEBUG 02-29 23:59:59.250 [loggers.py:116] ",
            "INFO 02-30 09:00:00 [loggers.py:116] ",
            "(EngineCore_DP1 pid=9) WARNING 12-31 00:00:00,5 [loggers.py:116] ");
    Arbitrary<String> n = numbers(60, 3, 2);
    Arbitrary<String> count =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(
                30, Arbitraries.longs().between(0, 100_000).map(String::valueOf)),
            net.jqwik.api.Tuple.of(1, n));
    Arbitrary<List<String>> nums =
        Combinators.combine(n.list().ofSize(12), count.list().ofSize(12))
            .as(
                (a, b) -> {
                  List<String> all = new ArrayList<>(a);
                  all.addAll(b);
                  return all;
                });
    Arbitrary<List<Boolean>> present =
        Arbitraries.frequency(net.jqwik.api.Tuple.of(12, true), net.jqwik.api.Tuple.of(1, false))
            .list()
            .ofSize(12);
    Arbitrary<Integer> kind = Arbitraries.integers().between(0, 6);
    Arbitrary<String> engine =
        Arbitraries.of(
            "Engine 000: ",
            "Engine 001: ",
            "Engine 7: ",
            "Engine 123456: ",
            "Engine 1234567: ",
            "",
            "Engine 02:",
            "Engine 3:  ");
    Arbitrary<Integer> positions = Arbitraries.integers().between(0, 5);
    return Combinators.combine(prefix, kind, nums, present, engine, positions)
        .as((p, k, v, on, e, pos) -> p + body(k, v, on, e, pos));
  }

  /** One body of each kind with the given numbers, each field present where {@code on} says. */
  private static String body(
      int kind, List<String> v, List<Boolean> on, String engine, int positions) {
    List<String> f = new ArrayList<>();
    StringBuilder per = new StringBuilder();
    for (int i = 0; i < positions; i++) {
      per.append(i == 0 ? "" : ", ").append(v.get((i + 5) % v.size()));
    }
    String marker;
    switch (kind) {
      case 0 -> {
        marker = engine;
        f.add("Avg prompt throughput: " + v.get(0) + " tokens/s");
        add(f, on.get(1), "Avg generation throughput: " + v.get(1) + " tokens/s");
        add(f, on.get(2), "Running: " + v.get(14) + " reqs");
        add(f, on.get(3), "Waiting: " + v.get(15) + " reqs");
        add(f, on.get(4), "GPU KV cache usage: " + v.get(4) + "%");
        add(f, on.get(5), "Prefix cache hit rate: " + v.get(5) + "%");
      }
      case 1 -> {
        marker = "";
        f.add("Avg prompt throughput: " + v.get(0) + " tokens/s");
        add(f, on.get(1), "Avg generation throughput: " + v.get(1) + " tokens/s");
        add(f, on.get(2), "Running: " + v.get(14) + " reqs");
        add(f, on.get(3), "Swapped: " + v.get(15) + " reqs");
        add(f, on.get(4), "Pending: " + v.get(16) + " reqs");
        add(f, on.get(5), "GPU KV cache usage: " + v.get(5) + "%");
        add(f, on.get(6), "CPU KV cache usage: " + v.get(6) + "%.");
      }
      case 2 -> {
        marker = "Speculative metrics: ";
        add(f, on.get(0), "Draft acceptance rate: " + v.get(0));
        add(f, on.get(1), "System efficiency: " + v.get(1));
        add(f, on.get(2), "Number of speculative tokens: " + v.get(14));
        add(f, on.get(3), "Number of accepted tokens: " + v.get(15));
        add(f, on.get(4), "Number of draft tokens: " + v.get(16));
        add(f, on.get(5), "Number of emitted tokens: " + v.get(17) + ".");
      }
      case 3 -> {
        marker = "Speculative metrics: ";
        add(f, on.get(0), "Draft acceptance rate: " + v.get(0));
        add(f, on.get(1), "Number of accepted tokens: " + v.get(13));
        add(f, on.get(2), "Number of draft tokens: " + v.get(14));
        f.add("");
      }
      case 4 -> {
        marker = "SpecDecoding metrics: ";
        add(f, on.get(0), "Draft acceptance rate: " + v.get(0) + "%");
        add(f, on.get(1), "Accepted: " + v.get(13) + " tokens");
        add(f, on.get(2), "Drafted: " + v.get(14) + " tokens");
      }
      case 5 -> {
        marker = "SpecDecoding metrics: ";
        add(f, on.get(0), "Draft acceptance rate: " + v.get(0) + "%");
        add(f, on.get(1), "Mean acceptance length: " + v.get(1));
        add(f, on.get(2), "Accepted: " + v.get(14) + " tokens");
        add(f, on.get(3), "Drafted: " + v.get(15) + " tokens");
        add(f, on.get(4), "Per-position acceptance rate: " + per);
      }
      default -> {
        marker = "SpecDecoding metrics: ";
        add(f, on.get(0), "Mean acceptance length: " + v.get(0));
        add(f, on.get(1), "Accepted throughput: " + v.get(1) + " tokens/s");
        add(f, on.get(2), "Drafted throughput: " + v.get(2) + " tokens/s");
        add(f, on.get(3), "Accepted: " + v.get(15) + " tokens");
        add(f, on.get(4), "Drafted: " + v.get(16) + " tokens");
        add(f, on.get(5), "Per-position acceptance rate: " + per);
        add(f, on.get(6), "Avg Draft acceptance rate: " + v.get(6) + "%");
      }
    }
    return marker + String.join(", ", f);
  }

  private static void add(List<String> fields, boolean on, String field) {
    if (on) {
      fields.add(field);
    }
  }

  @Provide
  Arbitrary<String> mangledLines() {
    Arbitrary<String> base = Arbitraries.oneOf(Arbitraries.of(CORPUS), wellFormedLines());
    Arbitrary<Double> at = Arbitraries.doubles().between(0, 1);
    Arbitrary<String> insert =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(4),
            Arbitraries.of(
                ",",
                ", ,",
                ":",
                "::",
                " ",
                "  ",
                "%",
                ".",
                "\r",
                "\n",
                "\u0085",
                "\u2028",
                "\u2029",
                "\u0000",
                "\ud800",
                "\ud83d\ude00",
                "\u00e9",
                "\u2003",
                "\u00a0",
                "nan",
                "-1",
                "1e9",
                "Engine 9:",
                "Engine 1234567:",
                "SpecDecoding metrics:",
                "Speculative metrics:",
                "Avg prompt throughput:",
                "System efficiency",
                "Waiting:",
                "Prefix cache",
                "(",
                ")",
                "[",
                "]",
                " tokens",
                " reqs",
                "tokens/s",
                "Accepted: 1 tokens",
                "Accepted: 2 tokens",
                "Per-position acceptance rate: 0.5"));
    Arbitrary<Integer> op = Arbitraries.integers().between(0, 6);
    return Combinators.combine(base, at, insert, op)
        .as(
            (line, where, text, kind) -> {
              int i = (int) Math.round(where * line.length());
              return switch (kind) {
                case 0 -> line.substring(0, i) + text + line.substring(i); // insert
                case 1 -> line.substring(0, i); // cut at its end
                case 2 -> line.substring(i); // first characters missing
                case 3 ->
                    line.substring(0, i) + text + line.substring(Math.min(line.length(), i + 2));
                case 4 -> line.replaceFirst(i % 2 == 0 ? ", " : ": ", i % 2 == 0 ? ",, " : ":: ");
                case 5 -> i < line.length() ? line.substring(0, i) + line.substring(i + 1) : line;
                default -> line.replace(" ", text.isEmpty() ? "  " : text);
              };
            });
  }
}
