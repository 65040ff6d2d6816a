package io.specwatch.ingest.parse.trtllm;

import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.CORPUS;
import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.PARSER;
import static io.specwatch.ingest.parse.trtllm.TrtllmFastPathCheck.assertSame;
import static org.assertj.core.api.Assertions.assertThat;

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

  /**
   * Found by {@link #mangledLinesParseAsBefore} in CI on 2026-12-04 (seed 923505577186108478): an
   * escaped low surrogate without its high one in a key. Jackson rejects the line; the scanner had
   * decoded the escape and parsed it. Escaped surrogates in keys and values now go to Jackson.
   */
  @Example
  void escapedSurrogatesParseAsBefore() {
    String rest =
        "\": true, \"maxNumActiveRequests\": 0.0}, \"timestamp\": \"01-01-2025 00:00:00.000000\","
            + " \"iter\": 0}";
    for (String key :
        List.of("{ud83d\\ude00", "\\ude00", "\\ud83d", "\\ud83d\\ude00", "a\\ud83dx")) {
      String line = "{\"iterLatencyMS\": 0.0, \"numCompletedRequests\": {\"" + key + rest;
      assertSame(line);
      assertSame("{\"iterLatencyMS\": 0.0, \"note\": \"" + key + "\", \"iter\": 0}");
    }
    ParseResult lone =
        PARSER.parse("{\"iterLatencyMS\": 0.0, \"n\": {\"\\ude00\": true}, \"iter\": 0}");
    assertThat(lone).isInstanceOf(ParseResult.Failed.class);
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
