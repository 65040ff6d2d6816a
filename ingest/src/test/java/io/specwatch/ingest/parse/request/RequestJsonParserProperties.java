package io.specwatch.ingest.parse.request;

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
import net.jqwik.api.constraints.LongRange;

/** No input crashes the per-request parser; parsed records are consistent. */
class RequestJsonParserProperties {

  private static final List<String> REAL =
      List.of(
          "{\"ts\":\"2026-03-01T12:00:00Z\",\"request_id\":\"req-1\",\"prompt_tokens\":512,"
              + "\"output_tokens\":300,\"verify_cycles\":120,\"accepted_tokens\":180,"
              + "\"accept_histogram\":[20,40,40,20]}",
          "2026-03-01 12:00:01,500 INFO gateway: {\"finished_at\":1772366401500,"
              + "\"request_id\":\"req-2\",\"output_tokens\":7,\"verify_cycles\":4}",
          "{\"text\":\"x\",\"meta_info\":{\"id\":\"a1b2\",\"completion_tokens\":64,"
              + "\"spec_verify_ct\":20,\"spec_accept_rate\":0.55,"
              + "\"spec_accept_histogram\":[2,4,6,8]}}");

  private final RequestJsonParser parser = new RequestJsonParser();
  private final ParserRegistry registry = ParserRegistry.defaults();

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
      RequestLine q = (RequestLine) p.line();
      assertThat(q.verifyCycles()).isPositive();
      assertThat(q.outputTokens()).isNotNegative();
      assertThat(q.acceptLength()).isFinite().isNotNegative();
      assertThat(q.requestId()).isNotBlank();
      assertThat(q.acceptHistogram()).allMatch(c -> c >= 0);
    }
    if (r instanceof ParseResult.Failed f) {
      assertThat(f.reason()).isNotBlank();
    }
  }

  @Property(tries = 500)
  void acceptLengthIsOutputOverCycles(
      @ForAll @LongRange(min = 0, max = 1_000_000) long output,
      @ForAll @LongRange(min = 1, max = 1_000_000) long cycles) {
    ParseResult r =
        parser.parse(
            "{\"request_id\":\"r\",\"output_tokens\":"
                + output
                + ",\"verify_cycles\":"
                + cycles
                + "}");
    RequestLine q = (RequestLine) ((ParseResult.Parsed) r).line();
    assertThat(q.acceptLength()).isEqualTo((double) output / cycles);
  }

  @Provide
  Arbitrary<String> mutatedLines() {
    Arbitrary<String> base = Arbitraries.of(REAL);
    Arbitrary<Integer> position = Arbitraries.integers().between(0, 300);
    Arbitrary<String> insert =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(6),
            Arbitraries.of(
                "-",
                "0",
                "null",
                "\"",
                "{",
                "}",
                "[",
                "]",
                ",",
                ":",
                "1e400",
                "-5",
                "\"x\"",
                "99999999999999999999",
                "NaN",
                "true"));
    Arbitrary<Integer> cut = Arbitraries.integers().between(0, 8);
    return Combinators.combine(base, position, insert, cut)
        .as(
            (line, pos, ins, del) -> {
              int p = Math.min(pos, line.length());
              int end = Math.min(line.length(), p + del);
              return line.substring(0, p) + ins + line.substring(end);
            });
  }
}
