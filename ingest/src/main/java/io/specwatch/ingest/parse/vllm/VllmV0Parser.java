package io.specwatch.ingest.parse.vllm;

import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import java.util.List;

/**
 * vLLM v0 engine lines: {@code Speculative metrics: Draft acceptance rate: F, System efficiency: F,
 * Number of speculative tokens: N, Number of accepted tokens: N, Number of draft tokens: N, Number
 * of emitted tokens: N.} (counts are totals since engine start), {@code SpecDecodeWorker stage
 * times: ...} and {@code Avg prompt throughput: ..., Running: N reqs, Swapped: N reqs, Pending: N
 * reqs, ...}. Also claims throughput lines too short to tell v0 from V1. Never throws.
 */
public final class VllmV0Parser implements LineParser {

  /** Family id (used when a line cannot be attributed to one format). */
  public static final String FAMILY = "vllm.v0";

  public static final String SPEC_METRICS = "vllm.v0.spec_metrics";
  public static final String STAGE_TIMES = "vllm.v0.stage_times";
  public static final String THROUGHPUT = "vllm.v0.throughput";

  private static final String SPEC_MARKER = "Speculative metrics:";
  private static final String STAGE_MARKER = "SpecDecodeWorker stage times:";
  private static final String THROUGHPUT_MARKER = "Avg prompt throughput:";

  @Override
  public String format() {
    return FAMILY;
  }

  @Override
  public List<String> markers() {
    return List.of(STAGE_MARKER, SPEC_MARKER, THROUGHPUT_MARKER);
  }

  @Override
  public ParseResult parse(String line) {
    if (line == null) {
      return ParseResult.NOT_METRIC;
    }
    String format;
    if (line.contains(STAGE_MARKER)) {
      format = STAGE_TIMES;
    } else if (line.contains(SPEC_MARKER)) {
      format = SPEC_METRICS;
    } else if (line.contains(THROUGHPUT_MARKER)) {
      format = THROUGHPUT;
    } else {
      return ParseResult.NOT_METRIC;
    }
    if (line.length() > VllmReads.MAX_LINE) {
      return ParseResult.failed(format, "line longer than " + VllmReads.MAX_LINE + " characters");
    }
    VllmPrefix.Split split = VllmPrefix.split(line);
    if (split.error() != null) {
      return ParseResult.failed(format, split.error());
    }
    String body = split.body();
    return switch (format) {
      case STAGE_TIMES -> stageTimes(split, after(body, STAGE_MARKER));
      case SPEC_METRICS ->
          VllmReads.spec(
              SPEC_METRICS,
              split,
              VllmFields.colonList(body, body.indexOf(SPEC_MARKER) + SPEC_MARKER.length()),
              VllmReads.DRAFT_ACCEPTANCE_RATE,
              false,
              VllmReads.NUM_ACCEPTED,
              VllmReads.NUM_DRAFT,
              true);
      default ->
          VllmReads.throughput(
              THROUGHPUT,
              split,
              null,
              VllmFields.colonList(body, body.indexOf(THROUGHPUT_MARKER)),
              VllmReads.PENDING);
    };
  }

  private static String after(String body, String marker) {
    return body.substring(body.indexOf(marker) + marker.length());
  }

  private static ParseResult stageTimes(VllmPrefix.Split split, String list) {
    VllmFields f = VllmFields.equalsList(list);
    Double proposal = f.number(VllmStageTimes.PROPOSAL, true);
    Double scoring = f.number(VllmStageTimes.SCORING, true);
    Double verification = f.number(VllmStageTimes.VERIFICATION, true);
    if (f.error() != null) {
      return ParseResult.failed(STAGE_TIMES, f.error());
    }
    if (proposal == null || scoring == null || verification == null) {
      return ParseResult.failed(STAGE_TIMES, "stage time is nan");
    }
    return new ParseResult.Parsed(
        new VllmStageTimes(
            split.stamp(), split.processTag(), proposal, scoring, verification, f.raw()));
  }
}
