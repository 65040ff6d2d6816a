package io.specwatch.ingest.parse.vllm;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of whole vLLM lines for the fast-parse properties: random well-formed lines of every
 * kind (engine, v0 throughput, speculative and SpecDecoding metrics) with random numbers and
 * optional fields, and those or corpus lines mangled.
 */
final class VllmLineArbitraries {

  private VllmLineArbitraries() {}

  static Arbitrary<String> wellFormedLines() {
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
    Arbitrary<String> n = VllmPieceArbitraries.numbers(60, 3, 2);
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

  static Arbitrary<String> mangledLines() {
    Arbitrary<String> base =
        Arbitraries.oneOf(Arbitraries.of(VllmReferenceCheck.CORPUS), wellFormedLines());
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
