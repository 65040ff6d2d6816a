package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.trtllm.TrtllmIterationStatsParser;
import io.specwatch.ingest.parse.trtllm.TrtllmIterationStatsParserTest;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** No input crashes the vLLM v0, vLLM V1 or TensorRT-LLM parser: arbitrary and mutated lines. */
class VllmParsersProperties {

  private static final List<String> REAL =
      Stream.concat(
              VllmParsersTest.SAMPLES.stream(), Stream.of(TrtllmIterationStatsParserTest.SPEC))
          .toList();

  private static final List<LineParser> PARSERS =
      List.of(new VllmV0Parser(), new VllmV1Parser(), new TrtllmIterationStatsParser());

  private final ParserRegistry registry = ParserRegistry.defaults();

  @Property(tries = 2000)
  void arbitraryStringsNeverThrow(@ForAll String line) {
    for (LineParser parser : PARSERS) {
      assertThat(parser.parse(line)).isNotNull();
    }
  }

  @Property(tries = 4000)
  void mutatedRealLinesNeverThrow(@ForAll("mutatedLines") String line) {
    for (LineParser parser : PARSERS) {
      ParseResult r = parser.parse(line);
      assertThat(r).isNotNull();
      if (r instanceof ParseResult.Failed f) {
        assertThat(f.reason()).isNotBlank();
      }
      if (r instanceof ParseResult.Parsed p && p.line() instanceof VllmSpecDecoding s) {
        assertThat(s.acceptedTokens()).isNotNegative();
        assertThat(s.perPositionAcceptance()).allSatisfy(v -> assertThat(v).isFinite());
      }
    }
    assertThat(registry.parse(line)).isNotNull();
  }

  @Provide
  Arbitrary<String> mutatedLines() {
    Arbitrary<String> base = Arbitraries.of(REAL);
    Arbitrary<Integer> position = Arbitraries.integers().between(0, 420);
    Arbitrary<String> insert =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(6),
            Arbitraries.of(
                "nan",
                "-1",
                "inf",
                ",",
                ":",
                "%",
                "{",
                "}",
                "\"",
                "[",
                "]",
                "=",
                "Engine 9:",
                "SpecDecoding metrics:",
                "Speculative metrics:",
                "99999999999999999999",
                "1e308",
                "\u0000",
                "\uD800",
                " tokens",
                "NaN%",
                "-nan"));
    Arbitrary<Integer> op = Arbitraries.integers().between(0, 3);
    return Combinators.combine(base, position, insert, op)
        .as(
            (line, pos, text, kind) -> {
              int at = Math.min(pos, line.length());
              return switch (kind) {
                case 0 -> line.substring(0, at) + text + line.substring(at);
                case 1 -> line.substring(0, at);
                case 2 -> line.substring(at);
                default ->
                    line.substring(0, at) + text + line.substring(Math.min(line.length(), at + 3));
              };
            });
  }
}
