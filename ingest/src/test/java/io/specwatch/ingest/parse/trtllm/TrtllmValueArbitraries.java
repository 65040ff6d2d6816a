package io.specwatch.ingest.parse.trtllm;

import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of the values in a TensorRT-LLM iteration-stats line for the fast-path properties:
 * JSON numbers and strings (valid and broken), timestamps, counts, floats, any nested JSON value
 * and key tokens.
 */
final class TrtllmValueArbitraries {

  private TrtllmValueArbitraries() {}

  /** A JSON number as text: mostly valid, sometimes not (leading zeros, a bare point...). */
  static Arbitrary<String> numbers() {
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
  static Arbitrary<String> strings() {
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

  static Arbitrary<String> timestamps() {
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
  static Arbitrary<String> counts() {
    return Arbitraries.frequencyOf(
        Tuple.of(24, Arbitraries.integers().between(0, 64).map(String::valueOf)),
        Tuple.of(3, Arbitraries.longs().between(0, Long.MAX_VALUE).map(String::valueOf)),
        Tuple.of(2, Arbitraries.of("0.0", "3.0", "-0", "-0.0", "12.000", "1e2", "2E+1", "4.5")),
        Tuple.of(1, anything()));
  }

  /** A value for a number field the parser reads: mostly a valid number, sometimes anything. */
  static Arbitrary<String> floats() {
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
  private static Arbitrary<String> anything() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, numbers()),
        Tuple.of(1, Arbitraries.of("null", "true", "false", "[]", "{}", "[1, 2]", "{\"a\": 1}")),
        Tuple.of(1, strings()));
  }

  /** Any JSON value, nested objects and arrays up to a few levels (deeper than the fast path). */
  static Arbitrary<String> anyValues() {
    return anyValue(5);
  }

  private static Arbitrary<String> anyValue(int depth) {
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
  static Arbitrary<String> keys() {
    return Arbitraries.frequencyOf(Tuple.of(20, names()), Tuple.of(1, strings()));
  }

  private static Arbitrary<String> names() {
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
}
