package io.specwatch.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
 * {@link PrefixParser#split}, which reads the prefix by hand, gives the same {@link
 * PrefixParser.Split} (prefix, body, error) as the former regex ({@link PrefixParser#regexSplit})
 * on well-formed prefixes and on prefixes with every part mangled: fractions of 0-11 digits, {@code
 * ,} or {@code .}, tags of 0-8 digits and any letters, missing or doubled spaces, other whitespace
 * after the bracket, impossible dates, cut lines.
 */
class PrefixSplitProperties {

  @Property(tries = 5000)
  void handReadSplitEqualsRegex(@ForAll("prefixedLines") String line) {
    PrefixParser.Split split = PrefixParser.split(line);
    assertThat(split).as(line).isEqualTo(PrefixParser.regexSplit(line));
    Statistics.label("prefix").collect(split.prefix() != LinePrefix.NONE);
    Statistics.label("ranks").collect(split.prefix().rank() != null);
    Statistics.label("prefix")
        .coverage(
            c -> {
              c.check(true).percentage(p -> p > 15);
              c.check(false).percentage(p -> p > 15);
            });
    Statistics.label("ranks").coverage(c -> c.check(true).percentage(p -> p > 5));
  }

  @Property(tries = 2000)
  void cutLinesSplitAsRegex(@ForAll("prefixedLines") String line, @ForAll("fractions") double at) {
    String cut = line.substring(0, (int) (line.length() * at));
    assertThat(PrefixParser.split(cut)).as(cut).isEqualTo(PrefixParser.regexSplit(cut));
  }

  @Example
  void knownShapes() {
    for (String line :
        List.of(
            "[2025-03-14 02:16:14 DP3 TP3] Decode batch. x",
            "[2025-03-14T02:16:14.123456789 TP0 EP0 PP1]\tx",
            "[2025-03-14 02:16:14,5] x",
            "[2025-03-14 02:16:14.1234567890] x",
            "[2025-03-14 02:16:14 TP1234567] x",
            "[2025-03-14 02:16:14  TP1] x",
            "[2025-03-14 02:16:14 TP1 ] x",
            "[2025-02-30 02:16:14 TP1] x",
            "[2025-13-45 02:16:14 TP0] x",
            "[2025-03-14 02:16:14]",
            "[2025-03-14 02:16:14",
            "[2025-03-14 02:16:14 tp1] x",
            "[\u0661\u0662\u0663\u0664-03-14 02:16:14] x")) {
      assertThat(PrefixParser.split(line)).as(line).isEqualTo(PrefixParser.regexSplit(line));
    }
    assertThat(PrefixParser.split("[2025-03-14 02:16:14 DP3 TP3] b").prefix().dpRank())
        .isEqualTo(3);
  }

  @Provide
  Arbitrary<Double> fractions() {
    return Arbitraries.doubles().between(0, 1);
  }

  /** Mostly the good value, sometimes a mangled one. */
  private static Arbitrary<String> mostly(Arbitrary<String> good, Arbitrary<String> bad) {
    return Arbitraries.frequencyOf(Tuple.of(8, good), Tuple.of(1, bad));
  }

  private static Arbitrary<String> num(int min, int max, int width) {
    return Arbitraries.integers().between(min, max).map(i -> String.format("%0" + width + "d", i));
  }

  @Provide
  Arbitrary<String> prefixedLines() {
    Arbitrary<String> anyDigits = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(5);
    Arbitrary<String> year = mostly(num(1, 9999, 4), anyDigits);
    Arbitrary<String> month = mostly(num(1, 12, 2), num(0, 99, 2));
    Arbitrary<String> day = mostly(num(1, 28, 2), num(0, 99, 2));
    Arbitrary<String> hour = mostly(num(0, 23, 2), num(0, 99, 2));
    Arbitrary<String> minSec = mostly(num(0, 59, 2), num(0, 99, 2));
    Arbitrary<String> sep = mostly(Arbitraries.of(" ", "T"), Arbitraries.of("t", "  ", "_", ""));
    Arbitrary<String> fraction =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just("")),
            Tuple.of(
                4,
                Arbitraries.strings()
                    .numeric()
                    .ofMinLength(1)
                    .ofMaxLength(9)
                    .flatMap(d -> Arbitraries.of(".", ",").map(p -> p + d))),
            Tuple.of(
                1,
                Arbitraries.strings()
                    .numeric()
                    .ofMinLength(0)
                    .ofMaxLength(12)
                    .flatMap(d -> Arbitraries.of(".", ",", ":").map(p -> p + d))));
    Arbitrary<String> tag =
        mostly(
            Arbitraries.strings()
                .numeric()
                .ofMinLength(1)
                .ofMaxLength(6)
                .flatMap(d -> Arbitraries.of("TP", "DP", "EP", "PP", "XY").map(t -> t + d)),
            Arbitraries.strings()
                .numeric()
                .ofMinLength(0)
                .ofMaxLength(8)
                .flatMap(d -> Arbitraries.of("TP", "Tp", "T", "ABC", "").map(t -> t + d)));
    Arbitrary<String> tags =
        tag.list()
            .ofMaxSize(4)
            .flatMap(
                l ->
                    mostly(Arbitraries.just(" "), Arbitraries.of("  ", ""))
                        .map(s -> l.isEmpty() ? "" : s + String.join(" ", l)));
    Arbitrary<String> after =
        mostly(Arbitraries.of("] ", "]"), Arbitraries.of("]\t", "]\n", "] \u00a0", " ]", "", "]]"));
    Arbitrary<String> body = Arbitraries.of("Decode batch. x", "", " y", "\u00e9", "9");
    Arbitrary<String> date =
        Combinators.combine(year, month, day, sep, hour, minSec, minSec)
            .as((y, mo, d, s, h, mi, se) -> y + "-" + mo + "-" + d + s + h + ":" + mi + ":" + se);
    Arbitrary<String> start = mostly(Arbitraries.just("["), Arbitraries.of("", "x[", "[["));
    return Combinators.combine(start, date, fraction, tags, after, body)
        .as((s, d, f, t, a, b) -> s + d + f + t + a + b);
  }
}
