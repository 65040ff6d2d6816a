package io.specwatch.ingest.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.generate.GeneratedFormatsProperties;
import io.specwatch.ingest.generate.LogFormat;
import io.specwatch.ingest.generate.SpecMethod;
import io.specwatch.ingest.parse.LinePrefix;
import io.specwatch.ingest.parse.ParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the TensorRT-LLM fast-path properties share: the comparison of the fast path of {@link
 * TrtllmIterationStatsParser} ({@link IterationStatsScan}) with the Jackson tree ({@link
 * TrtllmIterationStatsParser#parseWithTree}, the former implementation, the oracle), and the corpus
 * of committed and generated TensorRT-LLM lines.
 */
final class TrtllmFastPathCheck {

  static final TrtllmIterationStatsParser PARSER = new TrtllmIterationStatsParser();
  static final List<String> CORPUS = corpus();

  private TrtllmFastPathCheck() {}

  /** Whether the parser answers line from the fast path (the same gate as parse). */
  static boolean tookFastPath(String line) {
    if (!(line.contains("\"iterLatencyMS\"") || line.contains("\"specDecodingStats\""))
        || line.length() > 64 * 1024) {
      return false;
    }
    int brace = line.indexOf('{');
    return brace >= 0 && IterationStatsScan.parse(line, brace, LinePrefix.NONE) != null;
  }

  /** Asserts the same result both ways; returns whether the fast path answered. */
  static boolean assertSame(String line) {
    ParseResult fast = PARSER.parse(line);
    ParseResult tree = PARSER.parseWithTree(line);
    assertThat(fast).as("line: %s", line).isEqualTo(tree);
    if (fast instanceof ParseResult.Parsed p) {
      TrtllmIterationStats f = (TrtllmIterationStats) p.line();
      TrtllmIterationStats t = (TrtllmIterationStats) ((ParseResult.Parsed) tree).line();
      assertThat(f.rawFields()).as("line: %s", line).containsExactlyEntriesOf(t.rawFields());
      assertThat(List.copyOf(f.rawFields().keySet()))
          .as("order, line: %s", line)
          .isEqualTo(List.copyOf(t.rawFields().keySet()));
    }
    return tookFastPath(line);
  }

  private static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    Path mixed = Path.of("src", "test", "resources", "mixed", "mixed-engines.log");
    try {
      for (String line : Files.readAllLines(mixed, StandardCharsets.UTF_8)) {
        if (line.contains("\"iterLatencyMS\"") || line.contains("\"specDecodingStats\"")) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lines.add(TrtllmIterationStatsParserTest.SPEC);
    long seed = 21;
    for (SpecMethod m :
        List.of(SpecMethod.EAGLE3, SpecMethod.MTP, SpecMethod.NGRAM, SpecMethod.NONE)) {
      for (String line :
          GeneratedFormatsProperties.lines(LogFormat.TRTLLM_ITERATION_STATS, m, seed++)) {
        if (line.contains("\"iterLatencyMS\"")) {
          lines.add(line);
        }
      }
    }
    return List.copyOf(lines);
  }
}
