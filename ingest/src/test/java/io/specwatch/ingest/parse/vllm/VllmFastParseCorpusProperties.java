package io.specwatch.ingest.parse.vllm;

import static io.specwatch.ingest.parse.vllm.VllmReferenceCheck.CORPUS;
import static io.specwatch.ingest.parse.vllm.VllmReferenceCheck.V0;
import static io.specwatch.ingest.parse.vllm.VllmReferenceCheck.V1;
import static io.specwatch.ingest.parse.vllm.VllmReferenceCheck.assertSameAsReference;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
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
 * generator's lines of every vLLM generation, the committed samples and random well-formed lines
 * with random numbers and optional fields. Mangled lines: {@link VllmFastParseMangledProperties};
 * the prefix and the engine tag: {@link VllmFastParsePrefixProperties}; fields and numbers: {@link
 * VllmFastParseNumberProperties}.
 */
class VllmFastParseCorpusProperties {

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
      if (VllmFieldScans.plainNumber(text, 0, VllmFieldScans.valueEnd(text)) < 0) {
        return false;
      }
    }
    return true;
  }

  @Provide
  Arbitrary<String> wellFormedLines() {
    return VllmLineArbitraries.wellFormedLines();
  }
}
