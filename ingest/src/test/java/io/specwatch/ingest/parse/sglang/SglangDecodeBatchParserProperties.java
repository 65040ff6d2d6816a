package io.specwatch.ingest.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** No input crashes the parser: arbitrary strings and mutations of real lines. */
class SglangDecodeBatchParserProperties {

  private static final List<String> REAL =
      List.of(
          "[2025-03-14 02:16:14 TP0] Decode batch. #running-req: 3, #token: 4410, token usage:"
              + " 0.02, accept len: 2.51, gen throughput (token/s): 183.27, #queue-req: 1, ",
          "[2025-07-09 08:00:01 DP3 TP3] Decode batch. #running-req: 64, #token: 90112, token"
              + " usage: 0.45, pre-allocated usage: 0.12, #retracted-req: 2, cuda graph: False,"
              + " gen throughput (token/s): 2100.55, #queue-req: 5, ",
          "[2025-10-20 09:01:11 TP0 EP0] Decode batch. #running-req: 1, #token: 459, token usage:"
              + " 0.00, accept len: 1.89, accept rate: 0.44, cuda graph: False, gen throughput"
              + " (token/s): 59.71, #queue-req: 0, ",
          "[2026-04-05 20:02:51] Decode batch [18240], #running-req: 8, #token: 3900, token"
              + " usage: 0.05, accept len: 2.20, npu graph: True, gen throughput (token/s):"
              + " 512.00, #queue-req: 0, MFU 31.5%");

  private final ParserRegistry registry = ParserRegistry.defaults();
  private final SglangDecodeBatchParser parser = new SglangDecodeBatchParser();

  @Property(tries = 2000)
  void arbitraryStringsNeverThrow(@ForAll String line) {
    assertThat(parser.parse(line)).isNotNull();
    assertThat(registry.parse(line)).isNotNull();
  }

  @Property(tries = 3000)
  void mutatedRealLinesNeverThrowAndStayConsistent(@ForAll("mutatedLines") String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isNotNull();
    if (r instanceof ParseResult.Parsed p) {
      SglangDecodeBatch b = (SglangDecodeBatch) p.line();
      assertThat(b.runningRequests()).isNotNegative();
      assertThat(b.genThroughput()).isFinite().isNotNegative();
      assertThat(b.rawFields()).containsKey("#running-req");
    }
    if (r instanceof ParseResult.Failed f) {
      assertThat(f.reason()).isNotBlank();
    }
  }

  /**
   * A real line with a line terminator put anywhere (or in place of any part) is never an event: a
   * dead letter (or not a metric line when the marker itself was broken).
   */
  @Property(tries = 3000)
  void aLineTerminatorAnywhereIsNeverAnEvent(
      @ForAll("realLines") String line,
      @ForAll("terminators") String terminator,
      @ForAll("positions") int pos,
      @ForAll("lengths") int len) {
    String mutated = mutate(line, pos, terminator, len % 2 == 0 ? 0 : 3, len);
    assertThat(parser.parse(mutated)).isNotInstanceOf(ParseResult.Parsed.class);
    assertThat(registry.parse(mutated)).isNotInstanceOf(ParseResult.Parsed.class);
  }

  @Provide
  Arbitrary<String> realLines() {
    return Arbitraries.of(REAL);
  }

  @Provide
  Arbitrary<String> terminators() {
    return Arbitraries.of("\u0085", "\u2028", "\u2029", "\r", " \u0085 ", "\u2028\u0085");
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, 400);
  }

  @Provide
  Arbitrary<Integer> lengths() {
    return Arbitraries.integers().between(0, 30);
  }

  @Provide
  Arbitrary<String> mutatedLines() {
    Arbitrary<String> base = Arbitraries.of(REAL);
    Arbitrary<Integer> position = Arbitraries.integers().between(0, 400);
    Arbitrary<String> insert =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(6),
            Arbitraries.of(
                "nan",
                "-1",
                "inf",
                ",",
                ":",
                "[",
                "]",
                "Decode batch.",
                "99999999999999999999",
                "1e308",
                "\u0000",
                "\uD800",
                "True",
                "  ",
                "0x1p3",
                "1.5d"));
    Arbitrary<Integer> op = Arbitraries.integers().between(0, 3);
    return Combinators.combine(base, position, insert, op, Arbitraries.integers().between(0, 30))
        .as(SglangDecodeBatchParserProperties::mutate);
  }

  private static String mutate(String line, int pos, String insert, int op, int len) {
    int at = Math.min(pos, line.length());
    return switch (op) {
      case 0 -> line.substring(0, at) + insert + line.substring(at);
      case 1 -> line.substring(0, at) + line.substring(Math.min(line.length(), at + len));
      case 2 -> line.substring(0, at);
      default -> line.substring(0, at) + insert + line.substring(Math.min(line.length(), at + len));
    };
  }
}
