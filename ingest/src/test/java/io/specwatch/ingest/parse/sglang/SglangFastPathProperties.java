package io.specwatch.ingest.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserDispatchProperties;
import io.specwatch.ingest.parse.PrefixParser;
import io.specwatch.ingest.parse.RawFields;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link SglangFastPath} gives what the general path of {@link SglangDecodeBatchParser} gives, on
 * every line: the same result, the same raw fields in the same order and the same Avro encoding of
 * them; and it does read the common lines (else the comparison would be vacuous).
 */
class SglangFastPathProperties {

  private final SglangDecodeBatchParser parser = new SglangDecodeBatchParser();

  private void assertSame(String line) {
    ParseResult fast = parser.parse(line);
    ParseResult general = parser.parseWithoutFastPath(line);
    assertThat(fast).as("line: %s", line).isEqualTo(general);
    if (fast instanceof ParseResult.Parsed f) {
      RawFields a = (RawFields) f.line().rawFields();
      RawFields b = (RawFields) ((ParseResult.Parsed) general).line().rawFields();
      assertThat(a.size()).isEqualTo(b.size());
      assertThat(new ArrayList<>(a.entrySet()))
          .as("fields in line order: %s", line)
          .isEqualTo(new ArrayList<>(b.entrySet()));
      assertThat(a.avroBinary()).as("encoding: %s", line).isEqualTo(b.avroBinary());
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }

  private static boolean fastPathReads(String line) {
    PrefixParser.Split split = PrefixParser.split(line);
    return split.error() == null && SglangFastPath.read(split.prefix(), split.body()) != null;
  }

  @Example
  void committedAndGeneratedLinesReadAlike() {
    int fast = 0;
    for (String line : ParserDispatchProperties.corpus()) {
      assertSame(line);
      if (line.contains("Decode batch") && fastPathReads(line)) {
        fast++;
      }
    }
    assertThat(fast).as("corpus lines the fast path reads").isGreaterThan(50);
  }

  @Property(tries = 3000)
  void generatedLinesReadAlike(@ForAll("lines") String line) {
    assertSame(line);
  }

  @Property(tries = 3000)
  void mutatedLinesReadAlike(@ForAll("mutated") String line) {
    assertSame(line);
  }

  @Example
  void theFastPathReadsMostWellFormedLines() {
    List<String> sample = lines().sampleStream().limit(2000).toList();
    long fast = sample.stream().filter(SglangFastPathProperties::fastPathReads).count();
    long parsed =
        sample.stream().filter(l -> parser.parse(l) instanceof ParseResult.Parsed).count();
    assertThat(fast).as("read by the fast path of %s", sample.size()).isGreaterThan(600);
    assertThat(parsed - fast).as("parsed by the general path only").isGreaterThan(100);
  }

  private static final List<String> NAMES =
      List.of(
          "#running-req",
          "#token",
          "token usage",
          "accept len",
          "accept rate",
          "cuda graph",
          "npu graph",
          "cpu graph",
          "gen throughput (token/s)",
          "#queue-req",
          "pre-allocated usage",
          "#retracted-req",
          "forward_ct",
          "#new-token",
          "hybrid full tokens",
          "MFU",
          "_text",
          "x",
          "a:b");

  private static final List<String> REQUIRED =
      List.of("#running-req", "#token", "token usage", "gen throughput (token/s)", "#queue-req");

  @Provide
  Arbitrary<String> lines() {
    return Arbitraries.oneOf(canonicalLines(), anyLines());
  }

  /** Lines of the shape the fast path reads, with optional and unknown fields. */
  private Arbitrary<String> canonicalLines() {
    Arbitrary<String> optional =
        Arbitraries.oneOf(
            Arbitraries.doubles()
                .between(0, 8)
                .ofScale(2)
                .map(d -> "accept len: " + String.format("%.2f", d)),
            Arbitraries.doubles().between(0, 1).ofScale(3).map(d -> "accept rate: " + d),
            Arbitraries.of("cuda graph", "npu graph", "cpu graph")
                .flatMap(g -> Arbitraries.of("True", "False", "true").map(v -> g + ": " + v)),
            Arbitraries.doubles().between(0, 1).ofScale(2).map(d -> "pre-allocated usage: " + d),
            Arbitraries.integers().between(0, 99).map(i -> "#retracted-req: " + i),
            Arbitraries.longs().between(0, 1L << 40).map(i -> "forward_ct: " + i),
            Arbitraries.integers().between(0, 99).map(i -> "#new-token: " + i),
            Arbitraries.strings()
                .withCharRange('!', '~')
                .ofMinLength(1)
                .ofMaxLength(12)
                .filter(v -> v.indexOf(',') < 0)
                .map(v -> "hybrid full tokens: " + v));
    return Combinators.combine(
            Arbitraries.of("[2025-03-14 02:16:14 TP0] ", "[2026-04-05 20:02:51] ", ""),
            Arbitraries.of("Decode batch. ", "Decode batch, "),
            required(),
            optional.list().ofMaxSize(4).uniqueElements(f -> f.substring(0, f.indexOf(':'))),
            Arbitraries.randoms(),
            Arbitraries.of(", ", ""))
        .as(
            (p, m, req, opt, random, end) -> {
              List<String> fields = new ArrayList<>(req);
              fields.addAll(opt);
              java.util.Collections.shuffle(fields, random);
              return p + m + String.join(", ", fields) + end;
            });
  }

  private Arbitrary<List<String>> required() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 512),
            Arbitraries.longs().between(0, 10_000_000),
            Arbitraries.doubles().between(0, 1).ofScale(2),
            Arbitraries.doubles().between(0, 5000).ofScale(3),
            Arbitraries.integers().between(0, 64))
        .as(
            (r, t, u, g, q) ->
                List.of(
                    "#running-req: " + r,
                    "#token: " + t,
                    "token usage: " + u,
                    "gen throughput (token/s): " + g,
                    "#queue-req: " + q));
  }

  /** Lines of any shape, with any of the names and values. */
  private Arbitrary<String> anyLines() {
    Arbitrary<String> prefix =
        Arbitraries.of(
            "[2025-03-14 02:16:14 TP0] ",
            "[2025-07-09 08:00:01 DP3 TP3] ",
            "[2026-04-05 20:02:51] ",
            "[2026-04-05 20:02:51.123 TP1 EP1] ",
            "",
            "scheduler: ");
    Arbitrary<String> marker =
        Arbitraries.of(
            "Decode batch. ", "Decode batch, ", "Decode batch.  ", "Decode batch [12], ");
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 100_000).map(String::valueOf),
            Arbitraries.longs().map(String::valueOf),
            Arbitraries.doubles().between(0, 10_000).ofScale(2).map(d -> String.format("%.2f", d)),
            Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(24),
            Arbitraries.strings().withChars("0123456789.").ofMinLength(1).ofMaxLength(20),
            Arbitraries.of(
                "True",
                "False",
                "true",
                "false",
                "TRUE",
                "nan",
                "inf",
                "1e3",
                "-1",
                "0.000",
                "2147483647",
                "2147483648",
                "9999999999999999",
                "123456789012345.6",
                "12345678901234.56",
                "0.1",
                "00.50",
                ".5",
                "5.",
                "",
                " 1",
                "1 ",
                "1 2",
                "a:b",
                "31.5%",
                "\u00e9"));
    Arbitrary<String> field =
        Combinators.combine(Arbitraries.of(NAMES), value, Arbitraries.of(": ", ":", " : ", ":  "))
            .as((n, v, sep) -> n + sep + v);
    Arbitrary<List<String>> required = required();
    Arbitrary<List<String>> extra = field.list().ofMaxSize(6);
    Arbitrary<String> sep = Arbitraries.of(", ", ", ", ", ", ",", " , ", ",  ");
    Arbitrary<String> end = Arbitraries.of(", ", "", ", ", ",", " ", " MFU 31.5%");
    return Combinators.combine(
            prefix,
            marker,
            required,
            extra,
            Arbitraries.randoms(),
            sep,
            end,
            Arbitraries.of(0, 1, 2))
        .as(
            (p, m, req, ext, random, s, e, mode) -> {
              List<String> fields = new ArrayList<>(req);
              fields.addAll(ext);
              java.util.Collections.shuffle(fields, random);
              StringBuilder b = new StringBuilder(p).append(m);
              for (int i = 0; i < fields.size(); i++) {
                // mostly the canonical separator, so the fast path is reached often
                b.append(fields.get(i)).append(i + 1 < fields.size() ? (mode == 0 ? s : ", ") : "");
              }
              return b.append(mode == 2 ? e : ", ").toString();
            });
  }

  @Provide
  Arbitrary<String> mutated() {
    Arbitrary<String> insert =
        Arbitraries.of(
            ",",
            ":",
            " ",
            ", ",
            ": ",
            "\t",
            "\r",
            "\u0085",
            "\u2028",
            "-",
            ".",
            "x",
            "\u00e9",
            "\ud83d\ude00",
            "nan",
            "0",
            "[",
            "]");
    return Combinators.combine(
            lines(),
            Arbitraries.doubles().between(0, 1),
            Arbitraries.integers().between(0, 4),
            insert)
        .as(
            (line, at, op, s) -> {
              int i = (int) Math.round(at * line.length());
              return switch (op) {
                case 0 -> line.substring(0, i); // cut
                case 1 -> line.substring(i); // first characters missing
                case 2 -> line.substring(0, i) + s + line.substring(i);
                case 3 ->
                    i < line.length() ? line.substring(0, i) + s + line.substring(i + 1) : line + s;
                default -> i < line.length() ? line.substring(0, i) + line.substring(i + 1) : line;
              };
            });
  }
}
