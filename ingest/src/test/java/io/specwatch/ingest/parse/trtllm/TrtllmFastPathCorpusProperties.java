package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.CORPUS;
import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.PARSER;
import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.assertSame;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The fast path of {@link TrtllmIterationStatsParser} ({@link IterationStatsScan}) gives the same
 * {@link ParseResult} as the Jackson tree ({@link TrtllmIterationStatsParser#parseWithTree}, the
 * former implementation) on well-formed lines: equal records, rawFields with the same entries in
 * the same order, the same failures. On every committed and generated TensorRT-LLM line (each
 * well-formed one takes the fast path) and on random iteration-stats objects (fields in any order,
 * missing, null, of the wrong type, negative, big, with trailing zeros and exponents, nested
 * objects and arrays, escapes, non-ASCII, prefixes before the brace, odd whitespace). A coverage
 * check makes sure a good share of the cases took the fast path, so that equality cannot come from
 * always falling back. Mangled lines: {@link TrtllmFastPathMangledProperties}; numbers: {@link
 * TrtllmFastPathNumberProperties}.
 */
class TrtllmFastPathCorpusProperties {

  @Example
  void committedAndGeneratedLinesParseAsBefore() {
    int parsed = 0;
    for (String line : CORPUS) {
      boolean fast = assertSame(line);
      if (PARSER.parseWithTree(line) instanceof ParseResult.Parsed) {
        parsed++;
        // every well-formed line the engine or the generator writes is read by the fast path
        assertThat(fast).as("fast path for %s", line).isTrue();
      }
    }
    assertThat(parsed).isGreaterThan(100);
  }

  @Property(tries = 4000)
  void randomIterationStatsParseAsBefore(@ForAll("statsLines") String line) {
    boolean fast = assertSame(line);
    Statistics.label("fast path").collect(fast);
    Statistics.label("fast path").coverage(c -> c.check(true).percentage(p -> p > 25));
  }

  @Provide
  Arbitrary<String> statsLines() {
    return TrtllmLineArbitraries.statsLines();
  }
}
