package io.specwatch.ingest.parse.vllm;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of the pieces of a vLLM line for the fast-parse properties: numbers as vLLM prints
 * them and odd texts, units after a number, log prefixes (well-formed and broken), cut positions
 * and texts around an {@code Engine NNN:} tag.
 */
final class VllmPieceArbitraries {

  private VllmPieceArbitraries() {}

  static Arbitrary<String> numbers() {
    return numbers(4, 3, 2);
  }

  /** Numbers as vLLM prints them, long decimals, and odd texts, in the given proportions. */
  static Arbitrary<String> numbers(int smallShare, int decimalShare, int oddShare) {
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

  static Arbitrary<String> units() {
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

  static Arbitrary<String> prefixes() {
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

  static Arbitrary<Integer> cut() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.just(Integer.MAX_VALUE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 120)));
  }

  static Arbitrary<String> engineTexts() {
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
}
