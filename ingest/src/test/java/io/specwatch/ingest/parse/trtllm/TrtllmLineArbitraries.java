package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.TrtllmValueArbitraries.anyValues;
import static io.specwatch.ingest.parse.trtllm.TrtllmValueArbitraries.counts;
import static io.specwatch.ingest.parse.trtllm.TrtllmValueArbitraries.floats;
import static io.specwatch.ingest.parse.trtllm.TrtllmValueArbitraries.keys;
import static io.specwatch.ingest.parse.trtllm.TrtllmValueArbitraries.timestamps;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators of whole TensorRT-LLM iteration-stats lines for the fast-path properties: random stats
 * objects (fields in any order, missing, null, of the wrong type, with a specDecodingStats object,
 * other keys and nested values, prefixes and trailers), and such lines or corpus lines mangled
 * (cut, garbage inserted, a key doubled, a character replaced).
 */
final class TrtllmLineArbitraries {

  private TrtllmLineArbitraries() {}

  /** One member of the stats object or of specDecodingStats: {@code "key": value}. */
  private static Arbitrary<String> member(String key, Arbitrary<String> value) {
    return value.map(v -> "\"" + key + "\": " + v);
  }

  static Arbitrary<String> specObjects() {
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
            .map(TrtllmLineArbitraries::acceptedAtMostDrafted);
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

  static Arbitrary<String> statsLines() {
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

  static Arbitrary<String> mangledLines() {
    Arbitrary<String> base =
        Arbitraries.frequencyOf(
            Tuple.of(3, statsLines()), Tuple.of(2, Arbitraries.of(TrtllmFastPathCheck.CORPUS)));
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
}
