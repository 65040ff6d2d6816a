package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.CORPUS;
import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.assertSame;

import io.specwatch.ingest.parse.ParseResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The fast path of {@link TrtllmIterationStatsParser} ({@link IterationStatsScan}) gives the same
 * {@link ParseResult} as the Jackson tree ({@link TrtllmIterationStatsParser#parseWithTree}) on
 * broken lines: every cut of some corpus lines, random stats lines and corpus lines mangled (cut,
 * garbage inserted, a key doubled, a character replaced), and arbitrary strings around the marker.
 * A coverage check makes sure a share of the mangled lines still took the fast path.
 */
class TrtllmFastPathMangledProperties {

  @Example
  void everyCutOfCorpusLinesParsesAsBefore() {
    Random random = new Random(11);
    List<String> lines = new ArrayList<>(CORPUS);
    Collections.shuffle(lines, random);
    for (String line : lines.subList(0, Math.min(12, lines.size()))) {
      for (int i = 0; i <= line.length(); i++) {
        assertSame(line.substring(0, i));
        assertSame(line.substring(i));
      }
    }
  }

  @Property(tries = 4000)
  void mangledLinesParseAsBefore(@ForAll("mangledLines") String line) {
    boolean fast = assertSame(line);
    Statistics.label("fast path").collect(fast);
    Statistics.label("fast path").coverage(c -> c.check(true).percentage(p -> p > 10));
  }

  @Property(tries = 1000)
  void arbitraryStringsAfterAMarkerParseAsBefore(@ForAll String text, @ForAll String other) {
    assertSame("{\"iterLatencyMS\": 1, " + text + other);
    assertSame(text + "{\"iterLatencyMS\":" + other + "}");
  }

  @Provide
  Arbitrary<String> mangledLines() {
    return TrtllmLineArbitraries.mangledLines();
  }
}
