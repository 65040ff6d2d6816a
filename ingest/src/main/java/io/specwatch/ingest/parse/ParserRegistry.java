package io.specwatch.ingest.parse;

import io.specwatch.ingest.parse.context.RunContextJsonParser;
import io.specwatch.ingest.parse.context.SglangServerArgsParser;
import io.specwatch.ingest.parse.instrumented.CycleJsonParser;
import io.specwatch.ingest.parse.instrumented.PhaseProfileParser;
import io.specwatch.ingest.parse.request.RequestJsonParser;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatchParser;
import io.specwatch.ingest.parse.trtllm.TrtllmIterationStatsParser;
import io.specwatch.ingest.parse.vllm.VllmConfigParser;
import io.specwatch.ingest.parse.vllm.VllmV0Parser;
import io.specwatch.ingest.parse.vllm.VllmV1Parser;
import java.util.List;
import java.util.Objects;

/**
 * Tries each known parser in order; the first that does not answer {@link ParseResult.NotMetric}
 * wins. New format families are added here.
 */
public final class ParserRegistry {

  private final List<LineParser> parsers;

  public ParserRegistry(List<LineParser> parsers) {
    this.parsers = List.copyOf(Objects.requireNonNull(parsers, "parsers"));
  }

  /** The parsers of every supported format family. */
  public static ParserRegistry defaults() {
    return new ParserRegistry(
        List.of(
            new SglangDecodeBatchParser(),
            new VllmV1Parser(),
            new VllmV0Parser(),
            new TrtllmIterationStatsParser(),
            new CycleJsonParser(),
            new RunContextJsonParser(),
            new PhaseProfileParser(),
            new SglangServerArgsParser(),
            new VllmConfigParser(),
            new RequestJsonParser()));
  }

  /** Parses one line; never throws (a parser bug becomes a {@link ParseResult.Failed}). */
  public ParseResult parse(String line) {
    if (line == null || line.isBlank()) {
      return ParseResult.NOT_METRIC;
    }
    for (LineParser parser : parsers) {
      ParseResult result;
      try {
        result = parser.parse(line);
      } catch (RuntimeException e) {
        result = ParseResult.failed(parser.format(), "parser error: " + e);
      }
      if (!(result instanceof ParseResult.NotMetric)) {
        return result;
      }
    }
    return ParseResult.NOT_METRIC;
  }
}
